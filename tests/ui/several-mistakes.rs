use tool_contract::Tool;

/// Adjusts a balance.
#[derive(Tool)]
#[tool(effect = "destructive", version = "2", retries = 3)]
pub struct Process {
    /// How much to move, e.g. 12.5.
    pub amount: f64,
    /// How long to wait first.
    pub delay: u64,
    /// Whose ledger to adjust.
    pub tenant_id: String,
    /// Whether to notify the owner.
    pub notify: bool,
    /// Whether to stay quiet.
    pub no_notify: bool,
    pub memo: Option<Option<String>>,
    /// Free-form extra data.
    #[tool(min_length = 5, max_length = 1, colour = "red")]
    pub reference: String,
}

fn main() {}
