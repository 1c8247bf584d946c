use tool_contract::Tool;

/// Look up how many units of an item are in stock. Read-only.
#[derive(Tool)]
pub struct GetInventory {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
    /// Whether a count up to a minute old is good enough.
    pub cache: bool,
    /// Whether to ask the warehouse for a fresh count.
    pub no_cache: bool,
}

fn main() {}
