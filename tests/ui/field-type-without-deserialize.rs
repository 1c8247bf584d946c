use tool_contract::Tool;

/// Where to ship an order.
#[derive(schemars::JsonSchema)]
pub struct Address {
    /// Street and house number.
    pub street: String,
    /// City name.
    pub city: String,
}

/// Change the delivery address of one open order before it ships.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct ChangeDeliveryAddress {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
    /// The new address, as the customer gave it.
    pub address: Address,
}

fn main() {}
