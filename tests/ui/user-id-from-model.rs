use tool_contract::Tool;

/// List the orders of the signed-in user, newest first, with their status
/// and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// The user whose orders to list, e.g. "u-42".
    pub user_id: String,
    /// How many orders to return, at most 50.
    pub limit: u32,
}

fn main() {}
