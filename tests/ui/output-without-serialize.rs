use tool_contract::Tool;

/// Where an order is on its way.
#[derive(schemars::JsonSchema)]
pub struct OrderStatus {
    /// The carrier's name.
    pub carrier: String,
    /// The tracking number.
    pub tracking_number: String,
}

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
#[tool(output = OrderStatus)]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {}
