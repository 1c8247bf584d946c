//! Real faults: a closed port, a connection terminated between claim and
//! completion (`pg_terminate_backend`), a statement that hits
//! `statement_timeout`, a server that stops answering (every process of a
//! cluster of the test's own stopped with `SIGSTOP`); nothing is run without
//! its claim, nothing runs twice, every store call ends within the bound
//! `PoolOptions` gives, and a claim that never completes ends as
//! OUTCOME_UNKNOWN; a claim given up on (or dropped) while its COMMIT was
//! in flight, and a release that failed, leave the key free once the
//! database answers; options no server or clock can hold are refused or
//! saturate.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use support::cluster::Cluster;
use support::{
    IN_PROGRESS, Probe, TestDb, UNAVAILABLE, UNKNOWN, bare_toolbox, close, count, list, quick,
    session, toolbox, voucher,
};
use tool_contract::store_postgres::{
    PoolOptions, PostgresApprovalStore, PostgresAuditSink, PostgresIdempotencyStore, check,
    connect, migrate,
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

/// What a store call on a frozen server fails with: its statements got no
/// answer on a pooled connection, no connection could be opened, or every
/// connection was taken by such calls.
fn frozen_failure(detail: &str) -> bool {
    [
        "the database did not answer within 3000 ms; the connection is closed",
        "no database connection: Timeout occurred while creating a new object",
        "no database connection: Timeout occurred while waiting for a slot to become available",
    ]
    .contains(&detail)
}

/// `detail` is the store failures `prefixes` name, in order, each one a
/// [`frozen_failure`].
fn frozen_failures(detail: Option<&str>, prefixes: &[&str]) -> bool {
    let Some(detail) = detail else {
        return false;
    };
    let mut rest = detail;
    for (n, prefix) in prefixes.iter().enumerate() {
        let Some(after) = rest.strip_prefix(prefix) else {
            return false;
        };
        let (failure, next) = match prefixes.get(n + 1) {
            Some(next) => match after.split_once(&format!("; {next}")) {
                Some((failure, _)) => (failure, &after[failure.len() + 2..]),
                None => return false,
            },
            None => (after, ""),
        };
        if !frozen_failure(failure) {
            return false;
        }
        rest = next;
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_database_fails_every_store_call_within_the_pool_bounds_and_recovers() {
    let Some(cluster) = Cluster::start("frozen") else {
        return;
    };
    let options = PoolOptions {
        max_size: 4,
        connect_timeout: Duration::from_secs(1),
        wait_timeout: Duration::from_secs(1),
        statement_timeout: Duration::from_secs(2),
    };
    assert_eq!(options.call_limit(), Duration::from_secs(5));
    assert_eq!(options.finish_limit(), Duration::from_secs(34));
    // Generous: the machine may be busy with other builds.
    let slack = Duration::from_secs(10);
    let pool = connect(&cluster.url(), &options).unwrap();
    migrate(&pool).await.unwrap();
    check(&pool).await.unwrap();
    let probe = Arc::new(Probe::default());
    let instance = Arc::new(toolbox(&pool, &probe, Duration::from_secs(600)));
    let warm = instance.call(&voucher("CMP-0", "k-0"), &session()).await;
    assert_eq!(warm.model_text().as_deref(), Some("Voucher V-1 for CMP-0"));
    assert_eq!(warm.audit.internal_detail, None);

    // A call whose handler runs when the server stops answering.
    let gated = {
        let instance = Arc::clone(&instance);
        tokio::spawn(async move {
            instance
                .call(&voucher("GATED", "k-gated"), &session())
                .await
        })
    };
    probe.entered.notified().await;
    assert!(cluster.freeze() >= 2);

    // Calls that arrive meanwhile: keyed writes and reads, at once.
    let mut arriving = Vec::new();
    for n in 1..=12 {
        let instance = Arc::clone(&instance);
        arriving.push(tokio::spawn(async move {
            let started = Instant::now();
            let call = voucher(&format!("CMP-{n}"), &format!("k-{n}"));
            let result = instance.call(&call, &session()).await;
            (result, started.elapsed())
        }));
    }
    let mut reads = Vec::new();
    for n in 1..=3 {
        let instance = Arc::clone(&instance);
        reads.push(tokio::spawn(async move {
            let started = Instant::now();
            let result = instance.call(&list(&format!("CUS-{n}")), &session()).await;
            (result, started.elapsed())
        }));
    }
    let released = Instant::now();
    probe.release.notify_one();

    // A store call of the application's own.
    let started = Instant::now();
    let error = check(&pool).await.unwrap_err();
    assert!(started.elapsed() <= options.call_limit() + slack);
    assert_eq!(
        error.kind(),
        tool_contract::store_postgres::StoreErrorKind::Unavailable
    );
    assert!(frozen_failure(error.message()), "{}", error.message());

    for task in arriving {
        let (result, elapsed) = task.await.unwrap();
        // A claim, then the refusal's audit entry.
        assert!(
            elapsed <= options.call_limit() + options.finish_limit() + slack,
            "{elapsed:?}"
        );
        assert_eq!(result.model_text().as_deref(), Some(UNAVAILABLE));
        assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
        assert!(
            frozen_failures(
                result.audit.internal_detail.as_deref(),
                &["idempotency store failed: ", "audit sink failed: "]
            ),
            "{:?}",
            result.audit.internal_detail
        );
    }
    for (n, task) in reads.into_iter().enumerate() {
        let (result, elapsed) = task.await.unwrap();
        assert!(elapsed <= options.finish_limit() + slack, "{elapsed:?}");
        assert_eq!(
            result.model_text(),
            Some(format!("CUS-{} has no open complaints.", n + 1))
        );
        assert!(
            frozen_failures(
                result.audit.internal_detail.as_deref(),
                &["audit sink failed: "]
            ),
            "{:?}",
            result.audit.internal_detail
        );
    }
    // The handler's result stands; its record and its end were not written.
    let gated = gated.await.unwrap();
    assert!(released.elapsed() <= 2 * options.finish_limit() + slack);
    assert_eq!(gated.model_text().as_deref(), Some("Voucher V-2 for GATED"));
    assert!(
        frozen_failures(
            gated.audit.internal_detail.as_deref(),
            &["idempotency store failed: ", "audit sink failed: "]
        ),
        "{:?}",
        gated.audit.internal_detail
    );
    // The reads ran; no keyed call ran without its claim.
    assert_eq!(probe.runs(), 5);

    cluster.thaw();
    // Recovery: the next calls succeed, a refused key runs on its retry
    // (its claim was never committed: nothing was changed), and the key
    // whose record was lost does not run again.
    let after = instance.call(&voucher("CMP-13", "k-13"), &session()).await;
    assert_eq!(
        after.model_text().as_deref(),
        Some("Voucher V-6 for CMP-13")
    );
    assert_eq!(after.audit.internal_detail, None);
    for n in 1..=12 {
        let retry = instance
            .call(&voucher(&format!("CMP-{n}"), &format!("k-{n}")), &session())
            .await;
        assert_eq!(
            retry.model_text(),
            Some(format!("Voucher V-{} for CMP-{n}", n + 6))
        );
        assert_eq!(retry.audit.internal_detail, None);
    }
    let again = instance
        .call(&voucher("GATED", "k-gated"), &session())
        .await;
    assert!(
        [Some("Voucher V-2 for GATED"), Some(IN_PROGRESS)].contains(&again.model_text().as_deref()),
        "{:?}",
        again.model_text()
    );
    assert_eq!(probe.runs(), 18);
    check(&pool).await.unwrap();
}

/// Options no PostgreSQL server or clock can honour (waits of
/// `Duration::MAX`, a `statement_timeout` longer than the server's
/// 2147483647 ms): `connect` names the one the server refuses, and the
/// bounds saturate instead of overflowing, so no store call panics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_beyond_what_a_server_or_clock_can_hold_are_refused_or_saturate() {
    let endless = PoolOptions {
        max_size: 1,
        connect_timeout: Duration::MAX,
        wait_timeout: Duration::MAX,
        statement_timeout: Duration::MAX,
    };
    assert_eq!(endless.call_limit(), Duration::MAX);
    assert_eq!(endless.finish_limit(), Duration::MAX);
    let error = connect("host=127.0.0.1 port=1 user=postgres", &endless).unwrap_err();
    assert_eq!(
        error.kind(),
        tool_contract::store_postgres::StoreErrorKind::Configuration
    );
    assert_eq!(
        error.message(),
        "the statement timeout is 18446744073709551615999 ms; PostgreSQL takes at most 2147483647 ms (about 24.8 days)"
    );

    // Waits of `Duration::MAX` with a statement timeout the server takes:
    // a store call on a closed port fails with its reason, no panic.
    let waits = PoolOptions {
        statement_timeout: Duration::from_millis(2_147_483_647),
        ..endless
    };
    assert_eq!(waits.call_limit(), Duration::MAX);
    let pool = connect(
        "host=127.0.0.1 port=1 user=postgres dbname=postgres",
        &waits,
    )
    .unwrap();
    let error = check(&pool).await.unwrap_err();
    assert_eq!(error.message(), REFUSED);
    let probe = Arc::new(Probe::default());
    let result = toolbox(&pool, &probe, LEASE)
        .call(&voucher("CMP-1", "k"), &session())
        .await;
    assert_eq!(result.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(
        result.audit.internal_detail,
        Some(format!(
            "idempotency store failed: {REFUSED}; audit sink failed: {REFUSED}"
        ))
    );
    assert_eq!(probe.runs(), 0);
}

/// Slows the first claim of key `slow` down on the server: its INSERT and
/// its COMMIT (a deferred trigger) each take 6 s, within the server's
/// 10 s `statement_timeout`, but together longer than the client's 11 s
/// bound, so that the client gives the claim up while its COMMIT is in
/// flight, and the server commits it a second later.
const SLOW_COMMIT: &str = "
    CREATE FUNCTION slow_claim() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.key = 'slow' THEN PERFORM pg_sleep(6); END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER slow_insert BEFORE INSERT ON tool_contract_idempotency
        FOR EACH ROW EXECUTE FUNCTION slow_claim();
    CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON tool_contract_idempotency
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION slow_claim();";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_given_up_while_its_commit_is_in_flight_does_not_hold_the_key() {
    let Some(db) = TestDb::create("fault_commit_in_flight").await else {
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
    let instance = toolbox(&pool, &probe, Duration::from_secs(600));

    let refused = instance.call(&voucher("CMP-1", "slow"), &session()).await;
    assert_eq!(refused.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(refused.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        refused.audit.internal_detail.as_deref(),
        Some(
            "idempotency store failed: the database did not answer within 11000 ms; the connection is closed"
        )
    );
    assert_eq!(probe.runs(), 0);
    // Dropping the triggers waits for the claim's transaction to end: by
    // then the server has committed the claim the client gave up on.
    client
        .batch_execute("DROP TRIGGER slow_commit ON tool_contract_idempotency; DROP TRIGGER slow_insert ON tool_contract_idempotency")
        .await
        .unwrap();
    // The store undoes it once the database answers again (generous: the
    // machine may be busy).
    let mut left = -1;
    for _ in 0..600 {
        left = count(&client, "SELECT count(*) FROM tool_contract_idempotency").await;
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(left, 0);
    // The retry runs: the refusal said nothing was changed.
    let retry = instance.call(&voucher("CMP-1", "slow"), &session()).await;
    assert_eq!(retry.model_text().as_deref(), Some("Voucher V-1 for CMP-1"));
    assert_eq!(retry.audit.internal_detail, None);
    let again = instance.call(&voucher("CMP-1", "slow"), &session()).await;
    assert_eq!(
        again.model_text().as_deref(),
        Some(
            "Voucher V-1 for CMP-1\n\nThis is the recorded result of an earlier call with the same request_id; it was not run again."
        )
    );
    assert_eq!(probe.runs(), 1);
}

/// The caller drops a keyed call 8 s in: after the slowed claim's INSERT
/// answered (6 s), while its COMMIT is in flight (or, on a busy machine,
/// while the INSERT still is). Either way the key is free afterwards and
/// the call, never run, runs on its retry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_dropped_while_its_claim_commits_does_not_hold_the_key() {
    let Some(db) = TestDb::create("fault_drop_in_commit").await else {
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
    let instance = toolbox(&pool, &probe, Duration::from_secs(600));

    let dropped = tokio::time::timeout(
        Duration::from_secs(8),
        instance.call(&voucher("CMP-1", "slow"), &session()),
    )
    .await;
    assert!(dropped.is_err());
    assert_eq!(probe.runs(), 0);
    client
        .batch_execute(
            "DROP TRIGGER slow_commit ON tool_contract_idempotency;
             DROP TRIGGER slow_insert ON tool_contract_idempotency",
        )
        .await
        .unwrap();
    let mut left = -1;
    for _ in 0..600 {
        left = count(&client, "SELECT count(*) FROM tool_contract_idempotency").await;
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(left, 0);
    let retry = instance.call(&voucher("CMP-1", "slow"), &session()).await;
    assert_eq!(retry.model_text().as_deref(), Some("Voucher V-1 for CMP-1"));
    assert_eq!(probe.runs(), 1);
}

/// A keyed call refused after its claim (the audit sink does not answer)
/// whose release fails too (every DELETE on the claims outlasts the
/// server's 300 ms `statement_timeout`): the store frees the key once the
/// database takes the release again, so the retry the refusal asks for
/// runs, instead of reading CALL_IN_PROGRESS and then OUTCOME_UNKNOWN for a
/// call that never ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_release_that_failed_frees_the_key_once_the_database_takes_it() {
    let Some(db) = TestDb::create("fault_release").await else {
        return;
    };
    let options = PoolOptions {
        statement_timeout: Duration::from_millis(300),
        ..quick()
    };
    let pool = db.migrated_pool(&options).await;
    let client = db.client().await;
    client
        .batch_execute(
            "CREATE FUNCTION slow_delete() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN PERFORM pg_sleep(1); RETURN OLD; END $$;
             CREATE TRIGGER slow_delete BEFORE DELETE ON tool_contract_idempotency
                 FOR EACH ROW EXECUTE FUNCTION slow_delete();",
        )
        .await
        .unwrap();
    let probe = Arc::new(Probe::default());
    let refusing = bare_toolbox(&probe)
        .with_idempotency_store(Arc::new(PostgresIdempotencyStore::new(pool.clone())))
        .with_audit_sink(Arc::new(PostgresAuditSink::new(closed_port())));
    let refused = refusing.call(&voucher("CMP-1", "k"), &session()).await;
    assert_eq!(refused.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(
        refused.audit.internal_detail,
        Some(format!(
            "audit sink failed: {REFUSED}; idempotency store failed: 57014: canceling statement due to statement timeout; audit sink failed: {REFUSED}"
        ))
    );
    assert_eq!(probe.runs(), 0);
    assert_eq!(
        count(
            &client,
            "SELECT count(*) FROM tool_contract_idempotency WHERE state = 'running'"
        )
        .await,
        1
    );

    client
        .batch_execute("DROP TRIGGER slow_delete ON tool_contract_idempotency")
        .await
        .unwrap();
    let mut left = -1;
    for _ in 0..600 {
        left = count(&client, "SELECT count(*) FROM tool_contract_idempotency").await;
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(left, 0);
    let retry = toolbox(&pool, &probe, LEASE)
        .call(&voucher("CMP-1", "k"), &session())
        .await;
    assert_eq!(retry.model_text().as_deref(), Some("Voucher V-1 for CMP-1"));
    assert_eq!(probe.runs(), 1);
}
