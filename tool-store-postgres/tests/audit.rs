//! The audit trail: a write call is written before it runs and its outcome
//! appended when it ends; a read is written when it ends; the table takes
//! no update or delete, and the documented grants make the application's
//! role append-only.

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{Probe, TestDb, list, quick, session, toolbox, voucher};

const LEASE: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_is_written_before_it_runs_and_its_end_appended() {
    let Some(db) = TestDb::create("audit_phases").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let toolbox = Arc::new(toolbox(&pool, &probe, LEASE));
    let client = db.client().await;

    // While the write runs, its `started` entry is there, outcome unknown.
    let running = {
        let toolbox = Arc::clone(&toolbox);
        tokio::spawn(async move { toolbox.call(&voucher("GATED", "k-1"), &session()).await })
    };
    probe.entered.notified().await;
    let rows = client
        .query(
            "SELECT phase, call_id, tool, outcome, record->>'idempotency_key'
             FROM tool_contract_audit ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let seen: Vec<(String, String, String, String, Option<String>)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect();
    assert_eq!(
        seen,
        [(
            "started".to_owned(),
            "call_v".to_owned(),
            "issue_voucher".to_owned(),
            "unknown".to_owned(),
            Some("k-1".to_owned())
        )]
    );
    probe.release.notify_one();
    let result = running.await.unwrap();
    assert_eq!(
        result.model_text().as_deref(),
        Some("Voucher V-1 for GATED")
    );

    // A read is written once, when it ends.
    let read = toolbox.call(&list("CUS-42"), &session()).await;
    assert_eq!(read.audit.internal_detail, None);

    let rows = client
        .query(
            "SELECT id, started_id, phase, tool, outcome FROM tool_contract_audit ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let seen: Vec<(i64, Option<i64>, String, String, String)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect();
    assert_eq!(
        seen,
        [
            (
                1,
                None,
                "started".into(),
                "issue_voucher".into(),
                "unknown".into()
            ),
            (
                2,
                Some(1),
                "ended".into(),
                "issue_voucher".into(),
                "completed".into()
            ),
            (
                3,
                None,
                "ended".into(),
                "list_complaints".into(),
                "completed".into()
            ),
        ]
    );
    // The ended entry is the record the caller got.
    let stored: serde_json::Value = client
        .query_one("SELECT record FROM tool_contract_audit WHERE id = 2", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, serde_json::to_value(&result.audit).unwrap());
    // One row per call in the view.
    let calls = client
        .query(
            "SELECT tool, outcome, ended FROM tool_contract_audit_calls ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let calls: Vec<(String, String, bool)> = calls
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    assert_eq!(
        calls,
        [
            ("issue_voucher".into(), "completed".into(), true),
            ("list_complaints".into(), "completed".into(), true),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_table_takes_no_update_or_delete_and_the_app_role_only_appends() {
    let Some(db) = TestDb::create("audit_append_only").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    toolbox(&pool, &probe, LEASE)
        .call(&list("CUS-42"), &session())
        .await;
    let client = db.client().await;
    // Even the owner cannot rewrite history.
    for statement in [
        "UPDATE tool_contract_audit SET outcome = 'completed'",
        "DELETE FROM tool_contract_audit",
    ] {
        let error = client.batch_execute(statement).await.unwrap_err();
        assert_eq!(
            error.as_db_error().unwrap().message(),
            "tool_contract_audit is append-only"
        );
    }
    // The application's role with the README's grants.
    let role = format!("{}_app", db.name);
    client
        .batch_execute(&format!(
            "CREATE ROLE \"{role}\";
             GRANT SELECT, INSERT, UPDATE, DELETE ON tool_contract_idempotency, tool_contract_approvals TO \"{role}\";
             GRANT SELECT, INSERT ON tool_contract_audit TO \"{role}\";
             GRANT SELECT ON tool_contract_audit_calls TO \"{role}\";
             GRANT USAGE ON SEQUENCE tool_contract_audit_id_seq TO \"{role}\";
             SET ROLE \"{role}\";"
        ))
        .await
        .unwrap();
    client
        .batch_execute(
            "INSERT INTO tool_contract_audit (phase, call_id, tool, outcome, record)
             VALUES ('ended', 'c', 't', 'completed', '{}')",
        )
        .await
        .unwrap();
    for statement in [
        "UPDATE tool_contract_audit SET outcome = 'completed'",
        "DELETE FROM tool_contract_audit",
        "TRUNCATE tool_contract_audit",
    ] {
        let error = client.batch_execute(statement).await.unwrap_err();
        assert_eq!(
            error.as_db_error().unwrap().message(),
            "permission denied for table tool_contract_audit",
            "{statement}"
        );
    }
    client
        .batch_execute(&format!(
            "RESET ROLE;
             REVOKE ALL ON ALL TABLES IN SCHEMA public FROM \"{role}\";
             REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM \"{role}\";
             DROP ROLE \"{role}\";"
        ))
        .await
        .unwrap();
}
