//! Idempotency: a repeated call of a write tool with the same idempotency key
//! gets the recorded result instead of running twice.
//!
//! The runtime talks to an [`IdempotencyStore`]; [`InMemoryIdempotencyStore`]
//! serves tests and single-process applications; an application that runs
//! several processes uses the PostgreSQL store (the facade's `postgres`
//! feature, `tool_contract::store_postgres`) or implements the trait over
//! its own database.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use serde::{Deserialize, Serialize};

use crate::store_fault::StoreFault;

use crate::audit::Subject;
use crate::model_result::{ExecutionOutcome, ModelResult};
use tool_core::ToolOutput;

/// A boxed future that can move between threads, as the
/// [`IdempotencyStore`] methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What an idempotency key is unique within: the tool, its contract's major
/// version and the subjects of the session (see
/// [`Subjects`](crate::audit::Subjects)).
///
/// # Scope
///
/// A stored result is replayed only to a call of the same tool, at the same
/// major version (a new major version may mean something else by the same
/// arguments), for the same subjects, with the same key and the same
/// canonical arguments (else `IDEMPOTENCY_KEY_REUSED`). So two customers who
/// send the same key never share a result, as long as the session names
/// them: a keyed tool that takes injected (trusted) values needs
/// [`Subjects`](crate::audit::Subjects) in the session, derived by the
/// application from those values, and a call without them (or with an
/// empty `Subjects`, which names no one) is a configuration error (fatal `INTERNAL`, the reason in the audit record).
/// An empty key is refused as `INVALID_ARGUMENTS`, since it would be one
/// key for every request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IdempotencyScope {
    /// The tool's name.
    pub tool: String,
    /// The major version of the tool's contract.
    pub contract_major: u64,
    /// The session's subject references, in the order the session has them.
    pub subjects: Vec<Subject>,
    /// The value of the tool's idempotency-key field.
    pub key: String,
}

/// The recorded result of a call that ran to its end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IdempotencyRecord {
    /// The hash of the arguments of the recorded call; a later call with the
    /// same key but other arguments is refused rather than replayed.
    pub arguments_sha256: String,
    /// What the recorded call ended with.
    pub output: ToolOutput,
    /// Its model result (`None` when the output is fatal).
    pub model_result: Option<ModelResult>,
    /// How far it got (always `completed` when the runtime records it).
    pub outcome: ExecutionOutcome,
}

/// What [`IdempotencyStore::claim`] found for a key.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimOutcome {
    /// Nothing is recorded or running under the key; it is now held for
    /// this call until it is recorded or released (and, if neither comes,
    /// for at least the claim's `hold`).
    Fresh,
    /// A call under the key ran to its end: its record.
    Recorded(Box<IdempotencyRecord>),
    /// A call under the key is running.
    InProgress,
    /// A call under the key started and its lease ran out before it
    /// recorded its end (its process stopped, or its store could not be
    /// reached): it may or may not have taken effect, so the key is never
    /// run again. The runtime answers `OUTCOME_UNKNOWN`.
    Abandoned,
}

/// A failure of the store itself (e.g. its database is unreachable). The
/// runtime does not run a keyed call it cannot guard, and keeps the message
/// in the audit record only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdempotencyError {
    fault: StoreFault,
    message: String,
}

impl IdempotencyError {
    /// A failure of a store that did not answer or could not be reached
    /// ([`StoreFault::Unavailable`]), with an internal message.
    pub fn new(message: impl Into<String>) -> Self {
        IdempotencyError {
            fault: StoreFault::Unavailable,
            message: message.into(),
        }
    }

    /// A failure of a store that is not set up to serve the runtime
    /// ([`StoreFault::Misconfigured`]: its tables missing, a grant lacking),
    /// with an internal message that says what to fix.
    pub fn misconfigured(message: impl Into<String>) -> Self {
        IdempotencyError {
            fault: StoreFault::Misconfigured,
            message: message.into(),
        }
    }

    /// What kind of failure it is.
    pub fn fault(&self) -> StoreFault {
        self.fault
    }

    /// The internal message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for IdempotencyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "idempotency store failed: {}", self.message)
    }
}

impl std::error::Error for IdempotencyError {}

/// Where the runtime keeps the results of keyed calls.
///
/// The runtime calls [`claim`](Self::claim) before a keyed call runs, then
/// either [`record`](Self::record) when the tool ran to its end, or was
/// stopped while it ran (timeout, abort, panic: the record's outcome is
/// `Unknown`, and a retry with the key is refused as `OUTCOME_UNKNOWN`,
/// since the first run may have taken effect), or
/// [`release`](Self::release) when it never started or failed, so a retry
/// with the same key runs again. When the call's future is dropped after
/// the claim and before its end was written (a caller that gave up, a
/// cancelled task), the runtime records the key `Unknown`, since the
/// handler may have taken effect, or (a blocking handler) may still be
/// running: the `record` future is polled once in the drop itself (so a
/// store that answers at once has the record even when the future is
/// dropped outside a Tokio runtime, or by one shutting down), and the rest
/// runs on a task of its own on the current Tokio runtime; without one,
/// the key is left to its lease (at least the claim's hold).
/// `claim` must be atomic: of two concurrent claims of one key, one gets
/// [`ClaimOutcome::Fresh`]. A claim whose call never comes back (its process
/// stopped) should expire after a while, as a lease: a store shared by
/// several processes answers [`ClaimOutcome::Abandoned`] for it (the
/// holder may have run the tool), while [`InMemoryIdempotencyStore`], whose
/// records die with the process, frees the key.
///
/// # The hold
///
/// A lease must never end while the call it covers may still run, or a
/// retry would run the call a second time beside it. So each claim says how
/// long its call may take from now: `hold`, the call's time limit plus the
/// toolbox's claim grace ([`Toolbox::CLAIM_GRACE`](crate::Toolbox::CLAIM_GRACE)
/// unless [set](crate::Toolbox::with_claim_grace); for the audit sink, the
/// approval store and the record at the end). The store keeps
/// the key held (answering [`ClaimOutcome::InProgress`]) for at least
/// `hold`, and at least its own lease, whichever is longer, unless the
/// call records or releases it first. The runtime does its part: a call
/// whose checks used up more than half the grace before its handler starts
/// is not run (`POLICY_STORE_UNAVAILABLE`, its key released), and a call
/// stopped while it ran (a timeout, even of a blocking handler whose thread
/// runs on) is recorded at once as `Unknown`, so its key is never free
/// again. A claim, record or release is waited for at most half the
/// grace: a claim given up on answers `POLICY_STORE_UNAVAILABLE` (the key,
/// if the store took it, stays held to the end of its hold), a record
/// given up on is followed by an `Unknown` record of the key. A store that
/// cannot hold a key for `hold` should fail the claim rather than hold it
/// for less.
pub trait IdempotencyStore: Send + Sync {
    /// Looks the key up and, if it is free, holds it for this call, for at
    /// least `hold` (see [the hold](Self#the-hold)) unless the call records
    /// or releases it first.
    fn claim<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        hold: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>>;

    /// Records the result of the call that holds the key.
    fn record<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        record: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>>;

    /// Frees a key held by [`claim`](Self::claim) without recording a result.
    fn release<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>>;

    /// Whether every keyed call needs a non-empty
    /// [`Subjects`](crate::audit::Subjects) in its session, even for a tool
    /// without injected values. A store shared by several processes (a
    /// database) answers `true`, so that records are never shared between
    /// principals by accident; the default is `false`.
    fn requires_principal(&self) -> bool {
        false
    }
}

/// An [`IdempotencyStore`] in memory: for tests and single-process
/// applications. Records live as long as the store, up to
/// [`max_records`](Self::with_max_records) (the oldest go first; a record
/// of a call stopped while it ran, outcome `Unknown`, leaves its key held
/// to the end of its claim's hold when it goes, since that call may still
/// be running; a retry then answers `CALL_IN_PROGRESS`); a held key
/// whose call never came back is free again after the
/// [`lease`](Self::with_lease) or the claim's hold, whichever is longer
/// (see [the hold](IdempotencyStore#the-hold)). Time is Tokio's clock, so a
/// test with a paused clock moves leases too.
pub struct InMemoryIdempotencyStore {
    state: Mutex<State>,
    lease: Duration,
    max_records: usize,
}

#[derive(Default)]
struct State {
    entries: HashMap<IdempotencyScope, Entry>,
    /// Recorded scopes, oldest first.
    order: VecDeque<IdempotencyScope>,
}

enum Entry {
    /// Held until `until` (`None`: a hold too long to count, never freed
    /// by time).
    Running { until: Option<Instant> },
    /// Recorded; `held` is the claim's hold (`None`: never freed by
    /// time), kept so that an `Unknown` record dropped to make room leaves
    /// its key held while its call may still run.
    Done {
        record: Box<IdempotencyRecord>,
        held: Option<Instant>,
    },
}

impl InMemoryIdempotencyStore {
    /// How long a held key stays held by default: 10 minutes.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(600);
    /// How many records are kept by default.
    pub const DEFAULT_MAX_RECORDS: usize = 10_000;

    /// An empty store with the default lease and size.
    pub fn new() -> Self {
        InMemoryIdempotencyStore {
            state: Mutex::new(State::default()),
            lease: Self::DEFAULT_LEASE,
            max_records: Self::DEFAULT_MAX_RECORDS,
        }
    }

    /// Sets how long a held key stays held at least when its call never
    /// comes back; a claim whose hold is longer keeps the key for its hold.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// Sets how many records are kept (at least one); the oldest are dropped first.
    #[must_use]
    pub fn with_max_records(mut self, max_records: usize) -> Self {
        self.max_records = max_records.max(1);
        self
    }

    /// How many results are recorded.
    pub fn len(&self) -> usize {
        self.lock().order.len()
    }

    /// Whether no result is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // Each change below leaves the maps consistent before it can panic.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn claim_now(&self, scope: &IdempotencyScope, hold: Duration) -> ClaimOutcome {
        let mut state = self.lock();
        let now = Instant::now();
        match state.entries.get(scope) {
            Some(Entry::Done { record, .. }) => {
                return ClaimOutcome::Recorded(Box::clone(record));
            }
            Some(Entry::Running { until }) if until.is_none_or(|until| now < until) => {
                return ClaimOutcome::InProgress;
            }
            _ => {}
        }
        let until = now.checked_add(self.lease.max(hold));
        state
            .entries
            .insert(scope.clone(), Entry::Running { until });
        ClaimOutcome::Fresh
    }

    fn record_now(&self, scope: &IdempotencyScope, record: IdempotencyRecord) {
        let mut state = self.lock();
        let now = Instant::now();
        let held = match state.entries.get(scope) {
            Some(Entry::Running { until }) => *until,
            Some(Entry::Done { held, .. }) => *held,
            None => Some(now),
        };
        let previous = state.entries.insert(
            scope.clone(),
            Entry::Done {
                record: Box::new(record),
                held,
            },
        );
        if !matches!(previous, Some(Entry::Done { .. })) {
            state.order.push_back(scope.clone());
        }
        while state.order.len() > self.max_records {
            let Some(oldest) = state.order.pop_front() else {
                break;
            };
            // A call stopped while it ran (`Unknown`) may still be running
            // (a blocking handler's thread, a dropped future's effects):
            // its key stays held to the end of its claim's hold, as an
            // unrecorded claim would, so that dropping the record to make
            // room never lets a retry run beside it.
            match state.entries.remove(&oldest) {
                Some(Entry::Done { record, held })
                    if record.outcome == ExecutionOutcome::Unknown
                        && held.is_none_or(|held| now < held) =>
                {
                    state.entries.insert(oldest, Entry::Running { until: held });
                }
                _ => {}
            }
        }
    }

    fn release_now(&self, scope: &IdempotencyScope) {
        let mut state = self.lock();
        if matches!(state.entries.get(scope), Some(Entry::Running { .. })) {
            state.entries.remove(scope);
        }
    }
}

impl Default for InMemoryIdempotencyStore {
    fn default() -> Self {
        InMemoryIdempotencyStore::new()
    }
}

impl fmt::Debug for InMemoryIdempotencyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InMemoryIdempotencyStore")
            .field("records", &self.len())
            .field("lease", &self.lease)
            .field("max_records", &self.max_records)
            .finish()
    }
}

impl IdempotencyStore for InMemoryIdempotencyStore {
    fn claim<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        hold: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
        let claim = self.claim_now(scope, hold);
        Box::pin(std::future::ready(Ok(claim)))
    }

    fn record<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        record: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        self.record_now(scope, record);
        Box::pin(std::future::ready(Ok(())))
    }

    fn release<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        self.release_now(scope);
        Box::pin(std::future::ready(Ok(())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(key: &str) -> IdempotencyScope {
        IdempotencyScope {
            tool: "reserve".into(),
            contract_major: 1,
            subjects: vec![Subject {
                kind: "tenant".into(),
                id: "acme".into(),
            }],
            key: key.into(),
        }
    }

    fn record(hash: &str) -> IdempotencyRecord {
        IdempotencyRecord {
            arguments_sha256: hash.into(),
            output: ToolOutput::success("ok"),
            model_result: None,
            outcome: ExecutionOutcome::Completed,
        }
    }

    fn claim(store: &InMemoryIdempotencyStore, key: &IdempotencyScope) -> ClaimOutcome {
        store.claim_now(key, Duration::ZERO)
    }

    #[test]
    fn a_key_is_claimed_once_then_recorded_or_released() {
        let store = InMemoryIdempotencyStore::new();
        let k1 = scope("k1");
        assert_eq!(claim(&store, &k1), ClaimOutcome::Fresh);
        assert_eq!(claim(&store, &k1), ClaimOutcome::InProgress);
        store.release_now(&k1);
        assert_eq!(claim(&store, &k1), ClaimOutcome::Fresh);
        store.record_now(&k1, record("h"));
        assert_eq!(
            claim(&store, &k1),
            ClaimOutcome::Recorded(Box::new(record("h")))
        );
        // Releasing a recorded key keeps the record.
        store.release_now(&k1);
        assert_eq!(
            claim(&store, &k1),
            ClaimOutcome::Recorded(Box::new(record("h")))
        );
        // Another subject's key of the same value is another key.
        let mut other = scope("k1");
        other.subjects[0].id = "globex".into();
        assert_eq!(claim(&store, &other), ClaimOutcome::Fresh);
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn an_expired_lease_frees_the_key() {
        let store = InMemoryIdempotencyStore::new().with_lease(Duration::ZERO);
        assert_eq!(claim(&store, &scope("k")), ClaimOutcome::Fresh);
        assert_eq!(claim(&store, &scope("k")), ClaimOutcome::Fresh);
    }

    #[tokio::test(start_paused = true)]
    async fn a_key_is_held_for_the_longer_of_the_lease_and_the_claims_hold() {
        let store = InMemoryIdempotencyStore::new().with_lease(Duration::from_secs(1));
        let hold = Duration::from_secs(90);
        assert_eq!(store.claim_now(&scope("k"), hold), ClaimOutcome::Fresh);
        tokio::time::advance(Duration::from_secs(89)).await;
        assert_eq!(store.claim_now(&scope("k"), hold), ClaimOutcome::InProgress);
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(store.claim_now(&scope("k"), hold), ClaimOutcome::Fresh);
        // A hold too long to count is never freed by time.
        assert_eq!(
            store.claim_now(&scope("m"), Duration::MAX),
            ClaimOutcome::Fresh
        );
        tokio::time::advance(Duration::from_secs(365 * 24 * 3600)).await;
        assert_eq!(
            store.claim_now(&scope("m"), Duration::ZERO),
            ClaimOutcome::InProgress
        );
        // The lease counts when it is the longer.
        assert_eq!(
            store.claim_now(&scope("n"), Duration::ZERO),
            ClaimOutcome::Fresh
        );
        tokio::time::advance(Duration::from_millis(999)).await;
        assert_eq!(
            store.claim_now(&scope("n"), Duration::ZERO),
            ClaimOutcome::InProgress
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_unknown_record_dropped_for_room_keeps_its_key_held_to_its_hold() {
        let store = InMemoryIdempotencyStore::new()
            .with_lease(Duration::ZERO)
            .with_max_records(1);
        let hold = Duration::from_secs(90);
        let unknown = |key: &str| IdempotencyRecord {
            outcome: ExecutionOutcome::Unknown,
            ..record(key)
        };
        assert_eq!(store.claim_now(&scope("u"), hold), ClaimOutcome::Fresh);
        store.record_now(&scope("u"), unknown("u"));
        assert_eq!(
            store.claim_now(&scope("u"), hold),
            ClaimOutcome::Recorded(Box::new(unknown("u")))
        );
        tokio::time::advance(Duration::from_secs(30)).await;
        // A hold too long to count, recorded `Unknown` too: it pushes "u" out.
        assert_eq!(
            store.claim_now(&scope("m"), Duration::MAX),
            ClaimOutcome::Fresh
        );
        store.record_now(&scope("m"), unknown("m"));
        // Two completed records push "m" out, then each other.
        for key in ["a", "b"] {
            assert_eq!(store.claim_now(&scope(key), hold), ClaimOutcome::Fresh);
            store.record_now(&scope(key), record(key));
        }
        assert_eq!(store.len(), 1);
        // "u" is no longer recorded, but its call may still run: held to
        // its hold's end, 90 s after its claim.
        assert_eq!(store.claim_now(&scope("u"), hold), ClaimOutcome::InProgress);
        // A completed record that goes frees its key.
        assert_eq!(store.claim_now(&scope("a"), hold), ClaimOutcome::Fresh);
        tokio::time::advance(Duration::from_secs(59)).await;
        assert_eq!(store.claim_now(&scope("u"), hold), ClaimOutcome::InProgress);
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(store.claim_now(&scope("u"), hold), ClaimOutcome::Fresh);
        tokio::time::advance(Duration::from_secs(365 * 24 * 3600)).await;
        assert_eq!(store.claim_now(&scope("m"), hold), ClaimOutcome::InProgress);
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn the_oldest_records_go_first() {
        let store = InMemoryIdempotencyStore::new().with_max_records(2);
        for key in ["a", "b", "c"] {
            assert_eq!(claim(&store, &scope(key)), ClaimOutcome::Fresh);
            store.record_now(&scope(key), record(key));
        }
        assert_eq!(store.len(), 2);
        assert_eq!(claim(&store, &scope("a")), ClaimOutcome::Fresh);
        assert_eq!(
            claim(&store, &scope("c")),
            ClaimOutcome::Recorded(Box::new(record("c")))
        );
        assert_eq!(
            format!("{store:?}"),
            "InMemoryIdempotencyStore { records: 2, lease: 600s, max_records: 2 }"
        );
    }
}
