//! A writing or destroying verb after a reading one: the strongest effect is promised, and `read` is refused.

use tool_contract::Tool;

/// Find the customer with this email address, creating one if none exists.
#[derive(Tool)]
pub struct GetOrCreateCustomer {
    /// The customer's email address, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub email: String,
}

/// Take the next message off the support queue; it is removed from it.
#[derive(Tool)]
pub struct FetchAndDeleteMessage {
    /// The queue, e.g. "Q-1".
    #[tool(pattern = "^Q-[0-9]+$")]
    pub queue_ref: String,
}

fn main() {}
