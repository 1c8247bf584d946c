use tool_contract::Tool;

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order: String,
    /// The order's reference in the old shop, e.g. "legacy-7781".
    #[tool(rename = "order")]
    pub legacy_ref: Option<String>,
}

fn main() {}
