use tool_contract::Tool;

/// Get order status.
#[derive(Tool)]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {}
