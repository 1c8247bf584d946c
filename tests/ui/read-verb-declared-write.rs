use tool_contract::Tool;

/// Look up one order of the signed-in customer and mark it as seen.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct GetOrder {
    /// Order reference as printed on the receipt, e.g. "ORD-1042".
    pub order_ref: String,
}

/// Count the open tickets of the signed-in customer.
#[derive(Tool)]
#[tool(name = "count_open_tickets", effect = "destructive", approval = "required", idempotent)]
pub struct CountTickets {
    /// Only tickets opened on or after this date, e.g. "2025-01-31".
    #[tool(format = "date")]
    pub since: String,
}

fn main() {}
