//! Approval grants in the database: granted out of band through one
//! instance, used by a call on another, each by exactly one call, and only
//! at the version it was given for (a grant of a version-1 call never runs
//! the same arguments at version 2, and the reverse); ids the
//! database cannot keep refused with their reason before anything is
//! written; a grant whose use the client gave up on while its COMMIT was
//! in flight is left for the retry.

#[path = "../../tests/versions_support/mod.rs"]
mod refund;
mod support;

use std::sync::Arc;
use std::time::Duration;

use support::{Probe, TestDb, UNAVAILABLE, close, count, quick, session, subjects, toolbox};
use tool_contract::audit::{Subject, Subjects};
use tool_contract::store_postgres::PoolOptions;
use tool_contract::store_postgres::{PostgresApprovalStore, StoreErrorKind};
use tool_contract::{
    ToolError, ToolOutput, approval::ApprovalCheck, approval::ApprovalGrant,
    approval::ApprovalLookup, approval::ApprovalStore, runtime::ExecutionOutcome,
};

const LEASE: Duration = Duration::from_secs(60);
const NEEDED: &str = "Error [APPROVAL_REQUIRED]: This call needs the user's approval before it runs. Ask the user to approve it, then make the same call again with the same arguments.";
const USED: &str = "Error [APPROVAL_REQUIRED]: The approval for this call was already used; an approval covers one call. Ask the user to approve it again, then repeat the call.";

fn grant(id: &str, account_ref: &str) -> ApprovalGrant {
    ApprovalGrant::for_call::<support::CloseAccount>(
        id,
        &format!(r#"{{"account_ref": "{account_ref}"}}"#),
    )
    .for_subjects(&subjects())
}

fn close_lookup<'a>(
    contract_version: tool_contract::contract::Version,
    arguments_sha256: &'a str,
    subjects: &'a [Subject],
) -> ApprovalLookup<'a> {
    ApprovalLookup {
        tool: "close_account",
        contract_version,
        arguments_sha256,
        subjects,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_made_through_one_instance_is_used_once_by_another() {
    let Some(db) = TestDb::create("appr_instances").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool_a = db.migrated_pool(&quick()).await;
    let pool_b = db.pool(&quick());
    let instance_b = toolbox(&pool_b, &probe, LEASE);

    // Without a grant the call asks for one, with what to approve.
    let refused = instance_b.call(&close("ACC-7"), &session()).await;
    assert_eq!(refused.model_text().as_deref(), Some(NEEDED));
    let request = refused.approval_request.unwrap();

    // The approval UI, served by instance A, records the user's decision.
    let approvals_a = PostgresApprovalStore::new(pool_a);
    let granted = request.approve("appr-1");
    assert_eq!(granted, grant("appr-1", "ACC-7"));
    assert_eq!(
        approvals_a.grant(&granted, Duration::from_secs(600)).await,
        Ok(true)
    );
    // The UI's retry of the same decision grants nothing twice.
    assert_eq!(
        approvals_a.grant(&granted, Duration::from_secs(600)).await,
        Ok(false)
    );
    assert_eq!(approvals_a.unused().await, Ok(1));

    let ran = instance_b.call(&close("ACC-7"), &session()).await;
    assert_eq!(ran.model_text().as_deref(), Some("Closed ACC-7."));
    assert_eq!(ran.audit.approval_id.as_deref(), Some("appr-1"));
    let again = instance_b.call(&close("ACC-7"), &session()).await;
    assert_eq!(again.model_text().as_deref(), Some(USED));
    assert_eq!(probe.runs(), 1);
    assert_eq!(approvals_a.unused().await, Ok(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_grant_raced_by_eight_instances_is_used_by_one() {
    let Some(db) = TestDb::create("appr_race").await else {
        return;
    };
    let probe = Arc::new(Probe::default());
    let pool = db.migrated_pool(&quick()).await;
    PostgresApprovalStore::new(pool)
        .grant(&grant("appr-race", "ACC-9"), Duration::from_secs(600))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let toolbox = toolbox(&db.pool(&quick()), &probe, LEASE);
        tasks.push(tokio::spawn(async move {
            toolbox.call(&close("ACC-9"), &session()).await
        }));
    }
    let mut ran = 0;
    let mut refused = 0;
    for task in tasks {
        let result = task.await.unwrap();
        match result.model_text().as_deref() {
            Some("Closed ACC-9.") => {
                assert_eq!(result.audit.approval_id.as_deref(), Some("appr-race"));
                ran += 1;
            }
            // A loser that looked while the winner's update was not yet
            // committed finds no usable grant; one that looked after finds
            // it used.
            Some(NEEDED | USED) => {
                assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
                refused += 1;
            }
            other => panic!("unexpected answer {other:?}"),
        }
    }
    assert_eq!((ran, refused), (1, 7));
    assert_eq!(probe.runs(), 1);
    let client = db.client().await;
    assert_eq!(
        count(
            &client,
            "SELECT count(*) FROM tool_contract_approvals WHERE used_at IS NOT NULL"
        )
        .await,
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_binds_its_arguments_principal_and_expiry() {
    let Some(db) = TestDb::create("appr_binding").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = PostgresApprovalStore::new(pool.clone());
    store
        .grant(&grant("for-acc-1", "ACC-1"), Duration::from_secs(600))
        .await
        .unwrap();
    store
        .grant(&grant("expired", "ACC-2"), Duration::ZERO)
        .await
        .unwrap();
    let version = grant("x", "ACC-1").contract_version;
    let acc1 = grant("x", "ACC-1").arguments_sha256;
    let acc2 = grant("x", "ACC-2").arguments_sha256;
    let ours = subjects().as_slice().to_vec();
    let theirs = Subjects::new()
        .with("customer", "cus_43")
        .as_slice()
        .to_vec();
    let lookup = |hash, subjects| close_lookup(version, hash, subjects);
    let (acc1, acc2, ours, theirs) = (acc1.as_str(), acc2.as_str(), &ours[..], &theirs[..]);
    // Another principal, other arguments, an expired grant: nothing.
    assert_eq!(
        store.consume(lookup(acc1, theirs)).await,
        Ok(ApprovalCheck::Missing)
    );
    assert_eq!(
        store.consume(lookup(acc2, ours)).await,
        Ok(ApprovalCheck::Missing)
    );
    // The grant itself, once.
    assert_eq!(
        store.consume(lookup(acc1, ours)).await,
        Ok(ApprovalCheck::Granted(grant("for-acc-1", "ACC-1")))
    );
    assert_eq!(
        store.consume(lookup(acc1, ours)).await,
        Ok(ApprovalCheck::AlreadyUsed)
    );
    // Subjects are a set: a grant for (tenant, customer) holds for a
    // session that lists them the other way round.
    let two = Subjects::new()
        .with("tenant", "acme")
        .with("customer", "cus_42");
    let reversed = Subjects::new()
        .with("customer", "cus_42")
        .with("tenant", "acme");
    let both =
        ApprovalGrant::for_call::<support::CloseAccount>("both", r#"{"account_ref": "ACC-3"}"#)
            .for_subjects(&two);
    store.grant(&both, Duration::from_secs(600)).await.unwrap();
    let check = store
        .consume(ApprovalLookup {
            tool: "close_account",
            contract_version: version,
            arguments_sha256: &both.arguments_sha256,
            subjects: reversed.as_slice(),
        })
        .await;
    assert!(matches!(check, Ok(ApprovalCheck::Granted(ref g)) if g.approval_id == "both"));
    // Another contract version: nothing.
    let v2 = tool_contract::contract::Version::new(version.major + 1, 0, 0);
    assert_eq!(
        store.consume(close_lookup(v2, acc1, ours)).await,
        Ok(ApprovalCheck::Missing)
    );
    // An id taken by a grant for another call is refused, not dropped.
    assert_eq!(
        store
            .grant(&grant("for-acc-1", "ACC-9"), Duration::from_secs(600))
            .await
            .unwrap_err()
            .message(),
        r#"the approval id "for-acc-1" is already taken by a grant for another call; approval ids must be unique in the database (e.g. UUIDs)"#
    );
    // An id longer than the store keeps is refused before the database.
    let long = grant(&"a".repeat(513), "ACC-1");
    assert_eq!(
        store
            .grant(&long, Duration::from_secs(1))
            .await
            .unwrap_err()
            .message(),
        "the approval id is 513 bytes long; at most 512 are kept"
    );
    // A session without subjects cannot use a shared grant at all.
    let probe = Arc::new(Probe::default());
    let toolbox = toolbox(&pool, &probe, LEASE);
    let result = toolbox
        .call(&close("ACC-1"), &tool_contract::Session::new())
        .await;
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some(
            "the tool `close_account` uses approvals kept in a shared store, but the session names no one (no `Subjects`, or an empty one) to scope them by; the application must add the principal's subjects with `Session::with`"
        )
    );
    assert_eq!(probe.runs(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_id_the_database_cannot_keep_is_refused_with_its_reason() {
    let Some(db) = TestDb::create("appr_nul_id").await else {
        return;
    };
    let store = PostgresApprovalStore::new(db.migrated_pool(&quick()).await);
    let error = store
        .grant(&grant("appr\0-1", "ACC-1"), Duration::from_secs(600))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Refused);
    assert_eq!(
        error.message(),
        "the approval id holds U+0000, which PostgreSQL text cannot keep; use ids without control characters (e.g. UUIDs)"
    );
    let error = store
        .grant(&grant(&"a".repeat(513), "ACC-1"), Duration::from_secs(600))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), StoreErrorKind::Refused);
    assert_eq!(
        error.message(),
        "the approval id is 513 bytes long; at most 512 are kept"
    );
    assert_eq!(store.unused().await, Ok(0));
    // U+0000 elsewhere in a grant (a tool name the application built) is
    // kept readable, as U+FFFD.
    let mut odd = grant("appr-2", "ACC-1");
    odd.tool = "close\0account".into();
    assert_eq!(store.grant(&odd, Duration::from_secs(600)).await, Ok(true));
    let client = db.client().await;
    let tool: String = client
        .query_one(
            "SELECT tool FROM tool_contract_approvals WHERE approval_id = 'appr-2'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(tool, "close\u{FFFD}account");
}

/// Slows the first use of grant `appr-slow` down on the server: its
/// UPDATE and its COMMIT (a deferred trigger) each take 6 s, within the
/// server's 10 s `statement_timeout`, but together longer than the
/// client's 11 s bound, so that the client gives the use up while its
/// COMMIT is in flight, and the server commits it a second later.
const SLOW_COMMIT: &str = "
    CREATE FUNCTION slow_use() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.approval_id = 'appr-slow' THEN PERFORM pg_sleep(6); END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER slow_update BEFORE UPDATE ON tool_contract_approvals
        FOR EACH ROW EXECUTE FUNCTION slow_use();
    CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON tool_contract_approvals
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION slow_use();";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_whose_use_was_given_up_while_its_commit_was_in_flight_is_left_for_the_retry() {
    let Some(db) = TestDb::create("appr_commit_in_flight").await else {
        return;
    };
    let options = PoolOptions {
        statement_timeout: Duration::from_secs(10),
        ..quick()
    };
    let pool = db.migrated_pool(&options).await;
    let approvals = PostgresApprovalStore::new(pool.clone());
    assert_eq!(
        approvals
            .grant(&grant("appr-slow", "ACC-1"), Duration::from_secs(600))
            .await,
        Ok(true)
    );
    let client = db.client().await;
    client.batch_execute(SLOW_COMMIT).await.unwrap();
    let probe = Arc::new(Probe::default());
    let instance = toolbox(&pool, &probe, LEASE);

    let refused = instance.call(&close("ACC-1"), &session()).await;
    assert_eq!(refused.model_text().as_deref(), Some(UNAVAILABLE));
    assert_eq!(refused.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(refused.audit.approval_id, None);
    assert_eq!(
        refused.audit.internal_detail.as_deref(),
        Some(
            "approval store failed: the database did not answer within 11000 ms; the connection is closed"
        )
    );
    assert_eq!(probe.runs(), 0);
    // Dropping the triggers waits for the use's transaction to end: by
    // then the server has committed the use the client gave up on.
    client
        .batch_execute(
            "DROP TRIGGER slow_commit ON tool_contract_approvals;
             DROP TRIGGER slow_update ON tool_contract_approvals",
        )
        .await
        .unwrap();
    // The store undoes it once the database answers again (generous: the
    // machine may be busy).
    let mut unused = Ok(0);
    for _ in 0..600 {
        unused = approvals.unused().await;
        if unused == Ok(1) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(unused, Ok(1));
    // The retry uses the grant: the refusal said nothing was changed.
    let ran = instance.call(&close("ACC-1"), &session()).await;
    assert_eq!(ran.model_text().as_deref(), Some("Closed ACC-1."));
    assert_eq!(ran.audit.approval_id.as_deref(), Some("appr-slow"));
    let again = instance.call(&close("ACC-1"), &session()).await;
    assert_eq!(again.model_text().as_deref(), Some(USED));
    assert_eq!(probe.runs(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_of_one_major_version_never_covers_a_call_at_the_other() {
    use refund::{SubmitRefundV1, SubmitRefundV2};
    use tool_contract::runtime::VersionPins;
    use tool_contract::{CallContext, Session, ToolCall, Toolbox};
    let Some(db) = TestDb::create("approval_versions").await else {
        return;
    };
    let pool = db.migrated_pool(&quick()).await;
    let store = Arc::new(PostgresApprovalStore::new(pool));
    let mut toolbox = Toolbox::new().with_approval_store(store.clone());
    toolbox
        .register(|call: SubmitRefundV2, _: CallContext| async move {
            Ok::<_, ToolError>(format!("{} submitted", call.draft_id))
        })
        .serve_older::<SubmitRefundV1, SubmitRefundV2>();
    let v1 = session().with(VersionPins::new().with("submit_refund", 1));
    let v2: Session = session();
    // The same text is a valid call at both versions.
    let call = ToolCall::new("c1", "submit_refund", r#"{"draft_id":"RD-1"}"#);
    let asked_v1 = toolbox.call(&call, &v1).await;
    let asked_v2 = toolbox.call(&call, &v2).await;
    let request_v1 = asked_v1.approval_request.clone().unwrap();
    let request_v2 = asked_v2.approval_request.clone().unwrap();
    assert_eq!(request_v1.arguments_sha256, request_v2.arguments_sha256);
    // A grant of each version's call, through the store.
    assert_eq!(
        store
            .grant(&request_v1.approve("appr-v1"), Duration::from_secs(600))
            .await,
        Ok(true)
    );
    let v2_refused = toolbox.call(&call, &v2).await;
    assert_eq!(v2_refused.model_text().as_deref(), Some(NEEDED));
    assert_eq!(store.unused().await, Ok(1));
    let ran_v1 = toolbox.call(&call, &v1).await;
    assert_eq!(ran_v1.model_text().as_deref(), Some("RD-1 submitted"));
    assert_eq!(ran_v1.audit.approval_id.as_deref(), Some("appr-v1"));
    // The version-1 grant is used; the version-2 call still needs its own.
    let v2_again = toolbox.call(&call, &v2).await;
    assert_eq!(v2_again.model_text().as_deref(), Some(NEEDED));
    assert_eq!(
        store
            .grant(&request_v2.approve("appr-v2"), Duration::from_secs(600))
            .await,
        Ok(true)
    );
    let v1_again = toolbox.call(&call, &v1).await;
    assert_eq!(v1_again.model_text().as_deref(), Some(USED));
    let ran_v2 = toolbox.call(&call, &v2).await;
    assert_eq!(ran_v2.audit.approval_id.as_deref(), Some("appr-v2"));
    assert_eq!(
        [&ran_v1, &ran_v2].map(|r| r.version().map(|v| v.to_string())),
        [Some("1.0.0".to_owned()), Some("2.0.0".to_owned())]
    );
    assert_eq!(store.unused().await, Ok(0));
}
