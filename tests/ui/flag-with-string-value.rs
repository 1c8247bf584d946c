use tool_contract::Tool;

/// Add a note to one support ticket. The customer does not see notes.
#[derive(Tool)]
#[tool(effect = "write", idempotent = "yes")]
pub struct AddTicketNote {
    /// Ticket number as shown in the help desk, e.g. "T-1042".
    pub ticket: String,
    /// The note, in plain text.
    pub note: String,
}

fn main() {}
