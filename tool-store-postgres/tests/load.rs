//! A pool far smaller than the load (2 connections, a 100 ms wait, 400
//! keyed writes at once through one toolbox, whose ends come in a burst): calls may be
//! refused, but no record is lost. Every call that ran has its idempotency
//! record and its audit end; every refused call has its audit entry, or its
//! result says that it has none; no claim is left behind.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use support::{Probe, TestDb, UNAVAILABLE, session, toolbox, voucher};
use tool_contract::runtime::ExecutionOutcome;
use tool_contract::store_postgres::PoolOptions;

const CALLS: usize = 800;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_pool_refuses_calls_but_loses_no_record_of_one_that_ran() {
    let Some(db) = TestDb::create("busy_pool").await else {
        return;
    };
    let options = PoolOptions {
        max_size: 2,
        connect_timeout: Duration::from_secs(5),
        wait_timeout: Duration::from_millis(100),
        statement_timeout: Duration::from_secs(5),
    };
    let pool = db.migrated_pool(&options).await;
    let probe = Arc::new(Probe::default());
    let instance = Arc::new(toolbox(&pool, &probe, Duration::from_secs(600)));

    let mut tasks = Vec::new();
    for n in 0..CALLS {
        let instance = Arc::clone(&instance);
        tasks.push(tokio::spawn(async move {
            // Eight waves 50 ms apart: the ends of one wave meet the claims
            // of the next.
            tokio::time::sleep(Duration::from_millis(50 * (n % 8) as u64)).await;
            // Each handler takes 300 ms: the ends of the calls that ran
            // come at once, while new claims still queue.
            let call = voucher("SLOW", &format!("k-{n}"));
            instance.call(&call, &session()).await
        }));
    }
    // Each key: whether it ran, and whether its result says that its audit
    // entry was not written.
    let mut ran = BTreeMap::new();
    let mut refused = BTreeMap::new();
    for (n, task) in tasks.into_iter().enumerate() {
        let result = task.await.unwrap();
        let key = format!("k-{n}");
        let text = result.model_text().unwrap_or_default();
        match result.audit.outcome {
            ExecutionOutcome::Completed => {
                assert!(
                    text.starts_with("Voucher V-") && text.ends_with(" for SLOW"),
                    "{text}"
                );
                // Nothing of a call that ran was lost.
                assert_eq!(result.audit.internal_detail, None, "{key}");
                ran.insert(key, ());
            }
            ExecutionOutcome::NotStarted => {
                assert_eq!(text, UNAVAILABLE, "{key}");
                let detail = result.audit.internal_detail.clone().unwrap_or_default();
                assert!(
                    detail.starts_with("idempotency store failed: no database connection: Timeout occurred while waiting for a slot to become available")
                        || detail.starts_with("audit sink failed: no database connection: Timeout occurred while waiting for a slot to become available"),
                    "{key}: {detail}"
                );
                refused.insert(key, detail.contains("; audit sink failed: "));
            }
            other => panic!("{key} ended {other:?}"),
        }
    }
    assert_eq!(ran.len() + refused.len(), CALLS);
    assert_eq!(probe.runs(), ran.len());
    // The load is more than the pool takes: some calls run, some are refused.
    assert!(!ran.is_empty() && !refused.is_empty(), "{} ran", ran.len());

    let client = db.client().await;
    // Every call that ran has its record; no claim is left running.
    let rows = client
        .query(
            "SELECT key, state FROM tool_contract_idempotency ORDER BY key",
            &[],
        )
        .await
        .unwrap();
    let recorded: BTreeMap<String, String> =
        rows.iter().map(|row| (row.get(0), row.get(1))).collect();
    let expected: BTreeMap<String, String> = ran
        .keys()
        .map(|key| (key.clone(), "done".to_owned()))
        .collect();
    assert_eq!(recorded, expected);

    // Every call that ran has its end; every refused call has its entry
    // unless its result says it has none.
    let rows = client
        .query(
            "SELECT record->>'idempotency_key', outcome, ended, count(*) OVER (PARTITION BY record->>'idempotency_key')
             FROM tool_contract_audit_calls",
            &[],
        )
        .await
        .unwrap();
    let audited: BTreeMap<String, (String, bool, i64)> = rows
        .iter()
        .map(|row| (row.get(0), (row.get(1), row.get(2), row.get(3))))
        .collect();
    let mut expected = BTreeMap::new();
    for key in ran.keys() {
        expected.insert(key.clone(), ("completed".to_owned(), true, 1));
    }
    for (key, without_entry) in &refused {
        if !without_entry {
            expected.insert(key.clone(), ("not_started".to_owned(), true, 1));
        }
    }
    assert_eq!(audited, expected);
    // An audit entry waits for a connection as long as a record does
    // (`PoolOptions::finish_limit`): under this load every refusal has one.
    assert_eq!(refused.values().filter(|without| **without).count(), 0);
}
