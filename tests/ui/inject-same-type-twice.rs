use tool_contract::Tool;

/// Who is signed in: a user of one tenant.
#[derive(Clone)]
pub struct Principal(pub String);

/// List the orders of the signed-in customer, newest first, with their
/// status and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// How many orders to return, at most 50.
    pub limit: u32,
    /// The tenant the user belongs to, from the session.
    #[tool(inject)]
    pub tenant: Principal,
    /// The signed-in user, from the session.
    #[tool(inject)]
    pub user: Option<Principal>,
}

fn main() {}
