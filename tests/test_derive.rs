//! Smaller derive features: tools without arguments, waivers, raw
//! identifiers, explicit descriptions.

use serde_json::json;
use tool_contract::{Rule, Session, Tool, Waiver};

/// List the warehouses the shop ships from, with their codes and cities.
#[derive(Debug, Tool)]
#[tool(open_world, data = "public")]
pub struct ListWarehouses {}

#[test]
fn a_tool_without_arguments_takes_empty_or_empty_object_arguments() {
    let session = Session::new();
    for arguments in ["", "  ", "{}", " { } "] {
        ListWarehouses::from_arguments(arguments, &session).unwrap();
    }
    let error = ListWarehouses::from_arguments(r#"{"city": "Berlin"}"#, &session).unwrap_err();
    assert_eq!(
        error.to_string(),
        "$.city: unknown field \"city\"; this object takes no fields"
    );
    assert_eq!(
        ListWarehouses::input_schema(),
        &json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
    assert!(ListWarehouses::contract().open_world());
}

#[derive(Clone, Debug)]
pub struct AgentId(pub String);

/// Look up any customer's open support tickets, for a support agent.
#[derive(Debug, Tool)]
#[tool(description = "List the open support tickets of one customer.")]
pub struct ListCustomerTickets {
    /// The customer whose tickets to list, e.g. "cus_123".
    #[tool(allow(model_identity = "support agents look up any customer by id"))]
    pub customer_id: String,
    #[tool(description = "Ticket type to filter by, such as \"billing\"; null for all.")]
    pub r#type: Option<String>,
    /// The signed-in support agent.
    #[tool(inject)]
    pub agent: AgentId,
}

#[test]
fn waivers_and_explicit_descriptions_land_in_the_contract() {
    let contract = ListCustomerTickets::contract();
    assert_eq!(
        contract.description(),
        "List the open support tickets of one customer."
    );
    assert_eq!(
        contract.waivers(),
        [Waiver {
            rule: Rule::ModelIdentity,
            field: Some("customer_id"),
            reason: "support agents look up any customer by id"
        }]
    );
    let ty = contract.field("type").unwrap();
    assert_eq!(ty.rust_name, "r#type");
    assert_eq!(
        ty.description,
        "Ticket type to filter by, such as \"billing\"; null for all."
    );
    let session = Session::new().with(AgentId("agent_7".into()));
    let call = ListCustomerTickets::from_arguments(
        r#"{"customer_id": "cus_1", "type": "billing"}"#,
        &session,
    )
    .unwrap();
    assert_eq!(call.r#type.as_deref(), Some("billing"));
    assert_eq!(call.agent.0, "agent_7");
}
