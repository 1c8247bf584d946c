use tool_contract::Tool;

/// Mail the invoice of one order to the customer's billing address.
#[derive(Tool)]
pub struct SendInvoice {
    /// Order reference as printed on the receipt, e.g. "ORD-1042".
    pub order_ref: String,
}

/// Book a table for the signed-in customer.
#[derive(Tool)]
#[tool(effect = "read")]
pub struct BookTable {
    /// Restaurant reference as listed by `search_restaurants`.
    pub restaurant_ref: String,
}

fn main() {}
