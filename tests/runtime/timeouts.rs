//! Timeouts and aborts: a call that never finishes is stopped at its
//! limit or when it is cancelled, and its handler's future is dropped.

use crate::runtime_support;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use tool_contract::{
    approval::Approvals, contract::ErrorCategory, contract::Recovery, runtime::AbortHandle,
    runtime::ExecutionOutcome,
};

use runtime_support::{KEY, Probe, approve, assert_within, call, reserve, session, toolbox};

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
async fn a_write_tool_that_times_out_has_an_unknown_outcome_and_its_key_never_runs_again() {
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
            "Error [TIMEOUT]: The call did not finish within 5000 ms and was stopped; it may or may not have taken effect. Ask the user to check before trying again; this request_id will not run a second time."
        )
    );
    assert_eq!(result.output.error().unwrap().recovery, Recovery::AskUser);
    assert_eq!(result.audit.outcome, ExecutionOutcome::Unknown);
    assert_eq!(result.audit.approval_id.as_deref(), Some("appr-1"));
    assert_eq!(result.audit.idempotency_key.as_deref(), Some(KEY));
    assert_eq!(probe.dropped.load(Ordering::SeqCst), 1);
    let model = result.model_result.unwrap();
    assert_eq!(model.execution.outcome, ExecutionOutcome::Unknown);
    assert!(!model.execution.complete);

    // The first run may have taken effect: a retry with its key is refused
    // before its approval is used, and the tool does not run again.
    approve(&approvals, &arguments);
    let retry = toolbox
        .call(
            &call("c2", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(
        retry.model_text().as_deref(),
        Some(
            "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id."
        )
    );
    assert_eq!(retry.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 1);
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
