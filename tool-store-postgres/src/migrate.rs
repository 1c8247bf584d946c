//! The crate's SQL migrations, the one function that applies them, and the
//! start-up check that the database is ready for the stores (schema
//! version and the application role's grants).

use deadpool_postgres::Pool;

use crate::error::{StoreError, StoreErrorKind};
use crate::pool::{Use, bounded, bounded_for, checkout, settle};

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

/// The schema version this crate needs: the last of [`MIGRATIONS`].
fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |migration| migration.version)
}

/// Brings the database's schema to the latest version, in one transaction
/// under a transaction-level advisory lock: safe to run from every instance
/// at start-up (one applies, the others wait and find nothing to do), and
/// again at any time. A failed migration leaves the schema as it was.
///
/// A schema already at the latest version is read, not locked or created:
/// then `migrate` needs only `SELECT` on `tool_contract_migrations`, so the
/// application's own role can call it at start-up once the schema's owner
/// has migrated. Applying a migration needs the owner's rights (`CREATE` on
/// the schema); without them it fails with
/// [`StoreErrorKind::Configuration`], as it does when the role lacks
/// `USAGE` on the schema that holds the tables.
pub async fn migrate(pool: &Pool) -> Result<MigrationReport, StoreError> {
    let found = found(pool).await?;
    if let Some(current) = found.version
        && current >= latest()
    {
        return Ok(MigrationReport {
            applied: Vec::new(),
            current,
        });
    }
    if let Some(schema) = &found.unusable_schema {
        return Err(StoreError::of(
            StoreErrorKind::Configuration,
            format!(
                "the role `{}` lacks USAGE on schema {schema}, which holds the tool-contract tables; grant it USAGE on schema {schema}, or run `migrate()` as the role that owns the schema",
                found.role
            ),
        ));
    }
    if !found.may_create && found.unreadable {
        return Err(StoreError::of(
            StoreErrorKind::Configuration,
            format!(
                "the role `{}` may not read tool_contract_migrations, so the schema's version is unknown; grant it SELECT on tool_contract_migrations, or run `migrate()` as the role that owns the schema",
                found.role
            ),
        ));
    }
    if !found.may_create {
        return Err(StoreError::of(
            StoreErrorKind::Configuration,
            format!(
                "the schema is at version {} of {} and the role `{}` may not create tables in the schema `{}`; run `migrate()` as the role that owns the schema",
                found.version.unwrap_or(0),
                latest(),
                found.role,
                found.schema
            ),
        ));
    }
    let mut client = checkout(pool, Use::Start).await?;
    // Each statement has the server's `statement_timeout`; the whole
    // transaction, the client's bound of one per statement it sends.
    let statements = 4 + 2 * MIGRATIONS.len();
    let result = bounded_for(pool, statements, apply(&mut client)).await;
    settle(client, result)
}

/// Applies the migrations the schema lacks, in one transaction under the
/// advisory lock.
async fn apply(client: &mut deadpool_postgres::Object) -> Result<MigrationReport, StoreError> {
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
                let error = StoreError::from(error);
                StoreError::of(
                    error.kind(),
                    format!(
                        "migration {} ({}) failed: {error}",
                        migration.version, migration.name,
                    ),
                )
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

/// The schema on the search path that holds `tool_contract_migrations`
/// and that the role may not use (no `USAGE`), when no schema it may use
/// does: PostgreSQL then skips it, and the tables look missing. Its oid
/// and name.
const UNUSABLE_SCHEMA: &str = "
    WITH path AS (
        SELECT ord, CASE WHEN btrim(entry) IN ('$user', '\"$user\"') THEN current_user::text
                         WHEN btrim(entry) LIKE '\"%\"'
                             THEN replace(substr(btrim(entry), 2, length(btrim(entry)) - 2), '\"\"', '\"')
                         ELSE lower(btrim(entry)) END AS name
        FROM unnest(string_to_array(current_setting('search_path'), ',')) WITH ORDINALITY AS t(entry, ord))
    SELECT n.oid, n.nspname::text
    FROM path
    JOIN pg_namespace n ON n.nspname = path.name
    JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = 'tool_contract_migrations'
    WHERE to_regclass('tool_contract_migrations') IS NULL
      AND NOT has_schema_privilege(n.oid, 'USAGE')
    ORDER BY path.ord
    LIMIT 1";

/// What `migrate` reads before it takes its lock.
struct Found {
    /// The schema version recorded in `tool_contract_migrations`, or
    /// `None` when the table is missing or this role may not read it.
    version: Option<i32>,
    /// The role, and whether it may create tables in the current schema.
    role: String,
    schema: String,
    may_create: bool,
    /// `tool_contract_migrations` exists, and this role may not read it.
    unreadable: bool,
    /// The schema that holds the tables, when this role may not use it.
    unusable_schema: Option<String>,
}

async fn found(pool: &Pool) -> Result<Found, StoreError> {
    let client = checkout(pool, Use::Start).await?;
    let result = bounded(pool, async {
        let row = client
            .query_one(
                "SELECT CASE WHEN to_regclass('tool_contract_migrations') IS NULL THEN false
                             ELSE has_table_privilege('tool_contract_migrations', 'SELECT') END,
                        current_user::text,
                        COALESCE(current_schema()::text, ''),
                        CASE WHEN current_schema() IS NULL THEN false
                             ELSE has_schema_privilege(current_schema(), 'CREATE') END,
                        to_regclass('tool_contract_migrations') IS NOT NULL",
                &[],
            )
            .await?;
        let version = if row.get::<_, bool>(0) {
            let row = client
                .query_one(
                    "SELECT COALESCE(max(version), 0) FROM tool_contract_migrations",
                    &[],
                )
                .await?;
            Some(row.get(0))
        } else {
            None
        };
        let unusable_schema = client
            .query_opt(UNUSABLE_SCHEMA, &[])
            .await?
            .map(|row| row.get(1));
        Ok(Found {
            unusable_schema,
            version,
            role: row.get(1),
            schema: row.get(2),
            may_create: row.get(3),
            unreadable: row.get::<_, bool>(4) && !row.get::<_, bool>(0),
        })
    })
    .await;
    settle(client, result)
}

/// What each store does with each table, as privileges of the
/// application's role.
const NEEDED: &[(&str, &str, &[&str])] = &[
    ("table", "tool_contract_migrations", &["SELECT"]),
    (
        "table",
        "tool_contract_idempotency",
        &["SELECT", "INSERT", "UPDATE", "DELETE"],
    ),
    (
        "table",
        "tool_contract_approvals",
        &["SELECT", "INSERT", "UPDATE"],
    ),
    ("table", "tool_contract_audit", &["SELECT", "INSERT"]),
    ("sequence", "tool_contract_audit_id_seq", &["USAGE"]),
];

/// Checks, as the pool's role, that the database is ready for the stores:
/// the schema is at the version this crate needs, and the role holds every
/// privilege the stores use (`SELECT, INSERT, UPDATE, DELETE` on
/// `tool_contract_idempotency`; `SELECT, INSERT, UPDATE` on
/// `tool_contract_approvals`; `SELECT, INSERT` on `tool_contract_audit`;
/// `USAGE` on `tool_contract_audit_id_seq`; `SELECT` on
/// `tool_contract_migrations`; `USAGE` on the schema that holds them,
/// which PostgreSQL's name lookup otherwise skips). Call it at start-up, after
/// [`migrate`]: without it, a missing table or grant shows only at the
/// first call, as a failed store call.
///
/// Changes nothing. Fails with [`StoreErrorKind::Configuration`] and a
/// message naming everything missing, e.g. "the database is not ready for
/// the PostgreSQL stores: the schema is at version 0 of 2 (no
/// tool_contract_migrations table); run `migrate()` as the role that owns
/// the schema", or "…: the role `app` lacks INSERT on tool_contract_audit;
/// USAGE on sequence tool_contract_audit_id_seq; grant them as the README
/// shows"; with [`StoreErrorKind::Unavailable`] when the database does not
/// answer.
pub async fn check(pool: &Pool) -> Result<(), StoreError> {
    let client = checkout(pool, Use::Start).await?;
    let result = bounded(pool, async {
        let role: String = client.query_one("SELECT current_user::text", &[]).await?.get(0);
        let mut missing = Vec::new();
        let mut lacks = Vec::new();
        // Whether the version can be read: the table exists and the role
        // may read it (whatever else it lacks, the version is named too).
        let mut version_readable = false;
        // Tables in a schema the role may not use are looked up in the
        // catalog (PostgreSQL's name lookup skips that schema).
        let unusable: Option<(u32, String)> = client
            .query_opt(UNUSABLE_SCHEMA, &[])
            .await?
            .map(|row| (row.get(0), row.get(1)));
        if let Some((_, schema)) = &unusable {
            lacks.push(format!("USAGE on schema {schema}"));
        }
        for (kind, name, privileges) in NEEDED {
            let oid: Option<u32> = match &unusable {
                None => client
                    .query_one("SELECT to_regclass($1)::oid", &[name])
                    .await?
                    .get(0),
                Some((schema, _)) => client
                    .query_opt(
                        "SELECT oid FROM pg_class WHERE relnamespace = $1::oid AND relname = $2",
                        &[schema, name],
                    )
                    .await?
                    .map(|row| row.get(0)),
            };
            let Some(oid) = oid else {
                missing.push(*name);
                continue;
            };
            let mut absent = Vec::new();
            for privilege in *privileges {
                let sql = match *kind {
                    "sequence" => "SELECT has_sequence_privilege($1::oid, $2)",
                    _ => "SELECT has_table_privilege($1::oid, $2)",
                };
                let held: bool = client.query_one(sql, &[&oid, privilege]).await?.get(0);
                if !held {
                    absent.push(*privilege);
                }
            }
            if *name == "tool_contract_migrations" {
                version_readable = absent.is_empty() && unusable.is_none();
            }
            if !absent.is_empty() {
                let kind = if *kind == "sequence" { "sequence " } else { "" };
                lacks.push(format!("{} on {kind}{name}", absent.join(", ")));
            }
        }
        let mut problems = Vec::new();
        if version_readable {
            let current: i32 = client
                .query_one(
                    "SELECT COALESCE(max(version), 0) FROM tool_contract_migrations",
                    &[],
                )
                .await?
                .get(0);
            if current < latest() {
                problems.push(format!(
                    "the schema is at version {current} of {}; run `migrate()` as the role that owns the schema",
                    latest()
                ));
            }
        } else if missing.contains(&"tool_contract_migrations") {
            problems.push(format!(
                "the schema is at version 0 of {} (no tool_contract_migrations table); run `migrate()` as the role that owns the schema",
                latest()
            ));
        }
        if !missing.is_empty() && !missing.contains(&"tool_contract_migrations") {
            problems.push(format!(
                "the tables {} are missing; run `migrate()` as the role that owns the schema",
                missing.join(", ")
            ));
        }
        if !lacks.is_empty() {
            problems.push(format!(
                "the role `{role}` lacks {}; grant them as the README shows",
                lacks.join("; ")
            ));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(StoreError::of(
                StoreErrorKind::Configuration,
                format!(
                    "the database is not ready for the PostgreSQL stores: {}",
                    problems.join("; ")
                ),
            ))
        }
    })
    .await;
    settle(client, result)
}
