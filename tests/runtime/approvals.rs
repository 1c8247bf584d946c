//! Approvals and idempotency: a call that needs an approval runs only with
//! one bound to it, once; a repeated idempotency key gets the recorded result.

use crate::runtime_support;
use crate::tools;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;
use tool_contract::{
    Session, approval::ApprovalGrant, approval::Approvals, audit::Subjects,
    audit::arguments_sha256, contract::ErrorCategory, contract::Recovery, contract::Version,
    idempotency::BoxFuture, idempotency::ClaimOutcome, idempotency::IdempotencyError,
    idempotency::IdempotencyRecord, idempotency::IdempotencyScope, idempotency::IdempotencyStore,
    runtime::Delivery, runtime::ExecutionOutcome, runtime::OutputKind,
};

use runtime_support::{
    DeleteSavedCart, KEY, Probe, approve, call, reserve, session, subjects, toolbox,
};
use tools::{ReserveInventory, TenantId};

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
            "subjects": [{"kind": "tenant", "id": "acme"}],
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
    approvals.grant(
        ApprovalGrant::for_call::<ReserveInventory>("other-args", &reserve("SKU-1042", 20))
            .for_subjects(&subjects()),
    );
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
    approvals.grant(
        ApprovalGrant::for_call::<DeleteSavedCart>("appr-1", arguments).for_subjects(&subjects()),
    );
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
    // An approval holds for the subjects it was granted for.
    approvals.grant(
        ApprovalGrant::for_call::<ReserveInventory>("appr-globex", &arguments)
            .for_subjects(&Subjects::new().with("tenant", "globex")),
    );
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
        _: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
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
    // The model reads a retryable refusal; the reason stays in the audit.
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [POLICY_STORE_UNAVAILABLE]: The call was not run because a service it depends on did not answer; nothing was changed. Try again in a moment."
        )
    );
    assert_eq!(
        result.output.error().unwrap().recovery,
        Recovery::RetryLater
    );
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("idempotency store failed: connection refused")
    );
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
    assert_eq!(approvals.unused(), 1);
}
