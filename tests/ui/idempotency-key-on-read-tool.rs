use tool_contract::Tool;

/// Look up the status of a parcel by its tracking number.
#[derive(Tool)]
pub struct GetParcelStatus {
    /// Tracking number printed on the label, e.g. "1Z999AA10123456784".
    pub tracking_number: String,
    /// A key the model makes up once per lookup.
    #[tool(idempotency_key)]
    pub request_id: String,
}

fn main() {}
