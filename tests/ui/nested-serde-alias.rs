use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
pub struct Shipping {
    /// The postcode, e.g. "10115".
    #[serde(alias = "zip")]
    pub postcode: String,
}

fn main() {}
