//! A streamed response's calls, assembled from their deltas, dispatched
//! through a `Toolbox` as one turn: a streaming application gets whole
//! calls and answers them as it would a whole response, and the stream and
//! the whole response agree on which calls run.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_contract::openai::{
    Api, ChatCompletionsStream, ResponsesStream, StreamError, StreamErrorKind,
};
use tool_contract::runtime::AbortHandle;
use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};

/// Look up how many units of an item are in stock, e.g. before promising a delivery.
#[derive(Tool)]
pub struct CountStock {
    /// Stock keeping unit, e.g. "SKU-1042".
    #[tool(min_length = 1)]
    pub sku: String,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: CountStock, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("12 units of {}", call.sku))
    });
    toolbox
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

#[test]
fn streamed_chat_calls_are_answered_as_one_turn() {
    let mut stream = ChatCompletionsStream::new();
    let chunks = [
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [
            {"index": 0, "id": "call_a", "type": "function", "function": {"name": "count_stock", "arguments": "{\"sku\""}},
            {"index": 1, "id": "call_b", "type": "function", "function": {"name": "count_stock", "arguments": "{\"sku\": \"\"}"}}
        ]}}]}),
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": ": \"SKU-1\"}"}}]}}]}),
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    for chunk in &chunks {
        stream.push(chunk).unwrap();
    }
    let calls = stream.finish().unwrap();
    let round = runtime().block_on(toolbox().answer_calls::<tool_contract::openai::Api>(
        calls,
        &Session::new(),
        &AbortHandle::new(),
    ));
    assert_eq!(round.answer.api, Api::ChatCompletions);
    assert_eq!(
        round.answer.items,
        [
            json!({"role": "tool", "tool_call_id": "call_a", "content": "12 units of SKU-1"}),
            json!({"role": "tool", "tool_call_id": "call_b", "content":
                "Error [INVALID_ARGUMENTS]: $.sku: expected at least 1 character, got 0 characters"}),
        ]
    );
}

#[test]
fn a_streamed_responses_call_is_answered_once_the_stream_completes() {
    let mut stream = ResponsesStream::new();
    let events = [
        json!({"type": "response.created", "response": {"id": "resp_1", "model": "gpt-4.1", "output": []}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call",
            "id": "fc_1", "call_id": "call_1", "name": "count_stock", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"sku\":\"SKU-9\"}"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call",
            "id": "fc_1", "call_id": "call_1", "name": "count_stock", "arguments": "{\"sku\":\"SKU-9\"}", "status": "completed"}}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "model": "gpt-4.1", "status": "completed"}}),
    ];
    for event in &events {
        stream.push(event).unwrap();
    }
    let round = runtime().block_on(toolbox().answer_calls::<tool_contract::openai::Api>(
        stream.finish().unwrap(),
        &Session::new(),
        &AbortHandle::new(),
    ));
    assert_eq!(
        round.answer.items,
        [
            json!({"type": "function_call_output", "call_id": "call_1", "output": "12 units of SKU-9"})
        ]
    );
}

/// A toolbox whose `count_stock` counts its runs.
fn counting_toolbox() -> (Toolbox, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&runs);
    let mut toolbox = Toolbox::new();
    toolbox.register(move |call: CountStock, _cx: CallContext| {
        let counter = Arc::clone(&counter);
        async move {
            counter.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("12 units of {}", call.sku))
        }
    });
    (toolbox, runs)
}

/// The events a server streams for `response`: each `function_call` item
/// added, its arguments as one delta, done as the response lists it, then
/// the response's end (`response.completed`, or `response.incomplete` /
/// `response.failed` for those statuses).
fn streamed(response: &Value) -> Vec<Value> {
    let mut events = vec![json!({"type": "response.created", "response": {
        "id": response["id"], "model": response["model"], "status": "in_progress", "output": []}})];
    for (index, item) in response["output"].as_array().unwrap().iter().enumerate() {
        let mut added = item.clone();
        added["arguments"] = json!("");
        added["status"] = json!("in_progress");
        events.push(
            json!({"type": "response.output_item.added", "output_index": index, "item": added}),
        );
        events.push(
            json!({"type": "response.function_call_arguments.delta", "output_index": index,
            "item_id": item["id"], "delta": item["arguments"]}),
        );
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": item}),
        );
    }
    let end = match response["status"].as_str() {
        Some("incomplete") => "response.incomplete",
        Some("failed") => "response.failed",
        _ => "response.completed",
    };
    events.push(json!({"type": end, "response": response}));
    events
}

/// What the stream path gives: the outputs of the calls it ran, or the kind
/// and text of the error that refused the stream.
type Streamed = Result<Vec<Value>, (StreamErrorKind, String)>;

/// What the stream path does with `events`: the calls given (at most once,
/// never before the response ended) answered by the toolbox, or the error
/// that refused the stream, its kind and text (then no call runs).
fn through_the_stream(toolbox: &Toolbox, events: &[Value]) -> Streamed {
    let shown = |e: StreamError| (e.kind(), e.to_string());
    let mut stream = ResponsesStream::new();
    for (i, event) in events.iter().enumerate() {
        let given = stream.push(event).map_err(shown)?;
        // Nothing is handed out before the last event (the response's end).
        assert!(
            given.is_empty() || i == events.len() - 1,
            "a call given at event {i}"
        );
    }
    let calls = stream.finish().map_err(shown)?;
    let round = runtime().block_on(toolbox.answer_calls::<tool_contract::openai::Api>(
        calls,
        &Session::new(),
        &AbortHandle::new(),
    ));
    Ok(round.answer.items)
}

fn function_call(call_id: &str, sku_arguments: &str, status: Option<&str>) -> Value {
    let mut item = json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
        "name": "count_stock", "arguments": sku_arguments});
    if let Some(status) = status {
        item["status"] = json!(status);
    }
    item
}

fn responses_response(status: &str, output: Value) -> Value {
    json!({"id": "resp_1", "object": "response", "model": "gpt-4.1", "status": status, "output": output})
}

fn not_run(reason: &str) -> String {
    format!(
        "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
         (\"{reason}\"), so its arguments may be incomplete. Make the call again if it is still \
         needed."
    )
}

/// The same response, whole and streamed: whatever the status of the
/// response and of each `function_call` item, the two paths run the same
/// calls (none when one is not whole) and give the same outputs when they
/// run; where the stream is refused, the whole path answers every call
/// `CALL_NOT_RUN` and nothing runs on either path.
#[test]
fn the_stream_and_the_whole_response_run_the_same_calls() {
    let whole_call = |id| function_call(id, r#"{"sku":"SKU-1"}"#, Some("completed"));
    // A refused stream names every call it holds back: the calls the
    // whole path answers `CALL_NOT_RUN`.
    let cases: Vec<(Value, Streamed)> = vec![
        // Whole: both run both calls, once each.
        (
            responses_response(
                "completed",
                json!([
                    whole_call("call_1"),
                    function_call("call_2", r#"{"sku":"SKU-2"}"#, None)
                ]),
            ),
            Ok(vec![
                json!({"type": "function_call_output", "call_id": "call_1", "output": "12 units of SKU-1"}),
                json!({"type": "function_call_output", "call_id": "call_2", "output": "12 units of SKU-2"}),
            ]),
        ),
        (
            responses_response(
                "completed",
                json!([
                    whole_call("call_1"),
                    function_call("call_2", r#"{"sku":"SK"#, Some("incomplete"))
                ]),
            ),
            Err((
                StreamErrorKind::Truncated,
                "event 6, $.item.status: call `call_2` is done with status `incomplete`; it is \
                 not whole; unfinished tool calls: [call_1, call_2]"
                    .to_owned(),
            )),
        ),
        (
            responses_response(
                "completed",
                json!([
                    whole_call("call_1"),
                    function_call("call_2", r#"{"sku":"SKU-2"}"#, Some("in_progress"))
                ]),
            ),
            Err((
                StreamErrorKind::Truncated,
                "event 6, $.item.status: call `call_2` is done with status `in_progress`; it is \
                 not whole; unfinished tool calls: [call_1, call_2]"
                    .to_owned(),
            )),
        ),
        (
            {
                let mut cut = responses_response("incomplete", json!([whole_call("call_1")]));
                cut["incomplete_details"] = json!({"reason": "max_output_tokens"});
                cut
            },
            Err((
                StreamErrorKind::Truncated,
                "event 4, $.type: the response ended as `response.incomplete` \
                 (max_output_tokens); no call is given out; unfinished tool calls: [call_1]"
                    .to_owned(),
            )),
        ),
    ];
    for (response, expected_stream) in cases {
        let (streaming, stream_runs) = counting_toolbox();
        let stream_items = through_the_stream(&streaming, &streamed(&response));
        assert_eq!(stream_items, expected_stream, "{response}");

        let (whole, whole_runs) = counting_toolbox();
        let round = runtime()
            .block_on(whole.answer(
                &tool_contract::openai::Api::Responses,
                &response,
                &Session::new(),
            ))
            .unwrap();
        let closure_runs = AtomicUsize::new(0);
        let closure =
            tool_contract::openai::answer_responses(&response, &[CountStock::contract()], |_| {
                closure_runs.fetch_add(1, Ordering::SeqCst);
                tool_contract::ToolOutput::success("ran")
            })
            .unwrap();
        match &stream_items {
            Ok(items) => {
                assert_eq!(&round.answer.items, items, "{response}");
                assert_eq!(stream_runs.load(Ordering::SeqCst), 2);
                assert_eq!(whole_runs.load(Ordering::SeqCst), 2);
                assert_eq!(closure_runs.load(Ordering::SeqCst), 2);
            }
            Err(_) => {
                let reason = tool_contract::openai::unfinished(&response).unwrap();
                let answered: Vec<Value> = response["output"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|item| {
                        json!({"type": "function_call_output", "call_id": item["call_id"],
                        "output": not_run(&reason)})
                    })
                    .collect();
                assert_eq!(round.answer.items, answered, "{response}");
                assert_eq!(closure.answer.items, answered, "{response}");
                assert_eq!(stream_runs.load(Ordering::SeqCst), 0);
                assert_eq!(whole_runs.load(Ordering::SeqCst), 0);
                assert_eq!(closure_runs.load(Ordering::SeqCst), 0);
            }
        }
    }
}
