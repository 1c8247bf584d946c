//! The registry of tools and the entry points that run calls.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;
use std::time::{Duration, SystemTime};

use tokio::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::abort::AbortHandle;
use crate::approval::ApprovalStore;
use crate::audit_sink::AuditSink;
use crate::call_result::CallResult;
use crate::handler::{CallContext, Registered, async_run, blocking_run, take_panic};
use crate::idempotency::{IdempotencyStore, InMemoryIdempotencyStore};
use crate::messages::not_run_after_fatal;
use crate::versions::{Resolution, VersionPins, Versions};
use tool_core::Session;
use tool_core::Tool;
use tool_core::ToolCall;
use tool_core::ToolError;

use tool_core::{ContractError, Effect, OutputKind, ToolContract, VersionConflict};

/// The tools an agent may call, each with its async handler, and the policy
/// that every call goes through.
///
/// A call ([`call`](Self::call)) is looked up by name, parsed against the
/// tool's contract (injected fields from the [`Session`]), checked for an
/// approval when the contract requires one, checked against the
/// idempotency store when the tool has an idempotency key, and run with the
/// contract's `timeout_ms` (or the toolbox's default) and an optional
/// [`AbortHandle`]. Whatever happens, it returns a [`CallResult`]: the
/// [`ToolOutput`](tool_core::ToolOutput) the model text comes from, the
/// [`ModelResult`](crate::model_result::ModelResult) and the
/// [`AuditRecord`](crate::audit::AuditRecord). A handler that panics (while
/// it runs, while its future is dropped on a timeout or an abort, or with a
/// payload whose own destructor panics) gives that call a fatal `INTERNAL`
/// output with the panic's message in the audit record, and so does a panic
/// in the application's code that a call runs outside its handler (a
/// nested type's `Deserialize` or destructor, an idempotency store); the
/// process and the other calls go on.
///
/// The order of the checks matters to the caller:
/// 1. a call reaches one version of its tool: the one the session's
///    [`VersionPins`] name, else the newest that is not retired (see
///    [`serve_older`](Self::serve_older)); a pin to a major that is not
///    served answers `VERSION_NOT_SERVED`, a deprecated version past its
///    sunset `VERSION_RETIRED`, neither run. A tool the session's
///    [`Exposure`](tool_core::Exposure) (the tools the turn offered) does
///    not name answers `TOOL_NOT_OFFERED`, naming the offered ones, before
///    any of this; exposure is discovery, not authorization, so a call of
///    an offered tool meets every check below. An unknown tool or invalid
///    arguments answer `UNKNOWN_TOOL` /
///    `INVALID_ARGUMENTS`; a missing session value or a broken contract is
///    the application's fault: fatal `INTERNAL`, the reason in the audit only;
/// 2. a repeated idempotency key (same tool, same contract major version,
///    same session [`Subjects`](crate::audit::Subjects), same canonical
///    arguments) returns the recorded result, marked `replayed`, without
///    running the tool or asking for a new approval; the same key with
///    other arguments answers `IDEMPOTENCY_KEY_REUSED`, while the
///    first call runs, `CALL_IN_PROGRESS`, and when it never reported its
///    end (a shared store's lease ran out), `OUTCOME_UNKNOWN`; the key is
///    claimed for at least the call's time limit plus the
///    [claim grace](Self::with_claim_grace), so a lease never ends while
///    the call may still run; a store
///    that does not answer gives `POLICY_STORE_UNAVAILABLE` (retry later)
///    and the call does not run; an empty key answers
///    `INVALID_ARGUMENTS` (see
///    [`IdempotencyScope`](crate::idempotency::IdempotencyScope));
/// 3. a cancelled call answers `ABORTED` before it starts; a write or
///    destructive call is announced to the [`AuditSink`] (if any), and is
///    not run when that fails (`POLICY_STORE_UNAVAILABLE`);
/// 4. a tool that requires approval needs an unused
///    [`ApprovalGrant`](crate::approval::ApprovalGrant) for this tool,
///    contract version, argument hash and session subjects in the
///    toolbox's [`ApprovalStore`] or, without one, the session's
///    [`Approvals`](crate::approval::Approvals) (both at once is the
///    application's configuration error: grants put into the session would
///    never be read), else
///    `APPROVAL_REQUIRED` with an
///    [`ApprovalRequest`](crate::approval::ApprovalRequest) (showing the
///    exact canonical arguments) in the result; the grant is used up when
///    the call starts, however the call then ends;
///
///    a session without `Approvals` (and no approval store) for an approved
///    tool, or without
///    `Subjects` (or with an empty one) for a keyed or approved tool that
///    takes injected values (for any keyed or approved tool when its store
///    [requires a principal](crate::idempotency::IdempotencyStore::requires_principal)), is
///    the application's configuration error: fatal `INTERNAL`, the reason
///    in the audit record (see the [approval scope](crate::approval));
///    [`check`](Self::check) finds these at start-up;
/// 5. the handler runs under the time limit and the abort handle. Under an
///    idempotency key, a completed run is recorded for replay, and so is a
///    write stopped while it ran (timeout, abort, panic), as outcome
///    `unknown`: a retry with its key answers `OUTCOME_UNKNOWN` and never
///    runs it a second time, since the first run may have taken effect. A
///    run that failed (the handler's error), a read that was stopped and a
///    call that never started free the key, so a retry runs again. The time
///    limit bounds the handler; each store step (the claim, the audit
///    sink's `started`, an approval's use, the record or release at the
///    end) is waited for at most half the [claim grace](Self::with_claim_grace)
///    (the steps before a keyed call's handler share that half from its
///    claim): a store that has not answered by then gives
///    `POLICY_STORE_UNAVAILABLE` and the call does not run, and a record
///    not confirmed in time leaves the call's answer as it is, its key
///    recorded `Unknown`.
///
/// Each call runs inside a `tracing` span named `tool_call` with the fields
/// `tool`, `version`, `call_id`, `outcome`, `result`, `code`, `delivery`
/// and `duration_ms`, and ends with one event.
///
/// A toolbox is built once at start-up and shared (`Arc<Toolbox>`); its
/// methods take `&self`.
pub struct Toolbox {
    pub(super) tools: BTreeMap<&'static str, Versions>,
    pub(super) default_timeout: Duration,
    pub(super) max_content_bytes: usize,
    pub(super) idempotency: Arc<dyn IdempotencyStore>,
    pub(super) approvals: Option<Arc<dyn ApprovalStore>>,
    pub(super) audit: Option<Arc<dyn AuditSink>>,
    pub(super) clock: Arc<dyn Fn() -> SystemTime + Send + Sync>,
    pub(super) claim_grace: Duration,
}

impl Toolbox {
    /// The time limit of a call whose contract sets no `timeout_ms`: 30 s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// How much longer than its time limit a keyed call holds its
    /// idempotency key by default (see
    /// [`with_claim_grace`](Self::with_claim_grace)): 60 s, for the steps before its handler (the audit
    /// sink, the approval store), which may take half of it, and for the
    /// record of its end. A keyed call claims its key for its time limit
    /// plus this grace (see [the hold](crate::idempotency::IdempotencyStore#the-hold)).
    pub const CLAIM_GRACE: Duration = Duration::from_secs(60);
    /// The longest `content_text` a success gets by default (64 KiB); a
    /// longer one is cut and marked `truncated`.
    pub const DEFAULT_MAX_CONTENT_BYTES: usize = 64 * 1024;

    /// An empty toolbox with an [`InMemoryIdempotencyStore`], the default
    /// timeout and content limit, and the system clock.
    pub fn new() -> Self {
        Toolbox {
            tools: BTreeMap::new(),
            default_timeout: Self::DEFAULT_TIMEOUT,
            max_content_bytes: Self::DEFAULT_MAX_CONTENT_BYTES,
            idempotency: Arc::new(InMemoryIdempotencyStore::new()),
            approvals: None,
            audit: None,
            clock: Arc::new(SystemTime::now),
            claim_grace: Self::CLAIM_GRACE,
        }
    }

    /// Sets the time limit of calls whose contract sets no `timeout_ms`.
    #[must_use]
    pub fn with_default_timeout(mut self, timeout: Duration) -> Self {
        self.default_timeout = timeout;
        self
    }

    /// Sets how much longer than its time limit a keyed call holds its
    /// idempotency key (default [`CLAIM_GRACE`](Self::CLAIM_GRACE)): the
    /// steps before the handler (the audit sink, the approval store) may
    /// take half of it, else the call is not run
    /// (`POLICY_STORE_UNAVAILABLE`, its key released); the rest covers the
    /// record of its end. Each store step is waited for at most half of
    /// it, so a store that never answers costs a call that long, not a
    /// hung turn. A shorter grace lets a shared store see a call
    /// whose process died as abandoned sooner. A grace of zero fits no
    /// step: every keyed call then ends as a fatal `INTERNAL` (a
    /// configuration error that [`check`](Self::check) names).
    #[must_use]
    pub fn with_claim_grace(mut self, grace: Duration) -> Self {
        self.claim_grace = grace;
        self
    }

    /// Sets the longest `content_text` of a success, in bytes. A longer one
    /// is cut at a character boundary, gets the runtime's notice and
    /// `truncated`, and is never sent in a fuller form by any adapter: the
    /// model result's `data` and every provider's output are the cut text
    /// (MCP's `structuredContent` too, or `RESULT_TOO_LARGE` for a declared
    /// output that is not a string, since a cut JSON text meets no schema).
    #[must_use]
    pub fn with_max_content_bytes(mut self, bytes: usize) -> Self {
        self.max_content_bytes = bytes;
        self
    }

    /// Sets where the results of keyed calls are kept (e.g. the
    /// application's database).
    #[must_use]
    pub fn with_idempotency_store(mut self, store: Arc<dyn IdempotencyStore>) -> Self {
        self.idempotency = store;
        self
    }

    /// Sets where approvals are looked up and used (e.g. the application's
    /// database, shared by every instance); without one, the session's
    /// [`Approvals`](crate::approval::Approvals) are. With one, a session
    /// that holds `Approvals` too is a configuration error at every call of
    /// an approved tool (fatal `INTERNAL`, the audit record naming both),
    /// since grants put there would never be read; [`check`](Self::check)
    /// reports it at start-up.
    #[must_use]
    pub fn with_approval_store(mut self, store: Arc<dyn ApprovalStore>) -> Self {
        self.approvals = Some(store);
        self
    }

    /// Sets where the audit record of each call is written as it runs (see
    /// [`audit_sink`](crate::audit_sink) for when, and what a failure
    /// does); without one, the records are only returned in each
    /// [`CallResult`].
    #[must_use]
    pub fn with_audit_sink(mut self, sink: Arc<dyn AuditSink>) -> Self {
        self.audit = Some(sink);
        self
    }

    /// Sets the clock that stamps `started_at` and `observed_at` (for tests
    /// and replays; durations are measured with Tokio's clock).
    ///
    /// A clock that panics does not lose the call: that reading is taken
    /// from the system clock instead, and the call's audit record says so in
    /// its `internal_detail` ("the toolbox's clock panicked: …; the system
    /// clock stamped this call instead"); the call's output is what it would
    /// have been.
    #[must_use]
    pub fn with_clock(mut self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    /// Registers tool `T` with its handler.
    ///
    /// The handler takes the parsed call and a [`CallContext`] and returns
    /// a future of `Result<T::Output, E>`: the output is serialized into
    /// the success's `details`, and its text (a string as it is, anything
    /// else as compact JSON) is what the model reads; the error becomes a
    /// [`ToolError`], whose code must be one the contract declares (or
    /// `INVALID_ARGUMENTS` / `INTERNAL`), else the model is told `INTERNAL`
    /// and the audit record names the undeclared code. State is shared
    /// through the session or captured by the handler.
    ///
    /// The contract is checked first ([`ToolContract::check_rules`]): a
    /// nested type that holds an untyped amount, an identity the model
    /// would choose or two booleans for one state is refused here, at
    /// start-up, not at the first call. [`try_register`](Self::try_register)
    /// returns that error instead of panicking.
    ///
    /// A tool has one handler, registered with its newest version; an
    /// older version of the same name is served through it with
    /// [`serve_older`](Self::serve_older).
    ///
    /// # Panics
    ///
    /// When a tool of the same name is already registered (names are what
    /// the model calls, so they must be unique, and a second version of one
    /// is served through the first one's handler), and when the contract
    /// breaks a rule, with the [`ContractError`] as the message.
    pub fn register<T, H, Fut, E>(&mut self, handler: H) -> &mut Self
    where
        T: Tool + Send + 'static,
        H: Fn(T, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<T::Output, E>> + Send + 'static,
        E: Into<ToolError> + 'static,
    {
        match self.try_register::<T, H, Fut, E>(handler) {
            Ok(toolbox) => toolbox,
            Err(error) => panic!("{error}"),
        }
    }

    /// Registers tool `T` with its handler as [`register`](Self::register)
    /// does, or returns the [`ContractError`] of a contract that breaks a
    /// rule inside a nested type, or of a name already registered
    /// ([`VersionConflict::AlreadyRegistered`]).
    pub fn try_register<T, H, Fut, E>(&mut self, handler: H) -> Result<&mut Self, ContractError>
    where
        T: Tool + Send + 'static,
        H: Fn(T, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<T::Output, E>> + Send + 'static,
        E: Into<ToolError> + 'static,
    {
        self.check_new::<T>()?;
        let tool = Registered::<T>::new(async_run::<T, H, Fut, E>(handler));
        self.tools
            .insert(T::contract().name(), Versions::new(Box::new(tool)));
        Ok(self)
    }

    /// Checks that `T` may be registered with a handler of its own: its
    /// contract keeps the rules, and its name has no handler yet.
    fn check_new<T: Tool>(&self) -> Result<(), ContractError> {
        let contract = T::contract();
        contract.check_rules()?;
        match self.tools.get(contract.name()) {
            Some(versions) => Err(ContractError::conflict(
                contract.name(),
                VersionConflict::AlreadyRegistered {
                    registered: versions.newest().contract().version(),
                    offered: contract.version(),
                },
            )),
            None => Ok(()),
        }
    }

    /// Registers tool `T` with a blocking (synchronous) handler, which runs
    /// on Tokio's blocking thread pool (`spawn_blocking`): for handlers that
    /// do blocking I/O, call synchronous client libraries or compute for a
    /// while. The output and errors are as for [`register`](Self::register).
    ///
    /// The call's time limit and abort handle stop the call as for an async
    /// handler (it answers `TIMEOUT` or `ABORTED` on time, and the other
    /// calls of the turn go on), but a thread cannot be stopped: the handler
    /// runs to its end in the background and its result is dropped. An
    /// async handler registered with `register` that blocks its thread
    /// instead stalls the task it runs on, and when it returns after its
    /// time limit the call is still reported as a `TIMEOUT`, never as a
    /// success.
    ///
    /// ```
    /// # #[cfg(feature = "runtime")] {
    /// use tool_contract::{CallContext, Tool, ToolError, Toolbox};
    ///
    /// /// Look up the note the shop keeps on a product.
    /// ///
    /// /// Use it when the customer asks about care or warranty. Read-only.
    /// #[derive(Tool)]
    /// struct GetProductNote {
    ///     /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    ///     sku: String,
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register_blocking(|call: GetProductNote, _: CallContext| {
    ///     // e.g. a synchronous database client
    ///     Ok::<_, ToolError>(format!("{}: hand wash only", call.sku))
    /// });
    /// # }
    /// ```
    ///
    /// The contract is checked first, as [`register`](Self::register) does
    /// ([`ToolContract::check_rules`]);
    /// [`try_register_blocking`](Self::try_register_blocking) returns that
    /// error instead of panicking.
    ///
    /// # Panics
    ///
    /// When a tool of the same name is already registered, and when the
    /// contract breaks a rule, with the [`ContractError`] as the message.
    pub fn register_blocking<T, H, E>(&mut self, handler: H) -> &mut Self
    where
        T: Tool + Send + 'static,
        T::Output: Send,
        H: Fn(T, CallContext) -> Result<T::Output, E> + Send + Sync + 'static,
        E: Into<ToolError> + Send + 'static,
    {
        match self.try_register_blocking::<T, H, E>(handler) {
            Ok(toolbox) => toolbox,
            Err(error) => panic!("{error}"),
        }
    }

    /// Registers tool `T` with a blocking handler as
    /// [`register_blocking`](Self::register_blocking) does, or returns the
    /// [`ContractError`] of a contract that breaks a rule inside a nested
    /// type, or of a name already registered
    /// ([`VersionConflict::AlreadyRegistered`]).
    pub fn try_register_blocking<T, H, E>(&mut self, handler: H) -> Result<&mut Self, ContractError>
    where
        T: Tool + Send + 'static,
        T::Output: Send,
        H: Fn(T, CallContext) -> Result<T::Output, E> + Send + Sync + 'static,
        E: Into<ToolError> + Send + 'static,
    {
        self.check_new::<T>()?;
        let tool = Registered::<T>::new(blocking_run::<T, H, E>(handler));
        self.tools
            .insert(T::contract().name(), Versions::new(Box::new(tool)));
        Ok(self)
    }

    /// The contracts a session without [`VersionPins`] is offered, by
    /// name: each tool at its newest version that is not retired (by the
    /// toolbox's clock); what a provider adapter builds the tool list from.
    /// [`contracts_for`](Self::contracts_for) gives those of a session,
    /// [`served_contracts`](Self::served_contracts) every version served.
    pub fn contracts(&self) -> impl ExactSizeIterator<Item = &'static ToolContract> + '_ {
        let now = self.clock_now();
        let offered: Vec<&'static ToolContract> = self
            .tools
            .values()
            .filter_map(|versions| match versions.resolve(None, || now) {
                Resolution::Served(served) => Some(served.contract()),
                _ => None,
            })
            .collect();
        offered.into_iter()
    }

    /// The contract of the tool called `name` as a session without
    /// [`VersionPins`] reaches it (its newest version that is not retired,
    /// else its newest), if it is registered.
    pub fn contract(&self, name: &str) -> Option<&'static ToolContract> {
        let versions = self.tools.get(name)?;
        versions.resolve(None, || self.clock_now()).contract()
    }

    /// The version of the tool called `name` that a call in `session`
    /// reaches at `now`: the one its [`VersionPins`] name, else the newest
    /// that is not retired.
    pub(crate) fn resolve(
        &self,
        name: &str,
        session: &Session,
        now: impl FnOnce() -> SystemTime,
    ) -> Resolution<'_> {
        let Some(versions) = self.tools.get(name) else {
            return Resolution::Unknown;
        };
        let pin = session.get::<VersionPins>().and_then(|pins| pins.get(name));
        versions.resolve(pin, now)
    }

    /// The toolbox's clock; the system clock when it panics (a call notes
    /// such a panic in its audit record, see [`with_clock`](Self::with_clock)).
    pub(crate) fn clock_now(&self) -> SystemTime {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.clock)())) {
            Ok(now) => now,
            Err(payload) => {
                // Dropped where a panic in its destructor cannot unwind.
                take_panic(payload);
                SystemTime::now()
            }
        }
    }

    /// The names of the registered tools, sorted.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'static str> + '_ {
        self.tools.keys().copied()
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Runs one call.
    pub async fn call(&self, call: &ToolCall, session: &Session) -> CallResult {
        self.run_call(call, session, None, None).await
    }

    /// Runs one call that `abort` can cancel.
    pub async fn call_with_abort(
        &self,
        call: &ToolCall,
        session: &Session,
        abort: &AbortHandle,
    ) -> CallResult {
        self.run_call(call, session, Some(abort), None).await
    }

    /// Answers the calls of one model turn with `error` without running
    /// any of them: nothing of a call is parsed or run; each result carries
    /// the error for the model and an audit record with outcome
    /// `not_started`. Calls that share a `call_id` answer
    /// `DUPLICATE_CALL_ID` instead, as in [`call_turn`](Self::call_turn).
    /// For calls an adapter decides not to run, such as those of a response
    /// that stopped before the model finished deciding them
    /// (`CALL_NOT_RUN`).
    pub async fn answer_turn_without_running(
        &self,
        calls: &[ToolCall],
        session: &Session,
        error: &ToolError,
    ) -> Vec<CallResult> {
        let counts = id_counts(calls);
        let mut results = Vec::with_capacity(calls.len());
        for call in calls {
            let refusal = if counts[call.call_id.as_str()] > 1 {
                ToolError::duplicate_call_id(&call.call_id)
            } else {
                error.clone()
            };
            results.push(self.run_call(call, session, None, Some(refusal)).await);
        }
        results
    }

    /// Runs the calls of one model turn concurrently and returns their
    /// results in the order of `calls`; `abort` cancels all of them (pass a
    /// [`child`](AbortHandle::child) of a run's handle to cancel one turn).
    ///
    /// A call of a destructive tool runs alone: it starts once the calls
    /// before it have finished, and the calls after it wait until it has.
    /// Other calls overlap.
    ///
    /// A fatal outcome means the run stops: a call that waits for a call
    /// that ended fatal is not run (a destructive call waits for every call
    /// before it; a call after a destructive call waits for it and what it
    /// waited for); it answers `CALL_NOT_RUN` with outcome `not_started`
    /// and its own audit record, and an approval it had stays unused. Calls
    /// that started alongside the fatal one go on to their end: stopping a
    /// write halfway would leave its outcome unknown.
    ///
    /// Calls that share a `call_id` cannot be told apart by their results
    /// (the provider matches a result to its call by the id): none of them
    /// runs, each answers `DUPLICATE_CALL_ID` with outcome `not_started`.
    /// The provider adapters refuse such a response when they read it; this
    /// guards a list of calls built any other way.
    pub async fn call_turn(
        &self,
        calls: &[ToolCall],
        session: &Session,
        abort: &AbortHandle,
    ) -> Vec<CallResult> {
        let gate = RwLock::new(());
        let first_fatal = AtomicUsize::new(usize::MAX);
        let counts = id_counts(calls);
        // The calls before `waits_for` must end before a call starts: all
        // before it for a destructive call, else all up to and including
        // the last destructive call before it.
        let mut waits_for = 0;
        let pending = calls
            .iter()
            .enumerate()
            .map(|(index, call)| {
                let refusal = (counts[call.call_id.as_str()] > 1)
                    .then(|| ToolError::duplicate_call_id(&call.call_id));
                let destructive = self.is_destructive(call, session);
                let turn = Turn {
                    gate: &gate,
                    first_fatal: &first_fatal,
                    index,
                    waits_for: if destructive { index } else { waits_for },
                    destructive,
                };
                if destructive {
                    waits_for = index + 1;
                }
                Box::pin(self.gated_call(call, session, abort, turn, refusal))
            })
            .collect();
        join_all(pending).await
    }

    /// Whether `call` reaches a destructive version of its tool in `session`.
    fn is_destructive(&self, call: &ToolCall, session: &Session) -> bool {
        self.resolve(&call.name, session, || self.clock_now())
            .contract()
            .is_some_and(|contract| contract.effect() == Effect::Destructive)
    }

    async fn gated_call(
        &self,
        call: &ToolCall,
        session: &Session,
        abort: &AbortHandle,
        turn: Turn<'_>,
        mut refusal: Option<ToolError>,
    ) -> CallResult {
        let gate = turn.gate;
        let wait = async {
            if turn.destructive {
                Held::Alone {
                    _guard: gate.write().await,
                }
            } else {
                Held::Shared {
                    _guard: gate.read().await,
                }
            }
        };
        // A call aborted while it waits does not start: `run_call` sees the
        // abort and answers ABORTED with outcome `not_started`.
        let held = race(abort.aborted(), wait).await;
        // The calls this one waited for have all ended (it holds the
        // gate): one of them ended fatal, so the run stops here.
        if refusal.is_none() && turn.first_fatal.load(Ordering::SeqCst) < turn.waits_for {
            refusal = Some(not_run_after_fatal());
        }
        let result = self.run_call(call, session, Some(abort), refusal).await;
        if result.output.kind() == OutputKind::Fatal {
            turn.first_fatal.fetch_min(turn.index, Ordering::SeqCst);
        }
        drop(held);
        result
    }
}

/// How many calls of a turn have each call id.
fn id_counts(calls: &[ToolCall]) -> HashMap<&str, usize> {
    let mut counts: HashMap<&str, usize> = HashMap::with_capacity(calls.len());
    for call in calls {
        *counts.entry(call.call_id.as_str()).or_default() += 1;
    }
    counts
}

/// One call's place in its turn: the gate that lets a destructive call run
/// alone, the index of the first call of the turn that ended fatal
/// (`usize::MAX` while none has), and which calls this one waits for.
struct Turn<'a> {
    gate: &'a RwLock<()>,
    first_fatal: &'a AtomicUsize,
    /// This call's index in the turn.
    index: usize,
    /// The calls before this index end before this one starts.
    waits_for: usize,
    destructive: bool,
}

/// A turn's gate, held (until dropped) while a call runs.
enum Held<'a> {
    Shared { _guard: RwLockReadGuard<'a, ()> },
    Alone { _guard: RwLockWriteGuard<'a, ()> },
}

impl Default for Toolbox {
    fn default() -> Self {
        Toolbox::new()
    }
}

impl fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tools: Vec<&str> = self.names().collect();
        f.debug_struct("Toolbox")
            .field("tools", &tools)
            .field("default_timeout", &self.default_timeout)
            .field("max_content_bytes", &self.max_content_bytes)
            .finish_non_exhaustive()
    }
}

/// Which of two raced futures finished first.
pub(super) enum Either<A, B> {
    Left(A),
    Right(B),
}

/// Polls `left` then `right` until one is ready; the other is dropped.
pub(super) async fn race<A: Future, B: Future>(left: A, right: B) -> Either<A::Output, B::Output> {
    let mut left = pin!(left);
    let mut right = pin!(right);
    poll_fn(|cx| {
        if let Poll::Ready(value) = left.as_mut().poll(cx) {
            return Poll::Ready(Either::Left(value));
        }
        if let Poll::Ready(value) = right.as_mut().poll(cx) {
            return Poll::Ready(Either::Right(value));
        }
        Poll::Pending
    })
    .await
}

/// Polls every future on the current task until all are ready; the outputs
/// come back in input order.
async fn join_all<F: Future + Unpin>(futures: Vec<F>) -> Vec<F::Output> {
    enum Slot<F: Future> {
        Running(F),
        Done(F::Output),
        Taken,
    }
    let mut slots: Vec<Slot<F>> = futures.into_iter().map(Slot::Running).collect();
    poll_fn(move |cx| {
        let mut running = false;
        for slot in slots.iter_mut() {
            if let Slot::Running(future) = slot {
                match Pin::new(future).poll(cx) {
                    Poll::Ready(output) => *slot = Slot::Done(output),
                    Poll::Pending => running = true,
                }
            }
        }
        if running {
            return Poll::Pending;
        }
        let outputs = slots
            .iter_mut()
            .filter_map(|slot| match std::mem::replace(slot, Slot::Taken) {
                Slot::Done(output) => Some(output),
                Slot::Running(_) | Slot::Taken => None,
            })
            .collect();
        Poll::Ready(outputs)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn join_all_keeps_the_input_order_and_overlaps() {
        let start = tokio::time::Instant::now();
        let futures: Vec<_> = [30_u64, 10, 20]
            .into_iter()
            .map(|ms| {
                Box::pin(async move {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    ms
                })
            })
            .collect();
        assert_eq!(join_all(futures).await, vec![30, 10, 20]);
        assert_eq!(start.elapsed(), Duration::from_millis(30));
        let none: Vec<Pin<Box<std::future::Ready<u8>>>> = Vec::new();
        assert!(join_all(none).await.is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn race_prefers_the_left_when_both_are_ready() {
        assert!(matches!(
            race(async { 1 }, async { 2 }).await,
            Either::Left(1)
        ));
        let slow = tokio::time::sleep(Duration::from_millis(5));
        assert!(matches!(race(slow, async { 2 }).await, Either::Right(2)));
    }
}
