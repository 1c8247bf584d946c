use tool_contract::Tool;

/// Search products by brand. Read-only.
#[derive(Tool, tool_contract::schemars::JsonSchema)]
#[schemars(crate = "tool_contract::schemars")]
pub struct SearchProducts {
    /// The brand to search, e.g. "Acme".
    #[schemars(length(max = 5))]
    pub brand: String,
}

fn main() {}
