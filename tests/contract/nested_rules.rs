//! The contract rules judge nested types: a plain
//! `#[derive(Deserialize, JsonSchema)]` type is judged from its schema when
//! the contract is checked (`ToolContract::check_rules`), which
//! `Toolbox::register`, `Catalog::check` and the lock check run.

use tool_contract::contract::ContractRule;
use tool_contract::docs::Catalog;
use tool_contract::schemars::JsonSchema;
use tool_contract::serde::Deserialize;
use tool_contract::{Tool, Toolbox};

/// Filters for a product search.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct PriceFilter {
    /// Highest price to show.
    pub price: f64,
}

/// Search the product catalog by price. Read-only.
#[derive(Tool)]
pub struct SearchProducts {
    /// What to filter by.
    pub filters: PriceFilter,
}

/// Who a note is for.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct Recipient {
    /// The account the note goes to.
    pub user_id: String,
    /// The text of the note.
    pub text: String,
}

/// Leave a note on an order for another user of the shop.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct LeaveOrderNote {
    /// The notes to leave, one per recipient.
    pub notes: Vec<Recipient>,
}

/// Dollars, as an alias: judged as the number it is.
pub type Dollars = f64;

/// A budget with an aliased float amount, a fee next to a flag named like a
/// currency, and two booleans for one lifecycle state.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct Budget {
    /// Most to spend.
    pub amount: Dollars,
    /// The fee in minor units.
    pub fee_minor: i64,
    /// Whether to show the currency symbol.
    pub show_currency: bool,
    /// Whether the budget runs.
    pub is_active: bool,
    /// Whether the budget was cancelled.
    pub is_cancelled: bool,
    /// Act with administrator rights.
    pub sudo: bool,
}

/// Plan a marketing campaign within a budget. Read-only.
#[derive(Tool)]
pub struct PlanCampaign {
    /// The budget to plan within.
    pub budget: Option<Budget>,
}

/// The same budget, with each rule waived on the field that holds it.
#[derive(Tool)]
#[tool(name = "plan_waived_campaign")]
pub struct PlanWaivedCampaign {
    /// The budget to plan within.
    #[tool(allow(
        untyped_amount = "a planning estimate, never charged",
        boolean_pair = "mirrors the ad network's two flags",
        model_identity = "sudo here means the ad network's expert mode"
    ))]
    pub budget: Budget,
}

/// Book a ride with an aliased float fare on the tool's own field: the
/// derive sees the name `Dollars`, the schema a `number`.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct BookRide {
    /// Where to go, as the user said it.
    pub destination: String,
    /// The fare the user accepted.
    pub fare: Dollars,
}

fn handler_of<T: Tool<Output = String>>()
-> impl Fn(T, tool_contract::CallContext) -> std::future::Ready<Result<String, tool_contract::ToolError>>
+ Send
+ Sync
+ 'static {
    |_, _| std::future::ready(Ok(String::new()))
}

#[test]
fn register_refuses_a_float_price_in_a_plain_nested_type() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .try_register::<SearchProducts, _, _, _>(handler_of::<SearchProducts>())
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `search_products` breaks the contract rules:\n\
         - at `$.filters.price`: `PriceFilter.price` is an amount of money typed `number`: a float cannot hold cents exactly and says nothing of the currency; use `Money` (integer minor units + ISO 4217 currency), or an integer `price_minor` field next to a `currency` field; if the rule is wrong here, waive it with a reason: `#[tool(allow(untyped_amount = \"why\"))]`"
    );
    assert_eq!(error.violations()[0].rule(), ContractRule::UntypedAmount);
    assert_eq!(toolbox.names().len(), 0);
}

#[test]
#[should_panic(expected = "tool `search_products` breaks the contract rules:")]
fn register_panics_at_start_up_on_a_broken_contract() {
    Toolbox::new().register::<SearchProducts, _, _, _>(handler_of::<SearchProducts>());
}

#[test]
fn register_refuses_a_user_id_in_a_list_of_nested_types() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .try_register::<LeaveOrderNote, _, _, _>(handler_of::<LeaveOrderNote>())
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `leave_order_note` breaks the contract rules:\n\
         - at `$.notes[].user_id`: `Recipient.user_id` identifies who is acting or what they may do, so the model must not choose it (a prompt injection could set it); move it out of this type onto the tool's own struct and mark it `#[tool(inject)]` there, to take it from the trusted `Session`; if the rule is wrong here, waive it with a reason: `#[tool(allow(model_identity = \"why\"))]`"
    );
}

#[test]
fn aliases_currency_flags_lifecycle_pairs_and_sudo_are_judged() {
    let error = PlanCampaign::contract().check_rules().unwrap_err();
    let found: Vec<(ContractRule, &str)> = error
        .violations()
        .iter()
        .map(|v| (v.rule(), v.path()))
        .collect();
    assert_eq!(
        found,
        vec![
            (ContractRule::UntypedAmount, "$.budget.amount"),
            (ContractRule::UntypedAmount, "$.budget.fee_minor"),
            (ContractRule::BooleanPair, "$.budget.is_cancelled"),
            (ContractRule::ModelIdentity, "$.budget.sudo"),
        ]
    );
    assert_eq!(
        error.violations()[1].message(),
        "`Budget.fee_minor` counts minor units but the struct has no `currency` field, so the currency is unstated; use `Money` (integer minor units + ISO 4217 currency), or an integer `fee_minor` field next to a `currency` field; if the rule is wrong here, waive it with a reason: `#[tool(allow(untyped_amount = \"why\"))]`"
    );
    assert_eq!(
        error.violations()[2].message(),
        "`Budget.is_active` and `Budget.is_cancelled` are two booleans for one state: they can contradict each other and double the cases; use one enum field with a variant per state; if the rule is wrong here, waive it with a reason: `#[tool(allow(boolean_pair = \"why\"))]`"
    );
}

#[test]
fn a_waiver_on_the_field_covers_its_nested_type() {
    PlanWaivedCampaign::contract().check_rules().unwrap();
    let mut toolbox = Toolbox::new();
    toolbox.register::<PlanWaivedCampaign, _, _, _>(handler_of::<PlanWaivedCampaign>());
    assert_eq!(
        toolbox.names().collect::<Vec<_>>(),
        vec!["plan_waived_campaign"]
    );
}

#[test]
fn the_catalog_check_fails_on_a_broken_contract() {
    let catalog = Catalog::new()
        .with::<PlanWaivedCampaign>()
        .with::<LeaveOrderNote>();
    let error = catalog.check().unwrap_err();
    assert_eq!(error.tool(), "leave_order_note");
}

#[test]
fn the_lock_check_fails_on_a_broken_contract() {
    let error = tool_contract::lock::check_contracts_locked(
        "tests/lock/never-written.lock.json",
        &[SearchProducts::contract()],
        tool_contract::lock::LockMode::Check,
    )
    .unwrap_err();
    assert!(matches!(
        error,
        tool_contract::lock::LockError::BrokenRule(_)
    ));
    assert!(
        error
            .to_string()
            .starts_with("tool `search_products` breaks the contract rules:")
    );
}

#[test]
fn money_itself_passes() {
    /// Refund part of an order.
    #[derive(Tool)]
    #[tool(effect = "write", idempotent)]
    pub struct RefundOrderPart {
        /// How much to refund.
        pub amount: tool_contract::Money,
    }
    RefundOrderPart::contract().check_rules().unwrap();
    let parsed = RefundOrderPart::from_arguments(
        r#"{"amount": {"amount_minor": 5, "currency": "EUR"}}"#,
        &tool_contract::Session::new(),
    )
    .unwrap();
    assert_eq!(parsed.amount.amount_minor, 5);
}

#[test]
fn an_alias_on_the_tools_own_field_is_judged_by_what_it_is() {
    let error = BookRide::contract().check_rules().unwrap_err();
    assert_eq!(error.violations().len(), 1);
    assert_eq!(error.violations()[0].path(), "$.fare");
    assert!(
        error.violations()[0]
            .message()
            .starts_with("`BookRide.fare` is an amount of money typed `number`"),
        "{error}"
    );
}

/// A currency as an enum of documented codes: its schema is a `oneOf` of
/// string `const`s.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub enum FeeCurrency {
    /// Euro.
    #[serde(rename = "EUR")]
    Eur,
    /// US dollar.
    #[serde(rename = "USD")]
    Usd,
}

/// A fee in minor units next to a currency enum.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct Fee {
    /// The fee in minor units.
    pub fee_minor: i64,
    /// The fee's currency.
    pub fee_currency: FeeCurrency,
}

/// Quote a transfer with a fee. Read-only.
#[derive(Tool)]
pub struct QuoteTransfer {
    /// The fee the customer expects.
    pub fee: Fee,
    /// The fee in minor units, on the tool itself.
    pub total_minor: i64,
    /// The currency of the total.
    pub currency: FeeCurrency,
}

#[test]
fn minor_units_next_to_a_currency_enum_pass_at_every_depth() {
    let schema = QuoteTransfer::input_schema();
    assert!(
        schema["$defs"]["FeeCurrency"]["oneOf"].is_array(),
        "{schema}"
    );
    QuoteTransfer::contract().check_rules().unwrap();
}

/// One step of a maintenance plan, from another crate's plain types.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct MaintenanceStep {
    /// What the step runs on the host.
    pub command: String,
    /// A filter the step applies, as a SQL WHERE clause.
    pub filter: Option<String>,
    /// The saved script this step is based on, by its id.
    pub script_id: String,
    /// What to look for in the logs, e.g. "disk full".
    pub query: String,
    /// A saved check, by its code.
    #[schemars(regex(pattern = "^CHK_[A-Z]{1,8}$"))]
    pub check_expression: String,
    /// Which kind of step.
    pub kind: StepKind,
}

/// Which kind of step: an enum of strings is no free-form command.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub enum StepKind {
    /// Restart a service.
    Restart,
    /// Rotate the logs.
    RotateLogs,
}

/// Plan the night's maintenance of the shop's hosts.
#[derive(Tool)]
#[tool(effect = "write", idempotent)]
pub struct PlanMaintenance {
    /// The steps, in order.
    pub steps: Vec<MaintenanceStep>,
}

#[test]
fn register_refuses_a_free_form_command_in_a_plain_nested_type() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .try_register::<PlanMaintenance, _, _, _>(handler_of::<PlanMaintenance>())
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "tool `plan_maintenance` breaks the contract rules:\n\
         - at `$.steps[].command`: `MaintenanceStep.command` is a free-form command string (its name says `command`): whatever program the model writes there runs, so this one tool becomes every tool; split it into narrow tools with typed fields, or make it an enum of the allowed commands, or constrain it with a `pattern` (or `max_length` with a `format`); if the rule is wrong here, waive it with a reason: `#[tool(allow(free_form_command = \"why\"))]`\n\
         - at `$.steps[].filter`: `MaintenanceStep.filter` is a free-form command string (its description says `sql`): whatever program the model writes there runs, so this one tool becomes every tool; split it into narrow tools with typed fields, or make it an enum of the allowed commands, or constrain it with a `pattern` (or `max_length` with a `format`); if the rule is wrong here, waive it with a reason: `#[tool(allow(free_form_command = \"why\"))]`"
    );
    let rules: Vec<ContractRule> = error.violations().iter().map(|v| v.rule()).collect();
    assert_eq!(rules, [ContractRule::FreeFormCommand; 2]);
}

/// The same plan with the rule waived for the whole tool.
#[derive(Tool)]
#[tool(
    effect = "write",
    idempotent,
    allow(free_form_command = "the steps come from the ops team's reviewed runbook")
)]
pub struct PlanReviewedMaintenance {
    /// The steps, in order.
    pub steps: Vec<MaintenanceStep>,
}

#[test]
fn a_waiver_on_the_tool_covers_free_form_commands_in_plain_types() {
    assert_eq!(PlanReviewedMaintenance::contract().check_rules(), Ok(()));
}

/// Who a member is, as the shop shows it.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Member {
    /// The member's public handle, e.g. "ana_runs".
    pub username: String,
}

/// Show the public profiles of up to ten shop members.
#[derive(Debug, Tool)]
#[allow(dead_code)]
pub struct ShowMemberProfiles {
    /// The members to show.
    #[tool(max_items = 10)]
    members: Vec<Member>,
}

/// Follow a shop member's public feed for the signed-in customer.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
#[allow(dead_code)]
pub struct FollowMembers {
    /// The members to follow.
    #[tool(max_items = 10)]
    members: Vec<Member>,
}

#[test]
fn a_username_is_looked_up_by_a_read_tool_and_is_identity_on_a_write() {
    assert_eq!(ShowMemberProfiles::contract().check_rules(), Ok(()));
    let error = FollowMembers::contract().check_rules().unwrap_err();
    let found: Vec<(ContractRule, &str)> = error
        .violations()
        .iter()
        .map(|v| (v.rule(), v.path()))
        .collect();
    assert_eq!(
        found,
        vec![(ContractRule::ModelIdentity, "$.members[].username")]
    );
}
