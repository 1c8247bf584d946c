use tool_contract::Tool;

/// Filters for an order search.
#[derive(tool_contract::serde::Serialize, tool_contract::serde::Deserialize, tool_contract::schemars::JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct Filters {
    /// Only orders in this status.
    pub status: Option<String>,
}

/// Search the signed-in customer's orders. Read-only.
#[derive(Tool, tool_contract::serde::Serialize)]
#[serde(crate = "tool_contract::serde")]
pub struct SearchOrders {
    /// What to search for.
    #[serde(flatten, default)]
    pub filters: Filters,
}

fn main() {}
