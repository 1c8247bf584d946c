use tool_contract::Tool;

/// Add a note to one support ticket. The customer does not see notes.
#[derive(Tool)]
#[tool(idempotent = false)]
pub struct AddTicketNote {
    /// Ticket number as shown in the help desk, e.g. "T-1042".
    pub ticket: String,
    /// The note, in plain text.
    #[tool(effect = "write")]
    pub note: String,
}

fn main() {}
