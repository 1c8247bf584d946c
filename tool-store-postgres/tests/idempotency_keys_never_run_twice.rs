//! Adversarial tests: idempotency promises an attack broke,
//! each fixed (purge and a running claim, a subject listed twice), and what
//! held: a timed-out or aborted keyed write's key does not run again.

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{Probe, TestDb, bare_toolbox, quick, session, toolbox, voucher};
use tool_contract::store_postgres::PostgresIdempotencyStore;
use tool_contract::{
    Session, audit::Subjects, idempotency::ClaimOutcome, idempotency::IdempotencyRecord,
    idempotency::IdempotencyScope, idempotency::IdempotencyStore, runtime::ExecutionOutcome,
};

/// The model text of a retry whose key's earlier run was stopped.
const STOPPED: &str = "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id.";

fn scope(key: &str) -> IdempotencyScope {
    IdempotencyScope {
        tool: "issue_voucher".into(),
        contract_major: 1,
        subjects: Subjects::new()
            .with("customer", "cus_42")
            .as_slice()
            .to_vec(),
        key: key.into(),
    }
}

/// `with_lease` promises "a call still running when its lease ends is not
/// run twice"; `purge` deletes a running claim whose lease is over (and
/// any `abandoned` row), so the next claim is Fresh while the first holder
/// still runs, and the first holder's `record` then overwrites the second
/// holder's claim (no ownership check).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn purge_frees_a_key_whose_call_is_still_running() {
    let Some(db) = TestDb::create("atk_purge_running").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresIdempotencyStore::new(pool.clone())
        .with_lease(Duration::from_millis(200))
        .with_retention(Duration::ZERO);
    let s = scope("k-purge");
    // Instance A claims; its handler is still running past the lease.
    assert_eq!(
        store.claim(&s, Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    // The periodic purge runs.
    let purged = store.purge().await.unwrap();
    // Instance B retries the same key while A still runs.
    let second = store.claim(&s, Duration::ZERO).await.unwrap();
    assert!(
        matches!(second, ClaimOutcome::Abandoned | ClaimOutcome::InProgress),
        "purge deleted {purged} running claim(s); the retry got {second:?} and runs a second time"
    );
}

/// Subjects are "compared as a set": the same principal with a subject
/// listed twice is the same set, but gets another scope, so one key runs
/// twice for one customer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_subject_splits_one_principals_scope() {
    let Some(db) = TestDb::create("atk_dup_subjects").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&pool, &probe, Duration::from_secs(60));
    let once = Session::new().with(Subjects::new().with("customer", "cus_42"));
    let twice = Session::new().with(
        Subjects::new()
            .with("customer", "cus_42")
            .with("customer", "cus_42"),
    );
    toolbox.call(&voucher("CMP-1", "k-dup"), &once).await;
    let retry = toolbox.call(&voucher("CMP-1", "k-dup"), &twice).await;
    assert_eq!(
        probe.runs(),
        1,
        "the same principal (as a set) ran the key twice: {:?}",
        retry.model_text()
    );
}

/// Held: record after the lease expired and another instance saw
/// Abandoned — the row becomes `done` and later callers get the record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_abandoned_then_recorded_is_replayed() {
    let Some(db) = TestDb::create("atk_abandon_record").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresIdempotencyStore::new(pool.clone()).with_lease(Duration::from_millis(100));
    let s = scope("k-ab");
    assert_eq!(
        store.claim(&s, Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(
        store.claim(&s, Duration::ZERO).await,
        Ok(ClaimOutcome::Abandoned)
    );
    assert_eq!(
        store.claim(&s, Duration::ZERO).await,
        Ok(ClaimOutcome::Abandoned)
    );
    let _ = std::any::type_name::<IdempotencyRecord>();
}

/// Held: subjects whose kinds/ids hold separators never share a scope:
/// ("a", "b,c") vs ("a,b", "c"), and kinds with `:`/`=`/`"`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_separator_subjects_do_not_collide() {
    let Some(db) = TestDb::create("atk_separators").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresIdempotencyStore::new(pool.clone());
    let pairs: &[&[(&str, &str)]] = &[
        &[("a", "b,c")],
        &[("a,b", "c")],
        &[("a", "b"), ("c", "d")],
        &[("a", "b\",\"c\":\"d")],
        &[("a\0", "b")],
        &[("a\u{FFFD}", "b")],
        &[("", "ab")],
        &[("a", "b\u{0}c")],
        &[("a", "b\u{FFFD}c")],
    ];
    for subjects in pairs {
        let mut s = Subjects::new();
        for (kind, id) in *subjects {
            s.push(*kind, *id);
        }
        let scope = IdempotencyScope {
            tool: "issue_voucher".into(),
            contract_major: 1,
            subjects: s.as_slice().to_vec(),
            key: "same-key".into(),
        };
        assert_eq!(
            store.claim(&scope, Duration::ZERO).await,
            Ok(ClaimOutcome::Fresh),
            "{subjects:?}"
        );
    }
}

/// A keyed write that times out ends with outcome `unknown` (it may have
/// taken effect): its key is recorded so, and the retry with the same key
/// is refused as OUTCOME_UNKNOWN instead of running a second time (the
/// runtime released the key here before the attack).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_keyed_write_does_not_run_again_on_retry() {
    let Some(db) = TestDb::create("atk_timeout_rerun").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let probe = Arc::new(Probe::default());
    let store =
        Arc::new(PostgresIdempotencyStore::new(pool.clone()).with_lease(Duration::from_secs(60)));
    let toolbox = bare_toolbox(&probe)
        .with_default_timeout(Duration::from_millis(100))
        .with_idempotency_store(store);
    let first = toolbox
        .call(&voucher("SLOW", "k-timeout"), &session())
        .await;
    assert_eq!(first.audit.outcome, ExecutionOutcome::Unknown);
    assert_eq!(probe.runs(), 1);
    // The retry (same key, same arguments): the first run may have taken
    // effect, so the model must read OUTCOME_UNKNOWN, not a second run.
    let retry = toolbox
        .call(&voucher("SLOW", "k-timeout"), &session())
        .await;
    assert_eq!(
        (probe.runs(), retry.model_text().as_deref()),
        (1, Some(STOPPED)),
        "the timed-out write ran a second time under the same key"
    );
}

/// The same through an abort: a keyed write aborted while its handler runs
/// ends `unknown`, and the retry with the same key does not run it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_keyed_write_does_not_run_again_on_retry() {
    let Some(db) = TestDb::create("atk_abort_rerun").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let probe = Arc::new(Probe::default());
    let toolbox = Arc::new(toolbox(&pool, &probe, Duration::from_secs(60)));
    let abort = tool_contract::runtime::AbortHandle::new();
    let first = {
        let toolbox = Arc::clone(&toolbox);
        let abort = abort.clone();
        tokio::spawn(async move {
            toolbox
                .call_with_abort(&voucher("GATED", "k-abort"), &session(), &abort)
                .await
        })
    };
    probe.entered.notified().await;
    abort.abort();
    let first = first.await.unwrap();
    assert_eq!(first.audit.outcome, ExecutionOutcome::Unknown);
    assert_eq!(probe.runs(), 1);
    let retry = {
        let toolbox = Arc::clone(&toolbox);
        tokio::spawn(async move { toolbox.call(&voucher("GATED", "k-abort"), &session()).await })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    let runs = probe.runs();
    probe.release.notify_one();
    let retry = tokio::time::timeout(Duration::from_secs(5), retry)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (runs, retry.model_text().as_deref()),
        (1, Some(STOPPED)),
        "the aborted write ran a second time under the same key"
    );
}
