use tool_contract::Tool;

/// Look up the shipping status of one order: carrier, tracking number and
/// the expected delivery date. Read-only.
#[derive(Tool)]
#[tool(
    version = "1.4.0",
    deprecated(sunset = "2028-02-29", note = "Use version 2, which names the warehouse.")
)]
pub struct GetOrderStatus {
    /// Order reference exactly as the app shows it to the user, e.g. "A-10293".
    pub order_ref: String,
}

fn main() {
    let contract = GetOrderStatus::contract();
    let deprecation = contract.deprecation().unwrap();
    assert_eq!(deprecation.sunset().to_string(), "2028-02-29");
    assert_eq!(deprecation.note(), "Use version 2, which names the warehouse.");
    assert!(contract.description().ends_with(
        "\n\nDeprecated: this version of the tool stops working on 2028-02-29. Use version 2, which names the warehouse."
    ));
}
