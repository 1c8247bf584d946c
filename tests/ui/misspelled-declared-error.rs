use tool_contract::{Tool, ToolError};

/// Look up an order of the signed-in customer.
///
/// Use it when the customer asks about an order. Read-only.
#[derive(Tool)]
#[tool(errors(ORDER_NOT_FOUND = "No order has this reference; ask the customer to check it."))]
pub struct GetOrder {
    /// Order reference as the app shows it, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {
    let _ = ToolError::declared(GetOrder::ORDER_NOT_FUND, "No order A-1.");
}
