use tool_contract::Tool;

/// Send the order confirmation to the given addresses. Read-only for the
/// order; it only sends mail.
#[derive(Tool)]
pub struct SendOrderConfirmation {
    /// Where to send the confirmation, one e-mail address each.
    #[tool(items(minimum = 1))]
    pub recipients: Vec<String>,
}

fn main() {}
