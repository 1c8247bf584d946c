use tool_contract::Tool;

/// Send the order confirmation to one address. It changes nothing of the
/// order; it only sends mail.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SendOrderConfirmation {
    /// Where to send the confirmation.
    #[tool(items(format = "email"))]
    pub recipient: String,
}

fn main() {}
