use tool_contract::Tool;

/// Change the delivery note of one open order. Use it when the customer
/// asks to add, change or remove instructions for the courier.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct UpdateDeliveryNote {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
    /// The new note; absent keeps the note, null removes it.
    pub note: Option<Option<String>>,
}

fn main() {}
