use tool_contract::Tool;

/// Ask the warehouse system for a fresh stock count of one item and wait
/// for the answer. Returns the counted units.
#[derive(Tool)]
pub struct CountStock {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
    /// How long to wait for the warehouse to answer.
    pub timeout: u64,
}

fn main() {}
