use tool_contract::Tool;

/// Look up an order by its number.
#[derive(Tool)]
pub union GetOrder {
    /// The order number, e.g. 10293.
    pub order_number: u64,
}

fn main() {}
