//! Attacks on the agent loops' handling of responses
//! that did not complete: their calls are not run, each is answered
//! `CALL_NOT_RUN` in the next request, and the turn ends as `Incomplete`
//! with the status.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_contract::openai::agent::{
    AgentSettings as ResponsesSettings, Continuation, ResponsesAgent, TurnEnd as ResponsesEnd,
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

struct Scripted {
    responses: VecDeque<Value>,
    requests: Vec<Value>,
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

fn bump_call(call_id: &str) -> Value {
    json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
        "name": "bump_counter", "arguments": "{\"note\":\"a\"}", "status": "completed"})
}

/// Break (doc contract of `TurnEnd::Incomplete`): the Responses API's
/// failed response carries the reason in `error` (`"status": "failed",
/// "error": {"code": "server_error", "message": ...}`; a completed
/// response has `"error": null`). `responses_calls` reads any non-null
/// `error` as an error body and refuses the whole response, so the loop
/// never reaches its not-run path for a real failed response: the turn is
/// `Err(Response)` and the conversation is stopped for good, where the
/// docs promise `Incomplete("failed")`, the call answered `CALL_NOT_RUN`
/// and the conversation going on (the round-14b test used a failed
/// response without its `error` object).
#[tokio::test]
async fn responses_loop_ends_a_failed_response_with_its_error_as_incomplete() {
    for continuation in [Continuation::PreviousResponseId, Continuation::Resend] {
        let (toolbox, runs) = counting_toolbox();
        let failed = json!({"id": "resp_1", "object": "response", "status": "failed",
            "model": "m", "output": [bump_call("call_1")],
            "error": {"code": "server_error", "message": "The server had an error."}});
        let mut transport = Scripted {
            responses: VecDeque::from([
                failed,
                json!({"id": "resp_2", "object": "response", "status": "completed",
                    "model": "m", "error": null, "output": [{"type": "message",
                    "role": "assistant", "status": "completed", "content": [
                        {"type": "output_text", "text": "Hello again.", "annotations": []}]}]}),
            ]),
            requests: Vec::new(),
        };
        let mut settings = ResponsesSettings::new("m");
        settings.continuation = continuation;
        let mut agent = ResponsesAgent::new(&toolbox, &mut transport, settings).unwrap();
        let turn = agent
            .send("Bump it.", &Session::new())
            .await
            .map_err(|e| e.to_string());
        assert_eq!(
            turn.map(|t| t.end),
            Ok(ResponsesEnd::Incomplete("failed".to_owned())),
            "{continuation:?}"
        );
        let next = agent
            .send("Are you there?", &Session::new())
            .await
            .map_err(|e| e.to_string());
        assert_eq!(
            next.map(|t| t.end),
            Ok(ResponsesEnd::Answer("Hello again.".to_owned()))
        );
        drop(agent);
        assert_eq!(runs.load(Ordering::SeqCst), 0);
    }
}

/// Break (the whole-response path runs calls the stream path refuses):
/// `StreamAssembler::finish` gives calls only with `stop_reason:
/// "tool_use"` and refuses a response that gave none ("the response gave
/// no stop_reason"), and the Messages loop refuses a response without one;
/// but `Toolbox::answer` with a `ToolSet` reads `stop_reason` with
/// `.and_then(Value::as_str)` (`calls.rs`), so `null` (what an unfinished
/// message, such as a `message_start` payload a proxy forwards, carries),
/// a missing key or a non-string all become `None`, and
/// `not_run(None)` runs every call. A call of a response that never said
/// it stopped to call tools ran.
#[tokio::test]
async fn answer_tool_use_does_not_run_a_call_of_a_response_without_a_stop_reason() {
    use tool_contract::anthropic::ToolSet;
    let use_block = json!({"type": "tool_use", "id": "toolu_1", "name": "bump_counter", "input": {"note": "a"}});
    for stop_reason in [Some(Value::Null), None, Some(json!(7))] {
        let (toolbox, runs) = counting_toolbox();
        let tools = ToolSet::new(&[]).unwrap();
        let mut response = json!({"id": "msg_1", "type": "message", "role": "assistant",
            "model": "m", "content": [use_block.clone()]});
        if let Some(reason) = &stop_reason {
            response["stop_reason"] = reason.clone();
        }
        let round = toolbox.answer(&tools, &response, &Session::new()).await;
        assert_eq!(
            runs.load(Ordering::SeqCst),
            0,
            "stop_reason {stop_reason:?}: the call ran"
        );
        match stop_reason {
            Some(Value::Number(_)) => assert_eq!(
                round.unwrap_err().to_string(),
                "$.stop_reason: expected a string, got a number"
            ),
            _ => assert_eq!(
                round.unwrap().results[0].1.model_text().as_deref(),
                Some(
                    "Error [CALL_NOT_RUN]: The call did not run: the response gave no stop \
                     reason, so its input may be incomplete. Make the call again if it is still \
                     needed."
                ),
                "{stop_reason:?}"
            ),
        }
    }
}

/// Break (the whole-response path runs calls the loop and the stream do
/// not): a Responses response cut off at `max_output_tokens`
/// (`"status": "incomplete"`) or cancelled: the loop answers its calls
/// `CALL_NOT_RUN`, the stream assembler gives out no call of a
/// `response.incomplete`, and the Chat Completions reader refuses
/// `finish_reason: "length"`; but `Toolbox::answer` with `Api::Responses` reads the
/// calls with `responses_calls`, which never looks at `status`, and runs
/// them.
#[tokio::test]
async fn answer_responses_does_not_run_a_call_of_a_response_that_did_not_complete() {
    for status in ["incomplete", "cancelled", "in_progress"] {
        let (toolbox, runs) = counting_toolbox();
        let mut response = json!({"id": "resp_1", "object": "response", "status": status,
            "model": "m", "output": [bump_call("call_1")]});
        if status == "incomplete" {
            response["incomplete_details"] = json!({"reason": "max_output_tokens"});
        }
        let round = toolbox
            .answer(
                &tool_contract::openai::Api::Responses,
                &response,
                &Session::new(),
            )
            .await;
        assert_eq!(runs.load(Ordering::SeqCst), 0, "{status}: the call ran");
        let reason = if status == "incomplete" {
            "max_output_tokens"
        } else {
            status
        };
        assert_eq!(
            round.unwrap().results[0].1.model_text(),
            Some(format!(
                "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
                 (\"{reason}\"), so its arguments may be incomplete. Make the call again if it \
                 is still needed."
            )),
            "{status}"
        );
    }
}

/// Break (the `DUPLICATE_CALL_ID` guard is skipped on the not-run path):
/// `Toolbox::call_turn` answers calls that share an id `DUPLICATE_CALL_ID`
/// ("this guards a list of calls built any other way"), but
/// `Toolbox::answer_calls` sent the calls of a response that did not
/// stop with `tool_use` one by one through `answer_without_running`, so
/// two calls `toolu_1` built by hand get two `CALL_NOT_RUN` results and a
/// results message with two `tool_result` blocks for one id, which the
/// Messages API refuses.
#[tokio::test]
async fn not_run_calls_that_share_an_id_answer_duplicate_call_id() {
    use tool_contract::ToolCall;
    use tool_contract::anthropic::{ResponseCalls, ToolSet};
    let (toolbox, runs) = counting_toolbox();
    let calls = ResponseCalls {
        model: "m".to_owned(),
        stop_reason: Some("max_tokens".to_owned()),
        calls: vec![
            ToolCall::new("toolu_1", "bump_counter", r#"{"note":"a"}"#),
            ToolCall::new("toolu_1", "bump_counter", r#"{"note":"b"}"#),
        ],
    };
    let round = toolbox
        .answer_calls::<ToolSet>(
            calls,
            &Session::new(),
            &tool_contract::runtime::AbortHandle::new(),
        )
        .await;
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let codes: Vec<Option<String>> = round
        .results
        .iter()
        .map(|(_, result)| result.audit.error_code.clone())
        .collect();
    assert_eq!(
        codes,
        [
            Some("DUPLICATE_CALL_ID".to_owned()),
            Some("DUPLICATE_CALL_ID".to_owned())
        ]
    );
}
