use tool_contract::Tool;

#[derive(Clone, serde::Deserialize, schemars::JsonSchema)]
pub struct CustomerId(pub String);

/// List the orders of the signed-in customer, newest first, with their
/// status and total. Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// The customer whose orders to list.
    pub customer: CustomerId,
    /// How many orders to return, at most 50.
    pub limit: u32,
}

fn main() {}
