//! Attacks on the stream assemblers' paths for calls outside the deltas:
//! calls a proxy puts in the Anthropic `message_start`, and the
//! `function_call` items of the Responses `response.completed` event. A
//! call id is given at most once: two calls with one id cannot be told
//! apart by their results.

use serde_json::json;
use tool_contract::anthropic::{StreamAssembler, StreamErrorKind};
use tool_contract::openai::ResponsesStream;

/// A proxy replaying a finished message puts its content in
/// `message_start`; the same `tool_use` also streamed as a block is a
/// second call with one id. The block path refuses a block whose id a
/// `message_start` call has, but not the other way round:
/// `message_start` extends `calls` without looking at the calls already
/// there (`stream.rs`, `self.calls.extend(whole.calls)`), so a second
/// `message_start` (or one after the block) gives two calls `toolu_1`.
#[test]
fn anthropic_message_start_after_a_streamed_block_does_not_give_its_call_twice() {
    let block = json!({"type": "tool_use", "id": "toolu_1", "name": "bump_counter",
        "input": {"note": "a"}});
    let start = json!({"type": "message_start", "message": {"model": "m", "content": [block]}});
    let mut stream = StreamAssembler::new();
    let mut refused = None;
    for event in [
        json!({"type": "message_start", "message": {"model": "m", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "bump_counter", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta":
            {"type": "input_json_delta", "partial_json": "{\"note\":\"a\"}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        start.clone(),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ] {
        if let Err(error) = stream.push(&event) {
            refused = Some(error);
            break;
        }
    }
    let ids: Vec<String> = match refused {
        Some(error) => {
            assert_eq!(
                (error.kind(), error.message()),
                (
                    StreamErrorKind::Malformed,
                    "a message_start after the message started"
                )
            );
            assert_eq!(
                error.to_string(),
                "event 4, $.type: a message_start after the message started"
            );
            return;
        }
        None => stream
            .finish()
            .unwrap()
            .calls
            .into_iter()
            .map(|call| call.call_id)
            .collect(),
    };
    assert_eq!(ids, ["toolu_1"], "one call given twice");
}

/// The same with `message_start` sent twice (a proxy retrying its first
/// event): its one call was given twice; the second start is refused.
#[test]
fn anthropic_message_start_twice_does_not_give_its_call_twice() {
    let block = json!({"type": "tool_use", "id": "toolu_1", "name": "bump_counter",
        "input": {"note": "a"}});
    let start = json!({"type": "message_start", "message": {"model": "m", "content": [block]}});
    let mut stream = StreamAssembler::new();
    assert_eq!(stream.push(&start).unwrap(), None);
    let error = stream.push(&start).unwrap_err();
    assert_eq!(
        (error.kind(), error.message()),
        (
            StreamErrorKind::Malformed,
            "a message_start after the message started"
        )
    );
    assert_eq!(
        error.to_string(),
        "event 1, $.type: a message_start after the message started"
    );
}

/// `response.completed` whose `output` holds two different
/// `function_call` items with one `call_id` (none streamed before): the
/// streamed path (`response.output_item.done`) and the whole-response
/// reader (`responses_calls`) both refuse two calls with one id; the
/// completed path adopts the first and silently drops the second
/// (`adopt_completed_calls`: `if self.done...any(...) { continue }`), so
/// one of the model's calls vanishes with no error and no output.
#[test]
fn responses_completed_with_two_calls_of_one_id_is_refused() {
    let mut stream = ResponsesStream::new();
    stream
        .push(
            &json!({"type": "response.created", "response": {"id": "resp_1", "model": "m",
            "output": []}}),
        )
        .unwrap();
    let completed = stream.push(&json!({"type": "response.completed", "response": {
    "id": "resp_1", "model": "m", "status": "completed", "output": [
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "bump_counter",
         "arguments": "{\"note\":\"a\"}", "status": "completed"},
        {"type": "function_call", "id": "fc_2", "call_id": "call_1", "name": "delete_all",
         "arguments": "{}", "status": "completed"}
    ]}}));
    assert_eq!(
        completed.unwrap_err().to_string(),
        "event 1, $.response.output[1].call_id: a second call with the id `call_1`; two calls \
         with one id cannot be told apart, so no call is given out"
    );
}

/// Missed adoption: a proxy that replays a finished message puts it
/// whole in `message_start`, its `stop_reason` (`"tool_use"`) included,
/// and sends no `message_delta`. The assembler adopts the message's
/// content but reads `stop_reason` only from `message_delta`, so `finish`
/// refuses the very calls it adopted ("the response gave no
/// stop_reason").
#[test]
fn anthropic_message_start_with_its_stop_reason_gives_its_calls() {
    let mut stream = StreamAssembler::new();
    for event in [
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
            "role": "assistant", "model": "m", "stop_reason": "tool_use", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "bump_counter",
                 "input": {"note": "a"}}]}}),
        json!({"type": "message_stop"}),
    ] {
        stream.push(&event).unwrap();
    }
    let calls = stream.finish().map_err(|e| e.to_string()).unwrap();
    assert_eq!(calls.stop_reason.as_deref(), Some("tool_use"));
    assert_eq!(calls.calls.len(), 1);
    assert_eq!(calls.calls[0].arguments, r#"{"note":"a"}"#);
}

/// A call in `response.completed` with the id of a streamed call but other
/// arguments is not that call: refused, not taken for a repeat.
#[test]
fn responses_completed_call_that_differs_from_the_streamed_one_is_refused() {
    let item = |arguments: &str| {
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "bump_counter", "arguments": arguments, "status": "completed"})
    };
    let mut stream = ResponsesStream::new();
    for event in [
        json!({"type": "response.created", "response": {"model": "m"}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": item("")}),
        json!({"type": "response.output_item.done", "output_index": 0,
            "item": item("{\"note\":\"a\"}")}),
    ] {
        stream.push(&event).unwrap();
    }
    let error = stream
        .push(
            &json!({"type": "response.completed", "response": {"model": "m",
            "output": [item("{\"note\":\"b\"}")]}}),
        )
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "event 3, $.response.output[0].call_id: call `call_1` in the completed response is not \
         the call streamed with that id; two calls with one id cannot be told apart"
    );
}
