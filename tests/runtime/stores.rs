//! The runtime's store hooks without a database: an `AuditSink` hears of
//! a write before it runs and of every call when it ends, an
//! `ApprovalStore` replaces the session's approvals, a claim that never
//! ended reads as OUTCOME_UNKNOWN, a store that fails refuses the call
//! retryably, and a shared store requires a principal.

use crate::runtime_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tool_contract::{
    CallContext, Session, Tool, ToolCall, ToolError, ToolOutput, Toolbox, approval::ApprovalCheck,
    approval::ApprovalLookup, approval::ApprovalStore, approval::ApprovalStoreError,
    approval::Approvals, audit::AuditEntry, audit::AuditRecord, audit::AuditSink,
    audit::AuditSinkError, audit::AuditStart, audit::Subjects, contract::Recovery,
    idempotency::BoxFuture, idempotency::ClaimOutcome, idempotency::IdempotencyError,
    idempotency::IdempotencyRecord, idempotency::IdempotencyScope, idempotency::IdempotencyStore,
    idempotency::InMemoryIdempotencyStore, runtime::Delivery, runtime::ExecutionOutcome,
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
async fn a_write_refused_at_its_approval_was_announced_and_ends_not_started() {
    let probe = Arc::new(Probe::default());
    let log = Log::new(&probe, false);
    let toolbox = toolbox(&probe).with_audit_sink(log.clone());
    // No grant: the write is announced before its grant is looked up.
    let result = toolbox
        .call(
            &call("w", "reserve_inventory", &reserve("SKU-1042", 2)),
            &session(&Approvals::new()),
        )
        .await;
    assert_eq!(result.output.error().unwrap().code, "APPROVAL_REQUIRED");
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    // A call refused before it is announced gets only its end.
    let unknown = toolbox
        .call(
            &call("u", "reserve_stock", "{}"),
            &session(&Approvals::new()),
        )
        .await;
    assert_eq!(unknown.output.error().unwrap().code, "UNKNOWN_TOOL");
    assert_eq!(
        log.lines(),
        [
            r#"started w reserve_inventory key=Some("0b7e9a52-5b8f-4d3a-9a57-2f1f6c1d9e10") runs=0"#,
            "ended w entry=Some(7) outcome=not_started runs=0",
            "ended u entry=None outcome=not_started runs=0",
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
async fn an_approval_store_is_the_one_source_of_grants_and_its_failure_refuses_retryably() {
    let probe = Arc::new(Probe::default());
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    // The session holds a grant while the toolbox has a store: the grant
    // would never be read, so the call is a configuration error that says
    // so, not an APPROVAL_REQUIRED the user cannot satisfy.
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
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some(
            "the tool `reserve_inventory` requires approval, and grants are looked for in two places: the toolbox has an approval store (`Toolbox::with_approval_store`) and the session holds `Approvals`, whose grants would never be read; the application must use one: remove `Approvals` from the session and grant through the store, or build the toolbox without the approval store"
        )
    );
    assert_eq!(result.approval_request, None);
    assert_eq!(missing.asked.load(Ordering::SeqCst), 0);
    assert_eq!(approvals.unused(), 1);

    // Without `Approvals` in the session, the store is asked.
    let mut storeless = session(&approvals);
    storeless.remove::<Approvals>();
    let result = with_store
        .call(&call("c", "reserve_inventory", &arguments), &storeless)
        .await;
    assert_eq!(result.output.error().unwrap().code, "APPROVAL_REQUIRED");
    assert_eq!(missing.asked.load(Ordering::SeqCst), 1);

    let down = Arc::new(FixedApprovals {
        answer: Err(ApprovalStoreError::new("connection reset")),
        asked: AtomicUsize::new(0),
    });
    let result = toolbox(&probe)
        .with_approval_store(down)
        .call(&call("c", "reserve_inventory", &arguments), &storeless)
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
        _: Duration,
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

/// An in-memory store that notes the hold of every claim.
struct Holds {
    inner: InMemoryIdempotencyStore,
    holds: Mutex<Vec<Duration>>,
}

impl Holds {
    fn new(lease: Duration) -> Arc<Holds> {
        Arc::new(Holds {
            inner: InMemoryIdempotencyStore::new().with_lease(lease),
            holds: Mutex::new(Vec::new()),
        })
    }

    fn holds(&self) -> Vec<Duration> {
        self.holds.lock().unwrap().clone()
    }
}

impl IdempotencyStore for Holds {
    fn claim<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        hold: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
        self.holds.lock().unwrap().push(hold);
        self.inner.claim(scope, hold)
    }

    fn record<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        record: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        self.inner.record(scope, record)
    }

    fn release<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        self.inner.release(scope)
    }
}

/// A toolbox with `send_voucher`, whose handler takes `seconds` of Tokio's
/// clock, over `store`.
fn voucher_toolbox(
    store: Arc<dyn IdempotencyStore>,
    runs: &Arc<AtomicUsize>,
    seconds: u64,
) -> Toolbox {
    let mut toolbox = Toolbox::new().with_idempotency_store(store);
    let counted = Arc::clone(runs);
    toolbox.register(move |call: SendVoucher, _: CallContext| {
        let counted = Arc::clone(&counted);
        async move {
            let run = counted.fetch_add(1, Ordering::SeqCst) + 1;
            tokio::time::sleep(Duration::from_secs(seconds)).await;
            Ok::<_, ToolError>(format!("Voucher {run} for {}", call.complaint_ref))
        }
    });
    toolbox
}

const VOUCHER: &str = r#"{"complaint_ref": "CMP-1", "request_id": "k-1"}"#;

#[tokio::test(start_paused = true)]
async fn a_keyed_call_running_past_the_stores_lease_is_never_run_twice() {
    let runs = Arc::new(AtomicUsize::new(0));
    // A lease of 1 s, a call of 20 s (within its 30 s limit).
    let store = Holds::new(Duration::from_secs(1));
    let toolbox = voucher_toolbox(store.clone(), &runs, 20);
    let session = Session::new();
    let v1 = ToolCall::new("v1", "send_voucher", VOUCHER);
    let first = toolbox.call(&v1, &session);
    let retry = async {
        tokio::time::sleep(Duration::from_secs(10)).await;
        toolbox
            .call(&ToolCall::new("v2", "send_voucher", VOUCHER), &session)
            .await
    };
    let (first, retry) = tokio::join!(first, retry);
    assert_eq!(first.model_text().as_deref(), Some("Voucher 1 for CMP-1"));
    assert_eq!(
        retry.model_text().as_deref(),
        Some(
            "Error [CALL_IN_PROGRESS]: A call with this request_id is still running. Wait for its result before trying again."
        )
    );
    assert_eq!(retry.audit.outcome, ExecutionOutcome::NotStarted);
    let later = toolbox
        .call(&ToolCall::new("v3", "send_voucher", VOUCHER), &session)
        .await;
    assert_eq!(later.audit.delivery, Delivery::Replayed);
    assert!(
        matches!(&later.output, ToolOutput::Success { content_text, .. } if content_text == "Voucher 1 for CMP-1"),
        "{:?}",
        later.output
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // Every claim holds the key for the call's limit plus the grace.
    assert_eq!(store.holds(), [Duration::from_secs(90); 3]);
}

/// Send a gift voucher code at once.
///
/// Use it once the customer accepted a voucher; sending is a write that
/// must finish within a tenth of a second.
#[derive(Debug, Tool)]
#[tool(effect = "write", timeout_ms = 100)]
struct SendVoucherNow {
    /// The complaint's reference as the app shows it, e.g. "CMP-7".
    complaint_ref: String,
    /// A key the model makes up once per voucher and repeats when it
    /// retries.
    #[tool(idempotency_key)]
    request_id: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocking_handler_that_outlives_its_time_limit_keeps_its_key() {
    let runs = Arc::new(AtomicUsize::new(0));
    // A lease of zero: only the hold and the record keep the key.
    let store = Holds::new(Duration::ZERO);
    let mut toolbox = Toolbox::new().with_idempotency_store(store.clone());
    let (release, released) = std::sync::mpsc::channel::<()>();
    let released = Mutex::new(released);
    let counted = Arc::clone(&runs);
    toolbox.register_blocking(move |call: SendVoucherNow, _: CallContext| {
        counted.fetch_add(1, Ordering::SeqCst);
        // The thread runs on after the call timed out, until released.
        let _ = released
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(60));
        Ok::<_, ToolError>(call.complaint_ref)
    });
    let call = |id: &str| ToolCall::new(id, "send_voucher_now", VOUCHER);
    let session = Session::new();
    let first = toolbox.call(&call("b1"), &session).await;
    assert_eq!(first.output.error().unwrap().code, "TIMEOUT");
    assert_eq!(first.audit.outcome, ExecutionOutcome::Unknown);
    // The first thread still runs: a retry is refused, never run beside it.
    let retry = toolbox.call(&call("b2"), &session).await;
    assert_eq!(
        retry.model_text().as_deref(),
        Some(
            "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id."
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    release.send(()).unwrap();
    assert_eq!(store.holds(), [Duration::from_millis(60_100); 2]);
}

/// An audit sink whose `started` takes as long as it is told, once.
struct SlowStart {
    delay: Mutex<Option<Duration>>,
}

impl AuditSink for SlowStart {
    fn started<'a>(
        &'a self,
        _: &'a AuditStart,
    ) -> BoxFuture<'a, Result<AuditEntry, AuditSinkError>> {
        let delay = self.delay.lock().unwrap().take();
        Box::pin(async move {
            if let Some(delay) = delay {
                tokio::time::sleep(delay).await;
            }
            Ok(AuditEntry::new(1))
        })
    }

    fn ended<'a>(
        &'a self,
        _: Option<AuditEntry>,
        _: &'a AuditRecord,
    ) -> BoxFuture<'a, Result<(), AuditSinkError>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

#[tokio::test(start_paused = true)]
async fn a_keyed_call_whose_checks_outlast_half_the_grace_is_not_run_and_frees_its_key() {
    let runs = Arc::new(AtomicUsize::new(0));
    let store = Holds::new(Duration::ZERO);
    let sink = Arc::new(SlowStart {
        delay: Mutex::new(Some(Duration::from_secs(31))),
    });
    let toolbox = voucher_toolbox(store.clone(), &runs, 0).with_audit_sink(sink);
    let session = Session::new();
    let start = tokio::time::Instant::now();
    let slow = toolbox
        .call(&ToolCall::new("s1", "send_voucher", VOUCHER), &session)
        .await;
    assert_eq!(slow.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(slow.audit.outcome, ExecutionOutcome::NotStarted);
    // The sink is given up on once the steps' share of the grace is used.
    assert_eq!(
        slow.audit.internal_detail.as_deref(),
        Some(
            "the audit sink did not answer `started` within 30000 ms (half of the toolbox's claim grace); the call was not run"
        )
    );
    assert_eq!(start.elapsed(), Duration::from_secs(30));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    // The key was released: the retry runs.
    let retry = toolbox
        .call(&ToolCall::new("s2", "send_voucher", VOUCHER), &session)
        .await;
    assert_eq!(retry.model_text().as_deref(), Some("Voucher 1 for CMP-1"));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// An idempotency store that is not set up: every claim fails as
/// misconfigured.
struct Unmigrated;

impl IdempotencyStore for Unmigrated {
    fn claim<'a>(
        &'a self,
        _: &'a IdempotencyScope,
        _: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
        Box::pin(std::future::ready(Err(IdempotencyError::misconfigured(
            "the table is missing; run migrate()",
        ))))
    }

    fn record<'a>(
        &'a self,
        _: &'a IdempotencyScope,
        _: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn release<'a>(
        &'a self,
        _: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// An audit sink that is not set up: `started` fails as misconfigured.
struct UnmigratedSink;

impl AuditSink for UnmigratedSink {
    fn started<'a>(
        &'a self,
        _: &'a AuditStart,
    ) -> BoxFuture<'a, Result<AuditEntry, AuditSinkError>> {
        Box::pin(std::future::ready(Err(AuditSinkError::misconfigured(
            "no grant on the audit table",
        ))))
    }

    fn ended<'a>(
        &'a self,
        _: Option<AuditEntry>,
        _: &'a AuditRecord,
    ) -> BoxFuture<'a, Result<(), AuditSinkError>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

#[tokio::test(start_paused = true)]
async fn a_store_that_is_not_set_up_ends_the_call_fatal_rather_than_asking_for_a_retry() {
    use tool_contract::runtime::StoreFault;

    assert_eq!(IdempotencyError::new("x").fault(), StoreFault::Unavailable);
    assert_eq!(
        IdempotencyError::misconfigured("x").fault(),
        StoreFault::Misconfigured
    );

    // The claim of a keyed call.
    let runs = Arc::new(AtomicUsize::new(0));
    let mut keyed = Toolbox::new().with_idempotency_store(Arc::new(Unmigrated));
    let counted = Arc::clone(&runs);
    keyed.register(move |call: SendVoucher, _: CallContext| {
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
    let result = keyed.call(&voucher, &Session::new()).await;
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("idempotency store failed: the table is missing; run migrate()")
    );

    // The audit sink's `started`.
    let probe = Arc::new(Probe::default());
    let approvals = Approvals::new();
    let arguments = reserve("SKU-1042", 2);
    approve(&approvals, &arguments);
    let result = toolbox(&probe)
        .with_audit_sink(Arc::new(UnmigratedSink))
        .call(
            &call("c", "reserve_inventory", &arguments),
            &session(&approvals),
        )
        .await;
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("audit sink failed: no grant on the audit table")
    );
    assert_eq!(approvals.unused(), 1);

    // The approval store's `consume`.
    let unmigrated = Arc::new(FixedApprovals {
        answer: Err(ApprovalStoreError::misconfigured(
            "the grants table is missing",
        )),
        asked: AtomicUsize::new(0),
    });
    let mut storeless = session(&approvals);
    storeless.remove::<Approvals>();
    let result = toolbox(&probe)
        .with_approval_store(unmigrated.clone())
        .call(&call("c", "reserve_inventory", &arguments), &storeless)
        .await;
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("approval store failed: the grants table is missing")
    );
    assert_eq!(unmigrated.asked.load(Ordering::SeqCst), 1);
    assert_eq!(probe.runs.load(Ordering::SeqCst), 0);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyed_call_whose_future_is_dropped_while_it_runs_keeps_its_key() {
    let runs = Arc::new(AtomicUsize::new(0));
    // A lease of zero: the hold keeps the key `CALL_IN_PROGRESS` for 90 s;
    // only the dropped call's record makes it `OUTCOME_UNKNOWN` sooner
    // (and for good).
    let store = Holds::new(Duration::ZERO);
    let mut toolbox = Toolbox::new().with_idempotency_store(store.clone());
    let (started, running) = std::sync::mpsc::channel::<()>();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let released = Mutex::new(released);
    let started = Mutex::new(started);
    let counted = Arc::clone(&runs);
    toolbox.register_blocking(move |call: SendVoucher, _: CallContext| {
        counted.fetch_add(1, Ordering::SeqCst);
        started.lock().unwrap().send(()).unwrap();
        let _ = released
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(60));
        Ok::<_, ToolError>(call.complaint_ref)
    });
    let toolbox = Arc::new(toolbox);
    let voucher = |id: &str| {
        ToolCall::new(
            id,
            "send_voucher",
            r#"{"complaint_ref": "CMP-1", "request_id": "k-1"}"#,
        )
    };
    let first = {
        let toolbox = Arc::clone(&toolbox);
        let call = voucher("d1");
        tokio::spawn(async move { toolbox.call(&call, &Session::new()).await })
    };
    tokio::task::spawn_blocking(move || running.recv_timeout(Duration::from_secs(30)))
        .await
        .unwrap()
        .unwrap();
    // The caller gives up: the call's future is dropped, its thread runs on.
    first.abort();
    assert!(first.await.unwrap_err().is_cancelled());
    // The guard's record is written on a task of its own.
    let mut retry = None;
    for _ in 0..300 {
        let answer = toolbox.call(&voucher("d2"), &Session::new()).await;
        if answer.output.error().map(|error| &*error.code) != Some("CALL_IN_PROGRESS") {
            retry = Some(answer);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        retry.unwrap().model_text().as_deref(),
        Some(
            "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id."
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    release.send(()).unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_key_stopped_while_it_ran_stays_held_when_the_store_drops_its_record_for_room() {
    let runs = Arc::new(AtomicUsize::new(0));
    let store = Arc::new(
        InMemoryIdempotencyStore::new()
            .with_lease(Duration::ZERO)
            .with_max_records(1),
    );
    let mut toolbox = Toolbox::new()
        .with_idempotency_store(store.clone())
        .with_claim_grace(Duration::from_secs(60));
    let counted = Arc::clone(&runs);
    toolbox.register(move |call: SendVoucherNow, _: CallContext| {
        counted.fetch_add(1, Ordering::SeqCst);
        async move {
            if call.request_id == "k-1" {
                std::future::pending::<()>().await;
            }
            Ok::<_, ToolError>(call.complaint_ref)
        }
    });
    let voucher = |id: &str, key: &str| {
        ToolCall::new(
            id,
            "send_voucher_now",
            format!(r#"{{"complaint_ref": "CMP-1", "request_id": "{key}"}}"#),
        )
    };
    let session = Session::new();
    let first = toolbox.call(&voucher("u1", "k-1"), &session).await;
    assert_eq!(first.output.error().unwrap().code, "TIMEOUT");
    assert_eq!(first.audit.outcome, ExecutionOutcome::Unknown);
    // Two later calls fill the store: the record of `k-1` goes.
    for (id, key) in [("u2", "k-2"), ("u3", "k-3")] {
        let answer = toolbox.call(&voucher(id, key), &session).await;
        assert_eq!(answer.model_text().as_deref(), Some("CMP-1"));
    }
    assert_eq!(store.len(), 1);
    // Within the first call's hold (100 ms + 60 s) its key is not free.
    let retry = toolbox.call(&voucher("u4", "k-1"), &session).await;
    assert_eq!(
        retry.model_text().as_deref(),
        Some(
            "Error [CALL_IN_PROGRESS]: A call with this request_id is still running. Wait for its result before trying again."
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 3);
    // Past the hold the in-memory store frees it, as it frees any lease.
    tokio::time::advance(Duration::from_millis(60_100)).await;
    let later = toolbox.call(&voucher("u5", "k-1"), &session).await;
    assert_eq!(later.output.error().unwrap().code, "TIMEOUT");
    assert_eq!(runs.load(Ordering::SeqCst), 4);
}

/// A paused current-thread runtime of its own, for a test that drops a
/// call's future outside any runtime or while its runtime shuts down.
fn paused_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

#[test]
fn a_keyed_call_dropped_outside_a_runtime_or_by_one_shutting_down_keeps_its_key() {
    let runs = Arc::new(AtomicUsize::new(0));
    // A lease of zero: without the dropped calls' records, their keys
    // would be free once their holds (30 s + 60 s) end.
    let store = Arc::new(InMemoryIdempotencyStore::new().with_lease(Duration::ZERO));
    let mut toolbox = Toolbox::new().with_idempotency_store(store.clone());
    let counted = Arc::clone(&runs);
    toolbox.register(move |_: SendVoucher, _: CallContext| {
        counted.fetch_add(1, Ordering::SeqCst);
        std::future::pending::<Result<String, ToolError>>()
    });
    let toolbox = Arc::new(toolbox);
    let voucher = |id: &str, key: &str| {
        ToolCall::new(
            id,
            "send_voucher",
            format!(r#"{{"complaint_ref": "CMP-1", "request_id": "{key}"}}"#),
        )
    };
    let session = Session::new();

    // Polled on a runtime until its handler runs, dropped outside any.
    let runtime = paused_runtime();
    let first = voucher("o1", "k-1");
    let mut running = Box::pin(toolbox.call(&first, &session));
    runtime.block_on(std::future::poll_fn(|cx| {
        assert!(running.as_mut().poll(cx).is_pending());
        if runs.load(Ordering::SeqCst) == 1 {
            std::task::Poll::Ready(())
        } else {
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }));
    drop(running);

    // Run as a task of a runtime that is then shut down, dropping it.
    let second = {
        let runtime = paused_runtime();
        let toolbox = Arc::clone(&toolbox);
        let call = voucher("s1", "k-2");
        runtime.spawn(async move { toolbox.call(&call, &Session::new()).await });
        runtime.block_on(async {
            while runs.load(Ordering::SeqCst) < 2 {
                tokio::task::yield_now().await;
            }
        });
        runtime
    };
    drop(second);

    let later = paused_runtime();
    later.block_on(async {
        tokio::time::advance(Duration::from_secs(3600)).await;
        for (id, key) in [("o2", "k-1"), ("s2", "k-2")] {
            let retry = toolbox.call(&voucher(id, key), &session).await;
            assert_eq!(
                retry.model_text().as_deref(),
                Some(
                    "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id."
                ),
                "{id}"
            );
        }
    });
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert_eq!(store.len(), 2);
}

/// An idempotency store over the in-memory one whose claims, or first
/// record, never answer (a database that froze mid-statement).
struct Frozen {
    inner: InMemoryIdempotencyStore,
    claims: bool,
    records: AtomicUsize,
}

impl IdempotencyStore for Frozen {
    fn claim<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        hold: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
        if self.claims {
            return Box::pin(std::future::pending());
        }
        self.inner.claim(scope, hold)
    }

    fn record<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        record: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        if self.records.fetch_add(1, Ordering::SeqCst) == 0 {
            return Box::pin(std::future::pending());
        }
        self.inner.record(scope, record)
    }

    fn release<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        self.inner.release(scope)
    }
}

#[tokio::test(start_paused = true)]
async fn a_store_that_never_answers_a_claim_or_a_record_loses_no_answer_and_runs_nothing_twice() {
    let runs = Arc::new(AtomicUsize::new(0));
    let session = Session::new();
    let frozen_claims = Arc::new(Frozen {
        inner: InMemoryIdempotencyStore::new(),
        claims: true,
        records: AtomicUsize::new(0),
    });
    let toolbox = voucher_toolbox(frozen_claims, &runs, 0);
    let start = tokio::time::Instant::now();
    let calls = [
        ToolCall::new("f1", "send_voucher", VOUCHER),
        ToolCall::new(
            "f2",
            "send_voucher",
            r#"{"complaint_ref": "CMP-2", "request_id": "k-2"}"#,
        ),
    ];
    let results = toolbox
        .call_turn(
            &calls,
            &session,
            &tool_contract::runtime::AbortHandle::new(),
        )
        .await;
    for result in &results {
        assert_eq!(result.model_text().as_deref(), Some(UNAVAILABLE));
        assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
        assert_eq!(
            result.audit.internal_detail.as_deref(),
            Some(
                "the idempotency store did not answer the claim within 30000 ms (half of the toolbox's claim grace); the call was not run"
            )
        );
    }
    assert_eq!(start.elapsed(), Duration::from_secs(30));
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // The record of a call that ran is not confirmed: the answer stands,
    // and the key is recorded unknown, never run again.
    let frozen_record = Arc::new(Frozen {
        inner: InMemoryIdempotencyStore::new(),
        claims: false,
        records: AtomicUsize::new(0),
    });
    let toolbox = voucher_toolbox(frozen_record.clone(), &runs, 0);
    let start = tokio::time::Instant::now();
    let ran = toolbox
        .call(&ToolCall::new("r1", "send_voucher", VOUCHER), &session)
        .await;
    assert_eq!(ran.model_text().as_deref(), Some("Voucher 1 for CMP-1"));
    assert_eq!(ran.audit.outcome, ExecutionOutcome::Completed);
    assert_eq!(
        ran.audit.internal_detail.as_deref(),
        Some(
            "the idempotency store did not confirm the call's record within 30000 ms; its key is being recorded as unknown"
        )
    );
    assert_eq!(start.elapsed(), Duration::from_secs(30));
    let retry = toolbox
        .call(&ToolCall::new("r2", "send_voucher", VOUCHER), &session)
        .await;
    assert_eq!(
        retry.model_text().as_deref(),
        Some(
            "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id."
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    assert_eq!(frozen_record.records.load(Ordering::SeqCst), 2);
}
