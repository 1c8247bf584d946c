use tool_contract::Tool;

/// Reset the password of an account and mail a reset link to its owner.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct ResetPassword {
    /// The account to reset, e.g. "jdoe".
    pub login: String,
    /// Whether to act with administrator rights.
    pub sudo: bool,
}

fn main() {}
