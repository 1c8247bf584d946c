use tool_contract::Tool;

/// List the open support tickets of one customer, for a support agent.
#[derive(Tool)]
pub struct ListCustomerTickets {
    /// The customer whose tickets to list, e.g. "cus_123".
    #[tool(allow(identity = "support agents look up any customer by id"))]
    pub customer_id: String,
}

fn main() {}
