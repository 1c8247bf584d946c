use tool_contract::Tool;

/// Add a note to one support ticket. The customer does not see notes.
#[derive(Tool)]
#[tool(effect = "write")]
pub struct AddTicketNote {
    /// Ticket number as shown in the help desk, e.g. "T-1042".
    #[tool(idempotency_key)]
    pub ticket: String,
    /// A key the model makes up once per note (e.g. a UUID) and repeats
    /// when it retries, so a retry does not add the note twice.
    #[tool(idempotency_key)]
    pub request_id: String,
    /// The note, in plain text.
    pub note: String,
}

fn main() {}
