use tool_contract::Tool;

/// List the support tickets the caller may see, newest first. Agents see
/// every ticket of their queue; customers see their own.
#[derive(Tool)]
pub struct ListTickets {
    /// The queue to list, e.g. "billing".
    pub queue: String,
    /// Who is asking: "agent" or "customer".
    pub role: String,
}

fn main() {}
