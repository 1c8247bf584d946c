//! The audit trail: a write call is written before it runs and its outcome
//! appended when it ends; a read is written when it ends; the table takes
//! no update or delete, and the documented grants make the application's
//! role append-only; a `started` entry committed after the client gave it
//! up gets an end saying the call did not run.

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{Probe, TestDb, UNAVAILABLE, close, list, quick, session, toolbox, voucher};
use tool_contract::runtime::ExecutionOutcome;
use tool_contract::store_postgres::PoolOptions;

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

/// Slows the `started` entry of a destructive call down on the server: its
/// INSERT and its COMMIT (a deferred trigger) each take 6 s, within the
/// server's 10 s `statement_timeout`, but together longer than the
/// client's 11 s bound, so that the client gives the entry up while its
/// COMMIT is in flight, and the server commits it a second later.
const SLOW_COMMIT: &str = "
    CREATE FUNCTION slow_start() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.phase = 'started' AND NEW.tool = 'close_account' THEN PERFORM pg_sleep(6); END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER slow_insert BEFORE INSERT ON tool_contract_audit
        FOR EACH ROW EXECUTE FUNCTION slow_start();
    CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON tool_contract_audit
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION slow_start();";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_entry_committed_after_the_client_gave_it_up_is_ended_as_not_started() {
    let Some(db) = TestDb::create("audit_commit_in_flight").await else {
        return;
    };
    let options = PoolOptions {
        statement_timeout: Duration::from_secs(10),
        ..quick()
    };
    let pool = db.migrated_pool(&options).await;
    let client = db.client().await;
    client.batch_execute(SLOW_COMMIT).await.unwrap();
    let probe = Arc::new(Probe::default());
    let instance = toolbox(&pool, &probe, LEASE);

    let refused = instance.call(&close("ACC-1"), &session()).await;
    assert_eq!(refused.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(refused.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        refused.audit.internal_detail.as_deref(),
        Some(
            "audit sink failed: the database did not answer within 11000 ms; the connection is closed"
        )
    );
    assert_eq!(probe.runs(), 0);
    // Dropping the triggers waits for the entry's transaction to end: by
    // then the server has committed the entry the client gave up on.
    client
        .batch_execute(
            "DROP TRIGGER slow_commit ON tool_contract_audit;
             DROP TRIGGER slow_insert ON tool_contract_audit",
        )
        .await
        .unwrap();
    // Once the database answers again, the entry gets its end (generous:
    // the machine may be busy); no call is left `unknown`.
    let calls = "SELECT outcome, ended, record->>'error_code', record->>'internal_detail'
                 FROM tool_contract_audit_calls ORDER BY id";
    let mut rows = Vec::new();
    for _ in 0..600 {
        rows = client
            .query(calls, &[])
            .await
            .unwrap()
            .iter()
            .map(|row| {
                (
                    row.get::<_, String>(0),
                    row.get::<_, bool>(1),
                    row.get::<_, Option<String>>(2),
                    row.get::<_, Option<String>>(3),
                )
            })
            .collect::<Vec<_>>();
        if rows.iter().all(|row| row.1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let refusal = Some("POLICY_STORE_UNAVAILABLE".to_owned());
    assert_eq!(
        rows,
        [
            // The entry the client gave up on, ended by the store.
            (
                "not_started".to_owned(),
                true,
                refusal.clone(),
                Some("audit sink failed: this start entry was committed after the client gave it up; the call was not run".to_owned())
            ),
            // The refusal the toolbox wrote.
            (
                "not_started".to_owned(),
                true,
                refusal,
                Some("audit sink failed: the database did not answer within 11000 ms; the connection is closed".to_owned())
            ),
        ]
    );
}
