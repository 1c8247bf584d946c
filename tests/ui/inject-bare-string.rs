use tool_contract::Tool;

/// List the orders of the signed-in customer, newest first, with their
/// status and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// How many orders to return, at most 50.
    pub limit: u32,
    /// The signed-in customer, from the session.
    #[tool(inject)]
    pub customer: String,
}

fn main() {}
