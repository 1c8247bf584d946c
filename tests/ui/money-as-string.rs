use tool_contract::Tool;

/// Set the shelf price of one product in the catalog. The new price shows
/// in the shop within a minute.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetProductPrice {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
    /// The new price as shown to customers, e.g. "19.99".
    pub price: String,
}

fn main() {}
