use tool_contract::Tool;

/// Renew the lease of one rented device for another month.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct RenewDeviceLease {
    /// Lease number from the rental contract, e.g. 12345.
    pub lease_id: u64,
    /// How many timeouts the device reported since the last renewal.
    pub timeout_count: u32,
}

fn main() {}
