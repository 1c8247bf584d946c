//! Two versions of one tool through the OpenAI adapter: a conversation
//! pinned to `create_refund_draft` 1.3.0 and one at 2.0.0, replayed from
//! their recordings through the Responses agent loop and one `Toolbox`,
//! every request checked as exact JSON, so each conversation sees only its
//! version (the recorded `tools.json` of each holds one definition, the
//! deprecated one ending with its notice); a version-1 call answered
//! through Chat Completions in a pinned session, and through the Anthropic
//! and Gemini adapters too (their definitions built from the session's
//! contracts, one version each); a pin that cannot be offered refused
//! before the first request.

use serde_json::{Value, json};
use tool_contract::Tool;
use tool_contract::contract::Version;
use tool_contract::openai::Api;
use tool_contract::openai::agent::{
    AgentError, AgentSettings, RESPONSES_PATH, ResponsesAgent, Step,
};
use tool_contract::runtime::{CallCount, VersionPins};
use tool_contract::transport::Replay;

use crate::versions_support::{
    BEFORE_SUNSET_SECS, Clock, CreateRefundDraftV1, CreateRefundDraftV2, NAME, NOTICE, SUNSET_SECS,
    session, toolbox,
};

const V1_ANSWER: &str = "I drafted a refund of 12.50 EUR for order A-10293 (draft RD-1); it goes back to your original payment once a colleague has reviewed it.";
const V2_ANSWER: &str = "I drafted a refund of 12.50 EUR for order A-10293 as store credit (draft RD-2); a colleague reviews it before it is paid.";

fn recorded(version: &str) -> Replay {
    let dir = format!(
        "{}/tests/openai/recorded/versions_{version}",
        env!("CARGO_MANIFEST_DIR")
    );
    Replay::from_dir(dir, RESPONSES_PATH).expect("the recording loads")
}

/// `(tool, version, model text)` of each call answered in a turn.
fn answered(steps: &[Step]) -> Vec<(String, Option<String>, String)> {
    steps
        .iter()
        .flat_map(|step| &step.round.results)
        .map(|(call, result)| {
            (
                call.name.clone(),
                result.version().map(|v| v.to_string()),
                result.model_text().unwrap_or_default(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_v1_and_a_v2_conversation_each_see_only_their_version() {
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let mut v1_replay = recorded("v1");
    let mut v2_replay = recorded("v2");
    let settings = || AgentSettings::new("gpt-5-mini");
    let mut v1 = ResponsesAgent::pinned(
        &toolbox,
        &mut v1_replay,
        settings(),
        &VersionPins::new().with(NAME, 1),
    )
    .expect("version 1 is served");
    let mut v2 = ResponsesAgent::new(&toolbox, &mut v2_replay, settings()).expect("strict tools");
    assert_eq!(v1.versions(), &VersionPins::new().with(NAME, 1));
    assert_eq!(v2.versions(), &VersionPins::new().with(NAME, 2));

    // The definitions each conversation sends: one version each, the
    // deprecated one with its notice at the end of the description.
    let descriptions = |tools: &[Value]| -> Vec<String> {
        tools
            .iter()
            .map(|tool| tool["description"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        descriptions(v1.tools()),
        [CreateRefundDraftV1::contract().description()]
    );
    assert!(
        v1.tools()[0]["description"]
            .as_str()
            .unwrap()
            .ends_with(&format!("\n\n{NOTICE}"))
    );
    assert_eq!(
        descriptions(v2.tools()),
        [CreateRefundDraftV2::contract().description()]
    );
    assert_eq!(
        v1.tools()[0]["parameters"]["required"],
        json!(["order_ref", "amount", "request_id"])
    );
    assert_eq!(
        v2.tools()[0]["parameters"]["required"],
        json!(["order_ref", "amount", "refund_to", "request_id"])
    );

    // The session the application passes pins nothing: the conversation
    // keeps the version it started with.
    let first = v1
        .send("Please refund 12.50 EUR of order A-10293.", &session())
        .await
        .expect("the recorded v1 conversation");
    let second = v2
        .send(
            "Please refund 12.50 EUR of order A-10293 as store credit.",
            &session(),
        )
        .await
        .expect("the recorded v2 conversation");
    assert_eq!(first.answer(), Some(V1_ANSWER));
    assert_eq!(second.answer(), Some(V2_ANSWER));
    assert_eq!(
        answered(&first.steps),
        [(
            NAME.to_owned(),
            Some("1.3.0".to_owned()),
            r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#.to_owned()
        )]
    );
    assert_eq!(
        answered(&second.steps),
        [(
            NAME.to_owned(),
            Some("2.0.0".to_owned()),
            r#"{"draft_id":"RD-2","amount":{"amount_minor":1250,"currency":"EUR"},"refund_to":"store_credit"}"#.to_owned()
        )]
    );
    let audit: Vec<Option<Version>> = first
        .steps
        .iter()
        .chain(&second.steps)
        .flat_map(|step| step.round.audit_records())
        .map(|record| record.contract_version)
        .collect();
    assert_eq!(
        audit,
        [Some(Version::new(1, 3, 0)), Some(Version::new(2, 0, 0))]
    );
    // One handler ran both.
    let refund_to: Vec<_> = drafted
        .lock()
        .unwrap()
        .iter()
        .map(|draft| draft.refund_to)
        .collect();
    assert_eq!(
        refund_to,
        [
            crate::versions_support::RefundTo::OriginalPayment,
            crate::versions_support::RefundTo::StoreCredit
        ]
    );
    drop((v1, v2));
    assert!(v1_replay.is_done() && v2_replay.is_done());
    assert_eq!(
        toolbox.call_counts(),
        [
            CallCount {
                tool: NAME,
                version: Version::new(2, 0, 0),
                calls: 1,
            },
            CallCount {
                tool: NAME,
                version: Version::new(1, 3, 0),
                calls: 1,
            },
        ]
    );
}

#[test]
fn the_deprecation_notice_is_in_both_openai_wire_forms() {
    let description = "Create a refund draft for an order of the signed-in customer; the refund goes back to the original payment.\n\nIt does not submit the refund (a person reviews drafts). Returns the draft id and the amount.\n\nDeprecated: this version of the tool stops working on 2026-09-30. Use version 2, which asks where the refund goes.";
    let chat = tool_contract::openai::chat_completions_tool::<CreateRefundDraftV1>().unwrap();
    assert_eq!(chat["function"]["description"], description);
    let responses = tool_contract::openai::responses_tool::<CreateRefundDraftV1>().unwrap();
    assert_eq!(responses["description"], description);
    let v2 = tool_contract::openai::responses_tool::<CreateRefundDraftV2>().unwrap();
    assert_eq!(
        v2["description"],
        "Create a refund draft for an order of the signed-in customer, refunded where the customer chose.\n\nIt does not submit the refund (a person reviews drafts). Returns the draft id, the amount and where the refund goes."
    );
}

#[tokio::test]
async fn a_chat_completions_call_runs_at_the_sessions_version() {
    let (toolbox, _) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let arguments = json!({
        "order_ref": "A-10293",
        "amount": {"amount_minor": 1250, "currency": "EUR"},
        "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45",
    });
    let response = json!({
        "model": "gpt-4.1-2025-04-14",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null,
            "tool_calls": [{"id": "call_1", "type": "function", "function":
                {"name": NAME, "arguments": arguments.to_string()}}]}}]
    });
    let v1 = session().with(VersionPins::new().with(NAME, 1));
    let round = toolbox
        .answer(&Api::ChatCompletions, &response, &v1)
        .await
        .unwrap();
    assert_eq!(
        round.answer.items,
        [
            json!({"role": "tool", "tool_call_id": "call_1", "content": r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#})
        ]
    );
    // Unpinned, the same call is a version-2 call, which needs `refund_to`.
    let round = toolbox
        .answer(&Api::ChatCompletions, &response, &session())
        .await
        .unwrap();
    assert_eq!(
        round.answer.items,
        [
            json!({"role": "tool", "tool_call_id": "call_1", "content": "Error [INVALID_ARGUMENTS]: $.refund_to: missing required field \"refund_to\""})
        ]
    );
}

#[test]
fn a_conversation_pinned_to_a_version_that_cannot_be_offered_never_starts() {
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    let (toolbox, _) = toolbox(&clock);
    let settings = || AgentSettings::new("gpt-5-mini");
    let refusal = |pins: &VersionPins| match ResponsesAgent::pinned(
        &toolbox,
        Replay::new(Vec::new()),
        settings(),
        pins,
    ) {
        Ok(_) => panic!("the conversation started"),
        Err(error) => error,
    };
    let not_served = refusal(&VersionPins::new().with(NAME, 3));
    assert_eq!(
        not_served.to_string(),
        "the pinned versions cannot be offered: VERSION_NOT_SERVED: The tool \"create_refund_draft\" is not served at major version 3; it is served at 2.0.0 and 1.3.0."
    );
    clock.set(SUNSET_SECS);
    let retired = refusal(&VersionPins::new().with(NAME, 1));
    assert!(
        matches!(retired, AgentError::Versions(ref error) if error.code() == "VERSION_RETIRED")
    );
    assert_eq!(
        retired.to_string(),
        "the pinned versions cannot be offered: VERSION_RETIRED: Version 1.3.0 of the tool \"create_refund_draft\" was retired on 2026-09-30; nothing was run. Use version 2.0.0 of it."
    );
    // Unpinned conversations start at version 2 as before.
    let v2 = ResponsesAgent::new(&toolbox, Replay::new(Vec::new()), settings()).unwrap();
    assert_eq!(v2.versions(), &VersionPins::new().with(NAME, 2));
}

/// A version-1 call's arguments, as every provider carries them.
fn v1_input() -> Value {
    json!({
        "order_ref": "A-10293",
        "amount": {"amount_minor": 1250, "currency": "EUR"},
        "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45",
    })
}

#[tokio::test]
async fn a_v1_call_through_anthropic_runs_at_the_pinned_version() {
    use tool_contract::anthropic::ToolSet;
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let v1 = session().with(VersionPins::new().with(NAME, 1));
    // The tool set is built from the contracts the session is offered.
    let tools = ToolSet::new(&toolbox.contracts_for(&v1).unwrap()).unwrap();
    let definitions = tools.definitions();
    assert_eq!(definitions.len(), 1);
    assert_eq!(
        definitions[0]["description"],
        CreateRefundDraftV1::contract().description()
    );
    assert!(
        definitions[0]["description"]
            .as_str()
            .unwrap()
            .ends_with(&format!("\n\n{NOTICE}"))
    );
    // Both versions in one tool set is one name twice: refused.
    let served: Vec<_> = toolbox.served_contracts().collect();
    assert_eq!(
        ToolSet::new(&served).err().map(|e| e.to_string()),
        Some(
            "two tools are named \"create_refund_draft\"; tool names must be unique in a request"
                .to_owned()
        )
    );
    let response = json!({"model": "claude-sonnet-4-5", "stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "toolu_01", "name": NAME, "input": v1_input()}
    ]});
    let round = toolbox.answer(&tools, &response, &v1).await.unwrap();
    assert_eq!(
        round.answer.as_ref().unwrap()["content"],
        json!([{"type": "tool_result", "tool_use_id": "toolu_01",
            "content": r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#,
            "is_error": false}])
    );
    assert_eq!(
        round
            .audit_records()
            .map(|r| r.contract_version)
            .collect::<Vec<_>>(),
        [Some(Version::new(1, 3, 0))]
    );
    assert_eq!(drafted.lock().unwrap().len(), 1);
}

#[cfg(feature = "gemini")]
#[tokio::test]
async fn a_v1_call_through_gemini_runs_at_the_pinned_version() {
    use tool_contract::gemini::{Dialect, GenerateContent, tools_for_gemini};
    let (toolbox, drafted) = toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let v1 = session().with(VersionPins::new().with(NAME, 1));
    for dialect in [Dialect::ParametersJsonSchema, Dialect::OpenApiParameters] {
        let tools = tools_for_gemini(&toolbox.contracts_for(&v1).unwrap(), dialect).unwrap();
        let declarations = tools[0]["functionDeclarations"].as_array().unwrap();
        assert_eq!(declarations.len(), 1);
        assert_eq!(
            declarations[0]["description"],
            CreateRefundDraftV1::contract().description()
        );
    }
    let response = json!({"modelVersion": "gemini-2.5-flash", "candidates": [{"content": {"role": "model",
        "parts": [{"functionCall": {"id": "fc-1", "name": NAME, "args": v1_input()}}]},
        "finishReason": "STOP"}]});
    let round = toolbox
        .answer(&GenerateContent, &response, &v1)
        .await
        .unwrap();
    assert_eq!(
        round.answer.user_content,
        Some(json!({"role": "user", "parts": [{"functionResponse": {
            "id": "fc-1", "name": NAME,
            "response": {"output": r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#}}}]}))
    );
    assert_eq!(
        round
            .audit_records()
            .map(|r| r.contract_version)
            .collect::<Vec<_>>(),
        [Some(Version::new(1, 3, 0))]
    );
    // Unpinned, the same call is a version-2 call and is refused.
    let round = toolbox
        .answer(&GenerateContent, &response, &session())
        .await
        .unwrap();
    assert_eq!(
        round
            .audit_records()
            .map(|r| (r.contract_version, r.error_code.clone()))
            .collect::<Vec<_>>(),
        [(
            Some(Version::new(2, 0, 0)),
            Some("INVALID_ARGUMENTS".to_owned())
        )]
    );
    assert_eq!(drafted.lock().unwrap().len(), 1);
}
