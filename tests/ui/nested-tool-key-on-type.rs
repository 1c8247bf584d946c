use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
#[tool(effect = "read", allow(vague_nam = "x"))]
pub struct Shipping {
    /// The postcode, e.g. "10115".
    pub postcode: String,
}

fn main() {}
