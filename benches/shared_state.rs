//! Keyed write calls through the `Toolbox` with the idempotency record in
//! PostgreSQL against the in-memory store: calls per second and the added
//! latency per call (median and p99).
//!
//! A measurement binary, not a criterion bench: each call needs a new key
//! and leaves a row, so the calls are timed one by one. Four setups, each
//! with 3,000 calls one after the other (after 300 to warm up), then
//! 3,000 calls from 8 concurrent tasks for the throughput:
//!
//! - `memory`: `InMemoryIdempotencyStore` (the default);
//! - `postgres_idempotency`: `PostgresIdempotencyStore` (claim, then record);
//! - `postgres_all`: that store plus the audit sink (a write is written
//!   before it runs and its end appended): two more inserts per call.
//!
//! The handler does nothing, so the difference is the stores' cost.
//! It creates a database of its own on the server `DATABASE_URL` names
//! (default `postgres://postgres@127.0.0.1:5432/postgres`; a URL that ends
//! in `/database`) and drops it at the end. Run with
//! `cargo bench -p tool-contract-benches --features postgres --bench shared_state`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tool_contract::audit::Subjects;
use tool_contract::idempotency::InMemoryIdempotencyStore;
use tool_contract::store_postgres::{
    PoolOptions, PostgresAuditSink, PostgresIdempotencyStore, connect, migrate,
};
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};

/// Issue a gift voucher for a customer's complaint.
///
/// Use it once the customer accepted a voucher; issuing is a write.
#[derive(Debug, Tool)]
#[tool(effect = "write")]
pub struct IssueVoucher {
    /// The complaint's reference as the app shows it, e.g. "CMP-7".
    #[tool(min_length = 1, max_length = 64)]
    pub complaint_ref: String,
    /// A key the model makes up once per voucher and repeats when it
    /// retries.
    #[tool(idempotency_key)]
    pub request_id: String,
}

const WARM_UP: usize = 300;
const CALLS: usize = 3_000;
const TASKS: usize = 8;

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: IssueVoucher, _: CallContext| async move {
        Ok::<_, ToolError>(format!("Voucher for {}", call.complaint_ref))
    });
    toolbox
}

fn voucher(setup: &str, n: usize) -> ToolCall {
    ToolCall::new(
        format!("call_{n}"),
        "issue_voucher",
        format!(r#"{{"complaint_ref": "CMP-{n}", "request_id": "{setup}-{n}"}}"#),
    )
}

struct Measured {
    median: Duration,
    p99: Duration,
    sequential_per_s: f64,
    concurrent_per_s: f64,
}

async fn measure(name: &str, toolbox: Arc<Toolbox>) -> Measured {
    let session = Session::new().with(Subjects::new().with("customer", "cus_42"));
    for n in 0..WARM_UP {
        let result = toolbox
            .call(&voucher(&format!("{name}-warm"), n), &session)
            .await;
        assert!(result.output.error().is_none(), "{:?}", result.audit);
    }
    let mut latencies = Vec::with_capacity(CALLS);
    let started = Instant::now();
    for n in 0..CALLS {
        let call = voucher(name, n);
        let start = Instant::now();
        let result = toolbox.call(&call, &session).await;
        latencies.push(start.elapsed());
        assert!(result.output.error().is_none(), "{:?}", result.audit);
    }
    let sequential = started.elapsed();
    latencies.sort();

    let started = Instant::now();
    let mut tasks = Vec::new();
    for task in 0..TASKS {
        let toolbox = Arc::clone(&toolbox);
        let session = session.clone();
        let name = format!("{name}-task{task}");
        tasks.push(tokio::spawn(async move {
            for n in 0..CALLS / TASKS {
                let result = toolbox.call(&voucher(&name, n), &session).await;
                assert!(result.output.error().is_none(), "{:?}", result.audit);
            }
        }));
    }
    for task in tasks {
        task.await.expect("a task");
    }
    let concurrent = started.elapsed();
    Measured {
        median: latencies[CALLS / 2],
        p99: latencies[CALLS * 99 / 100],
        sequential_per_s: CALLS as f64 / sequential.as_secs_f64(),
        concurrent_per_s: (CALLS / TASKS * TASKS) as f64 / concurrent.as_secs_f64(),
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a Tokio runtime");
    runtime.block_on(run());
}

async fn run() {
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let options = PoolOptions {
        max_size: TASKS,
        ..PoolOptions::default()
    };
    let admin = connect(&url, &options).expect("the URL is valid");
    let name = format!("tc_bench_{}", std::process::id());
    admin
        .get()
        .await
        .expect("a PostgreSQL server answers at DATABASE_URL")
        .batch_execute(&format!("CREATE DATABASE \"{name}\""))
        .await
        .expect("the bench database is created");
    let (server, _) = url.rsplit_once('/').expect("a URL that ends in /database");
    let pool = connect(&format!("{server}/{name}"), &options).expect("a pool");
    migrate(&pool).await.expect("the migrations apply");

    let memory = toolbox().with_idempotency_store(Arc::new(InMemoryIdempotencyStore::new()));
    let idempotency =
        toolbox().with_idempotency_store(Arc::new(PostgresIdempotencyStore::new(pool.clone())));
    let all = toolbox()
        .with_idempotency_store(Arc::new(PostgresIdempotencyStore::new(pool.clone())))
        .with_audit_sink(Arc::new(PostgresAuditSink::new(pool.clone())));
    let results = [
        ("memory", measure("memory", Arc::new(memory)).await),
        (
            "postgres_idempotency",
            measure("pgi", Arc::new(idempotency)).await,
        ),
        ("postgres_all", measure("pga", Arc::new(all)).await),
    ];
    drop(pool);

    let base = results[0].1.median;
    let base_p99 = results[0].1.p99;
    println!(
        "| setup | median | p99 | added median | added p99 | calls/s, 1 caller | calls/s, {TASKS} tasks |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (setup, m) in &results {
        println!(
            "| `{setup}` | {:.1} µs | {:.1} µs | {:.1} µs | {:.1} µs | {:.0} | {:.0} |",
            m.median.as_secs_f64() * 1e6,
            m.p99.as_secs_f64() * 1e6,
            m.median.saturating_sub(base).as_secs_f64() * 1e6,
            m.p99.saturating_sub(base_p99).as_secs_f64() * 1e6,
            m.sequential_per_s,
            m.concurrent_per_s,
        );
    }
    admin
        .get()
        .await
        .expect("the server answers")
        .batch_execute(&format!("DROP DATABASE \"{name}\" WITH (FORCE)"))
        .await
        .expect("the bench database is dropped");
}
