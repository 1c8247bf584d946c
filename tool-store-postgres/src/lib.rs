//! tool-contract's policy state in PostgreSQL (the facade's `postgres`
//! feature, as `tool_contract::store_postgres`): the stores a
//! [`Toolbox`](tool_runtime::Toolbox) needs so that its promises hold
//! across every instance of an application, and across restarts.
//!
//! - [`PostgresIdempotencyStore`]: at most one run per idempotency key
//!   across any number of instances (`INSERT … ON CONFLICT DO NOTHING` on
//!   the scope's hash), a lease after which a claim that never reported its
//!   end answers `OUTCOME_UNKNOWN` rather than running again, and
//!   [`purge`](PostgresIdempotencyStore::purge) for the retention period;
//! - [`PostgresApprovalStore`]: grants the application records (e.g. from
//!   its approval UI) with [`grant`](PostgresApprovalStore::grant), each
//!   used by exactly one call (`UPDATE … WHERE used_at IS NULL … RETURNING`)
//!   before it expires;
//! - [`PostgresAuditSink`]: every call appended to `tool_contract_audit`,
//!   write and destructive calls before they run, with their outcome
//!   appended when they end (the table is append-only).
//!
//! [`migrate`] creates and upgrades the tables; [`check`] tells at start-up
//! whether the database is ready (schema version, the role's grants) and
//! names what is missing; [`connect`] builds a pool. Every store call is
//! bounded on the client ([`PoolOptions::call_limit`],
//! [`PoolOptions::finish_limit`]), also against a server that stops
//! answering; a [`StoreError`]'s [`kind`](StoreError::kind) says whether a
//! retry can help. Every timestamp the stores compare (leases, expiries) is
//! the database server's `now()`, so the clocks of the application's
//! machines do not matter.
//!
//! ```no_run
//! # async fn run() -> Result<(), tool_store_postgres::StoreError> {
//! use std::sync::Arc;
//! use tool_runtime::Toolbox;
//! use tool_store_postgres::{
//!     PoolOptions, PostgresApprovalStore, PostgresAuditSink, PostgresIdempotencyStore, check,
//!     connect, migrate,
//! };
//!
//! let pool = connect("postgres://app@db/app", &PoolOptions::default())?;
//! migrate(&pool).await?;
//! check(&pool).await?;
//! let toolbox = Toolbox::new()
//!     .with_idempotency_store(Arc::new(PostgresIdempotencyStore::new(pool.clone())))
//!     .with_approval_store(Arc::new(PostgresApprovalStore::new(pool.clone())))
//!     .with_audit_sink(Arc::new(PostgresAuditSink::new(pool)));
//! # let _ = toolbox; Ok(()) }
//! ```

#![deny(missing_docs)]

mod approvals;
mod audit;
mod error;
mod idempotency;
mod migrate;
mod pool;
mod values;

pub use approvals::PostgresApprovalStore;
pub use audit::PostgresAuditSink;
pub use error::{StoreError, StoreErrorKind};
pub use idempotency::PostgresIdempotencyStore;
pub use migrate::{MIGRATIONS, Migration, MigrationReport, check, migrate};
pub use pool::{PoolOptions, connect};

/// The connection pool the stores share (`deadpool-postgres`).
pub use deadpool_postgres::Pool;
