use tool_contract::Tool;

/// Look up how many units of an item are in stock. Read-only.
#[derive(Tool)]
pub struct Inventory {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
}

fn main() {}
