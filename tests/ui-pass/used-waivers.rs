use tool_contract::Tool;

/// Run one saved SQL report of the analytics warehouse and return its rows
/// as CSV. Read-only; support agents use it for any customer of the shop.
#[derive(Tool)]
#[tool(
    name = "run",
    allow(vague_name = "the agent framework calls its single entry tool `run`"),
    allow(model_identity = "support agents report on any customer of the shop")
)]
pub struct RunReport {
    /// Report id as listed by `list_reports`, e.g. "rep_weekly_sales".
    pub report: String,
    /// The customer to report on, e.g. "cus_123".
    pub customer_id: String,
    /// Sales total to compare against, as the report's own number format.
    #[tool(allow(untyped_amount = "the report engine takes the figure as typed by the agent"))]
    pub total: String,
    /// How long the query may run before the warehouse cancels it.
    #[tool(allow(untyped_quantity = "the warehouse defines the unit per report"))]
    pub timeout: u32,
    /// Whether to force archived orders into the report.
    pub include_archived: bool,
    /// Whether to force archived orders out of the report; when both are
    /// false, the report's own setting applies.
    #[tool(allow(boolean_pair = "both false means the report's own setting, a third state"))]
    pub exclude_archived: bool,
}

fn main() {
    assert_eq!(RunReport::contract().name(), "run");
}
