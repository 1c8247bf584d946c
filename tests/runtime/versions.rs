//! Two versions of one tool served side by side by one `Toolbox`: a
//! version-1 call is upgraded into version 2's handler and its output
//! downgraded, a failed upgrade is the model's argument error, a session
//! sees the version it pins (else the newest), a pin to a version not
//! served and a retired version answer stable codes naming the versions,
//! the sunset is enforced by the toolbox's clock, every audit record and
//! result carries the version served, calls are counted per version,
//! idempotency keys and approvals stay scoped to their version, and the
//! registrations that cannot work are refused.

use serde_json::{Value, json};
use tool_contract::approval::{ApprovalCheck, Approvals};
use tool_contract::contract::{Effect, Version, VersionConflict, VersionGuard};
use tool_contract::runtime::{
    AbortHandle, CallCount, ExecutionOutcome, OutputKind, VersionError, VersionPins,
};
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};

use crate::versions_support::{
    BEFORE_SUNSET_SECS, Clock, CreateRefundDraftV1, CreateRefundDraftV2, CustomerId, NAME,
    RefundDraftV1, RefundDraftV2, RefundTo, SUNSET_SECS, SubmitRefundV1, SubmitRefundV2, session,
    toolbox,
};

const V1: Version = Version::new(1, 3, 0);
const V2: Version = Version::new(2, 0, 0);
const KEY: &str = "0b7e9a52-8a4f-4f7e-9a55-3c1d2e4f5a6b";

fn pinned(major: u64) -> Session {
    session().with(VersionPins::new().with(NAME, major))
}

fn v1_call(id: &str, amount_minor: i64) -> ToolCall {
    let arguments = json!({
        "order_ref": "A-10293",
        "amount": {"amount_minor": amount_minor, "currency": "EUR"},
        "request_id": KEY,
    });
    ToolCall::new(id, NAME, arguments.to_string())
}

fn v2_call(id: &str, refund_to: &str) -> ToolCall {
    let arguments = json!({
        "order_ref": "A-10293",
        "amount": {"amount_minor": 1250, "currency": "EUR"},
        "refund_to": refund_to,
        "request_id": KEY,
    });
    ToolCall::new(id, NAME, arguments.to_string())
}

fn model_text(result: &tool_contract::CallResult) -> String {
    result.model_text().unwrap_or_default()
}

#[tokio::test]
async fn a_v1_call_is_upgraded_into_the_v2_handler_and_its_output_downgraded() {
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    let (toolbox, drafted) = toolbox(&clock);
    let result = toolbox.call(&v1_call("c1", 1250), &pinned(1)).await;

    // The handler got the upgraded call: refunded to the original payment.
    assert_eq!(
        *drafted.lock().unwrap(),
        [CreateRefundDraftV2 {
            order_ref: "A-10293".into(),
            amount: tool_contract::Money::new(1250, tool_contract::Currency::EUR),
            refund_to: RefundTo::OriginalPayment,
            request_id: KEY.into(),
            customer: CustomerId("cus_42".into()),
        }]
    );
    // The model reads version 1's output: no `refund_to`.
    assert_eq!(
        model_text(&result),
        r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#
    );
    let expected = RefundDraftV1 {
        draft_id: "RD-1".into(),
        amount: tool_contract::Money::new(1250, tool_contract::Currency::EUR),
    };
    assert_eq!(
        result.output.details(),
        &serde_json::to_value(&expected).unwrap()
    );
    // Served at 1.3.0: the audit record, the result and its provenance say so.
    assert_eq!(result.version(), Some(V1));
    assert_eq!(result.audit.contract_version, Some(V1));
    assert_eq!(result.audit.idempotency_key.as_deref(), Some(KEY));
    let provenance = &result.model_result.as_ref().unwrap().provenance;
    assert_eq!(
        (
            provenance.source_label.as_str(),
            provenance.producer_revision.as_str()
        ),
        (NAME, "1.3.0")
    );

    // The same toolbox, unpinned: version 2, its own output.
    let result = toolbox
        .call(&v2_call("c2", "store_credit"), &session())
        .await;
    assert_eq!(
        model_text(&result),
        r#"{"draft_id":"RD-2","amount":{"amount_minor":1250,"currency":"EUR"},"refund_to":"store_credit"}"#
    );
    let expected = RefundDraftV2 {
        draft_id: "RD-2".into(),
        amount: tool_contract::Money::new(1250, tool_contract::Currency::EUR),
        refund_to: RefundTo::StoreCredit,
    };
    assert_eq!(
        result.output.details(),
        &serde_json::to_value(&expected).unwrap()
    );
    assert_eq!(result.version(), Some(V2));
    assert_eq!(
        result
            .model_result
            .as_ref()
            .unwrap()
            .provenance
            .producer_revision,
        "2.0.0"
    );
}

#[tokio::test]
async fn a_failed_upgrade_is_an_argument_error_the_model_can_act_on() {
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    // Version 1 takes a zero amount; version 2 refunds a positive one.
    let result = toolbox.call(&v1_call("c1", 0), &pinned(1)).await;
    assert_eq!(
        model_text(&result),
        "Error [INVALID_ARGUMENTS]: $: \"amount\" must be more than 0.00 EUR; a refund draft refunds a positive amount"
    );
    let error = result.output.error().unwrap();
    assert_eq!(
        (
            error.code.as_ref(),
            error.category.as_str(),
            error.recovery.as_str()
        ),
        ("INVALID_ARGUMENTS", "invalid_arguments", "fix_arguments")
    );
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(result.audit.contract_version, Some(V1));
    assert!(drafted.lock().unwrap().is_empty(), "the handler never ran");
    // Version 2's own parser says the same thing in its own words.
    let mut zero = v2_call("c2", "original_payment");
    zero.arguments = zero.arguments.replace("1250", "0");
    let result = toolbox.call(&zero, &session()).await;
    assert_eq!(
        model_text(&result),
        "Error [INVALID_ARGUMENTS]: $.amount.amount_minor: expected a number of at least 1, got 0"
    );
}

#[tokio::test]
async fn a_session_is_offered_the_version_it_pins_else_the_newest() {
    let (toolbox, _) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let offered = |session: &Session| -> Vec<(String, String)> {
        toolbox
            .contracts_for(session)
            .unwrap()
            .iter()
            .map(|c| (c.name().to_owned(), c.version().to_string()))
            .collect()
    };
    let two = vec![(NAME.to_owned(), "2.0.0".to_owned())];
    let one = vec![(NAME.to_owned(), "1.3.0".to_owned())];
    assert_eq!(offered(&session()), two);
    assert_eq!(offered(&pinned(2)), two);
    assert_eq!(offered(&pinned(1)), one);
    // Pins of other tools do not matter.
    assert_eq!(
        offered(&session().with(VersionPins::new().with("get_order", 7))),
        two
    );
    assert_eq!(
        toolbox.contracts().map(|c| c.version()).collect::<Vec<_>>(),
        [V2]
    );
    assert_eq!(
        toolbox
            .served_contracts()
            .map(|c| c.version())
            .collect::<Vec<_>>(),
        [V2, V1]
    );
    assert!(std::ptr::eq(
        toolbox.contract_at(NAME, 1).unwrap(),
        CreateRefundDraftV1::contract()
    ));
    assert!(toolbox.contract_at(NAME, 3).is_none());
    assert!(std::ptr::eq(
        toolbox.contract(NAME).unwrap(),
        CreateRefundDraftV2::contract()
    ));
    assert_eq!(toolbox.names().collect::<Vec<_>>(), [NAME]);
    assert_eq!(toolbox.len(), 1);
    toolbox.check(&pinned(1)).unwrap();
    toolbox.check(&session()).unwrap();
}

#[tokio::test]
async fn a_pin_to_a_version_not_served_answers_version_not_served() {
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let message = "The tool \"create_refund_draft\" is not served at major version 3; it is served at 2.0.0 and 1.3.0.";
    let error = toolbox.contracts_for(&pinned(3)).unwrap_err();
    assert_eq!(
        error,
        VersionError::NotServed {
            tool: NAME.into(),
            requested: 3,
            served: vec![V2, V1],
        }
    );
    assert_eq!(error.code(), "VERSION_NOT_SERVED");
    assert_eq!(error.to_string(), format!("VERSION_NOT_SERVED: {message}"));

    let result = toolbox
        .call(&v2_call("c1", "store_credit"), &pinned(3))
        .await;
    assert_eq!(
        model_text(&result),
        format!("Error [VERSION_NOT_SERVED]: {message}")
    );
    let error = result.output.error().unwrap();
    assert_eq!(
        (error.category.as_str(), error.recovery.as_str()),
        ("not_found", "none")
    );
    assert_eq!(result.output.kind(), OutputKind::RespondToModel);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(result.audit.contract_version, None);
    assert!(drafted.lock().unwrap().is_empty());

    assert_eq!(
        toolbox.check(&pinned(3)).unwrap_err().problems(),
        [format!(
            "the session's `VersionPins` cannot be served (VERSION_NOT_SERVED): {message} The application must pin a version that is served, or none"
        )]
    );
    assert_eq!(
        toolbox
            .check_call(&v2_call("c2", "store_credit"), &pinned(3))
            .unwrap_err()
            .problems(),
        [format!(
            "the session's `VersionPins` cannot be served (VERSION_NOT_SERVED): {message} The application must pin a version that is served, or none"
        )]
    );
    // A pinned sample call parses at its version.
    toolbox
        .check_call(&v1_call("c3", 1250), &pinned(1))
        .unwrap();
    assert_eq!(
        toolbox
            .check_call(&v1_call("c4", 1250), &session())
            .unwrap_err()
            .problems(),
        [
            "the sample call of `create_refund_draft` does not parse (INVALID_ARGUMENTS): $.refund_to: missing required field \"refund_to\""
        ]
    );
}

#[tokio::test]
async fn the_sunset_retires_version_1_by_the_toolboxs_clock() {
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    let (toolbox, drafted) = toolbox(&clock);
    // The last second before the sunset day: still served.
    clock.set(SUNSET_SECS - 1);
    let served = toolbox.call(&v1_call("c1", 1250), &pinned(1)).await;
    assert_eq!(
        model_text(&served),
        r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#
    );
    assert_eq!(toolbox.contracts_for(&pinned(1)).unwrap()[0].version(), V1);

    // From the first instant of 2026-09-30 UTC: refused, not offered.
    clock.set(SUNSET_SECS);
    let message = "Version 1.3.0 of the tool \"create_refund_draft\" was retired on 2026-09-30; nothing was run. Use version 2.0.0 of it.";
    let mut retry = v1_call("c2", 1250);
    retry.arguments = retry.arguments.replace("1250", "990");
    let refused = toolbox.call(&retry, &pinned(1)).await;
    assert_eq!(
        model_text(&refused),
        format!("Error [VERSION_RETIRED]: {message}")
    );
    assert_eq!(refused.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(refused.audit.contract_version, Some(V1));
    assert_eq!(refused.audit.started_at, "2026-09-30T00:00:00.000Z");
    assert_eq!(
        drafted.lock().unwrap().len(),
        1,
        "the retired call never ran"
    );
    let error = toolbox.contracts_for(&pinned(1)).unwrap_err();
    assert_eq!(error.code(), "VERSION_RETIRED");
    assert_eq!(error.to_string(), format!("VERSION_RETIRED: {message}"));
    assert_eq!(
        toolbox.check(&pinned(1)).unwrap_err().problems(),
        [format!(
            "the session's `VersionPins` cannot be served (VERSION_RETIRED): {message} The application must pin a version that is served, or none"
        )]
    );
    // Unpinned sessions never saw version 1 and go on with version 2.
    assert_eq!(toolbox.contracts_for(&session()).unwrap()[0].version(), V2);
    let v2 = toolbox
        .call(&v2_call("c3", "store_credit"), &session())
        .await;
    assert_eq!(v2.version(), Some(V2));
    assert_eq!(v2.output.kind(), OutputKind::Success);
}

#[tokio::test]
async fn audit_records_and_counts_name_the_version_served() {
    let (toolbox, _) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let zero_counts = vec![
        CallCount {
            tool: NAME,
            version: V2,
            calls: 0,
        },
        CallCount {
            tool: NAME,
            version: V1,
            calls: 0,
        },
    ];
    assert_eq!(toolbox.call_counts(), zero_counts);

    let v1 = pinned(1);
    let calls = [
        v1_call("c1", 1250),
        ToolCall::new("c2", NAME, r#"{"order_ref": ""}"#),
    ];
    let v1_results = toolbox.call_turn(&calls, &v1, &AbortHandle::new()).await;
    let v2_results = toolbox
        .call_turn(
            &[v2_call("c3", "store_credit")],
            &session(),
            &AbortHandle::new(),
        )
        .await;
    let unknown = toolbox
        .call(&ToolCall::new("c4", "create_refund_drafts", "{}"), &v1)
        .await;
    let not_served = toolbox.call(&v1_call("c5", 1250), &pinned(9)).await;
    let records: Vec<(String, String, Option<String>, String)> = v1_results
        .iter()
        .chain(&v2_results)
        .chain([&unknown, &not_served])
        .map(|result| {
            (
                result.audit.call_id.clone(),
                result.audit.tool.clone(),
                result.audit.contract_version.map(|v| v.to_string()),
                result.audit.result.as_str().to_owned(),
            )
        })
        .collect();
    let row = |id: &str, tool: &str, version: Option<&str>, result: &str| {
        (
            id.to_owned(),
            tool.to_owned(),
            version.map(str::to_owned),
            result.to_owned(),
        )
    };
    assert_eq!(
        records,
        [
            row("c1", NAME, Some("1.3.0"), "success"),
            row("c2", NAME, Some("1.3.0"), "respond_to_model"),
            row("c3", NAME, Some("2.0.0"), "success"),
            row("c4", "create_refund_drafts", None, "respond_to_model"),
            row("c5", NAME, None, "respond_to_model"),
        ]
    );
    // The audit record's JSON names the version.
    let json: Value = serde_json::to_value(&v1_results[0].audit).unwrap();
    assert_eq!(json["contract_version"], "1.3.0");
    // Counted per version: every call that reached it, the invalid one
    // included; unknown tools and unserved pins reach none.
    assert_eq!(
        toolbox.call_counts(),
        [
            CallCount {
                tool: NAME,
                version: V2,
                calls: 1,
            },
            CallCount {
                tool: NAME,
                version: V1,
                calls: 2,
            },
        ]
    );
}

#[tokio::test]
async fn an_idempotency_key_is_scoped_to_the_major_version() {
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let first = toolbox.call(&v1_call("c1", 1250), &pinned(1)).await;
    assert_eq!(
        model_text(&first),
        r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#
    );
    // The same key at version 2, with other arguments: another scope, so
    // it runs (and is no IDEMPOTENCY_KEY_REUSED).
    let second = toolbox
        .call(&v2_call("c2", "store_credit"), &session())
        .await;
    assert_eq!(
        model_text(&second),
        r#"{"draft_id":"RD-2","amount":{"amount_minor":1250,"currency":"EUR"},"refund_to":"store_credit"}"#
    );
    // Each retry replays its own version's record.
    let replayed_v1 = toolbox.call(&v1_call("c3", 1250), &pinned(1)).await;
    let note = "This is the recorded result of an earlier call with the same request_id; it was not run again.";
    assert_eq!(
        model_text(&replayed_v1),
        format!(
            "{{\"draft_id\":\"RD-1\",\"amount\":{{\"amount_minor\":1250,\"currency\":\"EUR\"}}}}\n\n{note}"
        )
    );
    assert_eq!(replayed_v1.version(), Some(V1));
    let replayed_v2 = toolbox
        .call(&v2_call("c4", "store_credit"), &session())
        .await;
    assert_eq!(
        model_text(&replayed_v2),
        format!(
            "{{\"draft_id\":\"RD-2\",\"amount\":{{\"amount_minor\":1250,\"currency\":\"EUR\"}},\"refund_to\":\"store_credit\"}}\n\n{note}"
        )
    );
    // Within version 1, the key with other arguments is refused.
    let reused = toolbox.call(&v1_call("c5", 990), &pinned(1)).await;
    assert_eq!(
        model_text(&reused),
        "Error [IDEMPOTENCY_KEY_REUSED]: The request_id \"0b7e9a52-8a4f-4f7e-9a55-3c1d2e4f5a6b\" was already used for a call with other arguments. Use a new request_id for a new request, or repeat the earlier call exactly."
    );
    assert_eq!(drafted.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn an_approval_of_a_v1_call_never_covers_a_v2_call() {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(|call: SubmitRefundV2, _: CallContext| async move {
            Ok::<_, ToolError>(format!("{} submitted", call.draft_id))
        })
        .serve_older::<SubmitRefundV1, SubmitRefundV2>();
    let approvals = Approvals::new();
    let v1 = Session::new()
        .with(approvals.clone())
        .with(VersionPins::new().with("submit_refund", 1));
    let v2 = Session::new().with(approvals.clone());
    // The same text is a valid call at both versions (`message` is optional).
    let call = ToolCall::new("c1", "submit_refund", r#"{"draft_id":"RD-1"}"#);

    let refused = toolbox.call(&call, &v1).await;
    let request = refused.approval_request.clone().unwrap();
    assert_eq!(
        (request.tool.as_str(), request.contract_version),
        ("submit_refund", Version::new(1, 0, 0))
    );
    approvals.grant(request.approve("appr-1"));

    // The v1 grant binds version 1.0.0: the v2 call still needs its own,
    // and leaves the grant unused.
    let v2_refused = toolbox.call(&call, &v2).await;
    assert_eq!(
        v2_refused.output.error().map(|e| e.code.as_ref()),
        Some("APPROVAL_REQUIRED")
    );
    let v2_request = v2_refused.approval_request.unwrap();
    assert_eq!(v2_request.contract_version, Version::new(2, 0, 0));
    assert_eq!(
        v2_request.arguments_sha256, request.arguments_sha256,
        "the same arguments; only the version tells the grants apart"
    );
    assert_eq!(approvals.unused(), 1);
    assert_eq!(
        approvals.consume(
            "submit_refund",
            Version::new(2, 0, 0),
            &request.arguments_sha256,
            &[]
        ),
        ApprovalCheck::Missing
    );

    // The v1 call runs with it, upgraded into the v2 handler.
    let ran = toolbox.call(&call, &v1).await;
    assert_eq!(model_text(&ran), "RD-1 submitted");
    assert_eq!(ran.audit.approval_id.as_deref(), Some("appr-1"));
    assert_eq!(ran.version(), Some(Version::new(1, 0, 0)));
    assert_eq!(approvals.unused(), 0);
}

#[test]
fn registrations_that_cannot_serve_two_versions_are_refused() {
    let handler_v1 = |call: CreateRefundDraftV1, _: CallContext| async move {
        Ok::<_, ToolError>(RefundDraftV1 {
            draft_id: "RD-1".into(),
            amount: call.amount,
        })
    };
    let handler_v2 = |call: CreateRefundDraftV2, _: CallContext| async move {
        Ok::<_, ToolError>(RefundDraftV2 {
            draft_id: "RD-1".into(),
            amount: call.amount,
            refund_to: call.refund_to,
        })
    };

    // Two handlers for one name: two versions without a conversion.
    let mut toolbox = Toolbox::new();
    toolbox.register(handler_v1);
    let error = toolbox.try_register(handler_v2).unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::AlreadyRegistered {
            registered: V1,
            offered: V2,
        })
    );
    assert_eq!(error.tool(), NAME);
    assert_eq!(
        error.to_string(),
        "a tool named `create_refund_draft` is already registered at 1.3.0; to serve 2.0.0 beside it, register the handler of the newest version only and serve the older one with `Toolbox::serve_older::<Old, New>()`, which upgrades its calls with `TryFrom<Old> for New` (one tool has one handler)"
    );
    let error = toolbox
        .try_register_blocking(|call: CreateRefundDraftV2, _: CallContext| {
            Ok::<_, ToolError>(RefundDraftV2 {
                draft_id: "RD-1".into(),
                amount: call.amount,
                refund_to: call.refund_to,
            })
        })
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::AlreadyRegistered {
            registered: V1,
            offered: V2,
        })
    );

    // An older version served before the newer one's handler.
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .try_serve_older::<CreateRefundDraftV1, CreateRefundDraftV2>()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "`create_refund_draft` is served as an older version of 2.0.0, whose handler is not registered; register the handler of 2.0.0 first"
    );

    // The same version twice, and a second version of one major.
    toolbox.register(handler_v2);
    let error = toolbox
        .try_serve_older::<CreateRefundDraftV2, CreateRefundDraftV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::SameMajor {
            served: V2,
            offered: V2,
        })
    );
    assert_eq!(
        error.to_string(),
        "`create_refund_draft` is served at 2.0.0 already, and 2.0.0 has the same major version: one major names one contract, so a pin to major 2 would be ambiguous; serve one of them, or give the other its own major"
    );
    toolbox.serve_older::<CreateRefundDraftV1, CreateRefundDraftV2>();
    let error = toolbox
        .try_serve_older::<CreateRefundDraftV1, CreateRefundDraftV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::SameMajor {
            served: V1,
            offered: V1,
        })
    );
    assert_eq!(
        error.to_string(),
        "`create_refund_draft` is served at 1.3.0 already, and 1.3.0 has the same major version: one major names one contract, so a pin to major 1 would be ambiguous; serve one of them, or give the other its own major"
    );
    assert_eq!(toolbox.served_contracts().count(), 2);
}

/// Version 3 of `create_refund_draft`, to be served (wrongly) as older.
#[derive(Debug, Tool)]
#[tool(
    name = "create_refund_draft",
    version = "3.0.0",
    effect = "write",
    idempotent
)]
pub struct CreateRefundDraftV3 {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    pub order_ref: String,
}

impl From<CreateRefundDraftV3> for CreateRefundDraftV2 {
    fn from(v3: CreateRefundDraftV3) -> Self {
        CreateRefundDraftV2 {
            order_ref: v3.order_ref,
            amount: tool_contract::Money::new(1, tool_contract::Currency::EUR),
            refund_to: RefundTo::OriginalPayment,
            request_id: String::new(),
            customer: CustomerId(String::new()),
        }
    }
}

impl From<RefundDraftV2> for String {
    fn from(draft: RefundDraftV2) -> Self {
        draft.draft_id
    }
}

/// Look up one order of the signed-in customer.
#[derive(Debug, Tool)]
#[tool(name = "get_order", version = "1.0.0")]
pub struct GetOrder {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    pub order_ref: String,
}

impl From<GetOrder> for CreateRefundDraftV2 {
    fn from(order: GetOrder) -> Self {
        CreateRefundDraftV3 {
            order_ref: order.order_ref,
        }
        .into()
    }
}

#[test]
fn an_older_version_is_older_and_of_the_same_tool() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: CreateRefundDraftV2, _: CallContext| async move {
        Ok::<_, ToolError>(RefundDraftV2 {
            draft_id: "RD-1".into(),
            amount: call.amount,
            refund_to: call.refund_to,
        })
    });
    let error = toolbox
        .try_serve_older::<CreateRefundDraftV3, CreateRefundDraftV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::NotOlder {
            handler: V2,
            offered: Version::new(3, 0, 0),
        })
    );
    assert_eq!(
        error.to_string(),
        "`create_refund_draft` 3.0.0 is served as an older version of 2.0.0, but its major is not below 2; register the handler of the newest version and serve the older ones"
    );
    let error = toolbox
        .try_serve_older::<GetOrder, CreateRefundDraftV2>()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "`get_order` is served as an older version of `create_refund_draft`; the versions of one tool share its name"
    );
    assert_eq!(error.tool(), "get_order");
    assert_eq!(toolbox.served_contracts().count(), 1);
}

#[test]
#[should_panic(
    expected = "`create_refund_draft` is served as an older version of 2.0.0, whose handler is not registered"
)]
fn serve_older_panics_with_the_contract_error() {
    Toolbox::new().serve_older::<CreateRefundDraftV1, CreateRefundDraftV2>();
}

fn pinned_to(tool: &str, major: u64) -> Session {
    Session::new().with(VersionPins::new().with(tool, major))
}

#[tokio::test]
async fn a_retired_version_stays_retired_when_the_clock_goes_back() {
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    let (toolbox, drafted) = toolbox(&clock);
    clock.set(SUNSET_SECS);
    let message = "Error [VERSION_RETIRED]: Version 1.3.0 of the tool \"create_refund_draft\" was retired on 2026-09-30; nothing was run. Use version 2.0.0 of it.";
    let refused = toolbox.call(&v1_call("c1", 1250), &pinned(1)).await;
    assert_eq!(model_text(&refused), message);
    // The clock is set back (an NTP step, a test, a replay): the version
    // the model was told is retired does not come back.
    clock.set(SUNSET_SECS - 3600);
    let again = toolbox.call(&v1_call("c2", 1250), &pinned(1)).await;
    assert_eq!(model_text(&again), message);
    assert_eq!(again.audit.started_at, "2026-09-29T23:00:00.000Z");
    assert_eq!(
        toolbox.contracts_for(&pinned(1)).unwrap_err().code(),
        "VERSION_RETIRED"
    );
    assert!(drafted.lock().unwrap().is_empty(), "nothing ran at 1.3.0");
    // Version 2 is served as before.
    let v2 = toolbox
        .call(&v2_call("c3", "store_credit"), &session())
        .await;
    assert_eq!(v2.output.kind(), OutputKind::Success);
}

/// Where a refund draft's money goes, read back: version 1, the store's
/// own data only.
///
/// Returns the draft's status.
#[derive(Debug, Tool)]
#[tool(name = "get_refund_status", version = "1.0.0")]
pub struct RefundStatusV1 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

/// Where a refund draft's money goes, read back from the payment
/// provider: version 2.
///
/// Returns the draft's status.
#[derive(Debug, Tool)]
#[tool(name = "get_refund_status", version = "2.0.0", open_world)]
pub struct RefundStatusV2 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

impl From<RefundStatusV1> for RefundStatusV2 {
    fn from(v1: RefundStatusV1) -> Self {
        RefundStatusV2 {
            draft_id: v1.draft_id,
        }
    }
}

/// Submit a refund draft so a person can pay it out: version 1, before
/// submitting needed the customer's approval.
#[derive(Debug, Tool)]
#[tool(
    name = "submit_refund",
    version = "1.0.0",
    effect = "write",
    idempotent
)]
pub struct SubmitRefundUnapprovedV1 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

impl From<SubmitRefundUnapprovedV1> for SubmitRefundV2 {
    fn from(v1: SubmitRefundUnapprovedV1) -> Self {
        SubmitRefundV2 {
            draft_id: v1.draft_id,
            message: None,
        }
    }
}

/// Update the note of a refund: version 2 replaces it, its history lost.
#[derive(Debug, Tool)]
#[tool(
    name = "update_refund_note",
    version = "2.0.0",
    effect = "destructive",
    idempotent,
    approval = "required"
)]
pub struct UpdateRefundNoteV2 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

/// Update the note of a refund: version 1 kept its history.
#[derive(Debug, Tool)]
#[tool(
    name = "update_refund_note",
    version = "1.0.0",
    effect = "write",
    idempotent,
    approval = "required"
)]
pub struct UpdateRefundNoteV1 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

impl From<UpdateRefundNoteV1> for UpdateRefundNoteV2 {
    fn from(v1: UpdateRefundNoteV1) -> Self {
        UpdateRefundNoteV2 {
            draft_id: v1.draft_id,
        }
    }
}

#[tokio::test]
async fn an_older_version_may_not_run_its_handler_without_the_handlers_approval() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: SubmitRefundV2, _: CallContext| async move {
        Ok::<_, ToolError>(format!("{} submitted", call.draft_id))
    });
    // Version 1 asked for no approval; its calls would run version 2's
    // handler, which needs one, without it.
    let error = toolbox
        .try_serve_older::<SubmitRefundUnapprovedV1, SubmitRefundV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::WeakerGuard {
            handler: Version::new(2, 0, 0),
            offered: Version::new(1, 0, 0),
            guard: VersionGuard::Approval,
        })
    );
    assert_eq!(
        error.to_string(),
        "`submit_refund` 1.0.0 would be served through the handler of 2.0.0, which requires approval, while 1.0.0 does not: its calls would run that handler unapproved. A call is guarded as the contract of its own version says, so an older version may not promise less than its handler's (effect, approval, open world); serve it only once it requires approval too, or not beside 2.0.0"
    );
    assert_eq!(toolbox.served_contracts().count(), 1);
    // Nothing of version 1 is served: a pin to it is not served.
    let call = ToolCall::new("c1", "submit_refund", r#"{"draft_id":"RD-1"}"#);
    let refused = toolbox
        .call(&call, &pinned_to("submit_refund", 1).with(Approvals::new()))
        .await;
    assert_eq!(
        model_text(&refused),
        "Error [VERSION_NOT_SERVED]: The tool \"submit_refund\" is not served at major version 1; it is served at 2.0.0."
    );
}

#[test]
fn an_older_version_may_not_declare_a_smaller_effect_or_a_closed_world() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: UpdateRefundNoteV2, _: CallContext| async move {
        Ok::<_, ToolError>(format!("{} deleted", call.draft_id))
    });
    let error = toolbox
        .try_serve_older::<UpdateRefundNoteV1, UpdateRefundNoteV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::WeakerGuard {
            handler: Version::new(2, 0, 0),
            offered: Version::new(1, 0, 0),
            guard: VersionGuard::Effect {
                handler: Effect::Destructive,
                offered: Effect::Write,
            },
        })
    );
    assert_eq!(
        error.to_string(),
        "`update_refund_note` 1.0.0 would be served through the handler of 2.0.0, whose effect is destructive, while 1.0.0 says write: its calls would run that handler with the guards of a write (a destructive call runs alone in its turn, a write's audit is announced before it runs). A call is guarded as the contract of its own version says, so an older version may not promise less than its handler's (effect, approval, open world); serve it only once its effect is destructive too, or not beside 2.0.0"
    );

    toolbox.register(|call: RefundStatusV2, _: CallContext| async move {
        Ok::<_, ToolError>(format!("{} is paid out", call.draft_id))
    });
    let error = toolbox
        .try_serve_older::<RefundStatusV1, RefundStatusV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::WeakerGuard {
            handler: Version::new(2, 0, 0),
            offered: Version::new(1, 0, 0),
            guard: VersionGuard::OpenWorld,
        })
    );
    assert_eq!(
        error.to_string(),
        "`get_refund_status` 1.0.0 would be served through the handler of 2.0.0, which is open-world, while 1.0.0 is not: its calls would have what that handler returns marked as the application's own content, and its destinations unchecked. A call is guarded as the contract of its own version says, so an older version may not promise less than its handler's (effect, approval, open world); serve it only once it is open-world too, or not beside 2.0.0"
    );
    assert_eq!(toolbox.served_contracts().count(), 2);
}

/// Look up the opening hours of a store by its code.
#[derive(Debug, Tool)]
#[tool(
    name = "get_store_hours",
    version = "1.2.0",
    deprecated(sunset = "2026-09-30", note = "Use version 3, which takes the day.")
)]
pub struct StoreHoursV1 {
    /// Store code as printed on the receipt, e.g. "BER-1".
    pub store: String,
}

/// Look up the opening hours of a store on a day of the week.
#[derive(Debug, Tool)]
#[tool(name = "get_store_hours", version = "2.1.0", output = HoursV2)]
pub struct StoreHoursV2 {
    /// Store code as printed on the receipt, e.g. "BER-1".
    pub store: String,
    /// The day of the week, e.g. "monday".
    pub weekday: String,
}

/// Look up the opening hours of a store on one day, or today.
#[derive(Debug, Tool)]
#[tool(name = "get_store_hours", version = "3.0.0")]
pub struct StoreHoursV3 {
    /// Store code as printed on the receipt, e.g. "BER-1".
    pub store: String,
    /// The day, e.g. "monday"; null for today.
    pub day: Option<String>,
}

/// Opening hours as version 2 returns them.
#[derive(Debug, tool_contract::serde::Serialize, tool_contract::schemars::JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct HoursV2 {
    /// The opening hours, e.g. "BER-1 opens 9-18 on monday."
    pub hours: String,
}

/// Version 3's text as version 2's output; a store that never opens has
/// no hours to give (the conversion panics).
impl From<String> for HoursV2 {
    fn from(hours: String) -> Self {
        assert!(!hours.contains("never"), "no hours to give: {hours}");
        HoursV2 { hours }
    }
}

/// A version-1 call as version 3 reads it; the store "PANIC" makes the
/// conversion panic.
impl From<StoreHoursV1> for StoreHoursV3 {
    fn from(v1: StoreHoursV1) -> Self {
        assert!(
            v1.store != "PANIC",
            "the store code {} has no upgrade",
            v1.store
        );
        StoreHoursV3 {
            store: v1.store,
            day: None,
        }
    }
}

impl From<StoreHoursV2> for StoreHoursV3 {
    fn from(v2: StoreHoursV2) -> Self {
        StoreHoursV3 {
            store: v2.store,
            day: Some(v2.weekday),
        }
    }
}

/// A toolbox serving `get_store_hours` at 3.0.0 (a blocking handler),
/// 2.1.0 and 1.2.0, the older two registered in the order given.
fn three_versions(clock: &Clock, v2_first: bool) -> Toolbox {
    let clock = clock.clone();
    let mut toolbox = Toolbox::new().with_clock(move || clock.now());
    toolbox.register_blocking(|call: StoreHoursV3, _: CallContext| {
        let day = call.day.as_deref().unwrap_or("today");
        Ok::<_, ToolError>(match call.store.as_str() {
            "GONE-1" => format!("{} is never open.", call.store),
            store => format!("{store} opens 9-18 {day}."),
        })
    });
    if v2_first {
        toolbox
            .serve_older::<StoreHoursV2, StoreHoursV3>()
            .serve_older::<StoreHoursV1, StoreHoursV3>();
    } else {
        toolbox
            .serve_older::<StoreHoursV1, StoreHoursV3>()
            .serve_older::<StoreHoursV2, StoreHoursV3>();
    }
    toolbox
}

#[tokio::test]
async fn three_versions_each_reach_the_handler_in_any_order_of_registration() {
    const HOURS: &str = "get_store_hours";
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    for v2_first in [true, false] {
        let toolbox = three_versions(&clock, v2_first);
        assert_eq!(
            toolbox
                .served_contracts()
                .map(|c| c.version().to_string())
                .collect::<Vec<_>>(),
            ["3.0.0", "2.1.0", "1.2.0"]
        );
        let v1 = toolbox
            .call(
                &ToolCall::new("c1", HOURS, r#"{"store":"BER-1"}"#),
                &pinned_to(HOURS, 1),
            )
            .await;
        let v2 = toolbox
            .call(
                &ToolCall::new("c2", HOURS, r#"{"store":"BER-1","weekday":"monday"}"#),
                &pinned_to(HOURS, 2),
            )
            .await;
        let v3 = toolbox
            .call(
                &ToolCall::new("c3", HOURS, r#"{"store":"BER-1","day":null}"#),
                &Session::new(),
            )
            .await;
        assert_eq!(
            [&v1, &v2, &v3].map(|r| (r.version().unwrap().to_string(), model_text(r))),
            [
                ("1.2.0".to_owned(), "BER-1 opens 9-18 today.".to_owned()),
                (
                    "2.1.0".to_owned(),
                    r#"{"hours":"BER-1 opens 9-18 monday."}"#.to_owned()
                ),
                ("3.0.0".to_owned(), "BER-1 opens 9-18 today.".to_owned()),
            ]
        );
        let message = "Error [VERSION_NOT_SERVED]: The tool \"get_store_hours\" is not served at major version 4; it is served at 3.0.0, 2.1.0 and 1.2.0.";
        let four = toolbox
            .call(
                &ToolCall::new("c4", HOURS, r#"{"store":"BER-1"}"#),
                &pinned_to(HOURS, 4),
            )
            .await;
        assert_eq!(model_text(&four), message);
        assert_eq!(
            toolbox
                .call_counts()
                .iter()
                .map(|count| (count.version.to_string(), count.calls))
                .collect::<Vec<_>>(),
            [
                ("3.0.0".to_owned(), 1),
                ("2.1.0".to_owned(), 1),
                ("1.2.0".to_owned(), 1)
            ]
        );
    }
    // After version 1's sunset, it names the newest version to use.
    let toolbox = three_versions(&clock, true);
    clock.set(SUNSET_SECS);
    let retired = toolbox
        .call(
            &ToolCall::new("c5", HOURS, r#"{"store":"BER-1"}"#),
            &pinned_to(HOURS, 1),
        )
        .await;
    assert_eq!(
        model_text(&retired),
        "Error [VERSION_RETIRED]: Version 1.2.0 of the tool \"get_store_hours\" was retired on 2026-09-30; nothing was run. Use version 3.0.0 of it."
    );
    assert_eq!(
        toolbox.contracts_for(&pinned_to(HOURS, 2)).unwrap()[0].version(),
        Version::new(2, 1, 0)
    );
}

#[tokio::test]
async fn an_upgrade_or_a_downgrade_that_panics_is_contained_like_a_handler_panic() {
    const HOURS: &str = "get_store_hours";
    let toolbox = three_versions(&Clock::at(BEFORE_SUNSET_SECS), true);
    let calls = [
        ToolCall::new("c1", HOURS, r#"{"store":"PANIC"}"#),
        ToolCall::new("c2", HOURS, r#"{"store":"BER-1"}"#),
    ];
    let results = toolbox
        .call_turn(&calls, &pinned_to(HOURS, 1), &AbortHandle::new())
        .await;
    // Fatal: the model reads nothing, the run stops.
    assert_eq!(results[0].model_text(), None);
    assert_eq!(
        results[0].output.error().map(|e| e.code.as_ref()),
        Some("INTERNAL")
    );
    assert_eq!(results[0].output.kind(), OutputKind::Fatal);
    assert_eq!(results[0].audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(
        results[0].audit.internal_detail.as_deref(),
        Some("the arguments' parser panicked: the store code PANIC has no upgrade")
    );
    assert_eq!(results[0].version(), Some(Version::new(1, 2, 0)));
    // The other call of the turn had started beside it and ends as usual.
    assert_eq!(model_text(&results[1]), "BER-1 opens 9-18 today.");

    // The handler ran; the downgrade of its output panicked.
    let downgraded = toolbox
        .call(
            &ToolCall::new("c3", HOURS, r#"{"store":"GONE-1","weekday":"monday"}"#),
            &pinned_to(HOURS, 2),
        )
        .await;
    assert_eq!(downgraded.output.kind(), OutputKind::Fatal);
    assert_eq!(downgraded.audit.outcome, ExecutionOutcome::Failed);
    assert_eq!(
        downgraded.audit.internal_detail.as_deref(),
        Some("the handler panicked: no hours to give: GONE-1 is never open.")
    );
    assert_eq!(downgraded.version(), Some(Version::new(2, 1, 0)));
}

#[test]
fn an_older_version_served_through_a_version_that_is_not_the_handler_is_told_which_is() {
    let mut toolbox = Toolbox::new();
    toolbox
        .register_blocking(|call: StoreHoursV3, _: CallContext| {
            Ok::<_, ToolError>(format!("{} opens 9-18.", call.store))
        })
        .serve_older::<StoreHoursV2, StoreHoursV3>();
    // Version 2 is served, but through version 3's handler: version 1
    // is served through that handler, not through version 2.
    let error = toolbox
        .try_serve_older::<StoreHoursV1, StoreHoursV2>()
        .unwrap_err();
    assert_eq!(
        error.version_conflict(),
        Some(&VersionConflict::OtherHandler {
            newer: Version::new(2, 1, 0),
            handler: Version::new(3, 0, 0),
        })
    );
    assert_eq!(
        error.to_string(),
        "`get_store_hours` is served as an older version of 2.1.0, but the handler of `get_store_hours` is 3.0.0's (one tool has one handler, its newest version's); serve it through that one: `Toolbox::serve_older::<Old, New>()` with `New` the type of 3.0.0 and `TryFrom<Old> for New`"
    );
    assert_eq!(toolbox.served_contracts().count(), 2);
}

impl From<StoreHoursV1> for StoreHoursV2 {
    fn from(v1: StoreHoursV1) -> Self {
        StoreHoursV2 {
            store: v1.store,
            weekday: "monday".into(),
        }
    }
}

impl From<HoursV2> for String {
    fn from(hours: HoursV2) -> Self {
        hours.hours
    }
}

#[tokio::test]
async fn the_other_versions_shape_is_an_argument_error_at_each_version() {
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    // A model that calls the version-2 shape in a version-1 conversation.
    let v2_in_v1 = toolbox
        .call(&v2_call("c1", "store_credit"), &pinned(1))
        .await;
    assert_eq!(
        model_text(&v2_in_v1),
        "Error [INVALID_ARGUMENTS]: $.refund_to: unknown field \"refund_to\"; expected one of \"order_ref\", \"amount\", \"request_id\""
    );
    // And the version-1 shape in a version-2 conversation.
    let v1_in_v2 = toolbox.call(&v1_call("c2", 1250), &session()).await;
    assert_eq!(
        model_text(&v1_in_v2),
        "Error [INVALID_ARGUMENTS]: $.refund_to: missing required field \"refund_to\""
    );
    assert_eq!(
        [&v2_in_v1, &v1_in_v2].map(|r| (r.version(), r.audit.outcome)),
        [
            (Some(V1), ExecutionOutcome::NotStarted),
            (Some(V2), ExecutionOutcome::NotStarted)
        ]
    );
    assert!(drafted.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_tool_served_at_v2_only_answers_a_v1_pin_with_the_version_served() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: CreateRefundDraftV2, _: CallContext| async move {
        Ok::<_, ToolError>(RefundDraftV2 {
            draft_id: "RD-1".into(),
            amount: call.amount,
            refund_to: call.refund_to,
        })
    });
    let message =
        "The tool \"create_refund_draft\" is not served at major version 1; it is served at 2.0.0.";
    assert_eq!(
        toolbox.contracts_for(&pinned(1)).unwrap_err().message(),
        message
    );
    let refused = toolbox.call(&v1_call("c1", 1250), &pinned(1)).await;
    assert_eq!(
        model_text(&refused),
        format!("Error [VERSION_NOT_SERVED]: {message}")
    );
    assert_eq!(
        toolbox.call_counts(),
        [CallCount {
            tool: NAME,
            version: V2,
            calls: 0
        }]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_of_both_versions_with_one_key_run_once_per_version() {
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let toolbox = std::sync::Arc::new(toolbox);
    let mut tasks = Vec::new();
    for n in 0..16 {
        let toolbox = std::sync::Arc::clone(&toolbox);
        tasks.push(tokio::spawn(async move {
            let id = format!("c{n}");
            if n % 2 == 0 {
                toolbox.call(&v1_call(&id, 1250), &pinned(1)).await
            } else {
                toolbox
                    .call(&v2_call(&id, "store_credit"), &session())
                    .await
            }
        }));
    }
    let mut runs = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for task in tasks {
        let result = task.await.unwrap();
        let version = result.version().unwrap().to_string();
        let entry = runs.entry(version).or_default();
        match result.audit.delivery {
            tool_contract::runtime::Delivery::Fresh => entry.0 += 1,
            _ => entry.1 += 1,
        }
    }
    // One key, two majors: one run at each, the other calls replayed or
    // told the first is still running.
    assert_eq!(
        runs.iter()
            .map(|(v, (fresh, _))| (v.as_str(), *fresh))
            .collect::<Vec<_>>(),
        [("1.3.0", 1), ("2.0.0", 1)]
    );
    let mut refund_to: Vec<RefundTo> = drafted
        .lock()
        .unwrap()
        .iter()
        .map(|d| d.refund_to)
        .collect();
    refund_to.sort_by_key(|r| format!("{r:?}"));
    assert_eq!(
        refund_to,
        [RefundTo::OriginalPayment, RefundTo::StoreCredit]
    );
    assert_eq!(
        toolbox
            .call_counts()
            .iter()
            .map(|c| c.calls)
            .collect::<Vec<_>>(),
        [8, 8]
    );
}

/// Look up what an order of the signed-in customer cost.
#[derive(Debug, Tool)]
#[tool(
    name = "get_order_total",
    version = "1.0.0",
    errors(ORDER_NOT_FOUND(
        meaning = "No order with this reference belongs to the customer; ask them to check the reference.",
        category = "not_found",
        recovery = "ask_user"
    ))
)]
pub struct OrderTotalV1 {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    pub order_ref: String,
}

/// Look up what an order cost, archived orders told apart.
#[derive(Debug, Tool)]
#[tool(
    name = "get_order_total",
    version = "2.0.0",
    errors(
        ORDER_NOT_FOUND(
            meaning = "No order has this reference; check it against the app.",
            category = "not_found",
            recovery = "fix_arguments"
        ),
        ORDER_ARCHIVED = "The order is archived; its total is on the invoice."
    )
)]
pub struct OrderTotalV2 {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    pub order_ref: String,
}

impl From<OrderTotalV1> for OrderTotalV2 {
    fn from(v1: OrderTotalV1) -> Self {
        OrderTotalV2 {
            order_ref: v1.order_ref,
        }
    }
}

#[tokio::test]
async fn an_error_of_the_handler_in_an_older_call_is_judged_by_the_older_contract() {
    use tool_contract::contract::ErrorCategory;
    let mut toolbox = Toolbox::new();
    toolbox
        .register(|call: OrderTotalV2, _: CallContext| async move {
            match call.order_ref.as_str() {
                "A-404" => Err(ToolError::new(
                    "ORDER_NOT_FOUND",
                    ErrorCategory::NotFound,
                    "No order A-404.",
                )),
                "A-1" => Err(ToolError::new(
                    "ORDER_ARCHIVED",
                    ErrorCategory::Conflict,
                    "Order A-1 is archived.",
                )),
                _ => Ok("12.50 EUR".to_owned()),
            }
        })
        .serve_older::<OrderTotalV1, OrderTotalV2>();
    let v1 = pinned_to("get_order_total", 1);
    let call = |order_ref: &str| {
        ToolCall::new(
            "c1",
            "get_order_total",
            json!({ "order_ref": order_ref }).to_string(),
        )
    };
    let summary = |result: &tool_contract::CallResult| {
        let error = result.output.error().unwrap();
        (
            error.code.to_string(),
            error.recovery.as_str().to_owned(),
            model_text(result),
            result.audit.undeclared_error_code.clone(),
        )
    };
    // A code both versions declare: the older version's recovery.
    assert_eq!(
        summary(&toolbox.call(&call("A-404"), &v1).await),
        (
            "ORDER_NOT_FOUND".to_owned(),
            "ask_user".to_owned(),
            "Error [ORDER_NOT_FOUND]: No order A-404.".to_owned(),
            None
        )
    );
    assert_eq!(
        summary(&toolbox.call(&call("A-404"), &Session::new()).await).1,
        "fix_arguments"
    );
    // A code only the handler's version declares: the older contract does
    // not promise it, so its call answers INTERNAL, the code in the audit.
    let archived = toolbox.call(&call("A-1"), &v1).await;
    assert_eq!(
        summary(&archived),
        (
            "INTERNAL".to_owned(),
            "none".to_owned(),
            "Error [INTERNAL]: The tool failed unexpectedly. The failure was recorded; do not retry this call.".to_owned(),
            Some("ORDER_ARCHIVED".to_owned())
        )
    );
    assert_eq!(
        summary(&toolbox.call(&call("A-1"), &Session::new()).await).2,
        "Error [ORDER_ARCHIVED]: Order A-1 is archived."
    );
}

/// Look up a refund draft of the signed-in customer: version 1.
#[derive(Debug, Tool)]
#[tool(name = "get_refund_draft", version = "1.0.0")]
pub struct GetRefundDraftV1 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
    /// Signed-in customer; taken from the trusted session, never from the model.
    #[tool(inject)]
    pub customer: CustomerId,
}

/// Look up a refund draft by its id: version 2, for the staff's console.
#[derive(Debug, Tool)]
#[tool(name = "get_refund_draft", version = "2.0.0")]
pub struct GetRefundDraftV2 {
    /// The draft's id, e.g. "RD-1".
    pub draft_id: String,
}

impl From<GetRefundDraftV1> for GetRefundDraftV2 {
    fn from(v1: GetRefundDraftV1) -> Self {
        GetRefundDraftV2 {
            draft_id: v1.draft_id,
        }
    }
}

#[tokio::test]
async fn a_value_injected_at_v1_only_is_needed_by_sessions_at_v1_only() {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(|call: GetRefundDraftV2, _: CallContext| async move {
            Ok::<_, ToolError>(format!("{} is a draft of 12.50 EUR.", call.draft_id))
        })
        .serve_older::<GetRefundDraftV1, GetRefundDraftV2>();
    let call = ToolCall::new("c1", "get_refund_draft", r#"{"draft_id":"RD-1"}"#);
    let v1 = pinned_to("get_refund_draft", 1);
    // Version 1 without its injected value: found at start-up, fatal at a call.
    assert_eq!(
        toolbox.check(&v1).unwrap_err().problems(),
        [
            "the tool `get_refund_draft` takes the injected field \"customer\", but the session holds no `CustomerId`; the application must add it with `Session::with`"
        ]
    );
    let fatal = toolbox.call(&call, &v1).await;
    assert_eq!(fatal.output.kind(), OutputKind::Fatal);
    assert_eq!(
        fatal.audit.internal_detail.as_deref(),
        Some(
            "MISSING_SESSION_VALUE: $.customer: the session holds no `runtime::versions_support::CustomerId` for the injected field \"customer\"; the application must add it with `Session::with`"
        )
    );
    // Version 2 takes nothing from the session.
    toolbox.check(&Session::new()).unwrap();
    let v2 = toolbox.call(&call, &Session::new()).await;
    assert_eq!(model_text(&v2), "RD-1 is a draft of 12.50 EUR.");
    // Version 1 with it.
    let v1 = v1.with(CustomerId("cus_42".into()));
    toolbox.check(&v1).unwrap();
    let ran = toolbox.call(&call, &v1).await;
    assert_eq!(model_text(&ran), "RD-1 is a draft of 12.50 EUR.");
    assert_eq!(ran.version(), Some(Version::new(1, 0, 0)));
}
