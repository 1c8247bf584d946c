use tool_contract::Tool;

/// Send the order confirmation to one address. Read-only for the order; it
/// only sends mail.
#[derive(Tool)]
pub struct SendOrderConfirmation {
    /// Where to send the confirmation.
    #[tool(items(format = "email"))]
    pub recipient: String,
}

fn main() {}
