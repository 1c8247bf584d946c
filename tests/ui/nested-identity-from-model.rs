use tool_contract::ToolArgs;

/// Who a note is for.
#[derive(ToolArgs)]
pub struct Recipient {
    /// The account the note goes to.
    pub user_id: String,
    /// Whether the recipient may edit the order.
    pub is_admin: bool,
}

fn main() {}
