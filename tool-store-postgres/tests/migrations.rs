//! The migrations: applied to an empty database, re-applied as a no-op,
//! and run by several instances at once with one applying them.

mod support;

use support::{TestDb, count, quick};
use tool_contract::store_postgres::{MIGRATIONS, MigrationReport, migrate};

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
