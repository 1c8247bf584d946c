use tool_contract::{Money, Tool, ToolArgs};

/// A line of an order.
#[derive(ToolArgs)]
#[serde(rename_all = "camelCase")]
pub struct OrderLine {
    /// Stock keeping unit, e.g. "SKU-1".
    #[tool(min_length = 1, max_length = 64)]
    pub sku_code: String,
    /// How many units, 1 to 100.
    #[tool(minimum = 1, maximum = 100)]
    pub quantity: u32,
    /// What one unit costs, at least 0.01.
    #[tool(minimum = 1)]
    pub unit_price: Money,
    /// Tags, each a short word.
    #[tool(default, items(max_length = 16, pattern = "^[a-z]+$"))]
    pub tags: Vec<String>,
    /// The fee in cents.
    pub fee_minor: i64,
    /// The currency of the fee, e.g. "EUR".
    pub fee_currency: tool_contract::Currency,
    /// An agent's note.
    #[tool(allow(model_identity = "the role the customer plays in the story, not a permission"))]
    pub role: Option<String>,
}

/// Where to deliver.
#[derive(ToolArgs)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Delivery {
    /// Pick up in the shop.
    Pickup,
    /// To an address.
    Address {
        /// The street and number.
        street: String,
        /// The city.
        #[tool(rename = "town")]
        city: String,
    },
    /// Through a carrier with its own options.
    Carrier(CarrierOptions),
}

/// A carrier's options.
#[derive(ToolArgs)]
pub struct CarrierOptions {
    /// The carrier's code, e.g. "DHL".
    #[tool(pattern = "^[A-Z]{2,5}$")]
    pub carrier: String,
}

/// Draft an order from lines the user picked, for review before payment.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct DraftOrder {
    /// The lines, 1 to 20.
    #[tool(min_items = 1, max_items = 20)]
    pub lines: Vec<OrderLine>,
    /// Where to deliver.
    pub delivery: Delivery,
}

fn main() {
    let _ = DraftOrder::contract();
}
