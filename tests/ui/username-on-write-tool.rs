use tool_contract::Tool;

/// Follow a shop member's public feed for the signed-in customer.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct FollowMember {
    /// The member to follow, by public handle.
    pub username: String,
}

fn main() {}
