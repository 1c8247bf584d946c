//! Policy state shared by two instances of an application through
//! PostgreSQL: what an application writes to run behind a load balancer.
//!
//! Each "instance" has its own pool and its own `Toolbox`, with the
//! idempotency store, the approval store and the audit sink in the same
//! database. The model asks instance A to reserve stock; the call needs
//! the customer's approval, which the application's approval UI records
//! out of band; the model's repeated call lands on instance B and runs
//! there with that grant; a retry with the same idempotency key lands on A
//! again and gets the recorded result instead of reserving twice. Last,
//! the example prints the audit trail of the three calls.
//!
//! Run it against a server (it creates its tables in that database):
//!
//! ```sh
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//!     cargo run -p tool-contract-examples --features postgres --example shared_state
//! ```

#[path = "tools/mod.rs"]
mod tools;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tool_contract::audit::Subjects;
use tool_contract::prelude::*;
use tool_contract::store_postgres::{
    Pool, PoolOptions, PostgresApprovalStore, PostgresAuditSink, PostgresIdempotencyStore, connect,
    migrate,
};
use tools::{CustomerId, Reservation, ReserveInventory, TenantId};

/// One application instance: its own pool and toolbox over the shared
/// database.
fn instance(pool: &Pool) -> Toolbox {
    let mut toolbox = Toolbox::new()
        .with_idempotency_store(Arc::new(PostgresIdempotencyStore::new(pool.clone())))
        .with_approval_store(Arc::new(PostgresApprovalStore::new(pool.clone())))
        .with_audit_sink(Arc::new(PostgresAuditSink::new(pool.clone())));
    toolbox.register(|call: ReserveInventory, cx: CallContext| async move {
        Ok::<_, ToolError>(Reservation {
            reservation_id: format!("R-{}-{}", call.sku, cx.call_id()),
            expires_at: "2026-05-04T10:00:00Z".into(),
        })
    });
    toolbox
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let options = PoolOptions::default();

    // Start-up, on every instance: a pool, then the migrations (safe to run
    // from all instances at once).
    let pool_a = connect(&url, &options)?;
    let pool_b = connect(&url, &options)?;
    let report = migrate(&pool_a).await?;
    println!(
        "schema version {} (applied now: {:?})",
        report.current, report.applied
    );
    let (a, b) = (instance(&pool_a), instance(&pool_b));

    // The session names who the calls are for: shared stores scope
    // idempotency keys and grants by these subjects.
    let session = Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
        .with(
            Subjects::new()
                .with("tenant", "acme")
                .with("customer", "cus_42"),
        );
    let key = fresh_uuid();
    let arguments = format!(r#"{{"sku": "SKU-1042", "quantity": 2, "request_id": "{key}"}}"#);

    // 1. Instance A: the call needs an approval.
    let asked = a
        .call(
            &ToolCall::new("call_1", "reserve_inventory", &arguments),
            &session,
        )
        .await;
    println!("A  call_1: {}", asked.model_text().unwrap_or_default());
    let request = asked
        .approval_request
        .ok_or("the call asks for an approval")?;

    // 2. The approval UI (any instance) records the customer's decision.
    let approvals = PostgresApprovalStore::new(pool_a.clone());
    approvals
        .grant(
            &request.approve(format!("appr-{key}")),
            Duration::from_secs(15 * 60),
        )
        .await?;
    println!("UI granted appr-{key}");

    // 3. The repeated call lands on instance B and runs with the grant.
    let ran = b
        .call(
            &ToolCall::new("call_2", "reserve_inventory", &arguments),
            &session,
        )
        .await;
    println!("B  call_2: {}", ran.model_text().unwrap_or_default());

    // 4. A retry with the same key lands on A: replayed, not run again.
    let retried = a
        .call(
            &ToolCall::new("call_3", "reserve_inventory", &arguments),
            &session,
        )
        .await;
    println!("A  call_3: {}", retried.model_text().unwrap_or_default());

    // 5. The audit trail: one row per call, in the database.
    let client = pool_a.get().await?;
    let rows = client
        .query(
            "SELECT record->>'call_id', outcome, record->>'delivery', record->>'approval_id'
             FROM tool_contract_audit_calls
             WHERE record->>'idempotency_key' = $1 ORDER BY id",
            &[&key],
        )
        .await?;
    for row in rows {
        let (call_id, outcome): (Option<String>, String) = (row.get(0), row.get(1));
        let (delivery, approval): (Option<String>, Option<String>) = (row.get(2), row.get(3));
        println!(
            "audit {}: outcome {outcome}, delivery {}, approval {}",
            call_id.unwrap_or_default(),
            delivery.unwrap_or_default(),
            approval.unwrap_or_else(|| "-".into())
        );
    }
    // A periodic job deletes records past their retention (7 days here).
    let purged = PostgresIdempotencyStore::new(pool_a).purge().await?;
    println!("purged {purged} idempotency records past their retention");
    Ok(())
}

/// A UUID-shaped key, new for each run: the model makes one up per request.
fn fresh_uuid() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        std::process::id(),
        (nanos >> 48) & 0xffff,
        (nanos >> 36) & 0xfff,
        (nanos >> 24) & 0xfff,
        nanos & 0xffff_ffff_ffff
    )
}
