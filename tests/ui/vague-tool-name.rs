use tool_contract::Tool;

/// Refund one order of the signed-in customer in full, back to the card it
/// was paid with.
#[derive(Tool)]
#[tool(name = "process", effect = "write", idempotent)]
pub struct RefundOrder {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {}
