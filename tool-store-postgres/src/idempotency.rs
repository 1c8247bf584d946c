//! Idempotency records in `tool_contract_idempotency`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use deadpool_postgres::Pool;
use tool_core::outcome::sha256_hex;
use tool_runtime::idempotency::{
    BoxFuture, ClaimOutcome, IdempotencyError, IdempotencyRecord, IdempotencyScope,
    IdempotencyStore,
};

use crate::error::StoreError;
use crate::pool::{Undo, Use, bounded, checkout, committed, settle};
use crate::values::{millis, readable, readable_json};

/// An [`IdempotencyStore`] in PostgreSQL, shared by every instance that
/// uses the same database.
///
/// - **Claim**: one `INSERT … ON CONFLICT DO NOTHING` on the hash of the
///   scope (tool, contract major version, subjects, key): of any number of
///   concurrent claims, across any number of processes, exactly one
///   inserts the row and runs; the others read it and get the recorded
///   result or `CALL_IN_PROGRESS`.
/// - **Lease**: a claim not recorded or released within the
///   [lease](Self::with_lease), or the claim's hold when that is longer
///   (the call's time limit plus its grace, see
///   [the hold](IdempotencyStore#the-hold)), (its process died, or lost its database at
///   the end of the call) is marked `abandoned` by the next claim, which
///   answers [`ClaimOutcome::Abandoned`] (`OUTCOME_UNKNOWN` to the model):
///   the key never runs a second time, since the first run may have taken
///   effect. The lease is measured with the database server's clock.
/// - **Retention**: [`purge`](Self::purge) deletes what was claimed longer
///   ago than the [retention](Self::with_retention) (a claim that never got
///   its result only once its lease ended more than the retention plus a
///   day ago, since its holder may still run); call it periodically. After
///   that a key may run again.
/// - **Faults**: a claim commits only once the database answered it, so a
///   claim the client gave up on (a frozen server) never holds the key
///   later (one given up on while its COMMIT was in flight, which the
///   server may still commit, is deleted once the database answers again,
///   if it committed); a release that fails (the call did not run or
///   failed) is tried again once the database answers, and deletes only
///   this store's own claim, so the retry the refusal asks for finds the
///   key free; a record or release waits for a connection at least 30 s
///   ([`PoolOptions::finish_limit`](crate::PoolOptions::finish_limit)), so a
///   busy pool does not lose the record of a call that ran.
/// - **Principal**: the subjects are compared as a set (their order does
///   not matter), and keyed calls need a non-empty
///   [`Subjects`](tool_runtime::audit::Subjects) in the session
///   ([`requires_principal`](IdempotencyStore::requires_principal)), so
///   that sessions of different users never share a record.
#[derive(Clone, Debug)]
pub struct PostgresIdempotencyStore {
    pool: Pool,
    lease: Duration,
    retention: Duration,
    /// The claims this store (and its clones) made and has not recorded or
    /// released yet: the scope's hash, the claim's token (its `claimed_at`
    /// in microseconds) and when it was made. A release deletes only its
    /// own claim, so retrying one is safe.
    claims: Arc<Mutex<HashMap<String, (i64, Instant)>>>,
}

impl PostgresIdempotencyStore {
    /// The default lease: 10 minutes (longer than any call's time limit).
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(600);
    /// The default retention: 7 days.
    pub const DEFAULT_RETENTION: Duration = Duration::from_secs(7 * 24 * 3600);

    /// A store over `pool` (whose database [`migrate`](crate::migrate) has
    /// prepared) with the default lease and retention.
    pub fn new(pool: Pool) -> Self {
        PostgresIdempotencyStore {
            pool,
            lease: Self::DEFAULT_LEASE,
            retention: Self::DEFAULT_RETENTION,
            claims: Arc::default(),
        }
    }

    /// Sets how long a claim stays held without a result at least; a claim
    /// whose hold (its call's time limit plus its grace) is longer is held
    /// for its hold, so a call is never seen as abandoned while it may
    /// still run.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// Sets how long records are kept before [`purge`](Self::purge)
    /// deletes them.
    #[must_use]
    pub fn with_retention(mut self, retention: Duration) -> Self {
        self.retention = retention;
        self
    }

    /// Deletes the records claimed longer ago than the retention period;
    /// returns how many. A claim that never got its result (running, or
    /// abandoned when its lease ran out) is kept until its lease ended more
    /// than the retention plus one day ago: its holder may still be running
    /// past its lease, and deleting the claim would let the key run again
    /// beside it.
    pub async fn purge(&self) -> Result<u64, StoreError> {
        let client = checkout(&self.pool, Use::Start).await?;
        let result: Result<_, StoreError> = bounded(&self.pool, async {
            let statement = client
                .prepare_cached(
                    "DELETE FROM tool_contract_idempotency
                     WHERE claimed_at < now() - $1::bigint * interval '1 millisecond'
                       AND (state = 'done'
                            OR lease_until < now() - $1::bigint * interval '1 millisecond'
                                                   - interval '1 day')",
                )
                .await?;
            Ok(client
                .execute(&statement, &[&millis(self.retention)])
                .await?)
        })
        .await;
        settle(client, result)
    }

    async fn claim_now(
        &self,
        scope: &IdempotencyScope,
        hold: Duration,
    ) -> Result<ClaimOutcome, StoreError> {
        let id = scope_sha256(scope)?;
        let subjects = readable_json(serde_json::to_value(&scope.subjects)?);
        let major = i64::try_from(scope.contract_major)
            .map_err(|_| StoreError::new("the contract's major version is too large"))?;
        let key = readable(&scope.key);
        let client = checkout(&self.pool, Use::Start).await?;
        // A claim given up on while its COMMIT is in flight is deleted once
        // the database answers again, if the server committed it.
        let mut undo = Undo::new(&self.pool, UNDO_CLAIM);
        let result: Result<_, StoreError> = bounded(&self.pool, committed(&client, async {
            let insert = client
                .prepare_cached(
                    "INSERT INTO tool_contract_idempotency
                         (scope_sha256, tool, contract_major, subjects, key, state, lease_until)
                     VALUES ($1, $2, $3, $4, $5, 'running', now() + $6::bigint * interval '1 millisecond')
                     ON CONFLICT (scope_sha256) DO NOTHING
                     RETURNING pg_current_xact_id()::text::bigint,
                               (extract(epoch FROM claimed_at) * 1000000)::bigint",
                )
                .await?;
            let expire = client
                .prepare_cached(
                    "UPDATE tool_contract_idempotency SET state = 'abandoned'
                     WHERE scope_sha256 = $1 AND state = 'running' AND lease_until <= now()
                     RETURNING 1",
                )
                .await?;
            let read = client
                .prepare_cached(
                    "SELECT state, record FROM tool_contract_idempotency WHERE scope_sha256 = $1",
                )
                .await?;
            // A row released between the insert and the read is claimed again;
            // three rounds in a row of that is reported, not looped on.
            for _ in 0..3 {
                let params: [&(dyn tokio_postgres::types::ToSql + Sync); 6] = [
                    &id,
                    &scope.tool,
                    &major,
                    &subjects,
                    &key.as_ref(),
                    &millis(self.lease.max(hold)),
                ];
                if let Some(row) = client.query_opt(&insert, &params).await? {
                    undo.arm(id.clone(), row.get(1), row.get(0));
                    return Ok(ClaimOutcome::Fresh);
                }
                if client.query_opt(&expire, &[&id]).await?.is_some() {
                    return Ok(ClaimOutcome::Abandoned);
                }
                let Some(row) = client.query_opt(&read, &[&id]).await? else {
                    continue;
                };
                let state: &str = row.get(0);
                return match state {
                    "done" => {
                        let record: Option<&str> = row.get(1);
                        let record: IdempotencyRecord =
                            serde_json::from_str(record.unwrap_or_default())?;
                        Ok(ClaimOutcome::Recorded(Box::new(record)))
                    }
                    "running" => Ok(ClaimOutcome::InProgress),
                    "abandoned" => Ok(ClaimOutcome::Abandoned),
                    other => Err(StoreError::new(format!("unknown claim state {other:?}"))),
                };
            }
            Err(StoreError::new(
                "the key was released under three claims in a row",
            ))
        }))
        .await;
        let token = undo.token();
        if result.is_ok() {
            undo.disarm();
        }
        if let (Ok(ClaimOutcome::Fresh), Some(token)) = (&result, token) {
            self.remember(id, token);
        }
        settle(client, result)
    }

    /// Keeps the token of a fresh claim for its release; forgets the
    /// claims older than twice the lease (their calls were dropped before
    /// they ended), so the map stays small.
    fn remember(&self, id: String, token: i64) {
        let mut claims = self.claims.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        let keep = self.lease.saturating_mul(2);
        claims.retain(|_, (_, at)| now.duration_since(*at) < keep);
        claims.insert(id, (token, now));
    }

    /// The token of this store's claim of `id`, forgotten.
    fn forget(&self, id: &str) -> Option<i64> {
        let mut claims = self.claims.lock().unwrap_or_else(PoisonError::into_inner);
        claims.remove(id).map(|(token, _)| token)
    }

    async fn record_now(
        &self,
        scope: &IdempotencyScope,
        record: &IdempotencyRecord,
    ) -> Result<(), StoreError> {
        let id = scope_sha256(scope)?;
        let record = serde_json::to_string(record)?;
        self.forget(&id);
        let client = checkout(&self.pool, Use::Finish).await?;
        let result: Result<_, StoreError> = bounded(&self.pool, async {
            let statement = client
                .prepare_cached(
                    "UPDATE tool_contract_idempotency
                     SET state = 'done', record = $2, completed_at = now()
                     WHERE scope_sha256 = $1 AND state IN ('running', 'abandoned')",
                )
                .await?;
            match client.execute(&statement, &[&id, &record]).await? {
                1 => Ok(()),
                _ => Err(StoreError::new(
                    "the claim was gone when its result came (purged or recorded twice)",
                )),
            }
        })
        .await;
        settle(client, result)
    }

    async fn release_now(&self, scope: &IdempotencyScope) -> Result<(), StoreError> {
        let id = scope_sha256(scope)?;
        // A release of this store's own claim that fails (or whose future
        // is dropped) is tried again once the database answers: the call
        // did not run, and its retry must not find the key held.
        let token = self.forget(&id);
        let mut retry = Undo::new(&self.pool, RELEASE_CLAIM);
        if let Some(token) = token {
            retry.arm_always(id.clone(), token);
        }
        let client = checkout(&self.pool, Use::Finish).await?;
        let result: Result<_, StoreError> = bounded(&self.pool, async {
            match token {
                Some(token) => {
                    let statement = client.prepare_cached(RELEASE_CLAIM).await?;
                    client.execute(&statement, &[&id, &token]).await?;
                }
                None => {
                    let statement = client
                        .prepare_cached(
                            "DELETE FROM tool_contract_idempotency
                             WHERE scope_sha256 = $1 AND state = 'running'",
                        )
                        .await?;
                    client.execute(&statement, &[&id]).await?;
                }
            }
            Ok(())
        })
        .await;
        if result.is_ok() {
            retry.disarm();
        }
        settle(client, result)
    }
}

/// Deletes a claim (`$1` its scope's hash, `$2` the microseconds of its
/// `claimed_at`) that committed after the client gave it up: the call was
/// refused, so the key was never used. (Marked `abandoned` meanwhile by a
/// claim after its lease, it was not used either.)
const UNDO_CLAIM: &str = "DELETE FROM tool_contract_idempotency
     WHERE scope_sha256 = $1 AND state IN ('running', 'abandoned')
       AND (extract(epoch FROM claimed_at) * 1000000)::bigint = $2";

/// Frees this store's own running claim (`$1` its scope's hash, `$2` the
/// microseconds of its `claimed_at`): never another instance's claim of
/// the key made after this one was freed.
const RELEASE_CLAIM: &str = "DELETE FROM tool_contract_idempotency
     WHERE scope_sha256 = $1 AND state = 'running'
       AND (extract(epoch FROM claimed_at) * 1000000)::bigint = $2";

/// The row's id: the SHA-256 of the scope as JSON, so that a key of any
/// length fits the index and is only ever a bound parameter. The subjects
/// are sorted first: instances that list one principal's subjects in
/// another order share its records.
fn scope_sha256(scope: &IdempotencyScope) -> Result<String, StoreError> {
    // A set: order and repeats do not make another principal.
    let mut scope = scope.clone();
    scope.subjects.sort();
    scope.subjects.dedup();
    Ok(sha256_hex(serde_json::to_string(&scope)?.as_bytes()))
}

fn store_error(error: StoreError) -> IdempotencyError {
    error.to_runtime(IdempotencyError::new, IdempotencyError::misconfigured)
}

impl IdempotencyStore for PostgresIdempotencyStore {
    fn claim<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        hold: Duration,
    ) -> BoxFuture<'a, Result<ClaimOutcome, IdempotencyError>> {
        Box::pin(async move { self.claim_now(scope, hold).await.map_err(store_error) })
    }

    fn record<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
        record: IdempotencyRecord,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(async move { self.record_now(scope, &record).await.map_err(store_error) })
    }

    fn release<'a>(
        &'a self,
        scope: &'a IdempotencyScope,
    ) -> BoxFuture<'a, Result<(), IdempotencyError>> {
        Box::pin(async move { self.release_now(scope).await.map_err(store_error) })
    }

    fn requires_principal(&self) -> bool {
        true
    }
}
