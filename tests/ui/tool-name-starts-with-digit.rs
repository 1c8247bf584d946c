use tool_contract::Tool;

/// Check a second-factor code the customer typed. Returns whether it matches.
#[derive(Tool)]
#[tool(name = "2fa_check_code")]
pub struct CheckSecondFactor {
    /// The six digits the customer typed, e.g. "042137".
    pub code: String,
}

fn main() {}
