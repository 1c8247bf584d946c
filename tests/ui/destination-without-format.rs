use tool_contract::Tool;

/// Send an email on behalf of the shop to any address.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false, open_world, approval = "required")]
pub struct SendEmail {
    /// Who receives the email, e.g. "ana@example.com".
    pub to: String,
    /// Who else receives a copy.
    #[tool(items(max_length = 254))]
    pub cc: Vec<String>,
    /// Where to report delivery, e.g. "https://hooks.example.com/mail".
    pub callback_url: Option<String>,
    /// The email's text.
    pub body: String,
}

fn main() {}
