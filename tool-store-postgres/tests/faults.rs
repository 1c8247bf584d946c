//! Real faults: a closed port, a connection terminated between claim and
//! completion (`pg_terminate_backend`), a statement that hits
//! `statement_timeout`; nothing is run without its claim, nothing runs
//! twice, and a claim that never completes ends as OUTCOME_UNKNOWN.

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{
    IN_PROGRESS, Probe, TestDb, UNAVAILABLE, UNKNOWN, bare_toolbox, close, count, list, quick,
    session, toolbox, voucher,
};
use tool_contract::store_postgres::{
    PoolOptions, PostgresApprovalStore, PostgresAuditSink, PostgresIdempotencyStore, connect,
};
use tool_contract::{approval::ApprovalGrant, runtime::ExecutionOutcome};

const REFUSED: &str = "error connecting to server: Connection refused (os error 111)";
const LEASE: Duration = Duration::from_secs(3);
/// How long the instance whose completion fails holds its claim: its calls'
/// time limit plus its claim grace (longer than `LEASE`).
const HOLD: Duration = Duration::from_secs(8);

/// The instance whose completion fails: its claims are held for [`HOLD`].
fn holding_instance(
    pool: &tool_contract::store_postgres::Pool,
    probe: &Arc<Probe>,
) -> tool_contract::Toolbox {
    toolbox(pool, probe, LEASE)
        .with_default_timeout(Duration::from_secs(4))
        .with_claim_grace(Duration::from_secs(4))
}

fn closed_port() -> tool_contract::store_postgres::Pool {
    connect(
        "host=127.0.0.1 port=1 user=postgres dbname=postgres",
        &quick(),
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_database_refuses_writes_retryably_and_reads_still_run() {
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&closed_port(), &probe, LEASE);

    let write = toolbox.call(&voucher("CMP-1", "k"), &session()).await;
    assert_eq!(write.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(write.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        write.audit.internal_detail,
        Some(format!(
            "idempotency store failed: {REFUSED}; audit sink failed: {REFUSED}"
        ))
    );
    let destructive = toolbox.call(&close("ACC-1"), &session()).await;
    assert_eq!(destructive.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(
        destructive.audit.internal_detail,
        Some(format!(
            "audit sink failed: {REFUSED}; audit sink failed: {REFUSED}"
        ))
    );
    assert_eq!(probe.runs(), 0);

    // A read runs; the audit write that failed is reported.
    let read = toolbox.call(&list("CUS-42"), &session()).await;
    assert_eq!(
        read.model_text().as_deref(),
        Some("CUS-42 has no open complaints.")
    );
    assert_eq!(read.audit.outcome, ExecutionOutcome::Completed);
    assert_eq!(
        read.audit.internal_detail,
        Some(format!("audit sink failed: {REFUSED}"))
    );
    assert_eq!(probe.runs(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_audit_sink_keeps_writes_from_running_and_frees_their_claim_and_grant() {
    let Some(db) = TestDb::create("fault_audit").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let approvals = PostgresApprovalStore::new(pool.clone());
    let grant =
        ApprovalGrant::for_call::<support::CloseAccount>("appr-1", r#"{"account_ref": "ACC-1"}"#)
            .for_subjects(&support::subjects());
    approvals
        .grant(&grant, Duration::from_secs(600))
        .await
        .unwrap();
    let toolbox = bare_toolbox(&probe)
        .with_idempotency_store(Arc::new(PostgresIdempotencyStore::new(pool.clone())))
        .with_approval_store(Arc::new(approvals.clone()))
        .with_audit_sink(Arc::new(PostgresAuditSink::new(closed_port())));

    for call in [voucher("CMP-1", "k"), close("ACC-1")] {
        let result = toolbox.call(&call, &session()).await;
        assert_eq!(result.model_text().as_deref(), Some(UNAVAILABLE));
        assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
        assert_eq!(result.audit.approval_id, None);
    }
    assert_eq!(probe.runs(), 0);
    // The claim was released and the grant is left for the retry.
    let client = db.client().await;
    assert_eq!(
        count(&client, "SELECT count(*) FROM tool_contract_idempotency").await,
        0
    );
    assert_eq!(approvals.unused().await, Ok(1));
}

/// Holds a lock on every idempotency row, lets the gated call finish, and
/// waits until its `record` statement waits for the lock; returns the
/// lock's transaction and that statement's backend.
async fn block_the_record(db: &TestDb, probe: &Probe) -> (tokio_postgres::Client, i32) {
    let holder = db.client().await;
    holder
        .batch_execute("BEGIN; SELECT 1 FROM tool_contract_idempotency FOR UPDATE")
        .await
        .unwrap();
    probe.release.notify_one();
    let watcher = db.client().await;
    for _ in 0..500 {
        let row = watcher
            .query_opt(
                "SELECT pid FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'
                   AND query LIKE 'UPDATE tool_contract_idempotency%'",
                &[],
            )
            .await
            .unwrap();
        if let Some(row) = row {
            return (holder, row.get(0));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the record statement never waited for the lock");
}

/// After a completion that failed: the key is in progress until its lease
/// ends, then its outcome is unknown, on any instance; it never runs again.
async fn assert_in_progress_then_unknown(db: &TestDb, probe: &Arc<Probe>) {
    let other = toolbox(&db.pool(&quick()), probe, LEASE);
    let result = other.call(&voucher("GATED", "k"), &session()).await;
    assert_eq!(result.model_text().as_deref(), Some(IN_PROGRESS));
    let client = db.client().await;
    assert_eq!(
        count(
            &client,
            "SELECT count(*) FROM tool_contract_idempotency WHERE state = 'running'"
        )
        .await,
        1
    );
    tokio::time::sleep(HOLD).await;
    for _ in 0..2 {
        let result = other.call(&voucher("GATED", "k"), &session()).await;
        assert_eq!(result.model_text().as_deref(), Some(UNKNOWN));
        assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    }
    assert_eq!(probe.runs(), 1);
    assert_eq!(
        count(
            &client,
            "SELECT count(*) FROM tool_contract_idempotency WHERE state = 'abandoned'"
        )
        .await,
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_terminated_between_claim_and_completion_leaves_the_claim_to_its_lease() {
    let Some(db) = TestDb::create("fault_terminate").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let instance = Arc::new(holding_instance(&pool, &probe));
    let running = {
        let instance = Arc::clone(&instance);
        tokio::spawn(async move { instance.call(&voucher("GATED", "k"), &session()).await })
    };
    probe.entered.notified().await;
    let (holder, pid) = block_the_record(&db, &probe).await;
    let killer = db.client().await;
    let killed: bool = killer
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .await
        .unwrap()
        .get(0);
    assert!(killed);
    let result = running.await.unwrap();
    holder.batch_execute("ROLLBACK").await.unwrap();
    // The handler ran: its result stands, the lost record is in the audit.
    assert_eq!(
        result.model_text().as_deref(),
        Some("Voucher V-1 for GATED")
    );
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some(
            "idempotency store failed: 57P01: terminating connection due to administrator command"
        )
    );
    assert_in_progress_then_unknown(&db, &probe).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_timeout_at_completion_leaves_the_claim_to_its_lease() {
    let Some(db) = TestDb::create("fault_timeout").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let options = PoolOptions {
        statement_timeout: Duration::from_millis(300),
        ..quick()
    };
    let pool = db.migrated_pool(&options).await;
    let instance = Arc::new(holding_instance(&pool, &probe));
    let running = {
        let instance = Arc::clone(&instance);
        tokio::spawn(async move { instance.call(&voucher("GATED", "k"), &session()).await })
    };
    probe.entered.notified().await;
    let (holder, _) = block_the_record(&db, &probe).await;
    let result = running.await.unwrap();
    holder.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(
        result.model_text().as_deref(),
        Some("Voucher V-1 for GATED")
    );
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("idempotency store failed: 57014: canceling statement due to statement timeout")
    );
    assert_in_progress_then_unknown(&db, &probe).await;
}
