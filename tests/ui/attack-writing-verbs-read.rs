//! Common writing verbs: each tool is `read` by default and is refused.

use tool_contract::Tool;

/// Post a message in the team's chat channel.
#[derive(Tool)]
pub struct PostMessage {
    /// The channel, e.g. "C-9".
    #[tool(pattern = "^C-[0-9]+$")]
    pub channel_ref: String,
    /// The message text.
    #[tool(max_length = 500)]
    pub text: String,
}

/// Refund a paid order to the customer's card.
#[derive(Tool)]
pub struct RefundOrder {
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
}

/// Charge the customer's saved card for an open invoice.
#[derive(Tool)]
pub struct ChargeCard {
    /// The invoice, e.g. "INV-3".
    #[tool(pattern = "^INV-[0-9]+$")]
    pub invoice_ref: String,
}

/// Purchase a concert ticket with the customer's saved card.
#[derive(Tool)]
pub struct PurchaseTicket {
    /// The concert, e.g. "E-12".
    #[tool(pattern = "^E-[0-9]+$")]
    pub event_ref: String,
}

fn main() {}
