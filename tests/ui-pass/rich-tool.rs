use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_contract::{Money, Session, Tool};

/// The support agent at the keyboard, put into the session by the application.
#[derive(Clone)]
pub struct AgentId(pub String);

/// The tenant (shop) the conversation belongs to.
#[derive(Clone)]
pub struct TenantId(pub String);

/// Why the customer ends the subscription.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CancelReason {
    /// The plan costs more than it is worth to the customer.
    TooExpensive,
    /// The customer does not use the service.
    NotUsed,
    /// Any other reason.
    Other,
}

/// What happened to the subscription.
#[derive(Serialize, JsonSchema)]
pub struct Cancellation {
    /// The cancellation's id, e.g. "can_81".
    pub cancellation_id: String,
    /// What the customer gets back, if anything.
    pub refund: Option<Money>,
}

fn default_grace_days() -> u32 {
    30
}

/// Cancel one customer's subscription at the end of a grace period, and
/// refund the unused part if the customer asks for it.
///
/// Support agents use it when a customer asks to cancel. Every call needs
/// an approval first. Returns the cancellation id and the refund.
#[derive(Tool)]
#[tool(
    name = "cancel_subscription",
    version = "3.1.4",
    effect = "destructive",
    approval = "required",
    timeout_ms = 15_000,
    open_world,
    data = "confidential",
    output = Cancellation,
    errors(
        SUBSCRIPTION_NOT_FOUND = "No subscription has this id; ask the agent to check it.",
        ALREADY_CANCELLED(
            meaning = "The subscription is already cancelled; tell the agent when it ends.",
            category = "conflict",
            recovery = "none",
        ),
    ),
    allow(model_identity = "support agents cancel for any customer of their shop"),
    crate = "::tool_contract",
)]
pub struct CancelCustomerSubscription {
    /// The customer whose subscription to cancel, e.g. "cus_123".
    pub customer_id: String,
    /// Subscription id as shown in the billing console, e.g. "sub_9f2".
    #[tool(
        rename = "subscription",
        min_length = 5,
        max_length = 40,
        pattern = "^sub_[a-z0-9]+$"
    )]
    pub subscription_id: String,
    /// Why the customer ends the subscription.
    pub reason: CancelReason,
    #[tool(
        description = "Addresses that get the confirmation, e.g. [\"ana@example.com\"].",
        min_items = 1,
        max_items = 5
    )]
    pub notify: Vec<String>,
    /// The last day of service as an ISO 8601 date, e.g. "2026-09-30";
    /// null ends it at the end of the billing period.
    #[tool(format = "date")]
    pub ends_on: Option<String>,
    /// Days the customer keeps access after the last day; 30 if absent.
    #[tool(unit = "days", default = default_grace_days, minimum = 0, maximum = 90)]
    pub grace: u32,
    /// What to refund; null refunds nothing.
    pub refund: Option<Money>,
    /// Discount on the last invoice in percent, from 0 to 100.
    #[tool(
        minimum = 0,
        maximum = 100,
        allow(untyped_amount = "a percentage of the invoice, not an amount of money")
    )]
    pub discount: u8,
    /// Whether to keep the customer's data for a later comeback.
    #[tool(default)]
    pub keep_data: bool,
    /// A key the model makes up once per cancellation (e.g. a UUID) and
    /// repeats when it retries, so a retry does not cancel twice.
    #[tool(idempotency_key, format = "uuid")]
    pub request_id: String,
    /// The support agent at the keyboard.
    #[tool(inject)]
    pub agent: AgentId,
    /// The shop the conversation belongs to, when the session knows it.
    #[tool(inject)]
    pub tenant: Option<TenantId>,
}

fn main() {
    let contract = CancelCustomerSubscription::contract();
    assert_eq!(contract.name(), "cancel_subscription");
    assert_eq!(contract.version().to_string(), "3.1.4");
    let session = Session::new().with(AgentId("agent-7".into()));
    let call = CancelCustomerSubscription::from_arguments(
        r#"{
            "customer_id": "cus_123",
            "subscription": "sub_9f2",
            "reason": "not_used",
            "notify": ["ana@example.com"],
            "ends_on": null,
            "refund": null,
            "discount": 10,
            "request_id": "0b6f7a9e-3c1d-4f5e-8a2b-9c0d1e2f3a4b"
        }"#,
        &session,
    )
    .unwrap();
    assert_eq!(call.grace, 30);
    assert!(!call.keep_data);
    assert!(call.tenant.is_none());
    assert_eq!(call.agent.0, "agent-7");
    assert_eq!(
        call.idempotency_key().as_deref(),
        Some("0b6f7a9e-3c1d-4f5e-8a2b-9c0d1e2f3a4b")
    );
}
