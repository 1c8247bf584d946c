//! The runtime's store hooks without a database: an `AuditSink` hears of
//! a write before it runs and of every call when it ends, an
//! `ApprovalStore` replaces the session's approvals, a claim that never
//! ended reads as OUTCOME_UNKNOWN, a store that fails refuses the call
//! retryably, and a shared store requires a principal.

mod runtime_support;
#[path = "../examples/tools/mod.rs"]
mod tools;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tool_contract::{
    CallContext, Session, Tool, ToolCall, ToolError, ToolOutput, Toolbox, approval::ApprovalCheck,
    approval::ApprovalLookup, approval::ApprovalStore, approval::ApprovalStoreError,
    approval::Approvals, audit::AuditEntry, audit::AuditRecord, audit::AuditSink,
    audit::AuditSinkError, audit::AuditStart, audit::Subjects, contract::Recovery,
    idempotency::BoxFuture, idempotency::ClaimOutcome, idempotency::IdempotencyError,
    idempotency::IdempotencyRecord, idempotency::IdempotencyScope, idempotency::IdempotencyStore,
    runtime::ExecutionOutcome,
};

use runtime_support::{Probe, approve, call, reserve, session, toolbox};

const UNAVAILABLE: &str = "Error [POLICY_STORE_UNAVAILABLE]: The call was not run because a service it depends on did not answer; nothing was changed. Try again in a moment.";

/// Writes what it hears, with how often the handlers had run by then.
struct Log {
    probe: Arc<Probe>,
    lines: Mutex<Vec<String>>,
    fail: bool,
}

impl Log {
    fn new(probe: &Arc<Probe>, fail: bool) -> Arc<Log> {
        Arc::new(Log {
            probe: Arc::clone(probe),
            lines: Mutex::new(Vec::new()),
            fail,
        })
    }

    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }
}

impl AuditSink for Log {
    fn started<'a>(
        &'a self,
        start: &'a AuditStart,
    ) -> BoxFuture<'a, Result<AuditEntry, AuditSinkError>> {
        let runs = self.probe.runs.load(Ordering::SeqCst);
        self.lines.lock().unwrap().push(format!(
            "started {} {} key={:?} runs={runs}",
            start.call_id, start.tool, start.idempotency_key
        ));
        let answer = if self.fail {
            Err(AuditSinkError::new("disk full"))
        } else {
            Ok(AuditEntry::new(7))
        };
        Box::pin(std::future::ready(answer))
    }

    fn ended<'a>(
        &'a self,
        entry: Option<AuditEntry>,
        record: &'a AuditRecord,
    ) -> BoxFuture<'a, Result<(), AuditSinkError>> {
        let runs = self.probe.runs.load(Ordering::SeqCst);
        self.lines.lock().unwrap().push(format!(
            "ended {} entry={:?} outcome={} runs={runs}",
            record.call_id,
            entry.map(AuditEntry::id),
            record.outcome.as_str()
        ));
        let answer = if self.fail {
            Err(AuditSinkError::new("disk full"))
        } else {
            Ok(())
        };
        Box::pin(std::future::ready(answer))
    }
}

#[tokio::test(start_paused = true)]
async fn a_write_is_announced_before_it_runs_and_every_call_ends_in_the_sink() {
    let probe = Arc::new(Probe::default());
    let log = Log::new(&probe, false);
    let toolbox = toolbox(&probe).with_audit_sink(log.clone());
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    approve(&approvals, &arguments);
    let write = toolbox
        .call(
            &call("w", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(write.audit.outcome, ExecutionOutcome::Completed);
    let read = toolbox
        .call(
            &call(
                "r",
                "get_inventory",
                r#"{"sku": "SKU-1042", "warehouse": null}"#,
            ),
            &session(&approvals),
        )
        .await;
    assert_eq!(read.audit.outcome, ExecutionOutcome::Completed);
    assert_eq!(read.audit.internal_detail, None);
    assert_eq!(
        log.lines(),
        [
            r#"started w reserve_inventory key=Some("0b7e9a52-5b8f-4d3a-9a57-2f1f6c1d9e10") runs=0"#,
            "ended w entry=Some(7) outcome=completed runs=1",
            "ended r entry=None outcome=completed runs=2",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn a_failing_sink_keeps_a_write_from_running_and_its_grant_unused_but_a_read_runs() {
    let probe = Arc::new(Probe::default());
    let log = Log::new(&probe, true);
    let toolbox = toolbox(&probe).with_audit_sink(log.clone());
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    approve(&approvals, &arguments);
    let write = toolbox
        .call(
            &call("w", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(write.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(write.output.error().unwrap().recovery, Recovery::RetryLater);
    assert_eq!(write.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        write.audit.internal_detail.as_deref(),
        Some("audit sink failed: disk full; audit sink failed: disk full")
    );
    assert_eq!(approvals.unused(), 1);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);

    let read = toolbox
        .call(
            &call(
                "r",
                "get_inventory",
                r#"{"sku": "SKU-1042", "warehouse": null}"#,
            ),
            &session(&approvals),
        )
        .await;
    assert_eq!(read.audit.outcome, ExecutionOutcome::Completed);
    assert_eq!(
        read.model_text().as_deref(),
        Some(r#"{"sku":"SKU-1042","available":12,"reserved":0}"#)
    );
    assert_eq!(
        read.audit.internal_detail.as_deref(),
        Some("audit sink failed: disk full")
    );
    assert_eq!(probe.runs.load(Ordering::SeqCst), 1);
}

/// An approval store that answers one thing and counts its calls.
struct FixedApprovals {
    answer: Result<ApprovalCheck, ApprovalStoreError>,
    asked: AtomicUsize,
}

impl ApprovalStore for FixedApprovals {
    fn consume<'a>(
        &'a self,
        call: ApprovalLookup<'a>,
    ) -> BoxFuture<'a, Result<ApprovalCheck, ApprovalStoreError>> {
        assert_eq!(call.tool, "reserve_inventory");
        assert_eq!(
            call.subjects,
            Subjects::new().with("tenant", "acme").as_slice()
        );
        self.asked.fetch_add(1, Ordering::SeqCst);
        Box::pin(std::future::ready(self.answer.clone()))
    }
}

#[tokio::test(start_paused = true)]
async fn an_approval_store_replaces_the_sessions_approvals_and_its_failure_refuses_retryably() {
    let probe = Arc::new(Probe::default());
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    // The session holds a grant, but the toolbox's store is what counts.
    approve(&approvals, &arguments);
    let missing = Arc::new(FixedApprovals {
        answer: Ok(ApprovalCheck::Missing),
        asked: AtomicUsize::new(0),
    });
    let with_store = toolbox(&probe).with_approval_store(missing.clone());
    let result = with_store
        .call(
            &call("c", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(result.output.error().unwrap().code, "APPROVAL_REQUIRED");
    assert_eq!(missing.asked.load(Ordering::SeqCst), 1);
    assert_eq!(approvals.unused(), 1);

    let down = Arc::new(FixedApprovals {
        answer: Err(ApprovalStoreError::new("connection reset")),
        asked: AtomicUsize::new(0),
    });
    let result = toolbox(&probe)
        .with_approval_store(down)
        .call(
            &call("c", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(result.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("approval store failed: connection reset")
    );
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
}

/// A shared idempotency store whose every key was abandoned.
struct Abandoned;

impl IdempotencyStore for Abandoned {
    fn claim<'a>(
        &'a self,
        _: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
        Box::pin(std::future::ready(Ok(ClaimOutcome::Abandoned)))
    }

    fn record<'a>(
        &'a self,
        _: &'a IdempotencyScope,
        _: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(std::future::ready(Err(IdempotencyError::new("not held"))))
    }

    fn release<'a>(
        &'a self,
        _: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(std::future::ready(Err(IdempotencyError::new("not held"))))
    }

    fn requires_principal(&self) -> bool {
        true
    }
}

/// Send a gift voucher code to the customer.
///
/// Use it once the customer accepted a voucher; sending is a write.
#[derive(Debug, Tool)]
#[tool(effect = "write")]
struct SendVoucher {
    /// The complaint's reference as the app shows it, e.g. "CMP-7".
    complaint_ref: String,
    /// A key the model makes up once per voucher and repeats when it
    /// retries.
    #[tool(idempotency_key)]
    request_id: String,
}

#[tokio::test(start_paused = true)]
async fn an_abandoned_key_reads_as_outcome_unknown_and_a_shared_store_needs_a_principal() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new().with_idempotency_store(Arc::new(Abandoned));
    let counted = Arc::clone(&runs);
    toolbox.register(move |call: SendVoucher, _: CallContext| {
        let counted = Arc::clone(&counted);
        async move {
            counted.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(call.complaint_ref)
        }
    });
    let voucher = ToolCall::new(
        "v",
        "send_voucher",
        r#"{"complaint_ref": "CMP-1", "request_id": "k-1"}"#,
    );
    let named = Session::new().with(Subjects::new().with("customer", "cus_42"));
    let result = toolbox.call(&voucher, &named).await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id started but never reported its end; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id."
        )
    );
    assert_eq!(result.output.error().unwrap().recovery, Recovery::AskUser);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(result.audit.internal_detail, None);

    let anonymous = toolbox.call(&voucher, &Session::new()).await;
    assert_eq!(anonymous.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(
        anonymous.audit.internal_detail.as_deref(),
        Some(
            "the tool `send_voucher` uses an idempotency key kept in a shared store, but the session names no one (no `Subjects`, or an empty one) to scope them by; the application must add the principal's subjects with `Session::with`"
        )
    );
    // Without a shared store the same tool needs no principal (as before).
    let mut local = Toolbox::new();
    local.register(|call: SendVoucher, _: CallContext| async move {
        Ok::<_, ToolError>(call.complaint_ref)
    });
    let result = local.call(&voucher, &Session::new()).await;
    assert_eq!(result.model_text().as_deref(), Some("CMP-1"));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}
