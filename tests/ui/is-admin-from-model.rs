use tool_contract::Tool;

/// Close one support ticket with a note to the customer. Admins may close
/// tickets of any queue.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct CloseTicket {
    /// Ticket number as shown in the help desk, e.g. "T-1042".
    pub ticket: String,
    /// Whether the caller is an administrator.
    pub is_admin: bool,
}

fn main() {}
