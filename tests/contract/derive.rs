//! Smaller derive features: tools without arguments, waivers, raw
//! identifiers, explicit descriptions.

use serde_json::json;
use tool_contract::{Session, Tool, contract::ContractRule};

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
    let [waiver] = contract.waivers() else {
        panic!("one waiver: {:?}", contract.waivers());
    };
    assert_eq!(waiver.rule(), ContractRule::ModelIdentity);
    assert_eq!(waiver.field(), Some("customer_id"));
    assert_eq!(waiver.reason(), "support agents look up any customer by id");
    let ty = contract.field("type").unwrap();
    assert_eq!(ty.rust_name(), "r#type");
    assert_eq!(
        ty.description(),
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

/// Record how to reach a contact, one field per supported string format.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct RecordContactDetails {
    /// When the contact was made, e.g. "2026-11-29T18:30:00Z".
    #[tool(format = "date-time")]
    pub at: String,
    /// The day of the next call, e.g. "2026-12-01".
    #[tool(format = "date")]
    pub day: String,
    /// The time of the next call, e.g. "09:30:00+01:00".
    #[tool(format = "time")]
    pub time: String,
    /// How long the call may take, e.g. "PT15M".
    #[tool(format = "duration")]
    pub length: String,
    /// Email address, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub email: String,
    /// Mail server host, e.g. "mx.example.com".
    #[tool(format = "hostname")]
    pub host: String,
    /// IPv4 address of the device, e.g. "192.0.2.1".
    #[tool(format = "ipv4")]
    pub v4: String,
    /// IPv6 address of the device, e.g. "2001:db8::1".
    #[tool(format = "ipv6")]
    pub v6: String,
    /// The contact's id in the CRM, a UUID.
    #[tool(format = "uuid")]
    pub crm_ref: String,
    /// The contact's web page, e.g. "https://example.com".
    #[tool(format = "uri")]
    pub homepage: String,
}

#[test]
fn every_runtime_format_is_accepted_by_the_derive() {
    let declared: Vec<&str> = RecordContactDetails::contract()
        .fields()
        .iter()
        .flat_map(|f| f.constraints().iter())
        .filter_map(|c| match c {
            tool_contract::contract::Constraint::Format(f) => Some(*f),
            _ => None,
        })
        .collect();
    assert_eq!(declared, tool_contract::contract::formats::SUPPORTED);
    let arguments = r#"{"at": "2026-11-29T18:30:00Z", "day": "2026-12-01", "time": "09:30:00+01:00",
        "length": "PT15M", "email": "ana@example.com", "host": "mx.example.com", "v4": "192.0.2.1",
        "v6": "2001:db8::1", "crm_ref": "123e4567-e89b-12d3-a456-426614174000", "homepage": "https://example.com"}"#;
    RecordContactDetails::from_arguments(arguments, &Session::new()).unwrap();
    let error = RecordContactDetails::from_arguments(
        &arguments.replace("PT15M", "15 minutes"),
        &Session::new(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "$.length: expected an ISO 8601 duration such as \"PT15M\", got \"15 minutes\""
    );
}

/// Tools declared through a `macro_rules!` macro: the field types carry the
/// macro's hygiene, which the generated code must not depend on.
macro_rules! declare_tool {
    ($(#[$meta:meta])* $name:ident { $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Tool)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty),*
        }
    };
}

declare_tool! {
    /// Look up the price list of one product for the current shop.
    GetPriceList {
        /// Stock keeping unit of the product, e.g. "SKU-1".
        #[tool(min_length = 1, pattern = "^SKU-[0-9]+$")]
        sku: String,
        /// Number of price tiers to return; null for all.
        #[tool(maximum = 10)]
        tiers: Option<u32>,
        /// Whether to include prices that start in the future.
        #[tool(default)]
        upcoming: bool,
        /// The signed-in agent.
        #[tool(inject)]
        agent: AgentId,
    }
}

#[test]
fn a_tool_declared_by_a_macro_rules_macro_derives_and_parses() {
    let session = Session::new().with(AgentId("agent_1".into()));
    let call = GetPriceList::from_arguments(r#"{"sku": "SKU-7", "tiers": 3}"#, &session).unwrap();
    assert_eq!(
        (call.sku.as_str(), call.tiers, call.upcoming),
        ("SKU-7", Some(3), false)
    );
    let error =
        GetPriceList::from_arguments(r#"{"sku": "SKU-7", "tiers": 11}"#, &session).unwrap_err();
    assert_eq!(
        error.to_string(),
        "$.tiers: expected a number of at most 10, got 11"
    );
}
