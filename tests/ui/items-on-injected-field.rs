use tool_contract::Tool;

/// The signed-in customer's e-mail addresses.
#[derive(Clone)]
pub struct CustomerEmails(pub Vec<String>);

/// Send the order confirmation to the signed-in customer. It changes nothing
/// of the order; it only sends mail.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SendOrderConfirmation {
    /// Reference of the order, as the app shows it, e.g. "A-10293".
    pub order_ref: String,
    /// Where to send the confirmation, from the session.
    #[tool(inject, items(format = "email"))]
    pub recipients: CustomerEmails,
}

fn main() {}
