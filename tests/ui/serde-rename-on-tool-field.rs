use tool_contract::Tool;

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool, tool_contract::serde::Serialize)]
#[serde(crate = "tool_contract::serde")]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    #[serde(rename = "orderRef")]
    pub order_ref: String,
}

fn main() {}
