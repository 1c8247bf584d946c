use tool_contract::Tool;

/// Delete one saved delivery address of the signed-in customer.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct DeleteAddress {
    /// Address reference as listed by `list_addresses`, e.g. "addr_12".
    pub address_ref: String,
}

/// Close the signed-in customer's account and end every subscription.
#[derive(Tool)]
pub struct CloseAccount {
    /// Why the customer leaves, in their words.
    pub reason: String,
}

/// Revoke one API token of the signed-in customer.
#[derive(Tool)]
#[tool(effect = "write", idempotent, approval = "required")]
pub struct RevokeApiToken {
    /// Token reference as listed by `list_api_tokens`, e.g. "tok_9".
    pub token_ref: String,
}

fn main() {}
