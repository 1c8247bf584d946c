use tool_contract::ToolArgs;

/// The tenant of the signed-in user.
#[derive(Clone, tool_contract::serde::Deserialize, tool_contract::schemars::JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct TenantId(pub String);

/// Where to ship.
#[derive(ToolArgs)]
pub struct Shipping {
    /// The tenant, from the session.
    #[tool(inject)]
    pub tenant: TenantId,
}

fn main() {}
