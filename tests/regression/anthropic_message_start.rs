//! Attacks on the Anthropic stream assembler's
//! `message_start` rules: it is the first event (after any `ping`) and
//! comes once; its `stop_reason` never outranks a `message_delta`.

use serde_json::{Value, json};
use tool_contract::anthropic::{StreamAssembler, StreamErrorKind};

fn replayed_start(stop_reason: &str) -> Value {
    json!({"type": "message_start", "message": {"model": "m", "stop_reason": stop_reason,
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "bump_counter",
            "input": {"note": "a"}}]}})
}

/// A `message_delta` saying `max_tokens`, then a late `message_start`
/// replaying a message that stopped with `tool_use`: the late start is
/// refused ("first and once"); it was taken, and its `tool_use` replaced
/// the delta's last word, so the cut-off message's call was given out.
#[test]
fn a_message_start_after_a_message_delta_is_refused() {
    let mut stream = StreamAssembler::new();
    stream
        .push(&json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}}))
        .unwrap();
    let late = stream.push(&replayed_start("tool_use"));
    match late {
        Err(error) => {
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
        Ok(_) => {
            stream.push(&json!({"type": "message_stop"})).unwrap();
            let finished = stream.finish();
            assert!(
                finished.is_err(),
                "a late message_start made the max_tokens message's call runnable: {:?}",
                finished.map(|calls| (calls.stop_reason, calls.calls))
            );
        }
    }
}

/// A stream without any `message_start` is not a message: its calls are
/// not given out.
#[test]
fn a_stream_without_message_start_gives_no_calls() {
    let mut stream = StreamAssembler::new();
    let mut refused = false;
    for event in [
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "toolu_1", "name": "bump_counter", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta":
            {"type": "input_json_delta", "partial_json": "{\"note\":\"a\"}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ] {
        if stream.push(&event).is_err() {
            refused = true;
            break;
        }
    }
    if !refused {
        let finished = stream.finish();
        assert!(
            finished.is_err(),
            "calls given without a message_start: {:?}",
            finished.map(|calls| calls.calls)
        );
    }
}
