use tool_contract::Tool;

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
#[tool(errors(CARRIER_DOWN(
    meaning = "The carrier does not answer; try again in a minute.",
    severity = "high",
)))]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {}
