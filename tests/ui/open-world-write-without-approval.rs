use tool_contract::Tool;

/// Send an email on behalf of the shop to any address.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false, open_world)]
pub struct SendEmail {
    /// Who receives the email, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub to: String,
    /// The email's text.
    pub body: String,
}

fn main() {}
