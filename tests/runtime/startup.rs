//! What a toolbox checks at start-up rather than at the first call: the
//! contract rules of every handler, however it is registered, and what the
//! sessions it serves must hold (`Subjects`, one source of grants, injected
//! values), each named with what to do.

use crate::tools;

use std::sync::Arc;

use tool_contract::approval::{ApprovalStore, Approvals};
use tool_contract::audit::Subjects;
use tool_contract::contract::ContractRule;
use tool_contract::schemars::JsonSchema;
use tool_contract::serde::Deserialize;
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};

use tools::{CreateRefundDraft, CustomerId, GetInventory, ReserveInventory, TenantId};

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

const PRICE_RULE: &str = "tool `search_products` breaks the contract rules:\n\
     - at `$.filters.price`: `PriceFilter.price` is an amount of money typed `number`: a float cannot hold cents exactly and says nothing of the currency; use `Money` (integer minor units + ISO 4217 currency), or an integer `price_minor` field next to a `currency` field; if the rule is wrong here, waive it with a reason: `#[tool(allow(untyped_amount = \"why\"))]`";

#[test]
fn a_blocking_handler_is_held_to_the_contract_rules() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .try_register_blocking(
            |_: SearchProducts, _: CallContext| Ok::<_, ToolError>(String::new()),
        )
        .map(|_| ())
        .unwrap_err();
    assert_eq!(error.to_string(), PRICE_RULE);
    assert_eq!(error.violations()[0].rule(), ContractRule::UntypedAmount);
    assert_eq!(toolbox.len(), 0);
}

#[test]
#[should_panic(
    expected = "tool `search_products` breaks the contract rules:\n- at `$.filters.price`"
)]
fn register_blocking_panics_at_start_up_on_a_broken_contract() {
    Toolbox::new()
        .register_blocking(|_: SearchProducts, _: CallContext| Ok::<_, ToolError>(String::new()));
}

fn shop() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|_: ReserveInventory, _: CallContext| async move {
        Err::<tools::Reservation, _>(ToolError::internal())
    });
    toolbox.register(|_: CreateRefundDraft, _: CallContext| async move {
        Err::<tools::RefundDraft, _>(ToolError::internal())
    });
    toolbox.register(|_: GetInventory, _: CallContext| async move {
        Err::<tools::StockLevel, _>(ToolError::internal())
    });
    toolbox
}

fn full_session() -> Session {
    Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
        .with(Subjects::new().with("tenant", "acme"))
        .with(Approvals::new())
}

#[test]
fn the_check_names_each_missing_subjects_and_approval_source() {
    let toolbox = shop();
    assert_eq!(toolbox.check(&full_session()), Ok(()));

    let error = toolbox.check(&Session::new()).unwrap_err();
    assert_eq!(
        error.problems(),
        [
            "the tool `create_refund_draft` takes the injected field \"customer\", but the session holds no `CustomerId`; the application must add it with `Session::with`",
            "the tool `get_inventory` takes the injected field \"tenant\", but the session holds no `TenantId`; the application must add it with `Session::with`",
            "the tool `reserve_inventory` takes the injected field \"tenant\", but the session holds no `TenantId`; the application must add it with `Session::with`",
            "the tool `reserve_inventory` uses an idempotency key and takes injected values (tenant), but the session holds no `Subjects` to scope them by; the application must add the subjects those values name with `Session::with`",
            "the tool `reserve_inventory` requires approval, but the session holds no `Approvals` and the toolbox has no approval store; the application must add `Approvals` to the session with `Session::with`, or set an approval store with `Toolbox::with_approval_store`",
        ]
    );
    assert!(error.to_string().starts_with(
        "the toolbox cannot serve this session:\n- the tool `create_refund_draft` takes"
    ));
    assert_eq!(error.to_string().matches("\n- ").count(), 5);

    let empty = full_session().with(Subjects::new());
    assert_eq!(
        toolbox.check(&empty).unwrap_err().problems(),
        [
            "the tool `reserve_inventory` uses an idempotency key and takes injected values (tenant), but the session's `Subjects` names no one to scope them by; the application must add the subjects those values name with `Session::with`",
            "the tool `reserve_inventory` uses approvals and takes injected values (tenant), but the session's `Subjects` names no one to scope them by; the application must add the subjects those values name with `Session::with`",
        ]
    );

    // Both sources of grants: the session's would never be read.
    let store: Arc<dyn ApprovalStore> = Arc::new(Approvals::new());
    let with_store = shop().with_approval_store(store);
    assert_eq!(
        with_store.check(&full_session()).unwrap_err().problems(),
        [
            "the tool `reserve_inventory` requires approval, and grants are looked for in two places: the toolbox has an approval store (`Toolbox::with_approval_store`) and the session holds `Approvals`, whose grants would never be read; the application must use one: remove `Approvals` from the session and grant through the store, or build the toolbox without the approval store",
        ]
    );
    let mut storeless = full_session();
    storeless.remove::<Approvals>();
    assert_eq!(with_store.check(&storeless), Ok(()));
}

#[test]
fn a_sample_call_names_a_missing_injected_value_without_running() {
    let toolbox = shop();
    let reserve = ToolCall::new(
        "c1",
        "reserve_inventory",
        r#"{"sku": "SKU-1042", "quantity": 2, "hold": null, "request_id": "0b7e9a52-5b8f-4d3a-9a57-2f1f6c1d9e10"}"#,
    );
    assert_eq!(toolbox.check_call(&reserve, &full_session()), Ok(()));

    let mut no_tenant = full_session();
    no_tenant.remove::<TenantId>();
    assert_eq!(
        toolbox
            .check_call(&reserve, &no_tenant)
            .unwrap_err()
            .problems(),
        [
            "the tool `reserve_inventory` takes the injected field \"tenant\", but the session holds no `TenantId`; the application must add it with `Session::with`",
        ]
    );

    let typo = ToolCall::new("c2", "reserve_inventory", r#"{"sku": "SKU-1042"}"#);
    assert_eq!(
        toolbox
            .check_call(&typo, &full_session())
            .unwrap_err()
            .problems(),
        [
            "the sample call of `reserve_inventory` does not parse (INVALID_ARGUMENTS): $.quantity: missing required fields \"quantity\", \"request_id\"",
        ]
    );

    let unknown = ToolCall::new("c3", "reserve_stock", "{}");
    assert_eq!(
        toolbox
            .check_call(&unknown, &full_session())
            .unwrap_err()
            .problems(),
        [
            "the sample call names the tool `reserve_stock`, which is not registered (registered: create_refund_draft, get_inventory, reserve_inventory)",
        ]
    );
}

#[tokio::test]
async fn a_claim_grace_of_zero_is_named_at_start_up_and_ends_keyed_calls_fatal() {
    let toolbox = shop().with_claim_grace(std::time::Duration::ZERO);
    let problem = "the tool `reserve_inventory` uses an idempotency key, but the toolbox's claim grace is 0 ms, so a keyed call's key could not stay held while the call runs and its end is recorded; the application must set a grace of at least a few seconds with `Toolbox::with_claim_grace` (the default is 60 s)";
    assert_eq!(
        toolbox.check(&full_session()).unwrap_err().problems(),
        [problem]
    );
    let reserve = ToolCall::new(
        "c1",
        "reserve_inventory",
        r#"{"sku": "SKU-1042", "quantity": 2, "hold": null, "request_id": "0b7e9a52-5b8f-4d3a-9a57-2f1f6c1d9e10"}"#,
    );
    assert_eq!(
        toolbox
            .check_call(&reserve, &full_session())
            .unwrap_err()
            .problems(),
        [problem]
    );
    let result = toolbox.call(&reserve, &full_session()).await;
    assert_eq!(
        result.output,
        tool_contract::ToolOutput::fatal(ToolError::internal())
    );
    assert_eq!(
        result.audit.outcome,
        tool_contract::runtime::ExecutionOutcome::NotStarted
    );
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some(&problem["the tool `reserve_inventory` uses an idempotency key, but ".len()..])
    );
    // A tool without a key is not concerned.
    let read = ToolCall::new("c2", "get_inventory", r#"{"sku": "SKU-1042"}"#);
    assert_eq!(toolbox.check_call(&read, &full_session()), Ok(()));
}

/// The signed-in tenant, as the application names it.
type Tenant = TenantId;

/// Show the tenant's open orders. Read-only.
#[derive(Tool)]
pub struct ListOpenOrders {
    /// The tenant, behind an alias.
    #[tool(inject)]
    pub tenant: Tenant,
    /// The customer, when one is signed in.
    #[tool(inject)]
    pub customer: Option<CustomerId>,
}

/// Show the tenant's shop hours. Read-only.
#[derive(Tool)]
pub struct ShowShopHours {
    /// The shop the conversation belongs to, from the session.
    #[tool(inject)]
    pub tenant: TenantId,
}

#[tokio::test]
async fn the_check_agrees_with_the_call_on_aliased_optional_and_shared_injected_types() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: ListOpenOrders, _: CallContext| async move {
        Ok::<_, ToolError>(format!(
            "{} {}",
            call.tenant.0,
            call.customer.map_or("anonymous".to_owned(), |c| c.0)
        ))
    });
    toolbox.register(|call: ShowShopHours, _: CallContext| async move {
        Ok::<_, ToolError>(format!("{} opens at 9", call.tenant.0))
    });
    // Both tools are named for the one type; the optional value is not.
    assert_eq!(
        toolbox.check(&Session::new()).unwrap_err().problems(),
        [
            "the tool `list_open_orders` takes the injected field \"tenant\", but the session holds no `Tenant`; the application must add it with `Session::with`",
            "the tool `show_shop_hours` takes the injected field \"tenant\", but the session holds no `TenantId`; the application must add it with `Session::with`",
        ]
    );
    let tenant = Session::new().with(TenantId("acme".into()));
    assert_eq!(toolbox.check(&tenant), Ok(()));
    // And a call in the checked session runs.
    let call = ToolCall::new("c1", "list_open_orders", "{}");
    assert_eq!(toolbox.check_call(&call, &tenant), Ok(()));
    let result = toolbox.call(&call, &tenant).await;
    assert_eq!(result.model_text().as_deref(), Some("acme anonymous"));
    let missing = toolbox.call(&call, &Session::new()).await;
    assert!(missing.is_fatal());
}
