use tool_contract::Tool;

/// Send the order confirmation to the given addresses. It changes nothing
/// of the order; it only sends mail.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SendOrderConfirmation {
    /// Where to send the confirmation, one e-mail address each.
    #[tool(items(fromat = "email", max_items = 5))]
    pub recipients: Vec<String>,
}

fn main() {}
