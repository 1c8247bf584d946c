use tool_contract::ToolArgs;

/// A price range for a search.
#[derive(ToolArgs)]
pub struct PriceRange {
    pub max_price: tool_contract::Money,
}

fn main() {}
