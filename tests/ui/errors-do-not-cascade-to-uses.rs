use tool_contract::{Session, Tool};

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
#[tool(retries = 2)]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {
    let call = GetOrderStatus::from_arguments(r#"{"order_ref": "A-1"}"#, &Session::new());
    println!("{}", call.unwrap().order_ref);
    println!("{}", GetOrderStatus::input_schema());
}
