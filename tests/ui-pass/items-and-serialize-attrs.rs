use tool_contract::{Money, Tool};

/// Send the order confirmation to the given addresses and refund a fee.
#[derive(Tool, tool_contract::serde::Serialize)]
#[serde(crate = "tool_contract::serde")]
#[tool(effect = "write", idempotent)]
pub struct SendOrderConfirmation {
    /// Where to send the confirmation, one e-mail address each.
    #[tool(max_items = 5, items(format = "email", max_length = 254))]
    pub recipients: Vec<String>,
    /// Reference of the order, as the app shows it.
    #[serde(rename = "order_ref", skip_serializing_if = "String::is_empty")]
    pub order_ref: String,
    /// A goodwill credit to add, at most 50.00.
    #[tool(maximum = 5000)]
    pub credit: Option<Money>,
    /// The fee in minor units.
    pub fee_minor: i64,
    /// The currency of the fee, e.g. "EUR".
    pub fee_currency: tool_contract::Currency,
}

fn main() {}
