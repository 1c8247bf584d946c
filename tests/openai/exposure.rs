//! Exposure over the Responses loop, replayed: a turn narrowed with
//! `allowed_tools` carries the same definitions and a tool choice; a call
//! of a tool the turn did not offer is refused `TOOL_NOT_OFFERED` naming
//! the tools it did; a narrowed turn still needs the approval its tool
//! needs.

use crate::shop;

use serde_json::{Value, json};
use tool_contract::approval::Approvals;
use tool_contract::openai::agent::{AgentError, AgentSettings, RESPONSES_PATH, ResponsesAgent};
use tool_contract::prelude::*;
use tool_contract::transport::{Exchange, Replay};
use tool_contract::{Exposure, Narrowing};

const NOT_OFFERED: &str = r#"Error [TOOL_NOT_OFFERED]: The tool "reserve_inventory" is not offered in this turn. Use one of: get_inventory."#;
const APPROVAL_REQUIRED: &str = "Error [APPROVAL_REQUIRED]: This call needs the user's approval \
     before it runs. Ask the user to approve it, then make the same call again with the same \
     arguments.";
const RESERVE: &str = r#"{"sku":"SKU-1042","quantity":2,"hold":60,"request_id":"6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}"#;

fn response(id: &str, output: Value) -> Value {
    json!({"id": id, "object": "response", "status": "completed", "model": "gpt-5-mini-2025-08-07", "output": output})
}

fn reserve_call(call_id: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
        "name": "reserve_inventory", "arguments": RESERVE})
}

fn answer(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
}

fn offered(toolbox: &Toolbox) -> Vec<Value> {
    let contracts: Vec<_> = toolbox.contracts().collect();
    tool_contract::openai::tools_for_responses(&contracts).unwrap()
}

/// `(call_id, tool, model text)` of each call of each step.
fn answered(turn: &tool_contract::openai::agent::Turn) -> Vec<Vec<(String, String, String)>> {
    turn.steps
        .iter()
        .map(|step| {
            let results = step.round.results.iter();
            results
                .map(|(call, result)| {
                    let text = result.model_text().unwrap_or_default();
                    (call.call_id.clone(), call.name.clone(), text)
                })
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn a_call_of_a_tool_the_narrowed_turn_did_not_offer_is_refused_naming_the_offered_ones() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let tools = offered(&toolbox);
    let choice = json!({"type": "allowed_tools", "mode": "auto",
        "tools": [{"type": "function", "name": "get_inventory"}]});
    let mut replay = Replay::new(vec![
        Exchange::new(
            RESPONSES_PATH,
            json!({"model": "m", "input": [{"role": "user", "content": "Hold 2 mugs."}],
                "tools": tools, "tool_choice": choice}),
            response("resp_1", json!([reserve_call("call_1")])),
        ),
        Exchange::new(
            RESPONSES_PATH,
            json!({"model": "m", "previous_response_id": "resp_1",
                "input": [{"type": "function_call_output", "call_id": "call_1", "output": NOT_OFFERED}],
                "tools": tools, "tool_choice": choice}),
            response(
                "resp_2",
                json!([answer("I can only look up the stock now.")]),
            ),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, AgentSettings::new("m")).unwrap();
    assert_eq!(
        agent.exposure().names(),
        ["create_refund_draft", "get_inventory", "reserve_inventory"]
    );
    agent.narrow(Narrowing::auto(["get_inventory"])).unwrap();
    let turn = agent.send("Hold 2 mugs.", &session).await.unwrap();
    assert_eq!(
        answered(&turn),
        [
            vec![(
                "call_1".to_owned(),
                "reserve_inventory".to_owned(),
                NOT_OFFERED.to_owned()
            )],
            vec![]
        ]
    );
    assert_eq!(turn.steps[0].offered, Exposure::new(["get_inventory"]));
    let (_, result) = &turn.steps[0].round.results[0];
    assert_eq!(result.audit.error_code.as_deref(), Some("TOOL_NOT_OFFERED"));
    assert_eq!(result.audit.tool, "reserve_inventory");
    assert_eq!(turn.answer(), Some("I can only look up the stock now."));
    // Nothing was reserved.
    let held = stock.lock().unwrap()[&("SKU-1042".to_owned(), "BER-1".to_owned())];
    assert_eq!(held, (12, 0));
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_turn_narrowed_to_a_tool_that_needs_approval_still_needs_it_and_widening_drops_the_choice()
 {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let tools = offered(&toolbox);
    let mut replay = Replay::new(vec![
        Exchange::new(
            RESPONSES_PATH,
            json!({"model": "m", "input": [{"role": "user", "content": "Hold 2 mugs."}],
                "tools": tools, "tool_choice": {"type": "allowed_tools", "mode": "required",
                    "tools": [{"type": "function", "name": "reserve_inventory"}]}}),
            response("resp_1", json!([reserve_call("call_1")])),
        ),
        Exchange::new(
            RESPONSES_PATH,
            json!({"model": "m", "previous_response_id": "resp_1",
                "input": [{"type": "function_call_output", "call_id": "call_1", "output": APPROVAL_REQUIRED}],
                "tools": tools}),
            response("resp_2", json!([answer("Please approve the hold.")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut settings = AgentSettings::new("m");
    settings.max_requests = 1;
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, settings).unwrap();
    agent
        .narrow(Narrowing::required(["reserve_inventory"]))
        .unwrap();
    let turn = agent.send("Hold 2 mugs.", &session).await.unwrap();
    assert_eq!(
        answered(&turn),
        [vec![(
            "call_1".to_owned(),
            "reserve_inventory".to_owned(),
            APPROVAL_REQUIRED.to_owned()
        )]]
    );
    let requests: Vec<(&str, &str)> = turn
        .approval_requests()
        .map(|r| (r.call_id.as_str(), r.tool.as_str()))
        .collect();
    assert_eq!(requests, [("call_1", "reserve_inventory")]);
    assert_eq!(turn.steps[0].offered, Exposure::new(["reserve_inventory"]));
    agent.widen();
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("Please approve the hold."));
    drop(agent);
    assert!(replay.is_done());
}

#[test]
fn a_turn_cannot_be_narrowed_to_a_tool_the_conversation_does_not_offer() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut replay = Replay::new(Vec::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, AgentSettings::new("m")).unwrap();
    let error = agent.narrow(Narrowing::auto(["cancel_order"])).unwrap_err();
    assert!(matches!(&error, AgentError::Narrowing(name) if name == "cancel_order"));
    assert_eq!(
        error.to_string(),
        "`cancel_order` is not offered in this conversation, so a turn cannot be narrowed to it"
    );
    let error = agent
        .narrow(Narrowing::required(Vec::<String>::new()))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "a turn that must call a tool needs at least one tool to call"
    );
}

/// `Toolbox::answer` outside the loop: the session's `Exposure` says what
/// the turn offered; a call of a registered tool it left out is refused
/// without running, an offered one runs, and an unknown one names only
/// the offered tools.
#[tokio::test]
async fn toolbox_answer_refuses_what_the_sessions_exposure_left_out() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let response = json!({"model": "gpt-4.1-2025-04-14", "choices": [{"index": 0,
        "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "reserve_inventory",
                "arguments": RESERVE}},
            {"id": "call_2", "type": "function", "function": {"name": "get_inventory",
                "arguments": r#"{"sku":"SKU-1042","warehouse":"BER-1","include_reserved":false}"#}},
            {"id": "call_3", "type": "function", "function": {"name": "cancel_order",
                "arguments": "{}"}}]}}]});
    let contracts: Vec<_> = toolbox
        .contracts()
        .filter(|contract| contract.name() == "get_inventory")
        .collect();
    let session = shop::session(&Approvals::new()).with(Exposure::of(&contracts));
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            &session,
        )
        .await
        .unwrap();
    assert_eq!(
        round.answer.items,
        [
            json!({"role": "tool", "tool_call_id": "call_1", "content": NOT_OFFERED}),
            json!({"role": "tool", "tool_call_id": "call_2",
                "content": r#"{"sku":"SKU-1042","available":12,"reserved":0}"#}),
            json!({"role": "tool", "tool_call_id": "call_3", "content":
                r#"Error [UNKNOWN_TOOL]: There is no tool named "cancel_order". Use one of: get_inventory."#}),
        ]
    );
}
