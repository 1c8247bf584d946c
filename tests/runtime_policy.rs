//! The policy a contract declares, enforced: timeouts, aborts, approvals and
//! idempotency.

#[path = "../examples/tools/mod.rs"]
mod tools;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use tool_contract::{
    AbortHandle, ApprovalGrant, Approvals, BoxFuture, CallContext, Claim, Delivery, ErrorCategory,
    ExecutionOutcome, IdempotencyError, IdempotencyRecord, IdempotencyScope, IdempotencyStore,
    OutputKind, Recovery, Session, Subjects, Tool, ToolCall, ToolError, ToolOutput, Toolbox,
    Version, arguments_sha256,
};
use tools::{
    CreateRefundDraft, CustomerId, GetInventory, RefundDraft, Reservation, ReserveInventory,
    StockLevel, TenantId,
};

/// Delete the customer's saved shopping cart for good.
///
/// Use it only when the customer asks to empty and forget their saved cart;
/// it cannot be undone.
#[derive(Debug, Tool)]
#[tool(
    version = "2.1.0",
    effect = "destructive",
    approval = "required",
    idempotent = false
)]
pub struct DeleteSavedCart {
    /// The saved cart's reference as the app shows it, e.g. "CART-7".
    pub cart_ref: String,
}

/// Look up the note the shop keeps on a product.
///
/// Use it when the customer asks about care or warranty. Read-only; it has
/// no time limit of its own.
#[derive(Debug, Tool)]
pub struct GetProductNote {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
}

/// How often the handlers ran, and how many of their futures were dropped
/// before they finished.
#[derive(Default)]
struct Probe {
    runs: AtomicUsize,
    dropped: AtomicUsize,
}

/// Counts a drop unless disarmed: proves a handler's future was dropped.
struct DropFlag(Arc<Probe>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Never finishes; counts its own drop.
async fn hang(probe: Arc<Probe>) {
    let _flag = DropFlag(probe);
    std::future::pending::<()>().await;
}

fn toolbox(probe: &Arc<Probe>) -> Toolbox {
    let mut toolbox = Toolbox::new().with_default_timeout(Duration::from_millis(250));
    let p = Arc::clone(probe);
    toolbox.register(move |call: GetInventory, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            probe.runs.fetch_add(1, Ordering::SeqCst);
            if call.sku == "SKU-HANG" {
                hang(probe).await;
            }
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available: 12,
                reserved: 0,
            })
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |call: ReserveInventory, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            let run = probe.runs.fetch_add(1, Ordering::SeqCst) + 1;
            match call.sku.as_str() {
                "SKU-HANG" => hang(probe).await,
                "SKU-SLOW" => tokio::time::sleep(Duration::from_millis(100)).await,
                _ => {}
            }
            if call.quantity > 12 {
                return Err(ToolError::conflict(
                    "OUT_OF_STOCK",
                    "Only 12 units are available.",
                ));
            }
            Ok(Reservation {
                reservation_id: format!("R-{run}"),
                expires_at: "2026-05-04T10:00:00Z".into(),
            })
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |_: CreateRefundDraft, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            hang(probe).await;
            Ok::<_, ToolError>(RefundDraft {
                draft_id: "RD-1".into(),
                amount: tool_contract::Money::new(100, tool_contract::Currency::USD),
            })
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |call: DeleteSavedCart, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            probe.runs.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("Deleted {}.", call.cart_ref))
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |_: GetProductNote, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            hang(probe).await;
            Ok::<_, ToolError>(String::new())
        }
    });
    toolbox
}

fn session(approvals: &Approvals) -> Session {
    Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
        .with(Subjects::new().with("tenant", "acme"))
        .with(approvals.clone())
}

const KEY: &str = "0b7e9a52-5b8f-4d3a-9a57-2f1f6c1d9e10";

fn reserve(sku: &str, quantity: u32) -> String {
    format!(r#"{{"sku": "{sku}", "quantity": {quantity}, "hold": null, "request_id": "{KEY}"}}"#)
}

fn approve(approvals: &Approvals, arguments: &str) {
    approvals.grant(ApprovalGrant::for_call::<ReserveInventory>(
        "appr-1", arguments,
    ));
}

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

fn assert_within(elapsed: Duration, limit: Duration) {
    assert!(
        elapsed >= limit && elapsed <= limit + Duration::from_millis(20),
        "took {elapsed:?}, limit {limit:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_read_tool_that_never_finishes_times_out_at_its_contract_limit() {
    let probe = Arc::new(Probe::default());
    let start = Instant::now();
    let result = toolbox(&probe)
        .call(
            &call("c", "get_inventory", r#"{"sku":"SKU-HANG"}"#),
            &session(&Approvals::new()),
        )
        .await;
    assert_within(start.elapsed(), Duration::from_millis(2_000));
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [TIMEOUT]: The call did not finish within 2000 ms and was stopped; nothing was changed. Try again, or ask for less."
        )
    );
    let error = result.output.error().unwrap();
    assert_eq!(error.category, ErrorCategory::Timeout);
    assert_eq!(error.recovery, Recovery::Retry);
    assert_eq!(result.audit.outcome, ExecutionOutcome::Failed);
    assert_eq!(result.audit.duration_ms, 2_000);
    assert_eq!(
        probe.dropped.load(Ordering::SeqCst),
        1,
        "the handler's future was dropped"
    );
    assert_eq!(
        serde_json::to_value(result.model_result.unwrap().execution).unwrap(),
        json!({"outcome": "failed", "delivery": "fresh", "complete": true, "truncated": false})
    );
}

#[tokio::test(start_paused = true)]
async fn a_write_tool_that_times_out_has_an_unknown_outcome_and_frees_its_key() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let arguments = reserve("SKU-HANG", 2);
    approve(&approvals, &arguments);
    let start = Instant::now();
    let result = toolbox
        .call(
            &call("c1", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_within(start.elapsed(), Duration::from_millis(5_000));
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [TIMEOUT]: The call did not finish within 5000 ms and was stopped; it may or may not have taken effect. Retry with the same request_id so it is not applied twice."
        )
    );
    assert_eq!(result.output.error().unwrap().recovery, Recovery::Retry);
    assert_eq!(result.audit.outcome, ExecutionOutcome::Unknown);
    assert_eq!(result.audit.approval_id.as_deref(), Some("appr-1"));
    assert_eq!(result.audit.idempotency_key.as_deref(), Some(KEY));
    assert_eq!(probe.dropped.load(Ordering::SeqCst), 1);
    let model = result.model_result.unwrap();
    assert_eq!(model.execution.outcome, ExecutionOutcome::Unknown);
    assert!(!model.execution.complete);

    // Nothing was recorded, so a retry (with a new approval) runs again.
    approve(&approvals, &arguments);
    let retry = toolbox
        .call(
            &call("c2", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(retry.audit.delivery, Delivery::Fresh);
    assert_eq!(retry.audit.outcome, ExecutionOutcome::Unknown);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn a_write_tool_without_a_key_asks_to_check_before_a_retry() {
    let probe = Arc::new(Probe::default());
    let start = Instant::now();
    let result = toolbox(&probe)
        .call(
            &call(
                "c",
                "create_refund_draft",
                r#"{"order_ref":"A-1","reason":"late","amount":null,"note":null}"#,
            ),
            &session(&Approvals::new()),
        )
        .await;
    assert_within(start.elapsed(), Duration::from_millis(10_000));
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [TIMEOUT]: The call did not finish within 10000 ms and was stopped; it may or may not have taken effect. Ask the user to check before trying again."
        )
    );
    assert_eq!(result.output.error().unwrap().recovery, Recovery::AskUser);
    assert_eq!(result.audit.outcome, ExecutionOutcome::Unknown);
}

#[tokio::test(start_paused = true)]
async fn a_contract_without_a_limit_gets_the_toolbox_default() {
    let probe = Arc::new(Probe::default());
    let start = Instant::now();
    let result = toolbox(&probe)
        .call(
            &call("c", "get_product_note", r#"{"sku":"SKU-1"}"#),
            &session(&Approvals::new()),
        )
        .await;
    assert_within(start.elapsed(), Duration::from_millis(250));
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [TIMEOUT]: The call did not finish within 250 ms and was stopped; nothing was changed. Try again, or ask for less."
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_holds_on_the_real_clock_too() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe).with_default_timeout(Duration::from_millis(100));
    let start = std::time::Instant::now();
    let result = toolbox
        .call(
            &call("c", "get_product_note", r#"{"sku":"SKU-1"}"#),
            &session(&Approvals::new()),
        )
        .await;
    let elapsed = start.elapsed();
    // A generous upper margin: the machine may be busy with other builds.
    assert!(
        elapsed >= Duration::from_millis(100) && elapsed < Duration::from_millis(1_000),
        "took {elapsed:?}"
    );
    assert_eq!(result.output.error().unwrap().code, "TIMEOUT");
    assert_eq!(probe.dropped.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn an_abort_stops_a_running_call_and_drops_its_handler() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let arguments = reserve("SKU-HANG", 2);
    approve(&approvals, &arguments);
    let abort = AbortHandle::new();
    let start = Instant::now();
    let session = session(&approvals);
    let reservation = call("c", "reserve_inventory", &arguments);
    let (result, ()) = tokio::join!(
        toolbox.call_with_abort(&reservation, &session, &abort),
        async {
            tokio::time::sleep(Duration::from_millis(30)).await;
            abort.abort();
        }
    );
    assert_within(start.elapsed(), Duration::from_millis(30));
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [ABORTED]: The call was cancelled before it finished; it may or may not have taken effect."
        )
    );
    let error = result.output.error().unwrap();
    assert_eq!(error.category, ErrorCategory::Aborted);
    assert_eq!(error.recovery, Recovery::None);
    assert_eq!(result.audit.outcome, ExecutionOutcome::Unknown);
    assert_eq!(probe.dropped.load(Ordering::SeqCst), 1);

    // A read tool that was aborted changed nothing.
    let abort = AbortHandle::new();
    let lookup = call("c", "get_inventory", r#"{"sku":"SKU-HANG"}"#);
    let (result, ()) = tokio::join!(toolbox.call_with_abort(&lookup, &session, &abort), async {
        tokio::time::sleep(Duration::from_millis(5)).await;
        abort.abort();
    });
    assert_eq!(
        result.model_text().as_deref(),
        Some("Error [ABORTED]: The call was cancelled before it finished; nothing was changed.")
    );
    assert_eq!(result.audit.outcome, ExecutionOutcome::Failed);
}

#[tokio::test(start_paused = true)]
async fn an_aborted_call_does_not_start_nor_use_its_approval() {
    let probe = Arc::new(Probe::default());
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    approve(&approvals, &arguments);
    let abort = AbortHandle::new();
    abort.abort();
    let result = toolbox(&probe)
        .call_with_abort(
            &call("c", "reserve_inventory", &arguments),
            &session(&approvals),
            &abort,
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some("Error [ABORTED]: The call was cancelled before it started; nothing was changed.")
    );
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
    assert_eq!(approvals.unused(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_call_without_an_approval_is_refused_with_what_to_approve() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    let result = toolbox
        .call(
            &call("call_2", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [APPROVAL_REQUIRED]: This call needs the user's approval before it runs. Ask the user to approve it, then make the same call again with the same arguments."
        )
    );
    let error = result.output.error().unwrap();
    assert_eq!(error.category, ErrorCategory::Approval);
    assert_eq!(error.recovery, Recovery::RequestApproval);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
    let request = result.approval_request.unwrap();
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({
            "call_id": "call_2",
            "tool": "reserve_inventory",
            "contract_version": "1.0.0",
            "arguments_sha256": arguments_sha256(&arguments),
            "arguments": {"quantity": 2, "request_id": KEY, "sku": "SKU-1042"}
        })
    );

    // The user approves exactly this call; the model repeats it (spaced
    // differently, without the null) and it runs.
    approvals.grant(request.approve("appr-7"));
    let again = format!(r#"{{"request_id":"{KEY}","sku":"SKU-1042","quantity":2}}"#);
    let result = toolbox
        .call(
            &call("call_3", "reserve_inventory", &again),
            &session(&approvals),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(r#"{"reservation_id":"R-1","expires_at":"2026-05-04T10:00:00Z"}"#)
    );
    assert_eq!(result.audit.approval_id.as_deref(), Some("appr-7"));
    assert_eq!(approvals.unused(), 0);
}

#[tokio::test(start_paused = true)]
async fn an_approval_for_other_arguments_another_version_or_tool_does_not_count() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    let hash = arguments_sha256(&arguments);
    approvals.grant(ApprovalGrant::for_call::<ReserveInventory>(
        "other-args",
        &reserve("SKU-1042", 20),
    ));
    approvals.grant(ApprovalGrant::new(
        "other-version",
        "reserve_inventory",
        Version::new(0, 9, 0),
        hash.clone(),
    ));
    approvals.grant(ApprovalGrant::new(
        "other-tool",
        "release_inventory",
        Version::new(1, 0, 0),
        hash,
    ));
    let result = toolbox
        .call(
            &call("c", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(result.output.error().unwrap().code, "APPROVAL_REQUIRED");
    assert!(
        result
            .model_text()
            .unwrap()
            .contains("needs the user's approval")
    );
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
    assert_eq!(approvals.unused(), 3);
}

#[tokio::test(start_paused = true)]
async fn a_used_approval_cannot_be_replayed() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let arguments = r#"{"cart_ref":"CART-7"}"#;
    approvals.grant(ApprovalGrant::for_call::<DeleteSavedCart>(
        "appr-1", arguments,
    ));
    let first = toolbox
        .call(
            &call("c1", "delete_saved_cart", arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(first.model_text().as_deref(), Some("Deleted CART-7."));
    assert_eq!(first.audit.contract_version, Some(Version::new(2, 1, 0)));
    let second = toolbox
        .call(
            &call("c2", "delete_saved_cart", arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(
        second.model_text().as_deref(),
        Some(
            "Error [APPROVAL_REQUIRED]: The approval for this call was already used; an approval covers one call. Ask the user to approve it again, then repeat the call."
        )
    );
    assert_eq!(
        second.output.error().unwrap().recovery,
        Recovery::RequestApproval
    );
    assert_eq!(second.audit.outcome, ExecutionOutcome::NotStarted);
    assert!(second.approval_request.is_some());
    assert_eq!(probe.runs.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn a_repeated_key_replays_the_recorded_result() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    approve(&approvals, &arguments);
    let first = toolbox
        .call(
            &call("c1", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    let replay = toolbox
        .call(
            &call("c2", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(probe.runs.load(Ordering::SeqCst), 1);
    assert_eq!(
        replay.model_text().as_deref(),
        Some(
            "{\"reservation_id\":\"R-1\",\"expires_at\":\"2026-05-04T10:00:00Z\"}\n\nThis is the recorded result of an earlier call with the same request_id; it was not run again."
        )
    );
    assert_eq!(replay.output.details(), first.output.details());
    assert_eq!(replay.audit.delivery, Delivery::Replayed);
    assert_eq!(replay.audit.outcome, ExecutionOutcome::Completed);
    assert_eq!(replay.audit.approval_id, None);
    assert_eq!(replay.audit.call_id, "c2");
    let mut expected = first.model_result.unwrap();
    expected.execution.delivery = Delivery::Replayed;
    assert_eq!(replay.model_result, Some(expected));

    // The same key with other arguments is refused, not replayed.
    let other = reserve("SKU-1042", 3);
    let refused = toolbox
        .call(
            &call("c3", "reserve_inventory", &other),
            &session(&approvals),
        )
        .await;
    assert_eq!(
        refused.model_text().as_deref(),
        Some(format!(
            "Error [IDEMPOTENCY_KEY_REUSED]: The request_id \"{KEY}\" was already used for a call with other arguments. Use a new request_id for a new request, or repeat the earlier call exactly."
        ))
        .as_deref()
    );
    let error = refused.output.error().unwrap();
    assert_eq!(error.category, ErrorCategory::Conflict);
    assert_eq!(error.recovery, Recovery::FixArguments);

    // Another tenant's key of the same value is another key.
    let globex = Session::new()
        .with(TenantId("globex".into()))
        .with(Subjects::new().with("tenant", "globex"))
        .with(approvals.clone());
    approve(&approvals, &arguments);
    let theirs = toolbox
        .call(&call("c4", "reserve_inventory", &arguments), &globex)
        .await;
    assert_eq!(theirs.audit.delivery, Delivery::Fresh);
    assert_eq!(
        theirs.output.details(),
        &json!({"reservation_id": "R-2", "expires_at": "2026-05-04T10:00:00Z"})
    );
}

#[tokio::test(start_paused = true)]
async fn a_failed_call_is_not_recorded_and_a_running_one_blocks_its_key() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe);
    let approvals = Approvals::new();
    let too_many = reserve("SKU-1042", 20);
    approve(&approvals, &too_many);
    let failed = toolbox
        .call(
            &call("c1", "reserve_inventory", &too_many),
            &session(&approvals),
        )
        .await;
    assert_eq!(
        failed.model_text().as_deref(),
        Some("Error [OUT_OF_STOCK]: Only 12 units are available.")
    );
    assert_eq!(failed.output.error().unwrap().recovery, Recovery::AskUser);
    assert_eq!(failed.audit.outcome, ExecutionOutcome::Failed);
    approve(&approvals, &too_many);
    let again = toolbox
        .call(
            &call("c2", "reserve_inventory", &too_many),
            &session(&approvals),
        )
        .await;
    assert_eq!(again.audit.delivery, Delivery::Fresh);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 2);

    let slow = reserve("SKU-SLOW", 1);
    approve(&approvals, &slow);
    approve(&approvals, &slow);
    let session = session(&approvals);
    let running = call("c3", "reserve_inventory", &slow);
    let (first, second) = tokio::join!(toolbox.call(&running, &session), async {
        tokio::time::sleep(Duration::from_millis(10)).await;
        toolbox
            .call(&call("c4", "reserve_inventory", &slow), &session)
            .await
    });
    assert_eq!(first.output.kind(), OutputKind::Success);
    assert_eq!(
        second.model_text().as_deref(),
        Some(
            "Error [CALL_IN_PROGRESS]: A call with this request_id is still running. Wait for its result before trying again."
        )
    );
    assert_eq!(
        second.output.error().unwrap().recovery,
        Recovery::RetryLater
    );
    // The refused call did not use the second approval.
    assert_eq!(approvals.unused(), 1);
}

/// A store whose database is down.
struct DownStore;

impl IdempotencyStore for DownStore {
    fn claim<'a>(
        &'a self,
        _: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<Claim, IdempotencyError>> {
        Box::pin(async { Err(IdempotencyError::new("connection refused")) })
    }

    fn record<'a>(
        &'a self,
        _: &'a IdempotencyScope,
        _: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(async { Ok(()) })
    }

    fn release<'a>(
        &'a self,
        _: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(async { Ok(()) })
    }
}

#[tokio::test(start_paused = true)]
async fn a_keyed_call_does_not_run_when_its_store_fails() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&probe).with_idempotency_store(Arc::new(DownStore));
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    approve(&approvals, &arguments);
    let result = toolbox
        .call(
            &call("c", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("idempotency store failed: connection refused")
    );
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
    assert_eq!(approvals.unused(), 1);
}
