//! The agent loop over the Responses API, replayed: the recorded
//! conversation of `examples/agent_loop.rs` (two parallel calls, an
//! argument error the model corrects, a call waiting for approval, output
//! items the loop does not know, a final message) driven through the same
//! loop and shop as the example, in both continuations, with every request
//! checked against the recording as exact JSON; and the loop's edges: a
//! request limit, a fatal outcome, a broken response, a transport that
//! fails once, settings that would overwrite the loop's keys; and the
//! conversation recorded again through a `Recorder`, which writes the
//! files it is replayed from.

use crate::shop;
use crate::tools;

use std::future::Future;

use serde_json::{Value, json};
use tool_contract::approval::Approvals;
use tool_contract::openai::agent::{
    AgentError, AgentSettings, Continuation, RESPONSES_PATH, ResponsesAgent, Turn, TurnEnd,
};
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

/// The recorded conversation through the example's shop: the question,
/// the customer approving each request the loop surfaced (when `approve`),
/// the follow-up. Gives both turns, the replay and the stock.
async fn converse(
    continuation: Continuation,
    approve: bool,
) -> (Result<(Turn, Turn), AgentError>, Replay, shop::Stock) {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let mut replay = shop::recorded(continuation).expect("the recording loads");
    let approvals = Approvals::new();
    let session = shop::session(&approvals);
    let settings = shop::settings(shop::MODEL, continuation);
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, settings).expect("strict tools");
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

/// `(call_id, tool, output)` of each call answered in each step.
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

fn check_recorded_conversation(first: &Turn, second: &Turn) {
    let reserve_arguments = r#"{"sku":"SKU-1042","quantity":2,"hold":60,"request_id":"6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}"#;
    assert_eq!(
        answered(first),
        [
            vec![
                triple(
                    "call_Hq3tB7kLw9",
                    "get_inventory",
                    r#"{"sku":"SKU-1042","available":12,"reserved":0}"#
                ),
                triple(
                    "call_Xe5mR2vNp4",
                    "get_inventory",
                    r#"{"sku":"SKU-1042","available":0,"reserved":0}"#
                ),
            ],
            vec![triple(
                "call_Jd8sQ1cYz6",
                "reserve_inventory",
                "Error [INVALID_ARGUMENTS]: $.sku: expected at most 64 characters, got 82 characters"
            )],
            vec![triple(
                "call_Pw4nF9gKt2",
                "reserve_inventory",
                APPROVAL_REQUIRED
            )],
            vec![],
        ]
    );
    let skipped: Vec<&[String]> = first.steps.iter().map(|s| &s.skipped[..]).collect();
    assert_eq!(
        skipped,
        [
            &["reasoning".to_owned()][..],
            &["reasoning".to_owned()][..],
            &["reasoning".to_owned()][..],
            &["web_search_call".to_owned(), "shop_card".to_owned()][..],
        ]
    );
    assert_eq!(first.end, TurnEnd::Answer(FIRST_ANSWER.to_owned()));
    assert_eq!(first.answer(), Some(FIRST_ANSWER));
    let requests: Vec<(&str, &str, &str)> = first
        .approval_requests()
        .map(|r| (r.call_id.as_str(), r.tool.as_str(), r.arguments.as_str()))
        .collect();
    assert_eq!(
        requests,
        [(
            "call_Pw4nF9gKt2",
            "reserve_inventory",
            r#"{"hold":60,"quantity":2,"request_id":"6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45","sku":"SKU-1042"}"#
        )]
    );
    assert_eq!(
        first.steps[2].round.results[0].0.arguments,
        reserve_arguments
    );

    assert_eq!(
        answered(second),
        [
            vec![triple(
                "call_Rt7vL3bMq8",
                "reserve_inventory",
                r#"{"reservation_id":"RSV-acme-2","expires_at":"2026-05-04T10:00:00.000Z"}"#
            )],
            vec![],
        ]
    );
    assert_eq!(second.end, TurnEnd::Answer(LAST_ANSWER.to_owned()));
    assert_eq!(second.approval_requests().count(), 0);
    assert_eq!(
        second.steps[0].round.answer.items,
        [json!({
            "type": "function_call_output",
            "call_id": "call_Rt7vL3bMq8",
            "output": r#"{"reservation_id":"RSV-acme-2","expires_at":"2026-05-04T10:00:00.000Z"}"#
        })]
    );
}

fn stock_of(stock: &shop::Stock, warehouse: &str) -> (u32, u32) {
    let levels = stock.lock().unwrap();
    levels[&("SKU-1042".to_owned(), warehouse.to_owned())]
}

#[tokio::test]
async fn the_recorded_conversation_replays_by_previous_response_id() {
    let (turns, replay, stock) = converse(Continuation::PreviousResponseId, true).await;
    let (first, second) = turns.expect("every request is the recorded one");
    check_recorded_conversation(&first, &second);
    assert!(replay.is_done());
    assert_eq!(replay.answered(), 6);
    assert_eq!(stock_of(&stock, "BER-1"), (10, 2));
}

#[tokio::test]
async fn the_recorded_conversation_replays_resending_each_function_call_before_its_output() {
    let (turns, replay, stock) = converse(Continuation::Resend, true).await;
    let (first, second) = turns.expect("every request is the recorded one");
    check_recorded_conversation(&first, &second);
    assert!(replay.is_done());
    assert_eq!(stock_of(&stock, "BER-1"), (10, 2));
}

/// The recorded conversation run again through a `Recorder` over the
/// recording (the scripted model): it writes the files the replay read,
/// byte for byte, and a replay of what it wrote answers the whole
/// conversation again.
#[tokio::test]
async fn recording_the_conversation_writes_the_files_it_replays_from() {
    for (continuation, requests) in [
        (
            Continuation::PreviousResponseId,
            shop::REQUESTS_PREVIOUS_RESPONSE_ID,
        ),
        (Continuation::Resend, shop::REQUESTS_RESEND),
    ] {
        let dir = std::env::temp_dir().join(format!(
            "agent-loop-recording-{continuation:?}-{}",
            std::process::id()
        ));
        let stock = shop::stock();
        let toolbox = shop::toolbox(&stock, shop::recorded_clock);
        let mut recorder = Recorder::new(shop::recorded(continuation).unwrap());
        let approvals = Approvals::new();
        let session = shop::session(&approvals);
        let settings = shop::settings(shop::MODEL, continuation);
        let mut agent = ResponsesAgent::new(&toolbox, &mut recorder, settings).unwrap();
        let first = agent.send(shop::QUESTION, &session).await.unwrap();
        for request in first.approval_requests() {
            approvals.grant(request.approve("appr-1"));
        }
        agent.send(shop::APPROVED, &session).await.unwrap();
        drop(agent);
        assert_eq!(recorder.exchanges().len(), 6);
        recorder.write_to(&dir).unwrap();
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(read("requests.json"), requests, "{continuation:?}");
        assert_eq!(read("responses.json"), shop::RECORDED_RESPONSES);
        assert_eq!(read("tools.json"), shop::RECORDED_TOOLS);

        let replay = Replay::from_dir(&dir, RESPONSES_PATH).unwrap();
        assert_eq!(replay, shop::recorded(continuation).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[tokio::test]
async fn without_the_customers_approval_the_loop_does_not_reserve() {
    // The loop never approves: the repeated call is refused again, and its
    // output is not the recorded one.
    let (turns, replay, stock) = converse(Continuation::PreviousResponseId, false).await;
    let Err(AgentError::Transport(error)) = turns else {
        panic!("the sixth request differs from the recording")
    };
    assert_eq!(
        error,
        TransportError::Mismatch {
            exchange: 5,
            at: "$.input[0].output".to_owned(),
            expected: r#""{\"reservation_id\":\"RSV-acme-2\",\"expires_at\":\"2026-05-04T10:00:00.000Z\"}""#.to_owned(),
            found: Value::from(APPROVAL_REQUIRED).to_string(),
        }
    );
    assert_eq!(replay.answered(), 5);
    assert_eq!(stock_of(&stock, "BER-1"), (12, 0));
}

#[test]
fn every_recorded_tool_is_strict_and_every_request_carries_them() {
    let tools: Value = serde_json::from_str(shop::RECORDED_TOOLS).unwrap();
    let strict: Vec<(&str, &Value)> = tools
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
    for requests in [shop::REQUESTS_PREVIOUS_RESPONSE_ID, shop::REQUESTS_RESEND] {
        let requests: Vec<Value> = serde_json::from_str(requests).unwrap();
        assert_eq!(requests.len(), 6);
        assert!(requests.iter().all(|r| r["tools"] == "<tools.json>"));
    }
}

/// A response with the given output items.
fn response(id: &str, output: Value) -> Value {
    json!({"id": id, "object": "response", "status": "completed", "model": "gpt-5-mini-2025-08-07", "output": output})
}

fn lookup_call(call_id: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
        "name": "get_inventory",
        "arguments": r#"{"sku":"SKU-1042","warehouse":null,"include_reserved":false}"#})
}

fn answer(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
}

fn lookup_output(call_id: &str) -> Value {
    json!({"type": "function_call_output", "call_id": call_id,
        "output": r#"{"sku":"SKU-1042","available":12,"reserved":0}"#})
}

/// A request of the small loops below: model `m`, no instructions.
fn request(tools: &[Value], previous: Option<&str>, input: Value) -> Value {
    let mut request = json!({"model": "m"});
    if let Some(id) = previous {
        request["previous_response_id"] = json!(id);
    }
    request["input"] = input;
    request["tools"] = json!(tools);
    request
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
    tool_contract::openai::tools_for_responses(&contracts).unwrap()
}

#[tokio::test]
async fn the_request_limit_ends_the_turn_and_resume_sends_the_outputs() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let user = json!([{"role": "user", "content": "Stock?"}]);
    let mut replay = Replay::new(vec![
        Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, user),
            response("resp_1", json!([lookup_call("call_1")])),
        ),
        Exchange::new(
            RESPONSES_PATH,
            request(&tools, Some("resp_1"), json!([lookup_output("call_1")])),
            response("resp_2", json!([answer("12 in stock.")])),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(1)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::RequestLimit);
    assert_eq!(turn.steps.len(), 1);
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("12 in stock."));
    let error = agent.resume(&session).await.unwrap_err();
    assert!(matches!(error, AgentError::NothingToSend), "{error}");
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
        RESPONSES_PATH,
        request(&tools, None, json!([{"role": "user", "content": "Stock?"}])),
        response("resp_1", json!([lookup_call("call_1")])),
    )]);
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Stopped);
    assert!(turn.steps[0].round.answer.items.is_empty());
    let error = agent.send("Hello?", &session).await.unwrap_err();
    assert!(matches!(error, AgentError::Stopped), "{error}");
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_broken_response_is_an_error_with_its_path_and_ends_the_conversation() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let user = json!([{"role": "user", "content": "Stock?"}]);
    let broken = [
        (
            json!({"model": "m", "output": [{"id": "x"}]}),
            "$.output[0].type: missing",
        ),
        (
            json!({"model": "m", "output": [lookup_call("call_1")]}),
            "$.id: missing, or not a string",
        ),
        (
            json!({"id": "resp_1", "model": "m", "output": {"type": "message"}}),
            "$.output: expected an array, got an object",
        ),
        // An error body (a failed response object, with its `status`, is
        // a response: `a_cancelled_response_ends_the_turn_...`).
        (
            json!({"error": {"code": "server_error", "message": "The server had an error."}}),
            "$.error: the API answered with an error: The server had an error.",
        ),
    ];
    for (body, message) in broken {
        let mut replay = Replay::new(vec![Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, user.clone()),
            body,
        )]);
        let session = shop::session(&Approvals::new());
        let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
        let error = agent.send("Stock?", &session).await.unwrap_err();
        let AgentError::Response(error) = &error else {
            panic!("a response error, not {error}")
        };
        assert_eq!(error.to_string(), message);
        let error = agent.send("Stock?", &session).await.unwrap_err();
        assert!(matches!(error, AgentError::Stopped), "{error}");
    }
}

#[tokio::test]
async fn unknown_items_of_any_shape_are_skipped_and_a_message_without_text_is_an_empty_answer() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let output = json!([
        {"type": "image_generation_call", "result": null},
        {"type": "", "weird": [1, 2, 3]},
        {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]},
        {"type": "message", "role": "assistant", "content": "not an array"}
    ]);
    let mut replay = Replay::new(vec![Exchange::new(
        RESPONSES_PATH,
        request(&tools, None, json!([{"role": "user", "content": "Draw."}])),
        response("resp_1", output),
    )]);
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Draw.", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::Answer(String::new()));
    assert_eq!(turn.steps[0].skipped, ["image_generation_call", ""]);
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
    let replay = Replay::new(vec![
        Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, json!([{"role": "user", "content": "Stock?"}])),
            response("resp_1", json!([lookup_call("call_1")])),
        ),
        Exchange::new(
            RESPONSES_PATH,
            request(&tools, Some("resp_1"), json!([lookup_output("call_1")])),
            response("resp_2", json!([answer("12 in stock.")])),
        ),
    ]);
    let mut flaky = FlakyOnce {
        fail_at: 1,
        sent: 0,
        inner: replay,
    };
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut flaky, small_settings(4)).unwrap();
    let error = agent.send("Stock?", &session).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the request got no answer: connection reset"
    );
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("12 in stock."));
    let ids: Vec<&Value> = turn.steps.iter().map(|s| &s.response["id"]).collect();
    assert_eq!(ids, [&json!("resp_1"), &json!("resp_2")]);
    assert_eq!(turn.steps[0].round.answer.items, [lookup_output("call_1")]);
    drop(agent);
    assert!(flaky.inner.is_done());
    assert_eq!(flaky.sent, 3);
}

#[tokio::test]
async fn a_cut_off_response_without_calls_ends_the_turn_as_incomplete() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let mut cut_off = response("resp_1", json!([answer("Berlin has 1")]));
    cut_off["status"] = json!("incomplete");
    cut_off["incomplete_details"] = json!({"reason": "max_output_tokens"});
    let mut replay = Replay::new(vec![Exchange::new(
        RESPONSES_PATH,
        request(&tools, None, json!([{"role": "user", "content": "Stock?"}])),
        cut_off,
    )]);
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(
        turn.end,
        TurnEnd::Incomplete("max_output_tokens".to_owned())
    );
    assert_eq!(turn.steps[0].text, "Berlin has 1");
    assert_eq!(turn.answer(), None);
}

/// A response the API cancelled (or failed, or has not
/// finished) is not the model's answer, and its calls do not run.
#[tokio::test]
async fn a_cancelled_response_ends_the_turn_as_incomplete_and_runs_no_call() {
    for status in ["cancelled", "failed", "in_progress", "queued"] {
        let (toolbox, _stock) = shop_toolbox();
        let tools = offered(&toolbox);
        let mut stopped = response(
            "resp_1",
            json!([answer("Let me check"), lookup_call("call_1")]),
        );
        stopped["status"] = json!(status);
        let mut replay = Replay::new(vec![Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, json!([{"role": "user", "content": "Stock?"}])),
            stopped,
        )]);
        let session = shop::session(&Approvals::new());
        let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
        let turn = agent.send("Stock?", &session).await.unwrap();
        assert_eq!(turn.end, TurnEnd::Incomplete(status.to_owned()), "{status}");
        assert_eq!(turn.answer(), None);
        assert_eq!(turn.steps.len(), 1);
        // Answered without running, for the next request to carry.
        assert_eq!(
            turn.steps[0].round.answer.items,
            [
                json!({"type": "function_call_output", "call_id": "call_1", "output": format!(
                    "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
                     (\"{status}\"), so its arguments may be incomplete. Make the call again if it \
                     is still needed."
                )})
            ],
            "{status}"
        );
        let audit = &turn.steps[0].round.results[0].1.audit;
        assert_eq!(audit.error_code.as_deref(), Some("CALL_NOT_RUN"));
        assert_eq!(
            audit.outcome,
            tool_contract::runtime::ExecutionOutcome::NotStarted
        );
        assert_eq!(turn.steps[0].text, "Let me check");
        drop(agent);
        assert!(replay.is_done());
    }
}

/// A completed response with a `function_call` item that is not whole
/// (`"status": "incomplete"` or `"in_progress"`): none of its calls runs,
/// the whole one beside it included, and the turn ends as incomplete.
#[tokio::test]
async fn a_completed_response_with_a_call_that_is_not_whole_runs_no_call() {
    for status in ["incomplete", "in_progress"] {
        let (toolbox, _stock) = shop_toolbox();
        let tools = offered(&toolbox);
        let mut whole = lookup_call("call_1");
        whole["status"] = json!("completed");
        let mut half = lookup_call("call_2");
        half["status"] = json!(status);
        half["arguments"] = json!(r#"{"sku":"SKU-10"#);
        let mut replay = Replay::new(vec![Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, json!([{"role": "user", "content": "Stock?"}])),
            response("resp_1", json!([whole, half])),
        )]);
        let session = shop::session(&Approvals::new());
        let mut agent = ResponsesAgent::new(&toolbox, &mut replay, small_settings(4)).unwrap();
        let turn = agent.send("Stock?", &session).await.unwrap();
        let reason = format!("function_call call_2 is {status}");
        assert_eq!(turn.end, TurnEnd::Incomplete(reason.clone()), "{status}");
        let text = format!(
            "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
             (\"{reason}\"), so its arguments may be incomplete. Make the call again if it is \
             still needed."
        );
        assert_eq!(
            turn.steps[0].round.answer.items,
            [
                json!({"type": "function_call_output", "call_id": "call_1", "output": text}),
                json!({"type": "function_call_output", "call_id": "call_2", "output": text}),
            ],
            "{status}"
        );
        let not_run: Vec<&str> = turn.steps[0]
            .not_run
            .iter()
            .map(|c| c.call_id.as_str())
            .collect();
        assert_eq!(not_run, ["call_1", "call_2"]);
        for (_, result) in &turn.steps[0].round.results {
            assert_eq!(
                result.audit.outcome,
                tool_contract::runtime::ExecutionOutcome::NotStarted
            );
        }
        drop(agent);
        assert!(replay.is_done());
    }
}

#[tokio::test]
async fn resending_needs_no_response_id_and_answers_truncated_arguments_with_an_error() {
    // A compatible server that leaves out `id`, and a call cut off mid-JSON.
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    let truncated = json!({"type": "function_call", "call_id": "call_1", "name": "get_inventory",
        "arguments": r#"{"sku":"SKU-10"#});
    let user = json!({"role": "user", "content": "Stock?"});
    let output = json!({"type": "function_call_output", "call_id": "call_1",
        "output": "Error [INVALID_ARGUMENTS]: $.sku: the JSON text ends in the middle of a string (at line 1, column 14)"});
    let mut replay = Replay::new(vec![
        Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, json!([user])),
            json!({"model": "local", "output": [truncated]}),
        ),
        Exchange::new(
            RESPONSES_PATH,
            request(&tools, None, json!([user, truncated, output])),
            json!({"model": "local", "output": [answer("Which SKU?")]}),
        ),
    ]);
    let mut settings = small_settings(1);
    settings.continuation = Continuation::Resend;
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, settings).unwrap();
    let turn = agent.send("Stock?", &session).await.unwrap();
    assert_eq!(turn.end, TurnEnd::RequestLimit);
    assert_eq!(turn.steps[0].round.answer.items, [output]);
    let turn = agent.resume(&session).await.unwrap();
    assert_eq!(turn.answer(), Some("Which SKU?"));
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn extra_keys_are_written_into_every_request_but_never_over_the_loops_own() {
    let (toolbox, _stock) = shop_toolbox();
    let tools = offered(&toolbox);
    for key in [
        "model",
        "instructions",
        "previous_response_id",
        "input",
        "tools",
        "stream",
    ] {
        let mut settings = small_settings(4);
        settings.extra.insert(key.to_owned(), json!("x"));
        let error = ResponsesAgent::new(&toolbox, Replay::new(Vec::new()), settings)
            .err()
            .expect("refused");
        assert_eq!(
            error.to_string(),
            format!(
                "`{key}` is the loop's to set (it writes model, instructions, \
                 previous_response_id, input and tools, and reads whole responses, never a \
                 stream); leave it out of the extra request keys"
            )
        );
    }
    let mut expected = request(&tools, None, json!([{"role": "user", "content": "Hi"}]));
    expected["store"] = json!(false);
    let mut replay = Replay::new(vec![Exchange::new(
        RESPONSES_PATH,
        expected,
        response("resp_1", json!([answer("Hello!")])),
    )]);
    let mut settings = small_settings(4);
    settings.continuation = Continuation::Resend;
    settings.extra.insert("store".to_owned(), json!(false));
    let session = shop::session(&Approvals::new());
    let mut agent = ResponsesAgent::new(&toolbox, &mut replay, settings).unwrap();
    assert_eq!(
        agent.send("Hi", &session).await.unwrap().answer(),
        Some("Hello!")
    );
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_request_after_the_recording_is_exhausted() {
    let (toolbox, _stock) = shop_toolbox();
    let session = shop::session(&Approvals::new());
    let mut agent =
        ResponsesAgent::new(&toolbox, Replay::new(Vec::new()), small_settings(4)).unwrap();
    let error = agent.send("Hi", &session).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the loop sent a request after the 0 recorded ones; nothing is left to replay"
    );
}
