use tool_contract::Tool;

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
pub struct GetOrderStatus(pub String);

fn main() {}
