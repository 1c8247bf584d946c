use tool_contract::Tool;

/// List the subscriptions of the signed-in customer. Read-only.
#[derive(Tool)]
pub struct ListSubscriptions {
    /// Only subscriptions that are running.
    pub is_active: bool,
    /// Only subscriptions that were cancelled.
    pub is_cancelled: bool,
}

fn main() {}
