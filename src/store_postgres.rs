//! Policy state in PostgreSQL, shared by every instance of an application:
//! idempotency records, approval grants, the audit trail, their migrations.

pub use tool_store_postgres::{
    MIGRATIONS, Migration, MigrationReport, Pool, PoolOptions, PostgresApprovalStore,
    PostgresAuditSink, PostgresIdempotencyStore, StoreError, StoreErrorKind, check, connect,
    migrate,
};
