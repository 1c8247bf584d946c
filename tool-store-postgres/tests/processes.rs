//! Separate processes against one database: this test binary starts copies
//! of itself as child instances (`TC_PG_CHILD` names the role).
//!
//! - `race`: four processes call with one idempotency key at once; the
//!   handler, which records each run in the database, runs once, and every
//!   process gets the result or `CALL_IN_PROGRESS`.
//! - `hang`: a process killed while its call runs leaves a claim that
//!   stays in progress until its lease ends, then reads as
//!   `OUTCOME_UNKNOWN`; the audit trail shows the call's outcome unknown.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use support::{IN_PROGRESS, IssueVoucher, TestDb, UNKNOWN, count, quick, session, voucher};
use tool_contract::store_postgres::{
    Pool, PostgresAuditSink, PostgresIdempotencyStore, connect, migrate,
};
use tool_contract::{CallContext, ToolError, Toolbox, runtime::Delivery};

const ROLE: &str = "TC_PG_CHILD";
const URL: &str = "TC_PG_URL";
const LEASE: Duration = Duration::from_secs(2);
/// How long a hanging child's claim is held: its time limit plus its grace.
const HANG_HOLD: Duration = Duration::from_secs(6);

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    match std::env::var(ROLE) {
        Ok(role) => runtime.block_on(child(&role)),
        Err(_) => runtime.block_on(parent()),
    }
}

/// A child instance: its own pool and toolbox, one call, its answer on
/// stdout as `fresh|…`, `replayed|…` or `refused|…`.
async fn child(role: &str) {
    let url = std::env::var(URL).expect("the parent names the database");
    let pool = connect(&url, &quick()).expect("a pool");
    let toolbox = instance(&pool, role == "hang");
    let result = toolbox.call(&voucher("CMP-1", role), &session()).await;
    let text = result.model_text().unwrap_or_default();
    let kind = match (result.output.error(), result.audit.delivery) {
        (Some(_), _) => "refused",
        (None, Delivery::Fresh) => "fresh",
        (None, Delivery::Replayed) => "replayed",
    };
    println!("{kind}|{text}");
}

/// A toolbox whose voucher handler writes its run into `runs` (with the
/// process id), then waits half a second, or forever when `hang`.
fn instance(pool: &Pool, hang: bool) -> Toolbox {
    // A hanging call holds its claim for its time limit plus the grace.
    let mut toolbox = if hang {
        Toolbox::new()
            .with_default_timeout(Duration::from_secs(2))
            .with_claim_grace(Duration::from_secs(4))
    } else {
        Toolbox::new().with_default_timeout(Duration::from_secs(60))
    };
    let runs = pool.clone();
    toolbox.register(move |call: IssueVoucher, _: CallContext| {
        let runs = runs.clone();
        async move {
            let client = runs.get().await.map_err(|_| ToolError::internal())?;
            client
                .execute(
                    "INSERT INTO runs (pid, request_id) VALUES ($1, $2)",
                    &[&(std::process::id() as i32), &call.request_id],
                )
                .await
                .map_err(|_| ToolError::internal())?;
            if hang {
                println!("RUNNING");
                std::future::pending::<()>().await;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            Ok::<_, ToolError>(format!("Voucher by process {}", std::process::id()))
        }
    });
    toolbox
        .with_idempotency_store(Arc::new(
            PostgresIdempotencyStore::new(pool.clone()).with_lease(LEASE),
        ))
        .with_audit_sink(Arc::new(PostgresAuditSink::new(pool.clone())))
}

fn spawn_child(db: &TestDb, role: &str) -> std::process::Child {
    Command::new(std::env::current_exe().expect("the test binary"))
        .env(ROLE, role)
        .env(URL, &db.url)
        .stdout(Stdio::piped())
        .spawn()
        .expect("a child process")
}

async fn parent() {
    let Some(db) = TestDb::create("processes").await else {
        return;
    };
    let pool = connect(&db.url, &quick()).unwrap();
    migrate(&pool).await.unwrap();
    let client = db.client().await;
    client
        .batch_execute("CREATE TABLE runs (pid integer NOT NULL, request_id text NOT NULL)")
        .await
        .unwrap();
    four_processes_with_one_key_run_it_once(&db, &client).await;
    println!("test four_processes_with_one_key_run_it_once ... ok");
    a_killed_process_leaves_a_claim_that_expires_as_outcome_unknown(&db, &client, &pool).await;
    println!("test a_killed_process_leaves_a_claim_that_expires_as_outcome_unknown ... ok");
}

async fn four_processes_with_one_key_run_it_once(db: &TestDb, client: &tokio_postgres::Client) {
    let children: Vec<_> = (0..4).map(|_| spawn_child(db, "race")).collect();
    let mut answers = Vec::new();
    for child in children {
        let output = child.wait_with_output().expect("the child ends");
        assert!(
            output.status.success(),
            "a child failed: {:?}",
            output.status
        );
        answers.push(String::from_utf8(output.stdout).unwrap().trim().to_owned());
    }
    let pid: i32 = client
        .query_one("SELECT pid FROM runs WHERE request_id = 'race'", &[])
        .await
        .expect("exactly one run")
        .get(0);
    let fresh = format!("fresh|Voucher by process {pid}");
    answers.sort();
    let refused = format!("refused|{IN_PROGRESS}");
    let fresh_count = answers.iter().filter(|a| **a == fresh).count();
    let others_ok = answers.iter().all(|a| {
        *a == fresh || *a == refused || a.starts_with(&format!("replayed|Voucher by process {pid}"))
    });
    assert_eq!(fresh_count, 1, "{answers:?}");
    assert!(others_ok, "{answers:?}");
    assert_eq!(
        count(
            client,
            "SELECT count(*) FROM runs WHERE request_id = 'race'"
        )
        .await,
        1
    );
}

async fn a_killed_process_leaves_a_claim_that_expires_as_outcome_unknown(
    db: &TestDb,
    client: &tokio_postgres::Client,
    pool: &Pool,
) {
    let mut child = spawn_child(db, "hang");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "RUNNING");
    child.kill().unwrap();
    child.wait().unwrap();

    let here = instance(pool, false);
    let result = here.call(&voucher("CMP-1", "hang"), &session()).await;
    assert_eq!(result.model_text().as_deref(), Some(IN_PROGRESS));
    tokio::time::sleep(HANG_HOLD).await;
    let result = here.call(&voucher("CMP-1", "hang"), &session()).await;
    assert_eq!(result.model_text().as_deref(), Some(UNKNOWN));
    assert_eq!(
        count(
            client,
            "SELECT count(*) FROM runs WHERE request_id = 'hang'"
        )
        .await,
        1
    );
    // The killed call's audit entry never ended: its outcome is unknown.
    let rows = client
        .query(
            "SELECT outcome, ended FROM tool_contract_audit_calls
             WHERE record->>'idempotency_key' = 'hang' ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let rows: Vec<(String, bool)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(
        rows,
        [
            ("unknown".to_owned(), false),
            ("not_started".to_owned(), true),
            ("not_started".to_owned(), true)
        ]
    );
}
