use tool_contract::Tool;

/// List the open support tickets of one customer, for a support agent.
#[derive(Tool)]
pub struct ListCustomerTickets {
    /// The customer's email address, e.g. "ana@example.com".
    #[tool(allow(model_identity = "support agents look up any customer"))]
    pub email: String,
}

fn main() {}
