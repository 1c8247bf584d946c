//! Adversarial tests: pool configuration and approval binding.

mod support;

use std::time::Duration;

use support::{TestDb, quick};
use tool_contract::audit::Subjects;
use tool_contract::store_postgres::{
    PostgresApprovalStore, StoreError, StoreErrorKind, connect, migrate,
};
use tool_contract::{
    approval::ApprovalCheck, approval::ApprovalGrant, approval::ApprovalLookup,
    approval::ApprovalStore,
};

/// `connect` sets `options` to `-c statement_timeout=…`, replacing the
/// `options` of the application's URL (e.g. its `search_path`): the
/// migrations and every store then silently work in another schema.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_url_options_are_dropped_by_connect() {
    let Some(db) = TestDb::create("atk_url_options").await else {
        return;
    };
    let client = db.client().await;
    client.batch_execute("CREATE SCHEMA app").await.unwrap();
    let url = format!("{} options='-c search_path=app'", db.url);
    let pool = connect(&url, &quick()).unwrap();
    migrate(&pool).await.unwrap();
    let schema: Option<String> = client
        .query_one(
            "SELECT table_schema::text FROM information_schema.tables WHERE table_name = 'tool_contract_idempotency'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        schema.as_deref(),
        Some("app"),
        "the URL's options (search_path=app) were replaced by the pool's statement_timeout"
    );
}

/// Grants bind the subjects "as a set", but a subject listed twice gives
/// another binding: a grant recorded for {customer cus_42} (listed twice by
/// the approval UI's session) is Missing for the same customer's call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicated_subject_misses_its_grant() {
    let Some(db) = TestDb::create("atk_appr_dup").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresApprovalStore::new(pool);
    let twice = Subjects::new()
        .with("customer", "cus_42")
        .with("customer", "cus_42");
    let once = Subjects::new().with("customer", "cus_42");
    let grant =
        ApprovalGrant::for_call::<support::CloseAccount>("appr-dup", r#"{"account_ref": "ACC-7"}"#)
            .for_subjects(&twice);
    assert_eq!(
        store.grant(&grant, Duration::from_secs(600)).await,
        Ok(true)
    );
    let check = store
        .consume(ApprovalLookup {
            tool: "close_account",
            contract_version: grant.contract_version,
            arguments_sha256: &grant.arguments_sha256,
            subjects: once.as_slice(),
        })
        .await
        .unwrap();
    assert!(
        matches!(check, ApprovalCheck::Granted(_)),
        "the same set of subjects did not find its grant: {check:?}"
    );
}

/// Held: NUL bytes and huge values in a grant are errors, not panics.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn held_hostile_grants_do_not_panic() {
    let Some(db) = TestDb::create("atk_appr_hostile").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresApprovalStore::new(pool);
    let mut answers = Vec::new();
    for id in [
        "a\0b",
        "'; DROP TABLE tool_contract_approvals; --",
        "\u{202E}\u{FEFF}x",
    ] {
        let mut grant =
            ApprovalGrant::for_call::<support::CloseAccount>(id, r#"{"account_ref": "ACC-7"}"#)
                .for_subjects(&Subjects::new().with("t\0", "u,v"));
        let answer = |result: Result<bool, StoreError>| {
            result.map_err(|error| (error.kind(), error.message().to_owned()))
        };
        answers.push(answer(store.grant(&grant, Duration::MAX).await));
        // The same id for another call is refused, never a second grant.
        grant.tool = "close\0account".into();
        answers.push(answer(store.grant(&grant, Duration::ZERO).await));
    }
    let nul = "the approval id holds U+0000, which PostgreSQL text cannot keep; use ids without control characters (e.g. UUIDs)";
    let taken = |id: &str| {
        format!(
            "the approval id {id} is already taken by a grant for another call; approval ids must be unique in the database (e.g. UUIDs)"
        )
    };
    assert_eq!(
        answers,
        [
            Err((StoreErrorKind::Refused, nul.to_owned())),
            Err((StoreErrorKind::Refused, nul.to_owned())),
            Ok(true),
            Err((
                StoreErrorKind::Refused,
                taken("\"'; DROP TABLE tool_contract_approvals; --\"")
            )),
            Ok(true),
            Err((StoreErrorKind::Refused, taken("\"\\u{202e}\\u{feff}x\""))),
        ]
    );
    // The table is intact and holds the two grants.
    assert_eq!(store.unused().await, Ok(2));
}
