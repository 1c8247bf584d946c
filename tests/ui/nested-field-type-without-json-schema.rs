use tool_contract::ToolArgs;

/// Not an argument type.
#[derive(tool_contract::serde::Deserialize)]
#[serde(crate = "tool_contract::serde")]
pub struct Opaque;

/// Where to ship.
#[derive(ToolArgs)]
pub struct Shipping {
    /// Something opaque.
    pub opaque: Opaque,
}

fn main() {}
