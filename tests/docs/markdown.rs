//! `ToolContract::to_markdown()`: the page of a tool compared with committed
//! expected files, and the escaping of table cells.

use crate::tools;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_contract::{Money, Tool};

/// Compares `actual` with `tests/expected/{file}` (line ends normalised).
/// With `TOOL_CONTRACT_UPDATE_EXPECTED=1` set, writes the file instead.
pub(crate) fn assert_expected(actual: &str, file: &str) {
    let path = format!("{}/tests/expected/{file}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("TOOL_CONTRACT_UPDATE_EXPECTED").is_some_and(|v| v == "1") {
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        .replace("\r\n", "\n");
    assert_eq!(
        actual, expected,
        "the page differs from {path}; review the difference, then run with TOOL_CONTRACT_UPDATE_EXPECTED=1 to update the file"
    );
}

/// The support agent at the keyboard.
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

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Email,
    Sms,
    Letter,
}

/// Where a paper confirmation goes.
#[derive(Deserialize, JsonSchema)]
pub struct PostalAddress {
    /// Street and number, e.g. "Main St 1".
    pub street: String,
    /// Postal code as printed on letters; null where there is none.
    pub postal_code: Option<String>,
    /// ISO 3166-1 alpha-2 country code, e.g. "DE".
    #[schemars(length(equal = 2))]
    pub country: String,
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
    data = "restricted",
    output = Cancellation,
    errors(
        SUBSCRIPTION_NOT_FOUND = "No subscription has this id; ask the agent to check it.",
        ALREADY_CANCELLED(
            meaning = "The subscription is already cancelled | ended;\ntell the agent when it ends.",
            category = "conflict",
            recovery = "none",
        ),
    ),
    allow(model_identity = "support agents cancel for any customer of their shop")
)]
pub struct CancelCustomerSubscription {
    /// The customer whose subscription to cancel, e.g. "cus_123".
    pub customer_id: String,
    /// Subscription id as shown in the billing console, e.g. "sub_9f2".
    #[tool(
        rename = "subscription",
        min_length = 5,
        max_length = 40,
        pattern = "^(sub|subscription)_[a-z0-9]+$"
    )]
    pub subscription_id: String,
    /// Why the customer ends the subscription.
    pub reason: CancelReason,
    /// How to confirm the cancellation to the customer.
    #[tool(min_items = 1, max_items = 3)]
    pub channels: Vec<Channel>,
    /// Where to post a letter, when `channels` has `letter`.
    pub address: Option<PostalAddress>,
    /// The last day of service as an ISO 8601 date, e.g. "2026-09-30";
    /// null ends it at the end of the billing period.
    #[tool(format = "date")]
    pub ends_on: Option<String>,
    /// Days the customer keeps access after the last day; 30 if absent.
    #[tool(unit = "days", default = default_grace_days, minimum = 0, maximum = 90)]
    pub grace: u32,
    /// Discount on the last invoice in percent, from 0 to 100.
    #[tool(
        minimum = 0,
        maximum = 100,
        allow(untyped_amount = "a percentage of the invoice, not an amount of money")
    )]
    pub discount: u8,
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

/// List the warehouses of the shop with their codes.
#[derive(Tool)]
#[tool(open_world, data = "public")]
pub struct ListWarehouses {}

#[test]
fn the_page_of_the_refund_tool_matches_the_expected_file() {
    let page = tools::CreateRefundDraft::contract().to_markdown();
    assert_expected(&page, "create_refund_draft.md");
}

#[test]
fn the_page_of_a_rich_tool_matches_the_expected_file() {
    let page = CancelCustomerSubscription::contract().to_markdown();
    assert_expected(&page, "cancel_subscription.md");
}

#[test]
fn a_tool_without_arguments_or_output_type_says_so() {
    let page = ListWarehouses::contract().to_markdown();
    assert_eq!(
        page,
        r#"# list_warehouses

List the warehouses of the shop with their codes.

- **Version:** 1.0.0
- **Effect:** `read`: reads only; nothing changes
- **Idempotency:** not stated
- **Approval:** not required
- **Timeout:** the runtime's default
- **Data class:** `public`: anyone may see it
- **Open world:** yes: it reaches systems outside the application's control
- **Rust type:** `ListWarehouses`

## Inputs

The model sends no arguments (`{}`).

## Output

Returns plain text (no `output = ...` is declared):

```json
{
  "type": "string",
  "title": "string"
}
```

## Errors

No error codes are declared.

Any call may also end with `INVALID_ARGUMENTS` when the arguments do not match the inputs above; the message names the field and what was expected.
"#
    );
}

#[test]
fn table_cells_escape_pipes_and_line_breaks() {
    let page = CancelCustomerSubscription::contract().to_markdown();
    let row = |name: &str| {
        page.lines()
            .find(|line| line.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no row for {name}"))
            .to_owned()
    };
    assert_eq!(
        row("subscription"),
        "| `subscription` | string | required | Between 5 and 40 characters. Matches the regular expression `^(sub\\|subscription)_[a-z0-9]+$`. | Subscription id as shown in the billing console, e.g. \"sub_9f2\". |"
    );
    assert_eq!(
        row("ends_on"),
        "| `ends_on` | string \\| null | optional (nullable) | An RFC 3339 date such as \"2026-11-29\". | The last day of service as an ISO 8601 date, e.g. \"2026-09-30\"; null ends it at the end of the billing period. |"
    );
    assert_eq!(
        row("ALREADY_CANCELLED"),
        "| `ALREADY_CANCELLED` | The subscription is already cancelled \\| ended;<br>tell the agent when it ends. | `conflict` | `none` |"
    );
}

/// Post the day's sales summary to a partner's webhook.
#[derive(Tool)]
#[tool(
    name = "get_sales_push",
    effect = "write",
    idempotent,
    open_world,
    allow(misleading_name = "the partner's API names this push `get`"),
    allow(open_world_write = "the summary holds only public figures")
)]
pub struct PushSalesSummary {
    /// The partner's webhook, from its onboarding form.
    #[tool(allow(untyped_destination = "the partner signs the URL; it is checked on their side"))]
    pub webhook_url: String,
    /// The partner's JSONPath that picks the figures it wants.
    #[tool(allow(free_form_command = "the JSONPath only selects within the summary"))]
    pub selector: String,
}

#[test]
fn the_new_rules_are_listed_when_waived() {
    let page = PushSalesSummary::contract().to_markdown();
    let table = page
        .split_once("| rule | applies to | reason |\n| --- | --- | --- |\n")
        .map(|(_, rest)| rest.split("\n\n").next().unwrap_or(rest))
        .expect("a waivers table");
    assert_eq!(
        table.trim_end(),
        "| `misleading_name` | the whole tool | the partner's API names this push `get` |\n\
         | `open_world_write` | the whole tool | the summary holds only public figures |\n\
         | `untyped_destination` | field `webhook_url` | the partner signs the URL; it is checked on their side |\n\
         | `free_form_command` | field `selector` | the JSONPath only selects within the summary |"
    );
}
