use tool_contract::Tool;

/// Look up the stock of several items at once. Read-only.
#[derive(Tool)]
pub struct GetInventoryBatch {
    /// Stock keeping units as printed on the product pages, e.g. ["SKU-1042"].
    #[tool(min_items = 10, max_items = 1)]
    pub skus: Vec<String>,
}

fn main() {}
