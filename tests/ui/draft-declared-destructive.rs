use tool_contract::Tool;

/// Prepare a refund for one order as a draft that a person reviews.
#[derive(Tool)]
#[tool(effect = "destructive", approval = "required", idempotent)]
pub struct CreateRefundDraft {
    /// Order reference as printed on the receipt, e.g. "ORD-1042".
    pub order_ref: String,
}

/// Show what the next invoice of a subscription will contain.
#[derive(Tool)]
#[tool(effect = "destructive", approval = "required", idempotent)]
pub struct PreviewInvoice {
    /// Subscription reference, e.g. "sub_7".
    pub subscription_ref: String,
}

fn main() {}
