//! The agent loop over the Anthropic Messages API, replayed: the recorded
//! conversation of `examples/agent_loop.rs --anthropic` (two parallel
//! `tool_use` calls, an argument error the model corrects, a call waiting
//! for approval, thinking and redacted thinking blocks and a block type the
//! loop does not know passed back unchanged, a final text) driven through
//! the same loop and shop as the example, with every request (the whole
//! conversation each time) checked against the recording as exact JSON;
//! and the loop's edges: a request limit, a fatal outcome, `max_tokens`
//! (with a cut-off `tool_use` not run), `refusal`, `pause_turn`, unknown
//! stop reasons, error bodies and broken responses, a transport that fails
//! once, settings that would overwrite the loop's keys, enum values of
//! strict tools matched ignoring case, an `input` that is not an object;
//! and the conversation recorded again through a `Recorder`, which writes
//! the files it is replayed from.

use crate::shop;
use crate::tools;

use std::future::Future;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::EnumCase;
use tool_contract::anthropic::agent::{
    AgentError, AgentSettings, CALL_NOT_RUN, MESSAGES_PATH, MessagesAgent, Turn, TurnEnd,
};
use tool_contract::anthropic::{ToolChoice, ToolSet};
use tool_contract::approval::Approvals;
use tool_contract::prelude::*;
use tool_contract::transport::{Exchange, Recorder, Replay, Transport, TransportError};
use tools::GetInventory;

const APPROVAL_REQUIRED: &str = "Error [APPROVAL_REQUIRED]: This call needs the user's approval \
     before it runs. Ask the user to approve it, then make the same call again with the same \
     arguments.";
const FIRST_ANSWER: &str = "Berlin (BER-1) has 12 blue mugs SKU-1042 in stock; Hamburg (HAM-1) \
     has none. I can hold 2 in Berlin for 60 minutes, but the reservation needs your approval: \
     please confirm it in the app.";
const LAST_ANSWER: &str = "Done: 2 blue mugs SKU-1042 are held for you in Berlin until 10:00 UTC \
     (reservation RSV-acme-2).";
const RESERVATION: &str =
    r#"{"reservation_id":"RSV-acme-2","expires_at":"2026-05-04T10:00:00.000Z"}"#;
const STOCK_12: &str = r#"{"sku":"SKU-1042","available":12,"reserved":0}"#;

/// The recorded conversation through the example's shop: the question,
/// the customer approving each request the loop surfaced (when `approve`),
/// the follow-up. Gives both turns, the replay and the stock.
async fn converse(approve: bool) -> (Result<(Turn, Turn), AgentError>, Replay, shop::Stock) {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut replay = shop::recorded_anthropic().expect("the recording loads");
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::anthropic_settings(shop::ANTHROPIC_MODEL);
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, settings).expect("strict tools");
    let turns = async {
        let first = agent.send(shop::QUESTION, &session).await?;
        if approve {
            for request in first.approval_requests() {
                approvals.grant(request.approve("appr-1"));
            }
        }
        let second = agent.send(shop::APPROVED, &session).await?;
        Ok((first, second))
    }
    .await;
    drop(agent);
    (turns, replay, stock)
}

/// The recorded conversation run again through a `Recorder` over the
/// recording (the scripted model): it writes the files the replay read,
/// byte for byte.
#[tokio::test]
async fn recording_the_conversation_writes_the_files_it_replays_from() {
    let dir = std::env::temp_dir().join(format!("messages-recording-{}", std::process::id()));
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut recorder = Recorder::new(shop::recorded_anthropic().unwrap());
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::anthropic_settings(shop::ANTHROPIC_MODEL);
    let mut agent = MessagesAgent::new(&toolbox, &mut recorder, settings).unwrap();
    let first = agent.send(shop::QUESTION, &session).await.unwrap();
    for request in first.approval_requests() {
        approvals.grant(request.approve("appr-1"));
    }
    agent.send(shop::APPROVED, &session).await.unwrap();
    drop(agent);
    assert_eq!(recorder.exchanges().len(), 6);
    recorder.write_to(&dir).unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(read("requests.json"), shop::ANTHROPIC_REQUESTS);
    assert_eq!(read("responses.json"), shop::ANTHROPIC_RESPONSES);
    assert_eq!(read("tools.json"), shop::ANTHROPIC_TOOLS);
    let replay = Replay::from_dir(&dir, MESSAGES_PATH).unwrap();
    assert_eq!(replay, shop::recorded_anthropic().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `(tool_use_id, tool, text the model reads)` of each call answered in
/// each step.
fn answered(turn: &Turn) -> Vec<Vec<(String, String, String)>> {
    turn.steps
        .iter()
        .map(|step| {
            step.round
                .results
                .iter()
                .map(|(call, result)| {
                    let text = result.model_text().unwrap_or_default();
                    (call.call_id.clone(), call.name.clone(), text)
                })
                .collect()
        })
        .collect()
}

fn triple(call_id: &str, tool: &str, output: &str) -> (String, String, String) {
    (call_id.to_owned(), tool.to_owned(), output.to_owned())
}

fn skipped(turn: &Turn) -> Vec<Vec<&str>> {
    turn.steps
        .iter()
        .map(|step| step.skipped.iter().map(String::as_str).collect())
        .collect()
}

fn check_recorded_conversation(first: &Turn, second: &Turn) {
    assert_eq!(
        answered(first),
        [
            vec![
                triple("toolu_01Hq3tB7kLw9bG2mN5pR8sV1", "get_inventory", STOCK_12),
                triple(
                    "toolu_01Xe5mR2vNp4cH3nP6qS9tW2",
                    "get_inventory",
                    r#"{"sku":"SKU-1042","available":0,"reserved":0}"#
                ),
            ],
            vec![triple(
                "toolu_01Jd8sQ1cYz6dJ4pQ7rT0uX3",
                "reserve_inventory",
                "Error [INVALID_ARGUMENTS]: $.sku: expected at most 64 characters, got 82 characters"
            )],
            vec![triple(
                "toolu_01Pw4nF9gKt2eK5qR8sU1vY4",
                "reserve_inventory",
                APPROVAL_REQUIRED
            )],
            vec![],
        ]
    );
    let stop_reasons: Vec<&str> = first.steps.iter().map(|s| s.stop_reason.as_str()).collect();
    assert_eq!(
        stop_reasons,
        ["tool_use", "tool_use", "tool_use", "end_turn"]
    );
    assert_eq!(
        skipped(first),
        [vec!["thinking"], vec![], vec![], vec!["shop_card"]]
    );
    let texts: Vec<&str> = first.steps.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "I'll check both warehouses.",
            "Berlin has 12 in stock, Hamburg none. I'll hold two in Berlin.",
            "The SKU must be the code alone; trying again.",
            FIRST_ANSWER,
        ]
    );
    // The argument error goes back as an error result.
    assert_eq!(
        first.steps[1].round.answer,
        Some(json!({"role": "user", "content": [{
            "type": "tool_result",
            "tool_use_id": "toolu_01Jd8sQ1cYz6dJ4pQ7rT0uX3",
            "content": "Error [INVALID_ARGUMENTS]: $.sku: expected at most 64 characters, got 82 characters",
            "is_error": true
        }]}))
    );
    assert!(first.steps.iter().all(|s| s.not_run.is_empty()));
    assert_eq!(first.end, TurnEnd::Answer(FIRST_ANSWER.to_owned()));
    assert_eq!(first.answer(), Some(FIRST_ANSWER));
    let requests: Vec<(&str, &str, &str)> = first
        .approval_requests()
        .map(|r| (r.call_id.as_str(), r.tool.as_str(), r.arguments.as_str()))
        .collect();
    assert_eq!(
        requests,
        [(
            "toolu_01Pw4nF9gKt2eK5qR8sU1vY4",
            "reserve_inventory",
            r#"{"hold":60,"quantity":2,"request_id":"6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45","sku":"SKU-1042"}"#
        )]
    );

    assert_eq!(
        answered(second),
        [
            vec![triple(
                "toolu_01Rt7vL3bMq8fL6rS9tV2wZ5",
                "reserve_inventory",
                RESERVATION
            )],
            vec![],
        ]
    );
    assert_eq!(
        skipped(second),
        [vec!["thinking", "redacted_thinking"], vec![]]
    );
    assert_eq!(second.end, TurnEnd::Answer(LAST_ANSWER.to_owned()));
    assert_eq!(second.approval_requests().count(), 0);
    // The audit records stay with the application: the approved call
    // names its approval.
    let audited: Vec<(&str, Option<&str>, Option<&str>)> = second.steps[0]
        .round
        .audit_records()
        .map(|r| {
            (
                r.tool.as_str(),
                r.error_code.as_deref(),
                r.approval_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(audited, [("reserve_inventory", None, Some("appr-1"))]);
    let refused: Vec<Option<&str>> = first.steps[2]
        .round
        .audit_records()
        .map(|r| r.error_code.as_deref())
        .collect();
    assert_eq!(refused, [Some("APPROVAL_REQUIRED")]);
    assert_eq!(
        second.steps[0].round.answer,
        Some(json!({"role": "user", "content": [{
            "type": "tool_result",
            "tool_use_id": "toolu_01Rt7vL3bMq8fL6rS9tV2wZ5",
            "content": RESERVATION,
            "is_error": false
        }]}))
    );
}

fn stock_of(stock: &shop::Stock, warehouse: &str) -> (u32, u32) {
    let levels = stock.lock().unwrap();
    levels[&("SKU-1042".to_owned(), warehouse.to_owned())]
}

#[tokio::test]
async fn the_recorded_conversation_replays_resending_the_whole_conversation_each_time() {
    let (turns, replay, stock) = converse(true).await;
    let (first, second) = turns.expect("every request is the recorded one");
    check_recorded_conversation(&first, &second);
    assert!(replay.is_done());
    assert_eq!(replay.answered(), 6);
    assert_eq!(stock_of(&stock, "BER-1"), (10, 2));
}

#[tokio::test]
async fn without_the_customers_approval_the_loop_does_not_reserve() {
    // The loop never approves: the repeated call is refused again, and its
    // result is not the recorded one.
    let (turns, replay, stock) = converse(false).await;
    let Err(AgentError::Transport(error)) = turns else {
        panic!("the sixth request differs from the recording")
    };
    assert_eq!(
        error,
        TransportError::Mismatch {
            exchange: 5,
            at: "$.messages[10].content[0].content".to_owned(),
            expected: Value::from(RESERVATION).to_string(),
            found: Value::from(APPROVAL_REQUIRED).to_string(),
        }
    );
    assert_eq!(replay.answered(), 5);
    assert_eq!(stock_of(&stock, "BER-1"), (12, 0));
}

#[test]
fn the_recorded_tools_are_the_strict_tool_set_and_every_request_carries_them() {
    let recorded: Value = serde_json::from_str(shop::ANTHROPIC_TOOLS).unwrap();
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let contracts: Vec<_> = toolbox.contracts().collect();
    let set = ToolSet::new(&contracts).unwrap();
    assert_eq!(recorded, json!(set.definitions()));
    let strict: Vec<(&str, &Value)> = recorded
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| (tool["name"].as_str().unwrap(), &tool["strict"]))
        .collect();
    assert_eq!(
        strict,
        [
            ("create_refund_draft", &json!(true)),
            ("get_inventory", &json!(true)),
            ("reserve_inventory", &json!(true)),
        ]
    );
    let requests: Vec<Value> = serde_json::from_str(shop::ANTHROPIC_REQUESTS).unwrap();
    assert_eq!(requests.len(), 6);
    assert!(requests.iter().all(|r| r["tools"] == "<tools.json>"));
    // Each request resends the one before, then the assistant's content as
    // the response gave it, then one user message.
    let responses: Vec<Value> = serde_json::from_str(shop::ANTHROPIC_RESPONSES).unwrap();
    for (i, pair) in requests.windows(2).enumerate() {
        let (before, after) = (&pair[0]["messages"], &pair[1]["messages"]);
        let before = before.as_array().unwrap();
        let after = after.as_array().unwrap();
        assert_eq!(after[..before.len()], before[..]);
        assert_eq!(
            after[before.len()],
            json!({"role": "assistant", "content": responses[i]["content"]})
        );
        assert_eq!(after.len(), before.len() + 2);
    }
}

/// A Messages API response with the given stop reason and content.
fn response(stop_reason: &str, content: Value) -> Value {
    json!({"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": content, "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 5}})
}

fn lookup_call(id: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "get_inventory", "input": {"sku": "SKU-1042"}})
}

fn text(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

fn user(content: Value) -> Value {
    json!({"role": "user", "content": content})
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
}

fn result(id: &str, content: &str, is_error: bool) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error})
}

/// A request of the small loops below: model `m`, 1024 tokens, no system
/// prompt.
fn request(tools: &[Value], messages: Value) -> Value {
    json!({"model": "m", "max_tokens": 1024, "messages": messages, "tools": tools})
}

fn small_settings(max_requests: usize) -> AgentSettings {
    let mut settings = AgentSettings::new("m");
    settings.max_requests = max_requests;
    settings
}

fn shop_toolbox() -> (Toolbox, shop::Stock) {
    let stock = shop::stock();
    (shop::toolbox(&stock, shop::recorded_clock), stock)
}

fn offered(toolbox: &Toolbox) -> Vec<Value> {
    let contracts: Vec<_> = toolbox.contracts().collect();
    ToolSet::new(&contracts).unwrap().definitions()
}

#[tokio::test]
async fn the_request_limit_ends_the_turn_and_resume_sends_the_results() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Stock?"));
    let calls = json!([lookup_call("toolu_1")]);
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([question])),
            response("tool_use", calls.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(
                &tools,
                json!([
                    question,
                    assistant(calls),
                    user(json!([result("toolu_1", STOCK_12, false)]))
                ]),
            ),
            response("end_turn", json!([text("12 in stock.")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(1)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::RequestLimit);
    assert_eq!(turn.steps.len(), 1);
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("12 in stock."));
    let error = agent.resume(&session).await.unwrap_err();
    assert!(matches!(error, AgentError::NothingToSend), "{error}");
    assert_eq!(
        error.to_string(),
        "nothing to send: the model ended its turn; send a user message"
    );
    assert_eq!(agent.conversation().messages().len(), 4);
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn results_waiting_at_the_request_limit_go_before_the_next_message_in_one_user_message() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Stock?"));
    let calls = json!([lookup_call("toolu_1")]);
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([question])),
            response("tool_use", calls.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(
                &tools,
                json!([
                    question,
                    assistant(calls),
                    user(json!([
                        result("toolu_1", STOCK_12, false),
                        text("Only Berlin, please.")
                    ]))
                ]),
            ),
            response("end_turn", json!([text("Berlin has 12.")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(1)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::RequestLimit);
    let turn = agent.send("Only Berlin, please.", &session).await.unwrap();
    assert_eq!(turn.answer(), Some("Berlin has 12."));
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_fatal_outcome_stops_the_conversation_without_sending_more() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|_call: GetInventory, _cx: CallContext| async move {
        if true {
            panic!("the stock database is unreachable");
        }
        Ok::<_, ToolError>(tools::StockLevel {
            sku: String::new(),
            available: 0,
            reserved: 0,
        })
    });
    let tools = offered(&toolbox);
    let mut replay = Replay::new(vec![Exchange::new(
        MESSAGES_PATH,
        request(&tools, json!([user(json!("Stock?"))])),
        response("tool_use", json!([lookup_call("toolu_1")])),
    )]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Stopped);
    assert!(turn.steps[0].round.stop);
    assert_eq!(turn.steps[0].round.answer, None);
    let error = agent.send("Hello?", &session).await.unwrap_err();
    assert!(matches!(error, AgentError::Stopped), "{error}");
    let error = agent.resume(&session).await.unwrap_err();
    assert!(matches!(error, AgentError::Stopped), "{error}");
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn max_tokens_ends_the_turn_as_incomplete_and_a_cut_off_tool_use_is_not_run() {
    let (toolbox, stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Hold two mugs."));
    // The input of the cut-off call is whatever was generated; it must not
    // run, even though it would parse.
    let cut = json!([
        text("I'll hold two"),
        {"type": "tool_use", "id": "toolu_cut", "name": "reserve_inventory",
            "input": {"sku": "SKU-1042", "quantity": 2, "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}}
    ]);
    let not_run = "Error [CALL_NOT_RUN]: The call did not run: the response stopped with \
         \"max_tokens\", not \"tool_use\", so its input may be incomplete. Make the call again \
         if it is still needed.";
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([question])),
            response("max_tokens", cut.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(
                &tools,
                json!([
                    question,
                    assistant(cut),
                    user(json!([result("toolu_cut", not_run, true), text("Go on.")]))
                ]),
            ),
            response("max_tokens", json!([text("Berlin has 1")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Hold two mugs.", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Incomplete("max_tokens".to_owned()));
    assert_eq!(turn.answer(), None);
    assert_eq!(turn.steps[0].text, "I'll hold two");
    // Answered without running, each with its audit record.
    let answered: Vec<(&str, Option<String>, Option<&str>)> = turn.steps[0]
        .round
        .results
        .iter()
        .map(|(call, result)| {
            (
                call.call_id.as_str(),
                result.model_text(),
                result.audit.error_code.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        answered,
        [("toolu_cut", Some(not_run.to_owned()), Some("CALL_NOT_RUN"))]
    );
    assert_eq!(
        turn.steps[0].round.results[0].1.audit.outcome,
        tool_contract::runtime::ExecutionOutcome::NotStarted
    );
    let not_run_calls: Vec<(&str, &str)> = turn.steps[0]
        .not_run
        .iter()
        .map(|c| (c.call_id.as_str(), c.name.as_str()))
        .collect();
    assert_eq!(not_run_calls, [("toolu_cut", "reserve_inventory")]);
    assert!(not_run.starts_with(&format!("Error [{CALL_NOT_RUN}]")));
    let turn = agent.send("Go on.", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Incomplete("max_tokens".to_owned()));
    assert_eq!(turn.steps[0].text, "Berlin has 1");
    drop(agent);
    assert!(replay.is_done());
    assert_eq!(stock_of(&stock, "BER-1"), (12, 0));
}

#[tokio::test]
async fn a_refusal_ends_the_turn_with_what_text_there_is() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let mut replay = Replay::new(vec![Exchange::new(
        MESSAGES_PATH,
        request(&tools, json!([user(json!("Help me break in."))])),
        response("refusal", json!([text("I can't help with that.")])),
    )]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Help me break in.", &session).await.unwrap();
    assert_eq!(
        turn.end,
        TurnEnd::Refused("I can't help with that.".to_owned())
    );
    assert_eq!(turn.answer(), None);
    let error = agent.resume(&session).await.unwrap_err();
    assert!(matches!(error, AgentError::NothingToSend), "{error}");
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_paused_turn_is_sent_back_as_it_is_so_the_model_goes_on() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Opening hours of BER-1?"));
    let paused = json!([
        text("Let me search."),
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
            "input": {"query": "ACME BER-1 opening hours"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01",
            "content": [{"type": "web_search_result", "url": "https://acme.example/ber-1",
                "title": "ACME Berlin", "encrypted_content": "EqgfCioIARgBIiQ3", "page_age": null}]}
    ]);
    let first = request(&tools, json!([question]));
    let again = request(&tools, json!([question, assistant(paused.clone())]));
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            first.clone(),
            response("pause_turn", paused.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            again.clone(),
            response("end_turn", json!([text("9:00 to 18:00.")])),
        ),
        // At the request limit, a paused turn waits for `resume`.
        Exchange::new(MESSAGES_PATH, first, response("pause_turn", paused.clone())),
        Exchange::new(
            MESSAGES_PATH,
            again,
            response("end_turn", json!([text("9:00 to 18:00.")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(2)).unwrap();
    let turn = agent
        .send("Opening hours of BER-1?", &session)
        .await
        .unwrap();
    assert_eq!(turn.answer(), Some("9:00 to 18:00."));
    let reasons: Vec<&str> = turn.steps.iter().map(|s| s.stop_reason.as_str()).collect();
    assert_eq!(reasons, ["pause_turn", "end_turn"]);
    assert_eq!(
        turn.steps[0].skipped,
        ["server_tool_use", "web_search_tool_result"]
    );
    drop(agent);

    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(1)).unwrap();
    let turn = agent
        .send("Opening hours of BER-1?", &session)
        .await
        .unwrap();
    assert_eq!(turn.end, TurnEnd::RequestLimit);
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("9:00 to 18:00."));
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn an_error_body_or_a_broken_response_is_an_error_with_its_path_and_ends_the_conversation() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let broken = [
        (
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"},
                "request_id": "req_011CSHoEeqs5C35K2UUqR7Fy"}),
            "$.error: the API answered with an error: Overloaded",
        ),
        (
            json!({"type": "message", "model": "m", "content": {"type": "text"}, "stop_reason": "end_turn"}),
            "$.content: expected an array, got an object",
        ),
        (
            json!({"type": "message", "model": "m", "content": [text("Hi")]}),
            "$: missing `stop_reason`",
        ),
        (
            json!({"type": "message", "model": "m", "content": [text("Hi")], "stop_reason": null}),
            "$.stop_reason: expected a string, got null",
        ),
        (
            json!({"type": "message", "model": "m", "content": [{"text": "Hi"}], "stop_reason": "end_turn"}),
            "$.content[0]: missing `type`",
        ),
        (
            json!({"type": "message", "model": "m", "content": [{"type": 7}], "stop_reason": "end_turn"}),
            "$.content[0].type: expected a string, got a number",
        ),
        (
            json!({"type": "message", "model": "m", "content": [text("Hi"), {"type": "text", "text": ["Hi"]}],
                "stop_reason": "end_turn"}),
            "$.content[1].text: expected a string, got an array",
        ),
        (
            json!({"type": "message", "model": "m", "content": [{"type": "text"}], "stop_reason": "end_turn"}),
            "$.content[0]: missing `text`",
        ),
        (
            json!({"type": "message", "model": "m", "stop_reason": "tool_use",
                "content": [{"type": "tool_use", "id": 1, "name": "get_inventory", "input": {}}]}),
            "$.content[0].id: expected a string, got a number",
        ),
        (
            json!({"type": "message", "model": "m", "stop_reason": "tool_use",
                "content": ["tool_use"]}),
            "$.content[0]: expected an object, got a string",
        ),
        (
            json!({"type": "message", "model": "m", "stop_reason": "tool_use",
                "content": [lookup_call("toolu_1"), lookup_call("toolu_2"), lookup_call("toolu_1")]}),
            "$.content[2].id: a second tool_use block with the id `toolu_1`; two calls with one \
             id cannot be told apart (their results would answer either), so no call is given out",
        ),
        (json!([]), "$: expected an object, got an array"),
    ];
    for (body, message) in broken {
        let mut replay = Replay::new(vec![Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([user(json!("Stock?"))])),
            body,
        )]);
        let session = shop::session(&Approvals::new());
        let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
        let error = agent.send("Stock?", &session).await.unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("the response cannot be read: {message}")
        );
        let AgentError::Response(error) = &error else {
            panic!("a response error, not {error}")
        };
        assert_eq!(format!("{}: {}", error.path(), error.message()), message);
        let error = agent.send("Stock?", &session).await.unwrap_err();
        assert!(matches!(error, AgentError::Stopped), "{error}");
    }
}

#[tokio::test]
async fn unknown_stop_reasons_and_tool_use_without_calls_end_the_turn_as_incomplete() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    for reason in ["model_context_window_exceeded", "a_new_reason", "tool_use"] {
        let mut replay = Replay::new(vec![Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([user(json!("Stock?"))])),
            response(reason, json!([text("Berlin")])),
        )]);
        let session = shop::session(&Approvals::new());
        let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
        let turn = agent.send("Stock?", &session).await.unwrap();
        assert_eq!(turn.end, TurnEnd::Incomplete(reason.to_owned()));
        assert_eq!(turn.steps[0].text, "Berlin");
        drop(agent);
        assert!(replay.is_done());
    }
}

#[tokio::test]
async fn an_empty_answer_is_not_sent_back() {
    // The API refuses an assistant message without content.
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([user(json!("Hi"))])),
            response("end_turn", json!([])),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([user(json!("Hi")), user(json!("Hello?"))])),
            response("end_turn", json!([text("Hello!")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Hi", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Answer(String::new()));
    let turn = agent.send("Hello?", &session).await.unwrap();
    assert_eq!(turn.answer(), Some("Hello!"));
    drop(agent);
    assert!(replay.is_done());
}

/// Fails request `fail_at` (counting from 0) with a network error, once;
/// passes every other request on.
struct FlakyOnce<T> {
    fail_at: usize,
    sent: usize,
    inner: T,
}

impl<T: Transport + Send> Transport for FlakyOnce<T> {
    fn send(
        &mut self,
        path: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send {
        let fail = self.sent == self.fail_at;
        self.sent += 1;
        let inner = (!fail).then(|| self.inner.send(path, request));
        async move {
            match inner {
                Some(answer) => answer.await,
                None => Err(TransportError::Network {
                    message: "connection reset".to_owned(),
                }),
            }
        }
    }
}

#[tokio::test]
async fn a_request_that_got_no_answer_is_sent_again_by_resume_which_gives_the_whole_turn() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Stock?"));
    let calls = json!([lookup_call("toolu_1")]);
    let replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([question])),
            response("tool_use", calls.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(
                &tools,
                json!([
                    question,
                    assistant(calls),
                    user(json!([result("toolu_1", STOCK_12, false)]))
                ]),
            ),
            response("end_turn", json!([text("12 in stock.")])),
        ),
    ]);
    let mut flaky = FlakyOnce {
        fail_at: 1,
        sent: 0,
        inner: replay,
    };
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut flaky, small_settings(4)).unwrap();
    let error = agent.send("Stock?", &session).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the request got no answer: connection reset"
    );
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("12 in stock."));
    let reasons: Vec<&str> = turn.steps.iter().map(|s| s.stop_reason.as_str()).collect();
    assert_eq!(reasons, ["tool_use", "end_turn"]);
    assert_eq!(
        turn.steps[0].round.answer,
        Some(user(json!([result("toolu_1", STOCK_12, false)])))
    );
    drop(agent);
    assert!(flaky.inner.is_done());
    assert_eq!(flaky.sent, 3);
}

#[tokio::test]
async fn a_message_unsent_for_a_transport_error_goes_with_the_next_one() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let replay = Replay::new(vec![Exchange::new(
        MESSAGES_PATH,
        request(
            &tools,
            json!([user(json!([text("Stock?"), text("Of SKU-1042?")]))]),
        ),
        response("end_turn", json!([text("12 in stock.")])),
    )]);
    let mut flaky = FlakyOnce {
        fail_at: 0,
        sent: 0,
        inner: replay,
    };
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut flaky, small_settings(4)).unwrap();
    let error = agent.send("Stock?", &session).await.unwrap_err();
    assert!(matches!(error, AgentError::Transport(_)), "{error}");
    let turn = agent.send("Of SKU-1042?", &session).await.unwrap();
    assert_eq!(turn.answer(), Some("12 in stock."));
    drop(agent);
    assert!(flaky.inner.is_done());
}

#[tokio::test]
async fn extra_keys_are_written_into_every_request_but_never_over_the_loops_own() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    for key in [
        "model",
        "max_tokens",
        "system",
        "messages",
        "tools",
        "tool_choice",
        "stream",
    ] {
        let mut settings = small_settings(4);
        settings.extra.insert(key.to_owned(), json!("x"));
        let error = MessagesAgent::new(&toolbox, Replay::new(Vec::new()), settings)
            .err()
            .expect("refused");
        assert!(
            matches!(&error, AgentError::ReservedKey(k) if k == key),
            "{error}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "`{key}` is the loop's to set (it writes model, max_tokens, system, messages, \
                 tools and tool_choice, and reads whole responses, never a stream); leave it out \
                 of the extra request keys"
            )
        );
    }
    let mut expected = request(&tools, json!([user(json!("Hi"))]));
    expected["max_tokens"] = json!(256);
    expected["system"] = json!("Be brief.");
    expected["tool_choice"] = json!({"type": "auto", "disable_parallel_tool_use": true});
    expected["temperature"] = json!(0);
    expected["metadata"] = json!({"user_id": "cus_42"});
    let mut replay = Replay::new(vec![Exchange::new(
        MESSAGES_PATH,
        expected,
        response("end_turn", json!([text("Hello!")])),
    )]);
    let mut settings = small_settings(4);
    settings.max_tokens = 256;
    settings.system = Some("Be brief.".to_owned());
    settings.tool_choice = Some(ToolChoice::Auto {
        disable_parallel_tool_use: true,
    });
    settings.extra.insert("temperature".to_owned(), json!(0));
    settings
        .extra
        .insert("metadata".to_owned(), json!({"user_id": "cus_42"}));
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, settings).unwrap();
    assert_eq!(
        agent.send("Hi", &session).await.unwrap().answer(),
        Some("Hello!")
    );
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_mis_cased_enum_value_of_a_strict_tool_is_accepted() {
    // Anthropic: structured outputs don't guarantee the capitalization of
    // enum values; the loop reads calls through the strict tool set.
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Refund A-10293, it arrived broken."));
    let calls = json!([{"type": "tool_use", "id": "toolu_1", "name": "create_refund_draft",
        "input": {"order_ref": "A-10293", "reason": "Damaged"}}]);
    let draft = r#"{"draft_id":"RD-A-10293","amount":{"amount_minor":1999,"currency":"USD"}}"#;
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([question])),
            response("tool_use", calls.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(
                &tools,
                json!([
                    question,
                    assistant(calls),
                    user(json!([result("toolu_1", draft, false)]))
                ]),
            ),
            response("end_turn", json!([text("Draft RD-A-10293 is ready.")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent
        .send("Refund A-10293, it arrived broken.", &session)
        .await
        .unwrap();
    assert_eq!(turn.answer(), Some("Draft RD-A-10293 is ready."));
    let (call, outcome) = &turn.steps[0].round.results[0];
    assert_eq!(call.enum_case, EnumCase::Insensitive);
    assert_eq!(outcome.model_text().as_deref(), Some(draft));
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_tool_use_whose_input_is_not_an_object_is_answered_with_an_error_at_its_path() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let question = user(json!("Stock?"));
    let calls = json!([{"type": "tool_use", "id": "toolu_1", "name": "get_inventory", "input": "SKU-1042"}]);
    let refused =
        "Error [INVALID_ARGUMENTS]: $: expected the arguments as a JSON object, got a string";
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            request(&tools, json!([question])),
            response("tool_use", calls.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            request(
                &tools,
                json!([
                    question,
                    assistant(calls),
                    user(json!([result("toolu_1", refused, true)]))
                ]),
            ),
            response("end_turn", json!([text("Which SKU?")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.answer(), Some("Which SKU?"));
    assert_eq!(
        turn.steps[0].round.results[0].1.model_text().as_deref(),
        Some(refused)
    );
    drop(agent);
    assert!(replay.is_done());
}

/// A folder of the document tree.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Folder {
    /// The folder's name, e.g. "Invoices".
    name: String,
    /// Folders inside it.
    children: Vec<Folder>,
}

/// Create a folder tree under the signed-in user's root folder.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
#[allow(dead_code)]
struct CreateFolderTree {
    /// The tree to create.
    root: Folder,
}

#[test]
fn tools_that_cannot_be_strict_are_refused_before_any_request() {
    let mut toolbox = Toolbox::new();
    toolbox.register(|_call: CreateFolderTree, _cx: CallContext| async move {
        Ok::<_, ToolError>("created".to_owned())
    });
    let error = MessagesAgent::new(&toolbox, Replay::new(Vec::new()), small_settings(4))
        .err()
        .expect("refused");
    let AgentError::Tools(tool_contract::anthropic::ToolSetError::Schema { tool, .. }) = &error
    else {
        panic!("a tool set error, not {error}")
    };
    assert_eq!(*tool, "create_folder_tree");
    assert!(
        error
            .to_string()
            .starts_with("the tools cannot be offered: tool create_folder_tree: "),
        "{error}"
    );
}
