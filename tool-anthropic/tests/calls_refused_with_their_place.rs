//! Calls read from Messages API responses under attack: two
//! `tool_use` blocks with one id (whole or streamed), and events for a
//! block after its `content_block_stop`, are refused with the place and
//! the reason, never given out or dropped in silence.

use serde_json::{Value, json};
use tool_anthropic::{StreamAssembler, StreamError, StreamErrorKind, tool_use_calls};

fn start(index: u64, id: &str) -> Value {
    json!({"type": "content_block_start", "index": index,
           "content_block": {"type": "tool_use", "id": id, "name": "get_store_hours", "input": {}}})
}

fn delta(index: u64, piece: &str) -> Value {
    json!({"type": "content_block_delta", "index": index,
           "delta": {"type": "input_json_delta", "partial_json": piece}})
}

fn stop(index: u64) -> Value {
    json!({"type": "content_block_stop", "index": index})
}

/// What kind of failure, at which event and where in it, and what is wrong.
fn parts(error: &StreamError) -> (StreamErrorKind, Option<usize>, &str, &str) {
    (error.kind(), error.event(), error.path(), error.message())
}

fn push_all(stream: &mut StreamAssembler, events: &[Value]) -> Result<(), StreamError> {
    for event in events {
        stream.push(event)?;
    }
    Ok(())
}

#[test]
fn a_response_with_two_tool_use_blocks_of_one_id_is_refused() {
    let response = json!({
        "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [
            {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {"store": "BER-1"}},
            {"type": "text", "text": "And the other."},
            {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {"store": "HAM-1"}}
        ]
    });
    let error = tool_use_calls(&response).expect_err("two calls with one id");
    assert_eq!(error.path(), "$.content[2].id");
    assert_eq!(
        error.message(),
        "a second tool_use block with the id `toolu_01`; two calls with one id cannot be told \
         apart (their results would answer either), so no call is given out"
    );
}

#[test]
fn a_stream_with_two_tool_use_blocks_of_one_id_is_refused() {
    let expected = |event: usize| {
        (
            StreamErrorKind::Malformed,
            Some(event),
            "$.content_block.id",
            "a second tool_use block with the id `toolu_01`; two calls with one id cannot be \
             told apart, so no call is given out",
        )
    };
    // The first finished before the second started.
    let mut stream = StreamAssembler::new();
    push_all(
        &mut stream,
        &[start(0, "toolu_01"), delta(0, "{}"), stop(0)],
    )
    .unwrap();
    assert_eq!(
        parts(&stream.push(&start(1, "toolu_01")).unwrap_err()),
        expected(3)
    );
    // Both open at once.
    let mut stream = StreamAssembler::new();
    stream.push(&start(0, "toolu_01")).unwrap();
    assert_eq!(
        parts(&stream.push(&start(1, "toolu_01")).unwrap_err()),
        expected(1)
    );
}

#[test]
fn a_delta_after_its_block_stopped_is_refused_not_dropped() {
    let mut stream = StreamAssembler::new();
    push_all(
        &mut stream,
        &[
            start(0, "toolu_01"),
            delta(0, r#"{"store":"BER-1"}"#),
            stop(0),
        ],
    )
    .unwrap();
    assert_eq!(
        parts(&stream.push(&delta(0, r#","extra":1}"#)).unwrap_err()),
        (
            StreamErrorKind::Malformed,
            Some(3),
            "$.index",
            "a delta for content block 0 after its content_block_stop"
        )
    );
    let mut stream = StreamAssembler::new();
    push_all(
        &mut stream,
        &[
            start(0, "toolu_01"),
            delta(0, r#"{"store":"BER-1"}"#),
            stop(0),
        ],
    )
    .unwrap();
    assert_eq!(
        parts(&stream.push(&stop(0)).unwrap_err()),
        (
            StreamErrorKind::Malformed,
            Some(3),
            "$.index",
            "content block 0 stopped twice"
        )
    );
    // A text block too: its text is what it was when it stopped.
    let mut stream = StreamAssembler::new();
    let text_start = json!({"type": "content_block_start", "index": 0,
        "content_block": {"type": "text", "text": ""}});
    let text_delta = json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "text_delta", "text": "Hi."}});
    push_all(&mut stream, &[text_start, text_delta.clone(), stop(0)]).unwrap();
    assert_eq!(
        parts(&stream.push(&text_delta).unwrap_err()),
        (
            StreamErrorKind::Malformed,
            Some(3),
            "$.index",
            "a delta for content block 0 after its content_block_stop"
        )
    );
    assert_eq!(stream.text(), "Hi.");
}

/// Calls built by hand that share an id: the closure path runs none of
/// them, as `Toolbox::call_turn` does not.
#[test]
fn the_closure_path_runs_no_call_that_shares_an_id() {
    use tool_anthropic::{ResponseCalls, answer_calls};
    use tool_core::ToolCall;
    let calls = ResponseCalls {
        model: "m".to_owned(),
        stop_reason: Some("tool_use".to_owned()),
        calls: vec![
            ToolCall::new("toolu_1", "get_store_hours", "{}"),
            ToolCall::new("toolu_1", "get_store_hours", "{}"),
        ],
    };
    let round = answer_calls(calls, &[], |_| panic!("a call that shares an id ran"));
    let texts: Vec<Option<String>> = round.results.iter().map(|(_, o)| o.model_text()).collect();
    let refused = Some(
        r#"Error [DUPLICATE_CALL_ID]: Another call in this turn has the call id "toolu_1", so neither ran: their results could not be told apart. Make each call again, once."#
            .to_owned(),
    );
    assert_eq!(texts, [refused.clone(), refused]);
}
