use tool_contract::Tool;

/// Which orders to list.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OrderFilter {
    /// Orders not delivered yet.
    Open,
    /// Every order.
    All,
}

/// List the orders of the signed-in customer, newest first, with their
/// status and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// Which orders to list; null or absent lists open orders.
    #[tool(default)]
    pub filter: OrderFilter,
}

fn main() {}
