use tool_contract::Tool;

/// Delete one saved delivery address of the signed-in customer. Orders
/// already shipped to it are not affected.
#[derive(Tool)]
#[tool(effect = "delete", approval = "required", idempotent)]
pub struct DeleteAddress {
    /// Address id as listed by `list_addresses`, e.g. "addr_12".
    pub address_id: String,
}

fn main() {}
