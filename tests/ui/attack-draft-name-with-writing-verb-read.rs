//! A draft noun at the end does not hide the writing verb before it: each is `read` by default and is refused.

use tool_contract::Tool;

/// Send the saved reply draft of a support ticket to the customer.
#[derive(Tool)]
pub struct SendDraft {
    /// The ticket whose draft goes out, e.g. "T-1042".
    #[tool(pattern = "^T-[0-9]+$")]
    pub ticket_ref: String,
}

/// Publish the blog post draft on the public website.
#[derive(Tool)]
pub struct PublishPostDraft {
    /// The post, e.g. "P-77".
    #[tool(pattern = "^P-[0-9]+$")]
    pub post_ref: String,
}

fn main() {}
