//! Attacks on issue 16's compile-time rules. Every tool below COMPILES;
//! each test then asserts what the rule promised (an effect the name
//! demands, a refusal at `try_register`) and fails where the rule let the
//! declaration through.

use tool_contract::contract::Effect;
use tool_contract::schemars::JsonSchema;
use tool_contract::serde::Deserialize;
use tool_contract::{CallContext, Tool, ToolError, Toolbox};

/// Send the saved reply draft of a support ticket to the customer.
#[derive(Debug, Tool)]
pub struct SendDraft {
    /// The ticket whose draft goes out, e.g. "T-1042".
    #[tool(pattern = "^T-[0-9]+$")]
    pub ticket_ref: String,
}

/// Publish the blog post draft on the public website.
#[derive(Debug, Tool)]
pub struct PublishPostDraft {
    /// The post, e.g. "P-77".
    #[tool(pattern = "^P-[0-9]+$")]
    pub post_ref: String,
}

/// Post a message in the team's chat channel.
#[derive(Debug, Tool)]
pub struct PostMessage {
    /// The channel, e.g. "C-9".
    #[tool(pattern = "^C-[0-9]+$")]
    pub channel_ref: String,
    /// The message text.
    #[tool(max_length = 500)]
    pub text: String,
}

/// Refund a paid order to the customer's card.
#[derive(Debug, Tool)]
pub struct RefundOrder {
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
}

/// Charge the customer's saved card for an open invoice.
#[derive(Debug, Tool)]
pub struct ChargeCard {
    /// The invoice, e.g. "INV-3".
    #[tool(pattern = "^INV-[0-9]+$")]
    pub invoice_ref: String,
}

/// Purchase a concert ticket with the customer's saved card.
#[derive(Debug, Tool)]
pub struct PurchaseTicket {
    /// The concert, e.g. "E-12".
    #[tool(pattern = "^E-[0-9]+$")]
    pub event_ref: String,
}

/// Delete an order for good; nothing of it is kept.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct OrderDelete {
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
}

/// As an administrator, delete a user account and all of its data.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct AdminDeleteUser {
    /// The user, e.g. "U-5".
    #[tool(pattern = "^U-[0-9]+$")]
    pub user_ref: String,
}

/// Close a customer's bank account for good and pay out the balance.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct CloseBankAccount {
    /// The account, e.g. "ACC-5".
    #[tool(pattern = "^ACC-[0-9]+$")]
    pub account_ref: String,
}

/// Ban a customer from the shop for good.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct BanCustomer {
    /// The customer, e.g. "CU-5".
    #[tool(pattern = "^CU-[0-9]+$")]
    pub customer_ref: String,
}

/// Empty the customer's shopping cart, removing every item in it.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct ClearCart {
    /// The cart, e.g. "CART-5".
    #[tool(pattern = "^CART-[0-9]+$")]
    pub cart_ref: String,
}

/// Set up the steps the nightly job runs.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct ScheduleNightlyJob {
    /// Each step's name and its shell command, e.g.
    /// ["backup", "pg_dump shop > /tmp/shop.sql"].
    #[tool(max_items = 5)]
    pub commands: Vec<(String, String)>,
}

/// SQL text, as its own type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct SqlText(pub String);

/// Run a report against the warehouse database.
#[derive(Debug, Tool)]
pub struct GetWarehouseReport {
    /// The SQL to run, e.g. "SELECT * FROM orders".
    pub sql: SqlText,
}

fn effect<T: Tool>() -> Effect {
    T::contract().effect()
}

#[test]
fn a_send_draft_tool_is_not_read() {
    // `send` is a writing verb, but the draft noun at the end wins: the tool
    // compiles as `read` (the default).
    assert_eq!(
        [effect::<SendDraft>(), effect::<PublishPostDraft>()],
        [Effect::Write, Effect::Write],
        "send_draft, publish_post_draft"
    );
}

#[test]
fn common_writing_verbs_are_not_read() {
    let read = [
        ("post_message", effect::<PostMessage>()),
        ("refund_order", effect::<RefundOrder>()),
        ("charge_card", effect::<ChargeCard>()),
        ("purchase_ticket", effect::<PurchaseTicket>()),
    ]
    .into_iter()
    .filter(|(_, effect)| *effect == Effect::Read)
    .collect::<Vec<_>>();
    assert!(read.is_empty(), "compiled as read: {read:?}");
}

#[test]
fn destroying_names_are_destructive() {
    let not_destructive = [
        ("order_delete", effect::<OrderDelete>()),
        ("admin_delete_user", effect::<AdminDeleteUser>()),
        ("close_bank_account", effect::<CloseBankAccount>()),
        ("ban_customer", effect::<BanCustomer>()),
        ("clear_cart", effect::<ClearCart>()),
    ]
    .into_iter()
    .filter(|(_, effect)| *effect != Effect::Destructive)
    .collect::<Vec<_>>();
    assert!(not_destructive.is_empty(), "compiled as not destructive: {not_destructive:?}");
}

#[test]
fn a_map_of_shell_commands_is_a_free_form_command() {
    // The derive judges only String, Option/Vec/Box... of String; a pair
    // is judged nowhere, not at registration either.
    let mut toolbox = Toolbox::new();
    let registered = toolbox
        .try_register(|_: ScheduleNightlyJob, _: CallContext| async move {
            Ok::<_, ToolError>("scheduled".to_owned())
        })
        .map(|_| ());
    assert!(
        registered.is_err(),
        "`commands: Vec<(String, String)>` (a shell command per step) compiled and registered: {}",
        ScheduleNightlyJob::input_schema()["properties"]["commands"]
    );
}

#[test]
fn a_sql_newtype_is_refused_at_registration() {
    let mut toolbox = Toolbox::new();
    let registered = toolbox
        .try_register(|_: GetWarehouseReport, _: CallContext| async move {
            Ok::<_, ToolError>("rows".to_owned())
        })
        .map(|_| ());
    assert!(
        registered.is_err(),
        "a `sql: SqlText(String)` field registered: {:?}",
        GetWarehouseReport::input_schema()["properties"]["sql"]
    );
}

/// Start one step of the nightly build on the build server.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartBuildStep {
    /// The command to run on the build server, e.g. "make deploy".
    pub action: String,
}

/// List the shop's orders that match a filter.
#[derive(Debug, Tool)]
pub struct ListOrders {
    /// An OData filter expression evaluated against the orders table, e.g.
    /// "total gt 100 and status eq 'paid'".
    pub filter: String,
}

/// Search the private notes kept on customers.
#[derive(Debug, Tool)]
pub struct SearchCustomerNotes {
    /// A regular expression matched against every customer's notes.
    pub matching: String,
}

/// Evaluate a sandboxed job for the analytics team.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SubmitAnalyticsJob {
    /// The program to execute in the sandbox, as source text.
    pub body: String,
}

/// A description that says the string is a program, in words the rule's
/// description list lacks ("command", "expression", "regular expression",
/// "program"): the derive compiles these and `try_register` accepts them.
#[test]
fn programs_described_in_plain_words_are_refused() {
    let mut accepted = Vec::new();
    macro_rules! try_one {
        ($t:ty, $name:expr) => {{
            let mut toolbox = Toolbox::new();
            if toolbox
                .try_register(|_: $t, _: CallContext| async move {
                    Ok::<_, ToolError>("ok".to_owned())
                })
                .is_ok()
            {
                accepted.push($name);
            }
        }};
    }
    try_one!(StartBuildStep, "start_build_step.action: \"The command to run on the build server\"");
    try_one!(ListOrders, "list_orders.filter: \"An OData filter expression evaluated against the orders table\"");
    try_one!(SearchCustomerNotes, "search_customer_notes.matching: \"A regular expression matched against every customer's notes\"");
    try_one!(SubmitAnalyticsJob, "submit_analytics_job.body: \"The program to execute in the sandbox\"");
    assert!(accepted.is_empty(), "compiled and registered: {accepted:#?}");
}

/// Find the customer with this email address, creating one if none exists.
#[derive(Debug, Tool)]
pub struct GetOrCreateCustomer {
    /// The customer's email address, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub email: String,
}

/// Take the next message off the support queue; it is removed from it.
#[derive(Debug, Tool)]
pub struct FetchAndDeleteMessage {
    /// The queue, e.g. "Q-1".
    #[tool(pattern = "^Q-[0-9]+$")]
    pub queue_ref: String,
}

/// Only the first word is judged: a reading verb first hides a write or a
/// destroy later in the name, and the tool compiles as `read`.
#[test]
fn a_write_or_destroy_after_a_reading_verb_is_not_read() {
    let read = [
        ("get_or_create_customer", effect::<GetOrCreateCustomer>()),
        ("fetch_and_delete_message", effect::<FetchAndDeleteMessage>()),
    ]
    .into_iter()
    .filter(|(_, effect)| *effect == Effect::Read)
    .collect::<Vec<_>>();
    assert!(read.is_empty(), "compiled as read: {read:?}");
}

/// One step of a deployment, as a plain serde type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct PlainStep {
    /// The step's name, e.g. "migrate".
    pub name: String,
    /// What the step runs on the server, e.g. "make deploy".
    pub command: String,
}

/// One step of a deployment, as a plain serde type whose `command` is
/// `run` on the wire.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct RenamedStep {
    /// The step's name, e.g. "migrate".
    pub name: String,
    /// What the step does on the server, e.g. "make deploy".
    #[serde(rename = "run")]
    pub command: String,
}

/// Start a deployment with the given plain steps.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartPlainDeployment {
    /// The steps, in order.
    #[tool(max_items = 5)]
    pub steps: Vec<PlainStep>,
}

/// Start a deployment with the given renamed steps.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct StartRenamedDeployment {
    /// The steps, in order.
    #[tool(max_items = 5)]
    pub steps: Vec<RenamedStep>,
}

/// A plain serde type's Rust field `command` renamed `run` on the wire is
/// judged only by its schema, where neither the name nor the doc says it
/// (a `ToolArgs` or tool field is judged by its Rust name too).
#[test]
fn a_plain_nested_command_field_is_refused_even_when_renamed() {
    let mut toolbox = Toolbox::new();
    let plain = toolbox
        .try_register(|_: StartPlainDeployment, _: CallContext| async move {
            Ok::<_, ToolError>("ok".to_owned())
        })
        .is_err();
    let renamed = toolbox
        .try_register(|_: StartRenamedDeployment, _: CallContext| async move {
            Ok::<_, ToolError>("ok".to_owned())
        })
        .is_err();
    assert_eq!(
        (plain, renamed),
        (true, true),
        "(plain `command` refused, renamed `run` refused)"
    );
}
