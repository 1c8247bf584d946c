use tool_contract::Tool;

/// Quote the fee for a bank transfer of the signed-in customer. Read-only.
#[derive(Tool)]
pub struct QuoteTransferFee {
    /// The fee the customer expects, in minor units.
    pub fee_minor: i64,
    /// Whether to show the currency symbol in the answer.
    pub show_currency: bool,
}

fn main() {}
