use tool_contract::Tool;

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
#[tool(version = "1.4.0", deprecated(sunset = "2026-02-30", note = "Use version 2"))]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

/// Look up the shipping status of one order by its tracking number.
/// Read-only.
#[derive(Tool)]
#[tool(version = "1.4.0", deprecated(note = "Use version 2, which takes the order reference."))]
pub struct GetTrackingStatus {
    /// The carrier's tracking number, e.g. "1Z999AA10123456784".
    pub tracking_number: String,
}

fn main() {}
