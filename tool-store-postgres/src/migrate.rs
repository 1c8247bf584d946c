//! The crate's SQL migrations and the one function that applies them.

use deadpool_postgres::Pool;

use crate::error::StoreError;

/// One schema version: its number and SQL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Migration {
    /// The version it brings the schema to (1, 2, …).
    pub version: i32,
    /// A short name.
    pub name: &'static str,
    /// The SQL, run in one transaction.
    pub sql: &'static str,
}

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "policy_state",
        sql: include_str!("../migrations/0001_policy_state.sql"),
    },
    Migration {
        version: 2,
        name: "audit_no_truncate",
        sql: include_str!("../migrations/0002_audit_no_truncate.sql"),
    },
];

/// What [`migrate`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigrationReport {
    /// The versions this call applied (empty when the schema was current).
    pub applied: Vec<i32>,
    /// The schema version afterwards.
    pub current: i32,
}

/// The advisory lock every `migrate` holds while it runs: the bytes of
/// "tc-migr" as a number.
const MIGRATION_LOCK: i64 = 0x0074_632d_6d69_6772;

/// Brings the database's schema to the latest version, in one transaction
/// under a transaction-level advisory lock: safe to run from every instance
/// at start-up (one applies, the others wait and find nothing to do), and
/// again at any time. A failed migration leaves the schema as it was.
pub async fn migrate(pool: &Pool) -> Result<MigrationReport, StoreError> {
    let mut client = pool.get().await?;
    let transaction = client.transaction().await?;
    transaction
        .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    transaction
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS tool_contract_migrations (
                version    integer     PRIMARY KEY,
                name       text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )",
        )
        .await?;
    let current: i32 = transaction
        .query_one(
            "SELECT COALESCE(max(version), 0) FROM tool_contract_migrations",
            &[],
        )
        .await?
        .get(0);
    let mut applied = Vec::new();
    for migration in MIGRATIONS.iter().filter(|m| m.version > current) {
        transaction
            .batch_execute(migration.sql)
            .await
            .map_err(|error| {
                StoreError::new(format!(
                    "migration {} ({}) failed: {}",
                    migration.version,
                    migration.name,
                    StoreError::from(error)
                ))
            })?;
        transaction
            .execute(
                "INSERT INTO tool_contract_migrations (version, name) VALUES ($1, $2)",
                &[&migration.version, &migration.name],
            )
            .await?;
        applied.push(migration.version);
    }
    transaction.commit().await?;
    Ok(MigrationReport {
        current: applied.last().copied().unwrap_or(current),
        applied,
    })
}
