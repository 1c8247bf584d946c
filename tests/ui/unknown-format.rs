use tool_contract::Tool;

/// Send the signed-in customer's latest invoice to an email address.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SendInvoice {
    /// Where to send the invoice, e.g. "ana@example.com".
    #[tool(format = "e-mail")]
    pub recipient: String,
}

fn main() {}
