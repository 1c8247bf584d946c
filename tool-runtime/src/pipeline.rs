//! One call from start to end: look-up, parse, idempotency, approval, run
//! under a timeout and an abort handle, then the output, model result,
//! audit record and trace.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, PoisonError};
use std::time::{Duration, SystemTime};

use serde_json::Value;
use tokio::time::Instant;
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::abort::AbortHandle;
use crate::approval::{ApprovalCheck, ApprovalLookup, ApprovalRequest, ApprovalStore, Approvals};
use crate::audit::{AUDIT_SCHEMA_VERSION, AuditRecord, Subject, Subjects};
use crate::audit_sink::{AuditEntry, AuditSink};
use crate::call_result::CallResult;
use crate::claim_guard::ClaimGuard;
use crate::handler::{
    CallContext, CatchUnwind, DropPanic, HandlerResult, Notes, Parsed, take_panic,
};
use crate::idempotency::{ClaimOutcome, IdempotencyRecord, IdempotencyScope};
use crate::messages::{
    aborted, approval_required, cut, empty_key, in_progress, key_reused, outcome_unknown,
    stopped_earlier, store_unavailable, timeout, unknown_tool,
};
use crate::model_result::{
    ContentTrust, Delivery, Execution, ExecutionOutcome, ModelResult, Provenance, format_rfc3339,
    version_text,
};
use crate::principal::principal;
use crate::recipients;
use crate::store_fault::StoreFault;
use crate::toolbox::{Either, Toolbox, race};
use crate::versions::Resolution;
use tool_core::ToolCall;
use tool_core::outcome::{CanonicalArguments, arguments_sha256, sha256_hex};
use tool_core::{Approval, Effect, Idempotency, ToolContract};
use tool_core::{Exposure, Session};
use tool_core::{OutputKind, ToolError, ToolOutput};

/// The longest tool name kept in the audit record and the trace.
const MAX_NAME_CHARS: usize = 256;

/// What a call gathers on its way, for the audit record.
pub(super) struct Draft {
    contract: Option<&'static ToolContract>,
    pub(super) subjects: Vec<Subject>,
    pub(super) arguments_sha256: String,
    /// The canonical arguments of a call that parsed.
    canonical: Option<CanonicalArguments>,
    approval_id: Option<String>,
    approval_request: Option<ApprovalRequest>,
    pub(super) idempotency_key: Option<String>,
    undeclared_error_code: Option<String>,
    internal_detail: Option<String>,
    /// The audit sink's entry for a write or destructive call it was told of.
    pub(super) audit_entry: Option<AuditEntry>,
    /// When the call started, RFC 3339.
    pub(super) started_at: String,
    /// Whether the toolbox's clock panicked during this call (it is
    /// reported once).
    clock_panicked: bool,
}

/// How a call ended, before it is written into the audit record.
pub(super) struct Finished {
    output: ToolOutput,
    model_result: Option<ModelResult>,
    outcome: ExecutionOutcome,
    delivery: Delivery,
}

impl Toolbox {
    pub(super) async fn run_call(
        &self,
        call: &ToolCall,
        session: &Session,
        abort: Option<&AbortHandle>,
        refusal: Option<ToolError>,
    ) -> CallResult {
        let name = cut(&call.name, MAX_NAME_CHARS);
        let mut draft = Draft {
            started_at: String::new(),
            clock_panicked: false,
            audit_entry: None,
            contract: None,
            subjects: session
                .get::<Subjects>()
                .map(|subjects| subjects.as_slice().to_vec())
                .unwrap_or_default(),
            arguments_sha256: String::new(),
            canonical: None,
            approval_id: None,
            approval_request: None,
            idempotency_key: None,
            undeclared_error_code: None,
            internal_detail: None,
        };
        let now = self.now(&mut draft);
        draft.started_at = format_rfc3339(now);
        // The version of the tool this call reaches: its session's pin, else
        // the newest that is not retired at the time the call started.
        let resolution = self.resolve(&call.name, session, || now);
        let version = resolution.contract().map(ToolContract::version);
        let span = tracing::info_span!(
            "tool_call",
            tool = %name,
            version = version.map(tracing::field::display),
            call_id = %call.call_id,
            outcome = Empty,
            result = Empty,
            code = Empty,
            delivery = Empty,
            duration_ms = Empty,
        );
        let started = Instant::now();
        // Everything a call runs outside its handler's future is contained
        // too (a parsed call's destructor on a refusal, an idempotency
        // store): a panic there is this call's fatal `INTERNAL`, and the
        // other calls of the turn go on.
        let slot = DropPanic::default();
        let steps = Box::pin(self.steps(call, session, abort, refusal, &resolution, &mut draft));
        let ended = CatchUnwind::new(steps, &slot)
            .instrument(span.clone())
            .await;
        let dropped = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        let finished = match (ended, dropped) {
            (Ok(finished), None) => finished,
            (ended, dropped) => {
                let message: Vec<String> = [ended.err(), dropped].into_iter().flatten().collect();
                let message = message.join("; ");
                // The call may have run before it panicked.
                let outcome = match draft.contract.map(ToolContract::effect) {
                    Some(Effect::Read) => ExecutionOutcome::Failed,
                    _ => ExecutionOutcome::Unknown,
                };
                draft.approval_request = None;
                let detail = format!("the call panicked outside its handler: {message}");
                span.in_scope(|| self.fatal(&mut draft, outcome, detail))
            }
        };
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);

        let result = finished.output.kind();
        let error_code = finished.output.error().map(|error| error.code.to_string());
        span.record("outcome", finished.outcome.as_str());
        span.record("result", result.as_str());
        span.record("code", error_code.as_deref().unwrap_or(""));
        span.record("delivery", finished.delivery.as_str());
        span.record("duration_ms", duration_ms);
        span.in_scope(|| match result {
            OutputKind::Fatal => tracing::error!(
                internal_detail = draft.internal_detail.as_deref().unwrap_or(""),
                "tool call failed; the run must stop"
            ),
            OutputKind::RespondToModel => tracing::info!(
                undeclared_error_code = draft.undeclared_error_code.as_deref().unwrap_or(""),
                "tool call answered with an error"
            ),
            OutputKind::Success => tracing::info!("tool call succeeded"),
        });

        let mut audit = AuditRecord {
            schema_version: AUDIT_SCHEMA_VERSION.to_owned(),
            call_id: call.call_id.clone(),
            tool: name.into_owned(),
            contract_version: draft.contract.map(ToolContract::version),
            subjects: draft.subjects,
            started_at: draft.started_at,
            duration_ms,
            arguments_sha256: draft.arguments_sha256,
            result,
            error_code,
            outcome: finished.outcome,
            delivery: finished.delivery,
            approval_id: draft.approval_id,
            idempotency_key: draft.idempotency_key,
            undeclared_error_code: draft.undeclared_error_code,
            internal_detail: draft.internal_detail,
        };
        if let Some(sink) = &self.audit
            && let Err(detail) = write_end(sink.as_ref(), draft.audit_entry, &audit).await
        {
            // The call has ended: its result stands, and the failure is
            // reported where the application looks.
            span.in_scope(|| tracing::error!(detail = %detail, "the audit record was not written"));
            audit.internal_detail = Some(match audit.internal_detail.take() {
                Some(earlier) => format!("{earlier}; {detail}"),
                None => detail,
            });
        }
        if let Some(served) = resolution.served() {
            served.count();
        }
        CallResult {
            output: finished.output,
            model_result: finished.model_result,
            audit,
            approval_request: draft.approval_request,
        }
    }

    async fn steps(
        &self,
        call: &ToolCall,
        session: &Session,
        abort: Option<&AbortHandle>,
        refusal: Option<ToolError>,
        resolution: &Resolution<'_>,
        draft: &mut Draft,
    ) -> Finished {
        // Refused before anything of it is read (a call id another call of
        // the turn has; a call an adapter does not run).
        if let Some(refusal) = refusal {
            draft.contract = resolution.contract();
            draft.arguments_sha256 = unparsed_sha256(call, session);
            return self.refuse(draft, refusal);
        }
        // A tool the turn did not offer is refused before any version of
        // it is read; an unknown one names only the tools offered.
        let exposure = session.get::<Exposure>();
        if let Some(exposure) = exposure.filter(|exposure| !exposure.offers(&call.name))
            && !matches!(resolution, Resolution::Unknown)
        {
            draft.arguments_sha256 = unparsed_sha256(call, session);
            let offered = exposure.names().iter().map(String::as_str);
            return self.refuse(draft, ToolError::tool_not_offered(&call.name, offered));
        }
        let tool = match resolution {
            Resolution::Served(served) => &served.tool,
            Resolution::Unknown => {
                draft.arguments_sha256 = unparsed_sha256(call, session);
                let error = match exposure {
                    Some(exposure) => {
                        unknown_tool(&call.name, exposure.names().iter().map(String::as_str))
                    }
                    None => unknown_tool(&call.name, self.names()),
                };
                return self.refuse(draft, error);
            }
            // A version the session may not call: nothing of the call is
            // read, and the error names the versions to use.
            Resolution::Retired(served, error) => {
                draft.contract = Some(served.contract());
                draft.arguments_sha256 = unparsed_sha256(call, session);
                return self.refuse(draft, error.to_tool_error());
            }
            Resolution::NotServed(error) => {
                draft.arguments_sha256 = unparsed_sha256(call, session);
                return self.refuse(draft, error.to_tool_error());
            }
        };
        let contract = tool.contract();
        draft.contract = Some(contract);

        // The parser runs the application's own code (a nested type's
        // `Deserialize`, an idempotency key's `Display`): a panic there is
        // this call's fatal `INTERNAL`, not the turn's.
        // A call from a provider that does not keep enum casing (Anthropic
        // strict) has its enum values folded to their declared casing first.
        let arguments = call.arguments_to_parse(contract.input_schema(), session);
        let parsed = match catch_unwind(AssertUnwindSafe(|| tool.parse(&arguments, session))) {
            Ok(parsed) => parsed,
            Err(payload) => {
                draft.arguments_sha256 = unparsed_sha256(call, session);
                let detail = format!("the arguments' parser panicked: {}", take_panic(payload));
                return self.fatal(draft, ExecutionOutcome::NotStarted, detail);
            }
        };
        // The hash is taken once: over the canonical arguments of a call
        // that parsed, else over the text as it came.
        draft.arguments_sha256 = match &parsed {
            Ok(Parsed {
                canonical: Some(canonical),
                ..
            }) => canonical.sha256(),
            _ => unparsed_sha256(call, session),
        };
        let parsed = match parsed {
            Ok(mut parsed) => {
                draft.canonical = parsed.canonical.take();
                parsed
            }
            Err(error) if error.is_model_error() => {
                return self.refuse(draft, ToolError::from(error));
            }
            Err(error) => {
                // The application's fault (a missing session value, a broken
                // contract): the model learns nothing of it.
                let detail = format!("{}: {error}", error.code());
                return self.fatal(draft, ExecutionOutcome::NotStarted, detail);
            }
        };

        // Before a key is claimed, an approval consumed or the handler run.
        let canonical = draft.canonical.as_ref().map(CanonicalArguments::as_str);
        if let Some(refusal) = recipients::check(contract, canonical, session) {
            return self.refuse(draft, refusal);
        }

        let scope = match (contract.idempotency(), &parsed.key) {
            (Idempotency::Keyed { field }, Some(key)) if key.is_empty() => {
                return self.refuse(draft, empty_key(field));
            }
            (Idempotency::Keyed { field }, Some(key)) => {
                draft.idempotency_key = Some(key.clone());
                let shared = self.idempotency.requires_principal();
                if let Err(detail) = principal(contract, session, "an idempotency key", shared) {
                    return self.fatal(draft, ExecutionOutcome::NotStarted, detail);
                }
                if let Some(detail) = self.no_claim_grace() {
                    return self.fatal(draft, ExecutionOutcome::NotStarted, detail);
                }
                let scope = IdempotencyScope {
                    tool: contract.name().to_owned(),
                    contract_major: contract.version().major,
                    subjects: draft.subjects.clone(),
                    key: key.clone(),
                };
                // The key is held for as long as the call may run: its time
                // limit and the grace for what comes before and after it.
                let hold = self.time_limit(contract).saturating_add(self.claim_grace);
                let claimed = Instant::now();
                // A claim past half the grace could not run its call
                // anyway (see `claim_still_covers`): a store that does not
                // answer by then is not waited for (the key, if the store
                // did claim it, stays held to the end of its hold).
                let claim = self.idempotency.claim(&scope, hold);
                let Some(answer) = within(self.store_deadline(Some(claimed)), claim).await else {
                    let detail = format!(
                        "the idempotency store did not answer the claim within {} ms (half of the toolbox's claim grace); the call was not run",
                        self.store_budget().as_millis()
                    );
                    add_detail(draft, detail);
                    return self.refuse(draft, store_unavailable());
                };
                match answer {
                    Ok(ClaimOutcome::Fresh) => Some((scope, claimed)),
                    // An earlier run was stopped while it ran (timeout,
                    // abort, panic): it may have taken effect, so the key
                    // never runs again.
                    Ok(ClaimOutcome::Recorded(record))
                        if record.outcome == ExecutionOutcome::Unknown =>
                    {
                        return self.refuse(draft, stopped_earlier(field));
                    }
                    Ok(ClaimOutcome::Recorded(record))
                        if record.arguments_sha256 == draft.arguments_sha256 =>
                    {
                        return replayed(*record, field);
                    }
                    Ok(ClaimOutcome::Recorded(_)) => {
                        return self.refuse(draft, key_reused(field, key));
                    }
                    Ok(ClaimOutcome::InProgress) => return self.refuse(draft, in_progress(field)),
                    Ok(ClaimOutcome::Abandoned) => {
                        return self.refuse(draft, outcome_unknown(field));
                    }
                    Err(error) => {
                        // Never run a keyed call without its claim.
                        return self.store_failed(draft, error.fault(), error.to_string());
                    }
                }
            }
            _ => None,
        };

        let claimed = scope.as_ref().map(|(_, claimed)| *claimed);
        // Until the call's end is settled below, a drop of this future
        // records the key as `Unknown` (the handler may still be running).
        let mut guard = scope.as_ref().map(|(scope, _)| {
            ClaimGuard::new(
                Arc::clone(&self.idempotency),
                scope.clone(),
                draft.arguments_sha256.clone(),
                self.store_budget(),
            )
        });
        let finished = self
            .approve_and_run(contract, parsed, call, session, abort, claimed, draft)
            .await;

        if let Some((scope, _)) = scope {
            // A completed call is recorded for replay; one stopped while it
            // ran (`Unknown`) is recorded too, so that a retry with its key
            // is refused as OUTCOME_UNKNOWN rather than run a second time;
            // one that never started or failed frees its key.
            let keep = matches!(
                finished.outcome,
                ExecutionOutcome::Completed | ExecutionOutcome::Unknown
            );
            // The store's answer is waited for as long as a step before the
            // handler may take; the call's own answer stands either way.
            let deadline = self.store_deadline(None);
            let settled = if keep {
                let record = IdempotencyRecord {
                    arguments_sha256: draft.arguments_sha256.clone(),
                    output: finished.output.clone(),
                    model_result: finished.model_result.clone(),
                    outcome: finished.outcome,
                };
                within(deadline, self.idempotency.record(&scope, record)).await
            } else {
                within(deadline, self.idempotency.release(&scope)).await
            };
            match settled {
                Some(settled) => {
                    if let Some(guard) = &mut guard {
                        guard.disarm();
                    }
                    if let Err(error) = settled {
                        add_detail(draft, error.to_string());
                    }
                }
                // A record that was not confirmed may not have been
                // written: the guard records the key `Unknown` (on a task
                // of its own), so a retry is never run.
                None if keep => add_detail(
                    draft,
                    format!(
                        "the idempotency store did not confirm the call's record within {} ms; its key is being recorded as unknown",
                        self.store_budget().as_millis()
                    ),
                ),
                // The call did not run: its key is left to the end of its hold.
                None => {
                    if let Some(guard) = &mut guard {
                        guard.disarm();
                    }
                    add_detail(
                        draft,
                        format!(
                            "the idempotency store did not confirm the release of the call's key within {} ms; the key is free once its hold ends",
                            self.store_budget().as_millis()
                        ),
                    );
                }
            }
        }
        finished
    }

    #[allow(clippy::too_many_arguments)]
    async fn approve_and_run(
        &self,
        contract: &'static ToolContract,
        parsed: Parsed,
        call: &ToolCall,
        session: &Session,
        abort: Option<&AbortHandle>,
        claimed: Option<Instant>,
        draft: &mut Draft,
    ) -> Finished {
        if abort.is_some_and(AbortHandle::is_aborted) {
            return self.refuse(draft, aborted(None));
        }
        if contract.approval() == Approval::Required {
            let store = match approval_source(self.approvals.as_deref(), contract, session) {
                Ok(store) => store,
                Err(detail) => return self.fatal(draft, ExecutionOutcome::NotStarted, detail),
            };
            if let Err(detail) =
                principal(contract, session, "approvals", store.requires_principal())
            {
                return self.fatal(draft, ExecutionOutcome::NotStarted, detail);
            }
            // The sink hears of the call before its grant is used, so a
            // sink that fails leaves the grant for the retry.
            if let Err(finished) = self.announce(contract, call, claimed, draft).await {
                return finished;
            }
            if let Some(finished) = self.claim_still_covers(claimed, draft) {
                return finished;
            }
            let lookup = ApprovalLookup {
                tool: contract.name(),
                contract_version: contract.version(),
                arguments_sha256: &draft.arguments_sha256,
                subjects: &draft.subjects,
            };
            let Some(check) = within(self.store_deadline(claimed), store.consume(lookup)).await
            else {
                let detail = format!(
                    "the approval store did not answer within {} ms (half of the toolbox's claim grace); the call was not run",
                    self.store_budget().as_millis()
                );
                add_detail(draft, detail);
                return self.refuse(draft, store_unavailable());
            };
            let check = match check {
                Ok(check) => check,
                Err(error) => {
                    return self.store_failed(draft, error.fault(), error.to_string());
                }
            };
            match check {
                ApprovalCheck::Granted(grant) => draft.approval_id = Some(grant.approval_id),
                refused => {
                    let Some(arguments) = draft.canonical.clone() else {
                        let detail = "the arguments parsed but have no canonical form".to_owned();
                        return self.fatal(draft, ExecutionOutcome::NotStarted, detail);
                    };
                    draft.approval_request = Some(ApprovalRequest {
                        call_id: call.call_id.clone(),
                        tool: contract.name().to_owned(),
                        contract_version: contract.version(),
                        subjects: draft.subjects.clone(),
                        arguments_sha256: draft.arguments_sha256.clone(),
                        arguments,
                    });
                    let used = refused == ApprovalCheck::AlreadyUsed;
                    return self.refuse(draft, approval_required(used));
                }
            }
        }

        if let Err(finished) = self.announce(contract, call, claimed, draft).await {
            return finished;
        }
        if let Some(finished) = self.claim_still_covers(claimed, draft) {
            return finished;
        }

        let cx = CallContext::new(&call.call_id, session.clone());
        let handle = cx.clone();
        let limit = self.time_limit(contract);
        let stopped = if contract.effect() == Effect::Read {
            ExecutionOutcome::Failed
        } else {
            ExecutionOutcome::Unknown
        };
        let trust = if contract.open_world() {
            ContentTrust::External
        } else {
            ContentTrust::Application
        };
        // The handler's future lives inside this race: when the timeout or
        // the abort wins, it is dropped before this function returns, inside
        // `CatchUnwind`, which keeps a panic from its destructor in `dropped`.
        let dropped = DropPanic::default();
        let started = Instant::now();
        let running = tokio::time::timeout(limit, CatchUnwind::new((parsed.run)(cx), &dropped));
        let stop = async {
            match abort {
                Some(abort) => abort.aborted().await,
                None => std::future::pending().await,
            }
        };
        let ended = race(stop, running).await;
        let took = started.elapsed();
        let notes = handle.notes();
        let drop_panic = dropped
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(message) = drop_panic {
            let mut detail =
                format!("the handler panicked while its future was dropped: {message}");
            if let Either::Right(Ok(Err(panic))) = &ended {
                detail = format!("the handler panicked: {panic}; {detail}");
            }
            return self.fatal(draft, stopped, detail);
        }
        let ended = match ended {
            // A handler that blocked its thread past the time limit, so the
            // timer could not stop it: whatever it returned, the call
            // overran its deadline and is reported as a timeout.
            Either::Right(Ok(Ok(_))) if took > limit => {
                add_detail(
                    draft,
                    format!(
                        "the handler returned after {} ms, past its {} ms limit, without yielding to the runtime (it blocked its thread); its result was discarded",
                        took.as_millis(),
                        limit.as_millis()
                    ),
                );
                return self.stop(draft, timeout(contract, limit), stopped);
            }
            ended => ended,
        };
        match ended {
            Either::Left(()) => self.stop(draft, aborted(Some(contract)), stopped),
            Either::Right(Err(_elapsed)) => self.stop(draft, timeout(contract, limit), stopped),
            Either::Right(Ok(Err(panic)))
            | Either::Right(Ok(Ok(HandlerResult::Panicked(panic)))) => {
                self.fatal(draft, stopped, format!("the handler panicked: {panic}"))
            }
            Either::Right(Ok(Ok(HandlerResult::Ok(value)))) => {
                let output = self.success(value, &notes);
                self.fresh(draft, output, ExecutionOutcome::Completed, trust, &notes)
            }
            Either::Right(Ok(Ok(HandlerResult::Err(error)))) => {
                let error = check_declared(contract, error, draft);
                let output = ToolOutput::respond_to_model(error);
                self.fresh(draft, output, ExecutionOutcome::Failed, trust, &notes)
            }
            Either::Right(Ok(Ok(HandlerResult::Unserializable(message)))) => {
                let detail = format!("the output could not be serialized: {message}");
                self.fatal(draft, ExecutionOutcome::Completed, detail)
            }
        }
    }

    /// The configuration error of a claim grace of zero: no step between
    /// a keyed call's claim and its handler (not even the claim's own
    /// answer) would fit in it, so every keyed call would be refused as
    /// "try again" forever.
    pub(super) fn no_claim_grace(&self) -> Option<String> {
        self.claim_grace.is_zero().then(|| {
            "the toolbox's claim grace is 0 ms, so a keyed call's key could not stay held while the call runs and its end is recorded; the application must set a grace of at least a few seconds with `Toolbox::with_claim_grace` (the default is 60 s)".to_owned()
        })
    }

    /// How long a store step of a call may take (a claim, the audit
    /// sink's `started`, an approval's use, a record or release): half of
    /// the claim grace, the share of the steps before the handler.
    pub(super) fn store_budget(&self) -> Duration {
        self.claim_grace / 2
    }

    /// When a store step must have answered: the budget from the claim of
    /// a keyed call (all steps before its handler share it), else from
    /// now; `None` when that is too far to count.
    pub(super) fn store_deadline(&self, claimed: Option<Instant>) -> Option<Instant> {
        claimed
            .unwrap_or_else(Instant::now)
            .checked_add(self.store_budget())
    }

    /// The time limit of a call of `contract`: its `timeout_ms`, else the
    /// toolbox's default.
    fn time_limit(&self, contract: &ToolContract) -> Duration {
        contract
            .timeout_ms()
            .map_or(self.default_timeout, Duration::from_millis)
    }

    /// Whether the key claimed at `claimed` is still held long enough for
    /// the handler to run to its time limit and its end to be recorded: the
    /// steps before the handler (the audit sink, the approval store) may use
    /// half of the toolbox's claim grace; a call past that is not run.
    fn claim_still_covers(&self, claimed: Option<Instant>, draft: &mut Draft) -> Option<Finished> {
        let claimed = claimed?;
        let budget = self.store_budget();
        let used = claimed.elapsed();
        if used <= budget {
            return None;
        }
        add_detail(
            draft,
            format!(
                "the steps before the handler took {} ms after the idempotency key was claimed, more than the {} ms they may take (half of the toolbox's claim grace); the call was not run, so that its key is never free while it could still run",
                used.as_millis(),
                budget.as_millis()
            ),
        );
        Some(self.refuse(draft, store_unavailable()))
    }

    /// The toolbox's clock, read inside `catch_unwind`: a clock that panics
    /// is replaced by the system clock for this reading, and the panic is
    /// noted once in the call's audit record.
    fn now(&self, draft: &mut Draft) -> SystemTime {
        match catch_unwind(AssertUnwindSafe(|| (self.clock)())) {
            Ok(now) => now,
            Err(payload) => {
                let message = take_panic(payload);
                if !draft.clock_panicked {
                    draft.clock_panicked = true;
                    add_detail(
                        draft,
                        format!(
                            "the toolbox's clock panicked: {message}; the system clock stamped this call instead"
                        ),
                    );
                }
                SystemTime::now()
            }
        }
    }

    /// A call the runtime stopped (timeout or abort): the model reads why.
    fn stop(&self, draft: &mut Draft, error: ToolError, outcome: ExecutionOutcome) -> Finished {
        let output = ToolOutput::respond_to_model(error);
        self.fresh(
            draft,
            output,
            outcome,
            ContentTrust::Runtime,
            &Notes::default(),
        )
    }

    /// A success whose text is the output: a string as it is, anything else
    /// as compact JSON, cut at the toolbox's limit.
    fn success(&self, value: Value, notes: &Notes) -> ToolOutput {
        let mut text = match &value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let truncated = text.len() > self.max_content_bytes;
        if truncated {
            let mut end = self.max_content_bytes;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
        }
        let mut notices: Vec<String> = notes.notice.iter().cloned().collect();
        if truncated {
            notices.push(format!(
                "The result was cut to its first {} bytes; ask for less to see the rest.",
                self.max_content_bytes
            ));
        }
        ToolOutput::Success {
            content_text: text,
            notice: (!notices.is_empty()).then(|| notices.join("\n")),
            truncated,
            details: value,
        }
    }

    /// The outcome of a call produced now, with its model result.
    fn fresh(
        &self,
        draft: &mut Draft,
        output: ToolOutput,
        outcome: ExecutionOutcome,
        trust: ContentTrust,
        notes: &Notes,
    ) -> Finished {
        let truncated = matches!(
            output,
            ToolOutput::Success {
                truncated: true,
                ..
            }
        );
        let finished_run = matches!(
            outcome,
            ExecutionOutcome::Completed | ExecutionOutcome::Failed
        );
        let (source_label, producer_revision) = match draft.contract {
            Some(contract) => (contract.name().to_owned(), version_text(contract.version())),
            None => (
                "tool-contract".to_owned(),
                env!("CARGO_PKG_VERSION").to_owned(),
            ),
        };
        let execution = Execution {
            outcome,
            delivery: Delivery::Fresh,
            complete: finished_run && !truncated && !notes.incomplete,
            truncated,
        };
        let provenance = Provenance {
            source_label,
            producer_revision,
            resource_revision: notes.resource_revision.clone(),
            observed_at: format_rfc3339(self.now(draft)),
            trust,
        };
        Finished {
            model_result: ModelResult::from_output(&output, execution, provenance),
            output,
            outcome,
            delivery: Delivery::Fresh,
        }
    }

    /// A call the runtime refused before running it.
    pub(super) fn refuse(&self, draft: &mut Draft, error: ToolError) -> Finished {
        let output = ToolOutput::respond_to_model(error);
        self.fresh(
            draft,
            output,
            ExecutionOutcome::NotStarted,
            ContentTrust::Runtime,
            &Notes::default(),
        )
    }

    /// The answer to a call that was not run because a store it needed
    /// failed: `POLICY_STORE_UNAVAILABLE` (retry later) when the store did
    /// not answer, a fatal `INTERNAL` when it is not set up (no retry can
    /// help); `message` goes to the audit record only.
    pub(super) fn store_failed(
        &self,
        draft: &mut Draft,
        fault: StoreFault,
        message: String,
    ) -> Finished {
        match fault {
            StoreFault::Misconfigured => self.fatal(draft, ExecutionOutcome::NotStarted, message),
            _ => {
                add_detail(draft, message);
                self.refuse(draft, store_unavailable())
            }
        }
    }

    /// A fatal `INTERNAL` whose reason only the audit record keeps.
    pub(super) fn fatal(
        &self,
        draft: &mut Draft,
        outcome: ExecutionOutcome,
        detail: String,
    ) -> Finished {
        add_detail(draft, detail);
        let output = ToolOutput::fatal(ToolError::internal());
        self.fresh(
            draft,
            output,
            outcome,
            ContentTrust::Runtime,
            &Notes::default(),
        )
    }
}

/// Where the grants of an approved tool's calls are: the toolbox's
/// [`ApprovalStore`], else the session's [`Approvals`]. Neither, or both
/// (grants put into the session would never be read), is the
/// application's configuration error: the message says which and what to
/// change.
pub(super) fn approval_source<'a>(
    toolbox_store: Option<&'a dyn ApprovalStore>,
    contract: &ToolContract,
    session: &'a Session,
) -> Result<&'a dyn ApprovalStore, String> {
    match (toolbox_store, session.get::<Approvals>()) {
        (Some(store), None) => Ok(store),
        (None, Some(approvals)) => Ok(approvals),
        (None, None) => Err(format!(
            "the tool `{}` requires approval, but the session holds no `Approvals` and the toolbox has no approval store; the application must add `Approvals` to the session with `Session::with`, or set an approval store with `Toolbox::with_approval_store`",
            contract.name()
        )),
        (Some(_), Some(_)) => Err(format!(
            "the tool `{}` requires approval, and grants are looked for in two places: the toolbox has an approval store (`Toolbox::with_approval_store`) and the session holds `Approvals`, whose grants would never be read; the application must use one: remove `Approvals` from the session and grant through the store, or build the toolbox without the approval store",
            contract.name()
        )),
    }
}

/// Writes the end of a call to the audit sink; a failure or a panic of the
/// sink (while it builds its future, polls it or drops it) is the message
/// for the record's `internal_detail`.
async fn write_end(
    sink: &dyn AuditSink,
    entry: Option<AuditEntry>,
    audit: &AuditRecord,
) -> Result<(), String> {
    let dropped = DropPanic::default();
    let written = match catch_unwind(AssertUnwindSafe(|| sink.ended(entry, audit))) {
        Ok(future) => CatchUnwind::new(future, &dropped).await,
        Err(payload) => Err(take_panic(payload)),
    };
    let drop_panic = dropped
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    let mut problems = Vec::new();
    match written {
        Ok(Ok(())) => {}
        Ok(Err(error)) => problems.push(error.to_string()),
        Err(panic) => problems.push(format!("the audit sink panicked in `ended`: {panic}")),
    }
    if let Some(panic) = drop_panic {
        problems.push(format!(
            "the audit sink panicked while its `ended` future was dropped: {panic}"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Awaits `future` until `deadline` (forever without one); `None` when it
/// had not answered by then (it is dropped).
pub(super) async fn within<F: std::future::Future>(
    deadline: Option<Instant>,
    future: F,
) -> Option<F::Output> {
    match deadline {
        Some(deadline) => tokio::time::timeout_at(deadline, future).await.ok(),
        None => Some(future.await),
    }
}

/// The hash of arguments that did not parse: canonical when they are one
/// JSON document (schema-less), else of the text; a text too long to parse
/// is not canonicalized.
fn unparsed_sha256(call: &ToolCall, session: &Session) -> String {
    if call.arguments.len() > session.max_argument_bytes() {
        sha256_hex(call.arguments.as_bytes())
    } else {
        arguments_sha256(&call.arguments)
    }
}

pub(super) fn add_detail(draft: &mut Draft, detail: String) {
    draft.internal_detail = Some(match draft.internal_detail.take() {
        Some(earlier) => format!("{earlier}; {detail}"),
        None => detail,
    });
}

/// The recorded outcome of an earlier call with the same key, marked replayed.
fn replayed(record: IdempotencyRecord, key_field: &str) -> Finished {
    let note = format!(
        "This is the recorded result of an earlier call with the same {key_field}; it was not run again."
    );
    let output = match record.output {
        ToolOutput::Success {
            content_text,
            notice,
            truncated,
            details,
        } => ToolOutput::Success {
            content_text,
            notice: Some(match notice {
                Some(notice) => format!("{notice}\n{note}"),
                None => note,
            }),
            truncated,
            details,
        },
        other => other,
    };
    let model_result = record.model_result.map(|mut result| {
        result.execution.delivery = Delivery::Replayed;
        result
    });
    Finished {
        output,
        model_result,
        outcome: record.outcome,
        delivery: Delivery::Replayed,
    }
}

/// Keeps a handler's error when the contract declares its code (taking the
/// declared category and recovery), or when it is `INVALID_ARGUMENTS`; an
/// `INTERNAL` keeps only its fixed words (the handler's own words and cause
/// go to the audit record); any other code becomes `INTERNAL`, noted in the
/// audit record.
fn check_declared(contract: &ToolContract, mut error: ToolError, draft: &mut Draft) -> ToolError {
    if error.code == ToolError::INTERNAL {
        // The model reads only the fixed words of `INTERNAL`; a handler's
        // own words for it (what failed, where) go to the audit record.
        let internal = ToolError::internal();
        if error.safe_message != internal.safe_message {
            add_detail(
                draft,
                format!(
                    "the handler answered INTERNAL with its own words: {}",
                    error.safe_message
                ),
            );
        }
        if let Some(cause) = error.cause.take() {
            add_detail(draft, cause);
        }
        return internal;
    }
    let declared = contract.declared_error(&error.code);
    let kept = declared.is_some()
        || error.code == ToolError::INVALID_ARGUMENTS
        || error.code == ToolError::INTERNAL;
    if kept && let Some(cause) = error.cause.take() {
        // The cause of an error the model reads goes to the audit record.
        add_detail(draft, cause);
    }
    if let Some(declared) = declared {
        if let Some(category) = declared.category() {
            error.category = category;
        }
        if let Some(recovery) = declared.recovery() {
            error.recovery = recovery;
        }
        error
    } else if kept {
        error
    } else {
        let mut detail = format!(
            "the handler answered the undeclared code {}: {}",
            error.code, error.safe_message
        );
        if let Some(cause) = &error.cause {
            detail.push_str(&format!(" (cause: {cause})"));
        }
        add_detail(draft, detail);
        draft.undeclared_error_code = Some(error.code.into_owned());
        ToolError::internal()
    }
}
