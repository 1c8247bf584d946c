use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
pub struct Shipping {
    /// The postcode, e.g. "10115".
    #[tool(patern = "^[0-9]{5}$")]
    pub postcode: String,
}

fn main() {}
