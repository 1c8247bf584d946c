//! Descriptions that say a string is a program in plain words
//! ("command", "expression", "regular expression", "program"
//! beside "execute"). Each is refused.

use tool_contract::Tool;

/// Start one step of the nightly build on the build server.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartBuildStep {
    /// The command to run on the build server, e.g. "make deploy".
    pub action: String,
}

/// List the shop's orders that match a filter.
#[derive(Tool)]
pub struct ListOrders {
    /// An OData filter expression evaluated against the orders table, e.g.
    /// "total gt 100 and status eq 'paid'".
    pub filter: String,
}

/// Search the private notes kept on customers.
#[derive(Tool)]
pub struct SearchCustomerNotes {
    /// A regular expression matched against every customer's notes.
    pub matching: String,
}

/// Evaluate a sandboxed job for the analytics team.
#[derive(Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SubmitAnalyticsJob {
    /// The program to execute in the sandbox, as source text.
    pub body: String,
}

fn main() {}
