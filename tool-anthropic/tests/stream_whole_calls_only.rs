//! Attacks on the Anthropic stream assembler: a
//! streaming application gets only whole calls, never a half call.

use serde_json::json;
use tool_anthropic::{StreamAssembler, StreamError, StreamErrorKind};

/// What kind of failure, at which event and where in it, and what is wrong.
fn parts(error: &StreamError) -> (StreamErrorKind, Option<usize>, &str, &str) {
    (error.kind(), error.event(), error.path(), error.message())
}

/// `max_tokens` reached right after a `tool_use` block started, before any
/// `input_json_delta`: the API closes the block and stops with
/// `"max_tokens"`. The block's input is the `{}` of `content_block_start`,
/// a whole JSON object, so the assembler gives the call out (from `push`
/// and again from `finish`, with `stop_reason: "max_tokens"`) as if the
/// model had chosen no arguments; a tool whose arguments are all optional
/// then runs with none. The arguments were cut off, as with any other
/// `max_tokens` cut (which is `StreamErrorKind::Truncated`), so no call may be
/// given out. (A call that is whole before a later block is cut by
/// `max_tokens` is given out too; the non-streamed Messages loop runs no
/// call of a response that did not stop with `tool_use`.)
#[test]
fn a_tool_use_cut_by_max_tokens_before_its_first_delta_is_not_a_whole_call() {
    let mut stream = StreamAssembler::new();
    let mut given = Vec::new();
    let mut error = None;
    for event in [
        json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_01", "name": "list_orders", "input": {}}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}),
        json!({"type": "message_stop"}),
    ] {
        match stream.push(&event) {
            Ok(Some(call)) => given.push(call.call_id),
            Ok(None) => {}
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    // `push` already gave the call out at its `content_block_stop`
    // (`given`), before the stop reason was known; the least a fix must do
    // is what `finish` gives, which the whole-response readers use.
    let error = match error {
        Some(error) => error,
        None => match stream.finish() {
            Ok(calls) => panic!(
                "finish gave {} call(s) with stop_reason {:?} (push gave {given:?})",
                calls.calls.len(),
                calls.stop_reason
            ),
            Err(error) => error,
        },
    };
    assert_eq!(
        (parts(&error), error.open_calls()),
        (
            (
                StreamErrorKind::Truncated,
                None,
                "$",
                "the response stopped with `max_tokens`, not `tool_use`: its tool_use blocks \
                 may be cut off"
            ),
            &["toolu_01".to_owned()][..]
        )
    );
}

/// A proxy that replays a finished message as a stream sends its content in
/// `message_start` (`message.content` with a `tool_use` block) and no
/// `content_block_*` events. The assembler once read only the model from
/// `message_start`, so the call was lost without a word; its `tool_use`
/// blocks are now calls `finish` gives, its text is the text.
#[test]
fn a_tool_use_in_message_start_is_given_by_finish() {
    let mut stream = StreamAssembler::new();
    for event in [
        json!({"type": "message_start", "message": {"model": "m", "content": [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {"store": "BER-1"}}
        ]}}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ] {
        assert_eq!(stream.push(&event).unwrap(), None);
    }
    assert_eq!(stream.text(), "Checking.");
    let calls = stream.finish().unwrap().calls;
    let calls: Vec<(&str, &str)> = calls
        .iter()
        .map(|c| (c.call_id.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(calls, [("toolu_01", r#"{"store":"BER-1"}"#)]);
    // A streamed block with the id of one given in message_start is a
    // second call with one id.
    let mut stream = StreamAssembler::new();
    stream
        .push(
            &json!({"type": "message_start", "message": {"model": "m", "content": [
                {"type": "tool_use", "id": "toolu_01", "name": "a", "input": {}}
            ]}}),
        )
        .unwrap();
    let error = stream
        .push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_01", "name": "a", "input": {}}}),
        )
        .unwrap_err();
    assert_eq!(
        parts(&error),
        (
            StreamErrorKind::Malformed,
            Some(1),
            "$.content_block.id",
            "a second tool_use block with the id `toolu_01`; two calls with one id cannot be \
             told apart, so no call is given out"
        )
    );
    // A malformed block there is refused with its place.
    let mut stream = StreamAssembler::new();
    let error = stream
        .push(
            &json!({"type": "message_start", "message": {"model": "m", "content": [
                {"type": "tool_use", "id": 7, "name": "a", "input": {}}
            ]}}),
        )
        .unwrap_err();
    // The place in the message_start event, and what is wrong there.
    assert_eq!(
        parts(&error),
        (
            StreamErrorKind::Malformed,
            Some(0),
            "$.message.content[0].id",
            "expected a string, got a number"
        )
    );
    assert_eq!(
        error.to_string(),
        "event 0, $.message.content[0].id: expected a string, got a number"
    );
}
