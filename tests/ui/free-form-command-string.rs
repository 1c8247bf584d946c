use tool_contract::Tool;

/// Answer a question about the shop's sales from the analytics warehouse.
#[derive(Tool)]
pub struct QueryDatabase {
    /// The statement to run against the warehouse.
    pub sql: String,
}

/// Compute a value for a spreadsheet cell.
#[derive(Tool)]
pub struct EvaluateCell {
    /// What to compute, e.g. "A1 * 2".
    pub expression: String,
    /// The commands to run first, one per item.
    #[tool(items(max_length = 200))]
    pub setup_commands: Vec<String>,
    /// A Python snippet that post-processes the result.
    pub transform: Option<String>,
}

fn main() {}
