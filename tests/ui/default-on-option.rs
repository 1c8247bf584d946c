use tool_contract::Tool;

/// List the orders of the signed-in customer, newest first, with their
/// status and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// How many orders to return; null for 10.
    #[tool(default)]
    pub limit: Option<u32>,
}

fn main() {}
