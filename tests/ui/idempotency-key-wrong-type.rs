use tool_contract::Tool;

/// A key the model makes up once per call.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct RequestKey {
    /// The key's text, e.g. a UUID.
    pub value: String,
}

/// Add a note to one support ticket. The customer does not see notes.
#[derive(Tool)]
#[tool(effect = "write")]
pub struct AddTicketNote {
    /// Ticket number as shown in the help desk, e.g. "T-1042".
    pub ticket: String,
    /// Made up once per note and repeated on retries, so a retry does not
    /// add the note twice.
    #[tool(idempotency_key)]
    pub request: RequestKey,
}

fn main() {}
