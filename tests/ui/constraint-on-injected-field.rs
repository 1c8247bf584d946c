use tool_contract::Tool;

/// The signed-in customer.
#[derive(Clone)]
pub struct CustomerId(pub String);

/// List the orders of the signed-in customer, newest first, with their
/// status and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// How many orders to return, at most 50.
    pub limit: u32,
    /// The signed-in customer's id, from the session.
    #[tool(inject, min_length = 1)]
    pub customer_id: CustomerId,
}

fn main() {}
