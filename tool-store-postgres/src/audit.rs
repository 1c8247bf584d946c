//! The audit trail in `tool_contract_audit`.

use deadpool_postgres::Pool;
use tool_core::{OutputKind, ToolError};
use tool_runtime::audit::AuditRecord;
use tool_runtime::audit_sink::{AuditEntry, AuditSink, AuditSinkError, AuditStart};
use tool_runtime::idempotency::BoxFuture;
use tool_runtime::model_result::{Delivery, ExecutionOutcome};

use crate::error::StoreError;
use crate::pool::{Undo, Use, bounded, checkout, committed, settle};
use crate::values::{readable, readable_json};

/// Ends a `started` entry (`$2` its id) that committed after the client
/// gave it up, with `$1` (the record of [`not_run`]): the call was refused,
/// so it did not run. Once: an entry has at most one end.
const UNDO_START: &str =
    "INSERT INTO tool_contract_audit (phase, started_id, call_id, tool, outcome, record)
     SELECT 'ended', id, call_id, tool, 'not_started', $1::text::jsonb
     FROM tool_contract_audit
     WHERE id = $2 AND phase = 'started'
     ON CONFLICT (started_id) DO NOTHING";

/// The end of a call announced by `start` whose `started` entry the client
/// gave up on: refused as `POLICY_STORE_UNAVAILABLE`, not run.
fn not_run(start: &AuditStart) -> AuditRecord {
    AuditRecord {
        schema_version: start.schema_version.clone(),
        call_id: start.call_id.clone(),
        tool: start.tool.clone(),
        contract_version: Some(start.contract_version),
        subjects: start.subjects.clone(),
        started_at: start.started_at.clone(),
        duration_ms: 0,
        arguments_sha256: start.arguments_sha256.clone(),
        result: OutputKind::RespondToModel,
        error_code: Some(ToolError::POLICY_STORE_UNAVAILABLE.to_owned()),
        outcome: ExecutionOutcome::NotStarted,
        delivery: Delivery::Fresh,
        approval_id: None,
        idempotency_key: start.idempotency_key.clone(),
        undeclared_error_code: None,
        internal_detail: Some(
            "audit sink failed: this start entry was committed after the client gave it up; the call was not run"
                .to_owned(),
        ),
    }
}

/// An [`AuditSink`] that appends to `tool_contract_audit`: a `started`
/// entry (outcome `unknown`) before a write or destructive call runs, and
/// an `ended` entry with the full
/// [`AuditRecord`] when any call ends. The
/// view `tool_contract_audit_calls` shows one row per call with its
/// outcome (`unknown` for a call that started and never ended, e.g. when
/// its process died).
///
/// The table's columns: `id` (`bigserial`); `phase` (`started` or
/// `ended`); `started_id` (on an `ended` entry, the `id` of its call's
/// `started` entry, `NULL` for a call that was not announced); `call_id`
/// and `tool` (U+0000 as U+FFFD); `outcome` (`unknown` on a `started` entry,
/// else the [`ExecutionOutcome`](tool_runtime::model_result::ExecutionOutcome)'s
/// name: `not_started`, `completed`, `failed`, `unknown`); `written_at`
/// (the database's clock); `record` (`jsonb`: the [`AuditStart`] or the
/// [`AuditRecord`]). The view's columns: `id`, `call_id`, `tool`,
/// `written_at` (of the call's first entry), `outcome` (the end's, or
/// `unknown`), `ended` (whether an end was written), `record` (the end's,
/// else the start's).
///
/// The entry of a call's end (also of a refused call) waits for a
/// connection at least 30 s ([`PoolOptions::finish_limit`](crate::PoolOptions::finish_limit)),
/// so a busy pool does not drop it; one that fails all the same is named in
/// the returned record's `internal_detail` (`audit sink failed: …`).
///
/// A `started` entry the client gave up on (a frozen server) is never
/// committed later; one given up on while its COMMIT was in flight, which
/// the server may still commit, is ended once the database answers again
/// by an `ended` entry with outcome `not_started` (error code
/// `POLICY_STORE_UNAVAILABLE`), so no refused call shows as `unknown`.
///
/// The table is append-only: a trigger refuses `UPDATE` and `DELETE`, and
/// the application's role needs only `INSERT` and `SELECT` on it (see the
/// README for the grants).
#[derive(Clone, Debug)]
pub struct PostgresAuditSink {
    pool: Pool,
}

impl PostgresAuditSink {
    /// A sink over `pool`, whose database [`migrate`](crate::migrate) has
    /// prepared.
    pub fn new(pool: Pool) -> Self {
        PostgresAuditSink { pool }
    }

    async fn started_now(&self, start: &AuditStart) -> Result<AuditEntry, StoreError> {
        let record = readable_json(serde_json::to_value(start)?);
        let end = readable_json(serde_json::to_value(not_run(start))?).to_string();
        let client = checkout(&self.pool, Use::Start).await?;
        // An entry given up on while its COMMIT is in flight is ended as not
        // run once the database answers again, if the server committed it.
        let mut undo = Undo::new(&self.pool, UNDO_START);
        let result: Result<_, StoreError> = bounded(
            &self.pool,
            committed(&client, async {
                let statement = client
                    .prepare_cached(
                        "INSERT INTO tool_contract_audit (phase, call_id, tool, outcome, record)
                     VALUES ('started', $1, $2, 'unknown', $3)
                     RETURNING id, pg_current_xact_id()::text::bigint",
                    )
                    .await?;
                let row = client
                    .query_one(
                        &statement,
                        &[
                            &readable(&start.call_id).as_ref(),
                            &readable(&start.tool).as_ref(),
                            &record,
                        ],
                    )
                    .await?;
                let id: i64 = row.get(0);
                undo.arm(end.clone(), id, row.get(1));
                u64::try_from(id)
                    .map(AuditEntry::new)
                    .map_err(|_| StoreError::new("the audit entry's id is negative"))
            }),
        )
        .await;
        if result.is_ok() {
            undo.disarm();
        }
        settle(client, result)
    }

    async fn ended_now(
        &self,
        entry: Option<AuditEntry>,
        record: &AuditRecord,
    ) -> Result<(), StoreError> {
        let started_id = entry
            .map(|entry| i64::try_from(entry.id()))
            .transpose()
            .map_err(|_| StoreError::new("the audit entry's id is out of range"))?;
        let json = readable_json(serde_json::to_value(record)?);
        let client = checkout(&self.pool, Use::Finish).await?;
        let result: Result<_, StoreError> = bounded(&self.pool, async {
            let statement = client
                .prepare_cached(
                    "INSERT INTO tool_contract_audit (phase, started_id, call_id, tool, outcome, record)
                     VALUES ('ended', $1, $2, $3, $4, $5)",
                )
                .await?;
            client
                .execute(
                    &statement,
                    &[
                        &started_id,
                        &readable(&record.call_id).as_ref(),
                        &readable(&record.tool).as_ref(),
                        &record.outcome.as_str(),
                        &json,
                    ],
                )
                .await?;
            Ok(())
        })
        .await;
        settle(client, result)
    }
}

impl AuditSink for PostgresAuditSink {
    fn started<'a>(
        &'a self,
        start: &'a AuditStart,
    ) -> BoxFuture<'a, Result<AuditEntry, AuditSinkError>> {
        Box::pin(async move {
            self.started_now(start).await.map_err(|error| {
                error.to_runtime(AuditSinkError::new, AuditSinkError::misconfigured)
            })
        })
    }

    fn ended<'a>(
        &'a self,
        entry: Option<AuditEntry>,
        record: &'a AuditRecord,
    ) -> BoxFuture<'a, Result<(), AuditSinkError>> {
        Box::pin(async move {
            self.ended_now(entry, record).await.map_err(|error| {
                error.to_runtime(AuditSinkError::new, AuditSinkError::misconfigured)
            })
        })
    }
}
