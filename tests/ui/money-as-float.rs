use tool_contract::Tool;

/// Create a refund draft for one order of the signed-in customer. It does
/// not submit the refund; a person reviews drafts. Returns the draft id.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct CreateRefundDraft {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
    /// How much to pay back, e.g. 12.50.
    pub refund_amount: f64,
}

fn main() {}
