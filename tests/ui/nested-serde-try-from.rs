use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
#[serde(try_from = "String")]
pub struct Shipping {
    /// The postcode, e.g. "10115".
    pub postcode: String,
}

fn main() {}
