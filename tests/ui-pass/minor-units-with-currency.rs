use tool_contract::Tool;

/// Set the shelf price of one product in the catalog. The new price shows
/// in the shop within a minute.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetProductPrice {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// The new price of one unit in minor units, e.g. 1999 for 19.99.
    #[tool(minimum = 0)]
    pub price_minor: i64,
    /// ISO 4217 code of the price's currency, e.g. "EUR".
    #[tool(pattern = "^[A-Z]{3}$")]
    pub currency: String,
    /// How long the new price holds before the old one returns; null keeps it.
    pub hold_minutes: Option<u32>,
}

fn main() {}
