use tool_contract::ToolArgs;

/// A price range for a search.
#[derive(ToolArgs)]
pub struct PriceRange {
    /// Highest price, e.g. 12.5.
    pub max_price: f64,
}

fn main() {}
