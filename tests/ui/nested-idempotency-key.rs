use tool_contract::ToolArgs;

/// Where to ship.
#[derive(ToolArgs)]
pub struct Shipping {
    /// A key the model makes up once per shipment.
    #[tool(idempotency_key)]
    pub request_id: String,
}

fn main() {}
