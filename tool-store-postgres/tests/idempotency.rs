//! Idempotency across instances: one key runs once whichever instance
//! each retry lands on, records are scoped by principal and by the major
//! version the call was served at (one key at two versions of one tool
//! names two operations), the key and the
//! tool name are only ever bound parameters, and old records are purged.

#[path = "../../tests/versions_support/mod.rs"]
mod refund;
mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{IN_PROGRESS, Probe, TestDb, count, quick, session, toolbox, voucher};
use tool_contract::store_postgres::PostgresIdempotencyStore;
use tool_contract::{
    Session, ToolCall, ToolError, ToolOutput, audit::Subjects, idempotency::ClaimOutcome,
    idempotency::IdempotencyScope, idempotency::IdempotencyStore, runtime::Delivery,
    runtime::ExecutionOutcome,
};

const LEASE: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_key_sent_to_eight_instances_at_once_runs_once() {
    let Some(db) = TestDb::create("idem_instances").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    db.migrated_pool(&quick()).await;
    // Eight instances, each with its own pool, racing with one key.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let toolbox = toolbox(&db.pool(&quick()), &probe, LEASE);
        tasks.push(tokio::spawn(async move {
            toolbox.call(&voucher("SLOW", "key-1"), &session()).await
        }));
    }
    let mut fresh = 0;
    let mut in_progress = 0;
    for task in tasks {
        let result = task.await.unwrap();
        match result.model_text().as_deref() {
            Some("Voucher V-1 for SLOW") => {
                assert_eq!(result.audit.delivery, Delivery::Fresh);
                fresh += 1;
            }
            Some(IN_PROGRESS) => in_progress += 1,
            other => panic!("unexpected answer {other:?}"),
        }
    }
    assert_eq!((fresh, in_progress), (1, 7));
    assert_eq!(probe.runs(), 1);

    // Retries on every instance now get the recorded result.
    for _ in 0..3 {
        let toolbox = toolbox(&db.pool(&quick()), &probe, LEASE);
        let result = toolbox.call(&voucher("SLOW", "key-1"), &session()).await;
        assert_eq!(
            result.output,
            ToolOutput::Success {
                content_text: "Voucher V-1 for SLOW".into(),
                notice: Some("This is the recorded result of an earlier call with the same request_id; it was not run again.".into()),
                truncated: false,
                details: serde_json::json!("Voucher V-1 for SLOW"),
            }
        );
        assert_eq!(result.audit.delivery, Delivery::Replayed);
        assert_eq!(result.audit.outcome, ExecutionOutcome::Completed);
    }
    assert_eq!(probe.runs(), 1);
    let client = db.client().await;
    assert_eq!(
        count(
            &client,
            "SELECT count(*) FROM tool_contract_idempotency WHERE state = 'done'"
        )
        .await,
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_is_reused_only_for_the_same_arguments_and_principal() {
    let Some(db) = TestDb::create("idem_scope").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let toolbox = toolbox(&pool, &probe, LEASE);
    let first = toolbox.call(&voucher("CMP-1", "k"), &session()).await;
    assert_eq!(first.model_text().as_deref(), Some("Voucher V-1 for CMP-1"));

    let other_args = toolbox.call(&voucher("CMP-2", "k"), &session()).await;
    assert_eq!(
        other_args.model_text().as_deref(),
        Some(
            r#"Error [IDEMPOTENCY_KEY_REUSED]: The request_id "k" was already used for a call with other arguments. Use a new request_id for a new request, or repeat the earlier call exactly."#
        )
    );
    // Another customer's session with the same key is another record.
    let other = Session::new().with(Subjects::new().with("customer", "cus_43"));
    let theirs = toolbox.call(&voucher("CMP-1", "k"), &other).await;
    assert_eq!(
        theirs.model_text().as_deref(),
        Some("Voucher V-2 for CMP-1")
    );
    assert_eq!(theirs.audit.delivery, Delivery::Fresh);
    assert_eq!(probe.runs(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_store_needs_a_principal_even_without_injected_values() {
    let Some(db) = TestDb::create("idem_principal").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let toolbox = toolbox(&pool, &probe, LEASE);
    for session in [Session::new(), Session::new().with(Subjects::new())] {
        let result = toolbox.call(&voucher("CMP-1", "k"), &session).await;
        assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
        assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
        assert_eq!(
            result.audit.internal_detail.as_deref(),
            Some(
                "the tool `issue_voucher` uses an idempotency key kept in a shared store, but the session names no one (no `Subjects`, or an empty one) to scope them by; the application must add the principal's subjects with `Session::with`"
            )
        );
    }
    assert_eq!(probe.runs(), 0);
    let client = db.client().await;
    assert_eq!(
        count(&client, "SELECT count(*) FROM tool_contract_idempotency").await,
        0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_and_tool_names_are_data_whatever_they_hold() {
    let Some(db) = TestDb::create("idem_injection").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresIdempotencyStore::new(pool.clone());
    let hostile = [
        "'; DROP TABLE tool_contract_idempotency; --".to_owned(),
        "\\x00 $1 $$ \" ' ".to_owned(),
        // Far longer than a B-tree entry may be (about 2.7 kB).
        "k".repeat(100_000),
    ];
    for (index, text) in hostile.iter().enumerate() {
        let scope = IdempotencyScope {
            tool: text.clone(),
            contract_major: u64::MAX >> 1,
            subjects: Subjects::new()
                .with(text.clone(), text.clone())
                .as_slice()
                .to_vec(),
            key: text.clone(),
        };
        assert_eq!(
            store.claim(&scope, Duration::ZERO).await,
            Ok(ClaimOutcome::Fresh),
            "{index}"
        );
        assert_eq!(
            store.claim(&scope, Duration::ZERO).await,
            Ok(ClaimOutcome::InProgress),
            "{index}"
        );
    }
    let client = db.client().await;
    assert_eq!(
        count(&client, "SELECT count(*) FROM tool_contract_idempotency").await,
        3
    );
    let stored: i32 = client
        .query_one(
            "SELECT max(length(key)) FROM tool_contract_idempotency",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(stored, 100_000);
    // A major version that does not fit the column is the store's error.
    let scope = IdempotencyScope {
        tool: "t".into(),
        contract_major: u64::MAX,
        subjects: Vec::new(),
        key: "k".into(),
    };
    assert_eq!(
        store
            .claim(&scope, Duration::ZERO)
            .await
            .unwrap_err()
            .message(),
        "the contract's major version is too large"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_older_than_the_retention_are_purged_and_running_ones_kept() {
    let Some(db) = TestDb::create("idem_purge").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresIdempotencyStore::new(pool.clone()).with_retention(Duration::ZERO);
    let scope = |key: &str| IdempotencyScope {
        tool: "issue_voucher".into(),
        contract_major: 1,
        subjects: Subjects::new()
            .with("customer", "cus_42")
            .as_slice()
            .to_vec(),
        key: key.into(),
    };
    assert_eq!(
        store.claim(&scope("done"), Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    let record = tool_contract::idempotency::IdempotencyRecord {
        arguments_sha256: "h".into(),
        output: ToolOutput::success("ok"),
        model_result: None,
        outcome: ExecutionOutcome::Completed,
    };
    store.record(&scope("done"), record.clone()).await.unwrap();
    assert_eq!(
        store.claim(&scope("done"), Duration::ZERO).await,
        Ok(ClaimOutcome::Recorded(Box::new(record)))
    );
    assert_eq!(
        store.claim(&scope("running"), Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    tokio::time::sleep(Duration::from_millis(20)).await;
    // The running claim's lease (10 minutes) is not over: it stays.
    assert_eq!(store.purge().await, Ok(1));
    assert_eq!(
        store.claim(&scope("running"), Duration::ZERO).await,
        Ok(ClaimOutcome::InProgress)
    );
    assert_eq!(
        store.claim(&scope("done"), Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    // Kept for a week by default: nothing goes.
    let week = PostgresIdempotencyStore::new(pool);
    assert_eq!(week.purge().await, Ok(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_subjects_are_one_principal_in_any_order() {
    let Some(db) = TestDb::create("idem_order").await else {
        return;
    };
    let store = PostgresIdempotencyStore::new(db.migrated_pool(&quick()).await);
    let scope = |subjects: Subjects| IdempotencyScope {
        tool: "issue_voucher".into(),
        contract_major: 1,
        subjects: subjects.as_slice().to_vec(),
        key: "k".into(),
    };
    let ab = Subjects::new()
        .with("tenant", "acme")
        .with("customer", "cus_42");
    let ba = Subjects::new()
        .with("customer", "cus_42")
        .with("tenant", "acme");
    let other = Subjects::new()
        .with("tenant", "acme")
        .with("customer", "cus_43");
    assert_eq!(
        store.claim(&scope(ab), Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    assert_eq!(
        store.claim(&scope(ba), Duration::ZERO).await,
        Ok(ClaimOutcome::InProgress)
    );
    assert_eq!(
        store.claim(&scope(other), Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nul_in_a_key_an_output_or_a_tool_name_is_stored_and_replayed_exactly() {
    let Some(db) = TestDb::create("idem_nul").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let toolbox = toolbox(&pool, &probe, LEASE);
    // PostgreSQL's `text` and `jsonb` cannot hold U+0000; the model can send it.
    let call = tool_contract::ToolCall::new(
        "call\u{0}1",
        "issue_voucher",
        r#"{"complaint_ref": "CMP\u0000-1", "request_id": "k\u0000ey"}"#,
    );
    let first = toolbox.call(&call, &session()).await;
    assert_eq!(
        first.model_text().as_deref(),
        Some("Voucher V-1 for CMP\u{0}-1")
    );
    assert_eq!(first.audit.internal_detail, None);
    let again = toolbox.call(&call, &session()).await;
    assert_eq!(again.audit.delivery, Delivery::Replayed);
    let ToolOutput::Success { content_text, .. } = &again.output else {
        panic!("a replayed success: {:?}", again.output);
    };
    assert_eq!(content_text, "Voucher V-1 for CMP\u{0}-1");
    assert_eq!(again.audit.internal_detail, None);
    let unknown = toolbox
        .call(
            &tool_contract::ToolCall::new("c", "drop\u{0}table", "{}"),
            &session(),
        )
        .await;
    assert_eq!(unknown.audit.internal_detail, None);
    assert_eq!(probe.runs(), 1);
    let client = db.client().await;
    let rows = client
        .query(
            "SELECT call_id, tool, record->>'call_id' = call_id AND record->>'tool' = tool
             FROM tool_contract_audit WHERE phase = 'ended' ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let rows: Vec<(String, String, bool)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    assert_eq!(
        rows,
        [
            ("call\u{FFFD}1".to_owned(), "issue_voucher".to_owned(), true),
            ("call\u{FFFD}1".to_owned(), "issue_voucher".to_owned(), true),
            ("c".to_owned(), "drop\u{FFFD}table".to_owned(), true),
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_record_round_trips() {
    let Some(db) = TestDb::create("idem_large").await else {
        return;
    };
    let store = PostgresIdempotencyStore::new(db.migrated_pool(&quick()).await);
    let scope = IdempotencyScope {
        tool: "issue_voucher".into(),
        contract_major: 1,
        subjects: Subjects::new()
            .with("customer", "cus_42")
            .as_slice()
            .to_vec(),
        key: "big".into(),
    };
    let record = tool_contract::idempotency::IdempotencyRecord {
        arguments_sha256: "h".into(),
        output: ToolOutput::success("x".repeat(8 << 20)),
        model_result: None,
        outcome: ExecutionOutcome::Completed,
    };
    assert_eq!(
        store.claim(&scope, Duration::ZERO).await,
        Ok(ClaimOutcome::Fresh)
    );
    store.record(&scope, record.clone()).await.unwrap();
    assert_eq!(
        store.claim(&scope, Duration::ZERO).await,
        Ok(ClaimOutcome::Recorded(Box::new(record)))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leases_run_on_the_database_clock_whatever_the_instances_clocks_say() {
    let Some(db) = TestDb::create("idem_skew").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    let century = Duration::from_secs(100 * 365 * 24 * 3600);
    // Instance A's clock is a century ahead, B's stands at 1970.
    let ahead = Arc::new(
        toolbox(&pool, &probe, LEASE).with_clock(move || std::time::SystemTime::now() + century),
    );
    let behind = toolbox(&db.pool(&quick()), &probe, LEASE).with_clock(|| std::time::UNIX_EPOCH);
    let running = {
        let ahead = Arc::clone(&ahead);
        tokio::spawn(async move { ahead.call(&voucher("GATED", "skew"), &session()).await })
    };
    probe.entered.notified().await;
    let during = behind.call(&voucher("GATED", "skew"), &session()).await;
    assert_eq!(during.model_text().as_deref(), Some(IN_PROGRESS));
    probe.release.notify_one();
    let first = running.await.unwrap();
    assert_eq!(first.model_text().as_deref(), Some("Voucher V-1 for GATED"));
    let after = behind.call(&voucher("GATED", "skew"), &session()).await;
    assert_eq!(after.audit.delivery, Delivery::Replayed);
    assert_eq!(probe.runs(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_is_held_for_its_hold_when_that_is_longer_than_the_lease() {
    let Some(db) = TestDb::create("idem_hold").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresIdempotencyStore::new(pool).with_lease(Duration::from_millis(100));
    let scope = IdempotencyScope {
        tool: "issue_voucher".into(),
        contract_major: 1,
        subjects: Subjects::new()
            .with("customer", "cus_42")
            .as_slice()
            .to_vec(),
        key: "held".into(),
    };
    let hold = Duration::from_secs(3);
    assert_eq!(store.claim(&scope, hold).await, Ok(ClaimOutcome::Fresh));
    // Past the lease, within the hold: the call may still run.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        store.claim(&scope, Duration::ZERO).await,
        Ok(ClaimOutcome::InProgress)
    );
    tokio::time::sleep(hold).await;
    assert_eq!(
        store.claim(&scope, Duration::ZERO).await,
        Ok(ClaimOutcome::Abandoned)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_key_at_two_major_versions_names_two_operations() {
    use tool_contract::runtime::VersionPins;
    let Some(db) = TestDb::create("idem_versions").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let key = "0b7e9a52-8a4f-4f7e-9a55-3c1d2e4f5a6b";
    let v1_call = ToolCall::new(
        "c1",
        refund::NAME,
        serde_json::json!({
            "order_ref": "A-10293",
            "amount": {"amount_minor": 1250, "currency": "EUR"},
            "request_id": key,
        })
        .to_string(),
    );
    let v2_call = ToolCall::new(
        "c2",
        refund::NAME,
        serde_json::json!({
            "order_ref": "A-10293",
            "amount": {"amount_minor": 1250, "currency": "EUR"},
            "refund_to": "store_credit",
            "request_id": key,
        })
        .to_string(),
    );
    let v1 = refund::session().with(VersionPins::new().with(refund::NAME, 1));
    let v2 = refund::session();
    // Two instances sharing the database, each serving both versions.
    let clock = refund::Clock::at(refund::BEFORE_SUNSET_SECS);
    let instance = || {
        let (toolbox, drafted) = refund::toolbox(&clock);
        let store = PostgresIdempotencyStore::new(pool.clone()).with_lease(LEASE);
        (toolbox.with_idempotency_store(Arc::new(store)), drafted)
    };
    let (a, drafted_a) = instance();
    let (b, drafted_b) = instance();
    let first_v1 = a.call(&v1_call, &v1).await;
    let first_v2 = b.call(&v2_call, &v2).await;
    assert_eq!(
        [&first_v1, &first_v2].map(|r| (r.audit.delivery, r.model_text())),
        [
            (
                Delivery::Fresh,
                Some(r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#.into())
            ),
            (
                Delivery::Fresh,
                Some(r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"},"refund_to":"store_credit"}"#.into())
            ),
        ]
    );
    // Each retry, on the other instance, replays its own version's record.
    let note = "This is the recorded result of an earlier call with the same request_id; it was not run again.";
    let retry_v1 = b.call(&v1_call, &v1).await;
    let retry_v2 = a.call(&v2_call, &v2).await;
    assert_eq!(
        [&retry_v1, &retry_v2].map(|r| (
            r.audit.delivery,
            r.version().map(|v| v.to_string()),
            r.model_text()
        )),
        [
            (
                Delivery::Replayed,
                Some("1.3.0".to_owned()),
                Some(format!(
                    "{{\"draft_id\":\"RD-1\",\"amount\":{{\"amount_minor\":1250,\"currency\":\"EUR\"}}}}\n\n{note}"
                ))
            ),
            (
                Delivery::Replayed,
                Some("2.0.0".to_owned()),
                Some(format!(
                    "{{\"draft_id\":\"RD-1\",\"amount\":{{\"amount_minor\":1250,\"currency\":\"EUR\"}},\"refund_to\":\"store_credit\"}}\n\n{note}"
                ))
            ),
        ]
    );
    assert_eq!(
        (
            drafted_a.lock().unwrap().len(),
            drafted_b.lock().unwrap().len()
        ),
        (1, 1)
    );
    let client = db.client().await;
    let rows = client
        .query(
            "SELECT contract_major, state FROM tool_contract_idempotency ORDER BY contract_major",
            &[],
        )
        .await
        .unwrap();
    let rows: Vec<(i64, String)> = rows.iter().map(|row| (row.get(0), row.get(1))).collect();
    assert_eq!(rows, [(1, "done".to_owned()), (2, "done".to_owned())]);
}
