use tool_contract::Tool;

/// List the orders of one customer, newest first, with their status and
/// total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// The customer whose orders to list, e.g. "cus_123".
    #[tool(rename = "customer")]
    pub customer_id: String,
}

fn main() {}
