//! Attacks on the two agent loops: responses a buggy
//! or hostile server may send that make a loop run a call twice, run a
//! call the model had not finished deciding, or send a request the API
//! refuses. Each test asserts the behaviour the loop promises (they failed
//! before the fixes).

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_contract::anthropic::agent::{
    AgentError as MessagesError, AgentSettings as MessagesSettings, MessagesAgent,
};
use tool_contract::openai::agent::{
    AgentError as ResponsesError, AgentSettings as ResponsesSettings, Continuation, ResponsesAgent,
    TurnEnd as ResponsesEnd,
};
use tool_contract::prelude::*;
use tool_contract::transport::{Transport, TransportError};

/// Add one to the shop's visit counter.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct BumpCounter {
    /// A note for the log, e.g. "a".
    pub note: String,
}

/// A toolbox whose only tool counts how often it ran.
fn counting_toolbox() -> (Toolbox, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = runs.clone();
    let mut toolbox = Toolbox::new();
    toolbox.register(move |call: BumpCounter, _cx: CallContext| {
        let counter = counter.clone();
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("bumped ({})", call.note))
        }
    });
    (toolbox, runs)
}

/// Answers each request with the next scripted response (an error once
/// they run out) and keeps every request it was sent.
struct Scripted {
    responses: VecDeque<Value>,
    requests: Vec<Value>,
}

impl Scripted {
    fn new(responses: Vec<Value>) -> Self {
        Scripted {
            responses: responses.into(),
            requests: Vec::new(),
        }
    }
}

impl Transport for Scripted {
    fn send(
        &mut self,
        _path: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send {
        self.requests.push(request.clone());
        let answer = self.responses.pop_front().ok_or(TransportError::Network {
            message: "no more scripted responses".to_owned(),
        });
        async move { answer }
    }
}

fn anthropic_response(stop_reason: &str, content: Value) -> Value {
    json!({"id": "msg_01", "type": "message", "role": "assistant", "model": "m",
        "content": content, "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 5}})
}

fn bump_use(id: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "bump_counter", "input": {"note": "a"}})
}

/// Every `tool_use` id of a Messages request, in order, with repeats.
fn tool_use_ids(request: &Value) -> Vec<String> {
    request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .filter(|b| b["type"] == "tool_use")
        .filter_map(|b| b["id"].as_str().map(str::to_owned))
        .collect()
}

/// A response that repeats the id of a `tool_use` block the loop already
/// answered in an earlier response: the Messages API requires `tool_use`
/// ids to be unique across the conversation, and running the block would
/// run the same call twice. The loop must refuse the response (as it does
/// two blocks with one id in one response) and run nothing of it.
#[tokio::test]
async fn messages_loop_refuses_a_tool_use_id_repeated_in_a_later_response() {
    let (toolbox, runs) = counting_toolbox();
    let mut transport = Scripted::new(vec![
        anthropic_response("tool_use", json!([bump_use("toolu_1")])),
        anthropic_response("tool_use", json!([bump_use("toolu_1")])),
        anthropic_response("end_turn", json!([{"type": "text", "text": "Done."}])),
    ]);
    let mut settings = MessagesSettings::new("m");
    settings.max_requests = 4;
    let mut agent = MessagesAgent::new(&toolbox, &mut transport, settings).unwrap();
    let outcome = agent.send("Bump it.", &Session::new()).await;
    drop(agent);
    // Correct: one run, the second response refused, no third request.
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the call ran twice");
    match outcome {
        Err(MessagesError::Response(error)) => assert_eq!(
            (error.path(), error.message()),
            (
                "$.content[0].id",
                "the tool_use id `toolu_1` was answered in an earlier response of this \
                 conversation; the API needs every id once, and running it would run that call \
                 a second time, so nothing of this response runs"
            )
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(transport.requests.len(), 2);
    for request in &transport.requests {
        let ids = tool_use_ids(request);
        let mut unique = ids.clone();
        unique.dedup();
        assert_eq!(ids, unique, "a request with a tool_use id twice");
    }
}

fn openai_response(id: &str, status: &str, output: Value) -> Value {
    json!({"id": id, "object": "response", "status": status, "model": "m", "output": output})
}

fn bump_call(call_id: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
        "name": "bump_counter", "arguments": "{\"note\":\"a\"}", "status": "completed"})
}

fn answer(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

/// The `function_call_output` the Responses loop sends for a call of a
/// response that did not complete.
fn not_run_output(call_id: &str, reason: &str) -> Value {
    json!({"type": "function_call_output", "call_id": call_id, "output": format!(
        "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
         (\"{reason}\"), so its arguments may be incomplete. Make the call again if it is \
         still needed."
    )})
}

/// The `call_id`s of the `function_call` items of a Responses request's
/// `input` that no `function_call_output` after them answers.
fn unanswered_calls(request: &Value) -> Vec<String> {
    let input = request["input"].as_array().cloned().unwrap_or_default();
    let mut open = Vec::new();
    for item in &input {
        match item["type"].as_str() {
            Some("function_call") => open.push(item["call_id"].as_str().unwrap_or("").to_owned()),
            Some("function_call_output") => {
                let id = item["call_id"].as_str().unwrap_or("");
                open.retain(|open| open != id);
            }
            _ => {}
        }
    }
    open
}

/// A cancelled (or failed) response that holds a `function_call`: the loop
/// does not run the call, and with `Continuation::Resend` it once kept the
/// `function_call` item in the conversation and sent it in the next
/// request with no `function_call_output`, which the Responses API refuses
/// ("No tool output found for function call call_1"). Every function_call
/// sent has its output: `CALL_NOT_RUN`.
#[tokio::test]
async fn responses_loop_answers_a_cancelled_call_as_not_run_when_resending() {
    for status in ["cancelled", "failed"] {
        let (toolbox, runs) = counting_toolbox();
        let mut transport = Scripted::new(vec![
            openai_response("resp_1", status, json!([bump_call("call_1")])),
            openai_response("resp_2", "completed", json!([answer("Hello again.")])),
        ]);
        let mut settings = ResponsesSettings::new("m");
        settings.continuation = Continuation::Resend;
        let mut agent = ResponsesAgent::new(&toolbox, &mut transport, settings).unwrap();
        let turn = agent.send("Bump it.", &Session::new()).await.unwrap();
        assert_eq!(turn.end, ResponsesEnd::Incomplete(status.to_owned()));
        let turn = agent.send("Are you there?", &Session::new()).await.unwrap();
        assert_eq!(turn.answer(), Some("Hello again."));
        drop(agent);
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        assert_eq!(transport.requests.len(), 2);
        assert_eq!(
            unanswered_calls(&transport.requests[1]),
            Vec::<String>::new(),
            "{status}: request {}",
            transport.requests[1]["input"]
        );
        // The call, then its not-run output, then the new message.
        assert_eq!(
            transport.requests[1]["input"].as_array().unwrap()[1..],
            [
                bump_call("call_1"),
                not_run_output("call_1", status),
                json!({"role": "user", "content": "Are you there?"})
            ]
        );
    }
}

/// A call id the loop already answered in an earlier response, repeated
/// by a later response: the loop once ran the (non-idempotent) call a
/// second time, and with `Continuation::Resend` sent two `function_call`
/// items with one `call_id`. The repeated id is refused, its call not run.
#[tokio::test]
async fn responses_loop_refuses_a_call_id_repeated_in_a_later_response() {
    let (toolbox, runs) = counting_toolbox();
    let mut transport = Scripted::new(vec![
        openai_response("resp_1", "completed", json!([bump_call("call_1")])),
        openai_response("resp_2", "completed", json!([bump_call("call_1")])),
        openai_response("resp_3", "completed", json!([answer("Done.")])),
    ]);
    let mut settings = ResponsesSettings::new("m");
    settings.continuation = Continuation::Resend;
    settings.max_requests = 4;
    let mut agent = ResponsesAgent::new(&toolbox, &mut transport, settings).unwrap();
    let outcome = agent.send("Bump it.", &Session::new()).await;
    drop(agent);
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the call ran twice");
    match outcome {
        Err(ResponsesError::Response(error)) => assert_eq!(
            (error.path(), error.message()),
            (
                "$.output[0].call_id",
                "the call id `call_1` was answered in an earlier response of this \
                 conversation; running it would run that call a second time, so nothing of this \
                 response runs"
            )
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(transport.requests.len(), 2);
}

/// A response cut off at `max_output_tokens` (`"status": "incomplete"`)
/// whose output holds a whole `function_call`: the model had not finished
/// its turn (more calls, or a different decision, may have followed), so
/// like the Messages loop with `max_tokens` (and like the Responses stream
/// assembler, which gives out no call of a `response.incomplete`) the loop
/// does not run it (it once did).
#[tokio::test]
async fn responses_loop_does_not_run_a_call_of_a_response_cut_off_at_max_output_tokens() {
    let (toolbox, runs) = counting_toolbox();
    let mut cut = openai_response("resp_1", "incomplete", json!([bump_call("call_1")]));
    cut["incomplete_details"] = json!({"reason": "max_output_tokens"});
    let mut transport = Scripted::new(vec![
        cut,
        openai_response("resp_2", "completed", json!([answer("Done.")])),
    ]);
    let mut settings = ResponsesSettings::new("m");
    settings.continuation = Continuation::Resend;
    let mut agent = ResponsesAgent::new(&toolbox, &mut transport, settings).unwrap();
    let turn = agent.send("Bump it.", &Session::new()).await;
    drop(agent);
    assert_eq!(runs.load(Ordering::SeqCst), 0, "a cut-off call ran");
    let turn = turn.unwrap();
    assert_eq!(
        turn.end,
        ResponsesEnd::Incomplete("max_output_tokens".to_owned())
    );
    assert_eq!(turn.steps[0].not_run.len(), 1);
    assert_eq!(turn.steps[0].not_run[0].call_id, "call_1");
}

/// The same with `Continuation::PreviousResponseId`: the next request names
/// the cancelled response as `previous_response_id`, whose `function_call`
/// the API holds, so it must answer that call (once it sent no output and
/// the API refused it: "No tool output found for function call call_1").
#[tokio::test]
async fn responses_loop_answers_the_call_of_a_cancelled_response_it_continues_from() {
    let (toolbox, runs) = counting_toolbox();
    let mut transport = Scripted::new(vec![
        openai_response("resp_1", "cancelled", json!([bump_call("call_1")])),
        openai_response("resp_2", "completed", json!([answer("Hello again.")])),
    ]);
    let mut agent =
        ResponsesAgent::new(&toolbox, &mut transport, ResponsesSettings::new("m")).unwrap();
    let turn = agent.send("Bump it.", &Session::new()).await.unwrap();
    assert_eq!(turn.end, ResponsesEnd::Incomplete("cancelled".to_owned()));
    agent.send("Are you there?", &Session::new()).await.unwrap();
    drop(agent);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let second = &transport.requests[1];
    let answered = second["input"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|item| item["type"] == "function_call_output" && item["call_id"] == "call_1");
    assert!(answered, "{second}");
    assert_eq!(
        second["input"],
        json!([
            not_run_output("call_1", "cancelled"),
            {"role": "user", "content": "Are you there?"}
        ])
    );
    assert_eq!(second["previous_response_id"], "resp_1");
}
