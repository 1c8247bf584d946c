//! The migrations: applied to an empty database, re-applied as a no-op,
//! and run by several instances at once with one applying them; `migrate`
//! and `check` as the application's own role (no `CREATE`), and `check`
//! naming what a database lacks (the schema, a version, a grant), as does a
//! store call against a database that was never migrated.

mod support;

use std::sync::Arc;

use support::{Probe, TestDb, count, quick, session, toolbox, voucher};
use tool_contract::runtime::ExecutionOutcome;
use tool_contract::store_postgres::{
    MIGRATIONS, MigrationReport, Pool, StoreErrorKind, check, connect, migrate,
};
use tool_contract::{ToolError, ToolOutput};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_migrations_apply_to_an_empty_database_and_again_as_a_no_op() {
    let Some(db) = TestDb::create("migrate_empty").await else {
        return;
    };
    let client = db.client().await;
    let tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'";
    assert_eq!(count(&client, tables).await, 0);

    let pool = db.pool(&quick());
    let first = migrate(&pool).await.unwrap();
    assert_eq!(
        first,
        MigrationReport {
            applied: vec![1, 2],
            current: 2
        }
    );
    assert_eq!(MIGRATIONS.len(), 2);
    // Four tables (with the migrations' own) and the audit view.
    let names: Vec<String> = client
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = 'public' ORDER BY table_name",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(
        names,
        [
            "tool_contract_approvals",
            "tool_contract_audit",
            "tool_contract_audit_calls",
            "tool_contract_idempotency",
            "tool_contract_migrations"
        ]
    );

    let again = migrate(&pool).await.unwrap();
    assert_eq!(
        again,
        MigrationReport {
            applied: vec![],
            current: 2
        }
    );
    assert_eq!(
        count(&client, "SELECT count(*) FROM tool_contract_migrations").await,
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_that_migrate_at_once_apply_each_version_once() {
    let Some(db) = TestDb::create("migrate_race").await else {
        return;
    };
    let mut tasks = Vec::new();
    for _ in 0..6 {
        // Each instance has its own pool, as separate processes would.
        let pool = db.pool(&quick());
        tasks.push(tokio::spawn(async move { migrate(&pool).await }));
    }
    let mut applied = Vec::new();
    for task in tasks {
        let report = task.await.unwrap().unwrap();
        assert_eq!(report.current, 2);
        applied.extend(report.applied);
    }
    applied.sort();
    assert_eq!(applied, vec![1, 2]);
    let client = db.client().await;
    assert_eq!(
        count(&client, "SELECT count(*) FROM tool_contract_migrations").await,
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_database_fails_the_migration_with_its_reason() {
    let pool = tool_contract::store_postgres::connect(
        "host=127.0.0.1 port=1 user=postgres dbname=postgres",
        &quick(),
    )
    .unwrap();
    let error = migrate(&pool).await.unwrap_err();
    assert_eq!(
        error.message(),
        "error connecting to server: Connection refused (os error 111)"
    );
}

const NOT_MIGRATED: &str = "the database is not ready for the PostgreSQL stores: the schema is at version 0 of 2 (no tool_contract_migrations table); run `migrate()` as the role that owns the schema";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_never_migrated_is_named_by_check_and_by_every_store_call() {
    let Some(db) = TestDb::create("migrate_never").await else {
        return;
    };
    let pool = db.pool(&quick());
    let error = check(&pool).await.unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Configuration);
    assert_eq!(error.message(), NOT_MIGRATED);

    // A call refused by the store names the missing table and `migrate()`,
    // not a database that did not answer: no retry helps, so the call ends
    // fatal (the run stops) rather than the model being told to try again.
    let probe = Arc::new(Probe::default());
    let result = toolbox(&pool, &probe, std::time::Duration::from_secs(600))
        .call(&voucher("CMP-1", "k"), &session())
        .await;
    assert_eq!(result.model_text(), None);
    match &result.output {
        ToolOutput::Fatal { error, .. } => assert_eq!(error.code, ToolError::INTERNAL),
        other => panic!("expected a fatal INTERNAL, got {other:?}"),
    }
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    let missing = |table: &str| {
        format!(
            "42P01: relation \"{table}\" does not exist; the tool-contract tables are missing or older than this version of tool-store-postgres: run `migrate()` as the role that owns the schema before the first call (`check()` at start-up names what is missing)"
        )
    };
    assert_eq!(
        result.audit.internal_detail,
        Some(format!(
            "idempotency store failed: {}; audit sink failed: {}",
            missing("tool_contract_idempotency"),
            missing("tool_contract_audit")
        ))
    );
    assert_eq!(probe.runs(), 0);

    // An older schema: the version it is at and the one needed.
    migrate(&pool).await.unwrap();
    let client = db.client().await;
    client
        .batch_execute("DELETE FROM tool_contract_migrations WHERE version = 2")
        .await
        .unwrap();
    let error = check(&pool).await.unwrap_err();
    assert_eq!(
        error.message(),
        "the database is not ready for the PostgreSQL stores: the schema is at version 1 of 2; run `migrate()` as the role that owns the schema"
    );
}

/// A login role of the test's own and a pool that connects as it.
async fn app_role(db: &TestDb, client: &tokio_postgres::Client) -> (String, Pool) {
    let role = format!("{}_app", &db.name[..db.name.len().min(50)]);
    client
        .batch_execute(&format!("CREATE ROLE \"{role}\" LOGIN"))
        .await
        .unwrap();
    let pool = connect(&format!("{} user={role}", db.url), &quick()).unwrap();
    (role, pool)
}

async fn drop_role(client: &tokio_postgres::Client, role: &str, pool: Pool) {
    pool.close();
    drop(pool);
    client
        .batch_execute(&format!(
            "REVOKE ALL ON ALL TABLES IN SCHEMA public FROM \"{role}\";
             REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM \"{role}\";
             DROP ROLE \"{role}\";"
        ))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_application_role_migrates_a_current_schema_and_check_names_its_missing_grants() {
    let Some(db) = TestDb::create("migrate_app_role").await else {
        return;
    };
    let client = db.client().await;
    let (role, app) = app_role(&db, &client).await;

    // Before the owner migrated: the role cannot, and is told why.
    let error = migrate(&app).await.unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Configuration);
    assert_eq!(
        error.message(),
        format!(
            "the schema is at version 0 of 2 and the role `{role}` may not create tables in the schema `public`; run `migrate()` as the role that owns the schema"
        )
    );

    // The owner migrates; the role, without grants, is told each one.
    migrate(&db.pool(&quick())).await.unwrap();
    assert_eq!(
        migrate(&app).await.unwrap_err().message(),
        format!(
            "the role `{role}` may not read tool_contract_migrations, so the schema's version is unknown; grant it SELECT on tool_contract_migrations, or run `migrate()` as the role that owns the schema"
        )
    );
    let error = check(&app).await.unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Configuration);
    assert_eq!(
        error.message(),
        format!(
            "the database is not ready for the PostgreSQL stores: the role `{role}` lacks SELECT on tool_contract_migrations; SELECT, INSERT, UPDATE, DELETE on tool_contract_idempotency; SELECT, INSERT, UPDATE on tool_contract_approvals; SELECT, INSERT on tool_contract_audit; USAGE on sequence tool_contract_audit_id_seq; grant them as the README shows"
        )
    );

    // The README's grants: `migrate` finds nothing to do and `check` passes.
    client
        .batch_execute(&format!(
            "GRANT SELECT ON tool_contract_migrations TO \"{role}\";
             GRANT SELECT, INSERT, UPDATE, DELETE ON tool_contract_idempotency, tool_contract_approvals TO \"{role}\";
             GRANT SELECT, INSERT ON tool_contract_audit TO \"{role}\";
             GRANT SELECT ON tool_contract_audit_calls TO \"{role}\";
             GRANT USAGE ON SEQUENCE tool_contract_audit_id_seq TO \"{role}\";"
        ))
        .await
        .unwrap();
    assert_eq!(
        migrate(&app).await,
        Ok(MigrationReport {
            applied: vec![],
            current: 2
        })
    );
    assert_eq!(check(&app).await, Ok(()));
    // One grant short: only that one is named.
    client
        .batch_execute(&format!(
            "REVOKE INSERT ON tool_contract_audit FROM \"{role}\""
        ))
        .await
        .unwrap();
    assert_eq!(
        check(&app).await.unwrap_err().message(),
        format!(
            "the database is not ready for the PostgreSQL stores: the role `{role}` lacks INSERT on tool_contract_audit; grant them as the README shows"
        )
    );
    // An older schema and a grant short: both are named, not only the grant.
    client
        .batch_execute("DELETE FROM tool_contract_migrations WHERE version = 2")
        .await
        .unwrap();
    assert_eq!(
        check(&app).await.unwrap_err().message(),
        format!(
            "the database is not ready for the PostgreSQL stores: the schema is at version 1 of 2; run `migrate()` as the role that owns the schema; the role `{role}` lacks INSERT on tool_contract_audit; grant them as the README shows"
        )
    );
    drop_role(&client, &role, app).await;
}

/// The tables in a schema of their own, on the search path the URL's
/// `options` set; the application's role holds every table grant but not
/// `USAGE` on the schema. `check` and `migrate` name that grant, not a
/// schema that was never migrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_the_role_may_not_use_is_named_by_check_and_migrate() {
    let Some(db) = TestDb::create("migrate_schema_usage").await else {
        return;
    };
    let client = db.client().await;
    client.batch_execute("CREATE SCHEMA tc").await.unwrap();
    let in_tc = |url: &str| format!("{url} options='-c search_path=tc'");
    let owner = connect(&in_tc(&db.url), &quick()).unwrap();
    migrate(&owner).await.unwrap();
    let (role, plain) = app_role(&db, &client).await;
    plain.close();
    let app = connect(&in_tc(&format!("{} user={role}", db.url)), &quick()).unwrap();
    client
        .batch_execute(&format!(
            "SET search_path = tc;
             GRANT SELECT ON tool_contract_migrations TO \"{role}\";
             GRANT SELECT, INSERT, UPDATE, DELETE ON tool_contract_idempotency, tool_contract_approvals TO \"{role}\";
             GRANT SELECT, INSERT ON tool_contract_audit TO \"{role}\";
             GRANT SELECT ON tool_contract_audit_calls TO \"{role}\";
             GRANT USAGE ON SEQUENCE tool_contract_audit_id_seq TO \"{role}\";
             RESET search_path;"
        ))
        .await
        .unwrap();

    let error = check(&app).await.unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Configuration);
    assert_eq!(
        error.message(),
        format!(
            "the database is not ready for the PostgreSQL stores: the role `{role}` lacks USAGE on schema tc; grant them as the README shows"
        )
    );
    let error = migrate(&app).await.unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Configuration);
    assert_eq!(
        error.message(),
        format!(
            "the role `{role}` lacks USAGE on schema tc, which holds the tool-contract tables; grant it USAGE on schema tc, or run `migrate()` as the role that owns the schema"
        )
    );

    client
        .batch_execute(&format!("GRANT USAGE ON SCHEMA tc TO \"{role}\""))
        .await
        .unwrap();
    assert_eq!(check(&app).await, Ok(()));
    assert_eq!(
        migrate(&app).await,
        Ok(MigrationReport {
            applied: vec![],
            current: 2
        })
    );
    app.close();
    client
        .batch_execute(&format!(
            "REVOKE ALL ON ALL TABLES IN SCHEMA tc FROM \"{role}\";
             REVOKE ALL ON ALL SEQUENCES IN SCHEMA tc FROM \"{role}\";
             REVOKE ALL ON SCHEMA tc FROM \"{role}\";
             DROP ROLE \"{role}\";"
        ))
        .await
        .unwrap();
}
