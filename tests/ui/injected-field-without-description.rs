use tool_contract::Tool;

#[derive(Clone)]
pub struct CustomerId(pub String);

/// Look up the shipping status of one of the signed-in customer's orders:
/// carrier, tracking number and the expected delivery date. Read-only.
#[derive(Tool)]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
    #[tool(inject)]
    pub customer: CustomerId,
}

fn main() {}
