use tool_contract::Tool;

/// List the orders of the signed-in customer up to a price, newest first.
/// Read-only.
#[derive(Tool)]
pub struct ListOrders {
    /// Highest order price to list, e.g. 12.5.
    #[tool(rename = "max_value")]
    pub max_price: f64,
}

fn main() {}
