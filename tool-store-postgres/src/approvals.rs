//! Approval grants in `tool_contract_approvals`.

use std::time::Duration;

use deadpool_postgres::Pool;
use tool_core::outcome::sha256_hex;
use tool_runtime::approval::{
    ApprovalCheck, ApprovalGrant, ApprovalLookup, ApprovalStore, ApprovalStoreError,
};
use tool_runtime::audit::Subject;
use tool_runtime::idempotency::BoxFuture;

use crate::error::{StoreError, StoreErrorKind};
use crate::pool::{Undo, Use, bounded, checkout, committed, settle};
use crate::values::{millis, readable, readable_json};

/// Gives a grant back (`$1` its id, `$2` the microseconds of its
/// `used_at`) whose use committed after the client gave it up: the call
/// was refused, so the grant was not used.
const UNDO_USE: &str = "UPDATE tool_contract_approvals SET used_at = NULL
     WHERE approval_id = $1 AND (extract(epoch FROM used_at) * 1000000)::bigint = $2";

/// The longest approval id, in bytes.
const MAX_APPROVAL_ID_BYTES: usize = 512;

/// An [`ApprovalStore`] in PostgreSQL: the application records each grant
/// with [`grant`](Self::grant) (e.g. when the user approves in its UI,
/// through any instance), and the call it approves uses it up on whichever
/// instance runs it.
///
/// A grant binds the tool, the contract version, the argument hash and the
/// session's subjects (as a set: their order does not matter), which
/// every approved call must name
/// ([`requires_principal`](ApprovalStore::requires_principal)). It is used
/// by exactly one call, across instances (`UPDATE … WHERE used_at IS NULL
/// … RETURNING`), and not after its expiry (the database server's clock).
/// A use the client gave up on (a frozen server) is never committed later,
/// and one given up on while its COMMIT was in flight, which the server may
/// still commit, is given back once the database answers again.
///
/// **Where grants come from**: with this store on the toolbox
/// ([`Toolbox::with_approval_store`](tool_runtime::Toolbox::with_approval_store)),
/// the grants an approved call can use are the ones recorded with
/// [`grant`](Self::grant), and only those: an
/// [`Approvals`](tool_runtime::approval::Approvals) put into the session as
/// well is a configuration error (the call ends fatal `INTERNAL`, naming
/// both; `Toolbox::check` reports it at start-up). The approval UI answers an
/// [`ApprovalRequest`](tool_runtime::approval::ApprovalRequest) with
/// `store.grant(&request.approve(id), valid_for)` on any instance; the
/// model's retry of the call then uses that grant on whichever instance
/// runs it.
#[derive(Clone, Debug)]
pub struct PostgresApprovalStore {
    pool: Pool,
}

impl PostgresApprovalStore {
    /// A store over `pool`, whose database [`migrate`](crate::migrate) has
    /// prepared.
    pub fn new(pool: Pool) -> Self {
        PostgresApprovalStore { pool }
    }

    /// Records `grant`, usable for `valid_for` from now; `Ok(false)` when
    /// the same grant was recorded already (it is left as it was, so a
    /// repeated request from the approval UI grants nothing twice). Approval
    /// ids are unique in the database: an id taken by a grant for another
    /// call, one longer than 512 bytes and one holding U+0000 (which
    /// PostgreSQL text cannot hold) are refused with
    /// [`StoreErrorKind::Refused`](crate::StoreErrorKind::Refused) before
    /// anything is written.
    pub async fn grant(
        &self,
        grant: &ApprovalGrant,
        valid_for: Duration,
    ) -> Result<bool, StoreError> {
        if grant.approval_id.len() > MAX_APPROVAL_ID_BYTES {
            return Err(StoreError::of(
                StoreErrorKind::Refused,
                format!(
                    "the approval id is {} bytes long; at most {MAX_APPROVAL_ID_BYTES} are kept",
                    grant.approval_id.len()
                ),
            ));
        }
        if grant.approval_id.contains('\0') {
            return Err(StoreError::of(
                StoreErrorKind::Refused,
                "the approval id holds U+0000, which PostgreSQL text cannot keep; use ids without control characters (e.g. UUIDs)",
            ));
        }
        let version = grant.contract_version.to_string();
        let binding = binding_sha256(
            &grant.tool,
            &version,
            &grant.subjects,
            &grant.arguments_sha256,
        )?;
        let subjects = readable_json(serde_json::to_value(&grant.subjects)?);
        let client = checkout(&self.pool, Use::Start).await?;
        let result: Result<_, StoreError> = bounded(&self.pool, async {
            let statement = client
                .prepare_cached(
                    "INSERT INTO tool_contract_approvals
                         (approval_id, binding_sha256, tool, contract_version, subjects,
                          arguments_sha256, expires_at)
                     VALUES ($1, $2, $3, $4, $5, $6, now() + $7::bigint * interval '1 millisecond')
                     ON CONFLICT (approval_id) DO NOTHING",
                )
                .await?;
            let inserted = client
                .execute(
                    &statement,
                    &[
                        &grant.approval_id,
                        &binding,
                        &readable(&grant.tool).as_ref(),
                        &version,
                        &subjects,
                        &readable(&grant.arguments_sha256).as_ref(),
                        &millis(valid_for),
                    ],
                )
                .await?;
            if inserted == 1 {
                return Ok(true);
            }
            // The id exists: the same grant again is a no-op; another
            // grant under its id (another tenant's UI, a reused counter)
            // is refused rather than silently dropped.
            let existing: String = client
                .query_one(
                    "SELECT binding_sha256 FROM tool_contract_approvals WHERE approval_id = $1",
                    &[&grant.approval_id],
                )
                .await?
                .get(0);
            if existing == binding {
                Ok(false)
            } else {
                Err(StoreError::of(
                    StoreErrorKind::Refused,
                    format!(
                        "the approval id {:?} is already taken by a grant for another call; approval ids must be unique in the database (e.g. UUIDs)",
                        grant.approval_id
                    ),
                ))
            }
        })
        .await;
        settle(client, result)
    }

    /// How many grants are neither used nor expired.
    pub async fn unused(&self) -> Result<u64, StoreError> {
        let client = checkout(&self.pool, Use::Start).await?;
        let result: Result<_, StoreError> = bounded(&self.pool, async {
            let row = client
                .query_one(
                    "SELECT count(*) FROM tool_contract_approvals
                     WHERE used_at IS NULL AND expires_at > now()",
                    &[],
                )
                .await?;
            let count: i64 = row.get(0);
            Ok(u64::try_from(count).unwrap_or(0))
        })
        .await;
        settle(client, result)
    }

    async fn consume_now(&self, call: ApprovalLookup<'_>) -> Result<ApprovalCheck, StoreError> {
        let version = call.contract_version.to_string();
        let binding = binding_sha256(call.tool, &version, call.subjects, call.arguments_sha256)?;
        let client = checkout(&self.pool, Use::Start).await?;
        // A use given up on while its COMMIT is in flight is given back
        // once the database answers again, if the server committed it.
        let mut undo = Undo::new(&self.pool, UNDO_USE);
        let result: Result<_, StoreError> = bounded(
            &self.pool,
            committed(&client, async {
                // The oldest usable grant, locked; a grant another instance holds
                // is skipped, and the outer condition is checked again on the row
                // as it is when the lock is taken.
                let take = client
                    .prepare_cached(
                        "UPDATE tool_contract_approvals SET used_at = now()
                     WHERE approval_id = (
                         SELECT approval_id FROM tool_contract_approvals
                         WHERE binding_sha256 = $1 AND used_at IS NULL AND expires_at > now()
                         ORDER BY created_at, approval_id
                         LIMIT 1
                         FOR UPDATE SKIP LOCKED)
                       AND used_at IS NULL
                     RETURNING approval_id, pg_current_xact_id()::text::bigint,
                               (extract(epoch FROM used_at) * 1000000)::bigint",
                    )
                    .await?;
                if let Some(row) = client.query_opt(&take, &[&binding]).await? {
                    let approval_id: String = row.get(0);
                    undo.arm(approval_id.clone(), row.get(2), row.get(1));
                    let grant = ApprovalGrant {
                        approval_id,
                        tool: call.tool.to_owned(),
                        contract_version: call.contract_version,
                        subjects: call.subjects.to_vec(),
                        arguments_sha256: call.arguments_sha256.to_owned(),
                    };
                    return Ok(ApprovalCheck::Granted(grant));
                }
                let used = client
                    .prepare_cached(
                        "SELECT EXISTS (SELECT 1 FROM tool_contract_approvals
                                    WHERE binding_sha256 = $1 AND used_at IS NOT NULL)",
                    )
                    .await?;
                let used: bool = client.query_one(&used, &[&binding]).await?.get(0);
                Ok(if used {
                    ApprovalCheck::AlreadyUsed
                } else {
                    ApprovalCheck::Missing
                })
            }),
        )
        .await;
        if result.is_ok() {
            undo.disarm();
        }
        settle(client, result)
    }
}

/// What a grant binds, hashed: the index stays small whatever the subjects,
/// which are compared as a set (sorted first).
fn binding_sha256(
    tool: &str,
    version: &str,
    subjects: &[Subject],
    arguments_sha256: &str,
) -> Result<String, StoreError> {
    // A set: order and repeats do not make another principal.
    let mut subjects = subjects.to_vec();
    subjects.sort();
    subjects.dedup();
    let binding = serde_json::to_string(&(tool, version, subjects, arguments_sha256))?;
    Ok(sha256_hex(binding.as_bytes()))
}

impl ApprovalStore for PostgresApprovalStore {
    fn consume<'a>(
        &'a self,
        call: ApprovalLookup<'a>,
    ) -> BoxFuture<'a, Result<ApprovalCheck, ApprovalStoreError>> {
        Box::pin(async move {
            self.consume_now(call).await.map_err(|error| {
                error.to_runtime(ApprovalStoreError::new, ApprovalStoreError::misconfigured)
            })
        })
    }

    fn requires_principal(&self) -> bool {
        true
    }
}
