//! Adversarial tests: the audit table's append-only promise.

mod support;

use support::{TestDb, count, quick};

/// The migration says "Append-only, also for the table's owner: an entry
/// is never changed or removed". The trigger is row-level BEFORE UPDATE OR
/// DELETE, so TRUNCATE (no row triggers) removes every entry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_can_truncate_the_append_only_audit() {
    let Some(db) = TestDb::create("atk_audit_truncate").await else {
        return;
    };
    db.migrated_pool(&quick()).await;
    let client = db.client().await;
    client
        .batch_execute(
            "INSERT INTO tool_contract_audit (phase, call_id, tool, outcome, record)
             VALUES ('started', 'c1', 't', 'unknown', '{}')",
        )
        .await
        .unwrap();
    let truncated = client.batch_execute("TRUNCATE tool_contract_audit").await;
    let left = count(&client, "SELECT count(*) FROM tool_contract_audit").await;
    assert!(
        truncated.is_err() && left == 1,
        "TRUNCATE on the append-only audit table succeeded; {left} rows left"
    );
}

/// Held: UPDATE and DELETE are refused for the owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_update_and_delete_are_refused() {
    let Some(db) = TestDb::create("atk_audit_update").await else {
        return;
    };
    db.migrated_pool(&quick()).await;
    let client = db.client().await;
    client
        .batch_execute(
            "INSERT INTO tool_contract_audit (phase, call_id, tool, outcome, record)
             VALUES ('started', 'c1', 't', 'unknown', '{}')",
        )
        .await
        .unwrap();
    assert!(
        client
            .batch_execute("UPDATE tool_contract_audit SET outcome = 'x'")
            .await
            .is_err()
    );
    assert!(
        client
            .batch_execute("DELETE FROM tool_contract_audit")
            .await
            .is_err()
    );
}
