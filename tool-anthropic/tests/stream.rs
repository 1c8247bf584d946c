//! Whole tool calls from recorded server-sent event streams of the Messages
//! API: `input_json_delta` pieces joined per `tool_use` block, text and
//! thinking blocks beside them, several calls, and cut streams that give an
//! error, never a half call.

use std::path::PathBuf;

use StreamErrorKind::{Api, Malformed, TooLarge, Truncated};
use serde_json::{Value, json};
use tool_anthropic::{StreamAssembler, StreamError, StreamErrorKind};

/// The `data:` payloads of a recorded `.sse` file, in order.
fn events(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/recorded")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap_or_else(|e| panic!("{data}: {e}")))
        .collect()
}

/// What kind of failure, at which event and where in it, and what is wrong.
fn parts(error: &StreamError) -> (StreamErrorKind, Option<usize>, &str, &str) {
    (error.kind(), error.event(), error.path(), error.message())
}

fn assemble(events: &[Value]) -> Result<tool_anthropic::ResponseCalls, StreamError> {
    let mut stream = StreamAssembler::new();
    for event in events {
        stream.push(event)?;
    }
    stream.finish()
}

#[test]
fn text_and_two_tool_calls() {
    let events = events("text_and_two_tools.sse");
    let mut stream = StreamAssembler::new();
    let mut finished = Vec::new();
    for event in &events {
        if let Some(call) = stream.push(event).unwrap() {
            finished.push(call.call_id);
        }
    }
    assert_eq!(
        finished,
        [
            "toolu_01A09q90qw90lq917835lq9",
            "toolu_01B7cLm2pQ8rT5vW3xY6zA9d"
        ]
    );
    assert_eq!(stream.text(), "I'll check the stock and the store hours.");
    let calls = stream.finish().unwrap();
    assert_eq!(calls.model, "claude-sonnet-4-5-20250929");
    assert_eq!(calls.stop_reason.as_deref(), Some("tool_use"));
    let summary: Vec<(&str, &str)> = calls
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "get_inventory",
                r#"{"sku": "SKU-1042", "warehouse": "BER-1"}"#
            ),
            ("get_store_hours", r#"{"store": "BER-1"}"#),
        ]
    );
}

#[test]
fn any_split_of_the_partial_json_gives_the_same_call() {
    let arguments = r#"{"sku": "SKU-1042", "note": "ü \" \\ 😀", "n": [1, 2]}"#;
    for split in (0..=arguments.len()).filter(|i| arguments.is_char_boundary(*i)) {
        let (a, b) = arguments.split_at(split);
        let mut stream = StreamAssembler::new();
        let events = [
            json!({"type": "message_start", "message": {"model": "m", "content": []}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "x", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": a}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": b}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
            json!({"type": "message_stop"}),
        ];
        for event in &events {
            stream.push(event).unwrap();
        }
        assert_eq!(
            stream.finish().unwrap().calls[0].arguments,
            arguments,
            "split at {split}"
        );
    }
}

#[test]
fn a_call_without_arguments_beside_a_thinking_block() {
    let calls = assemble(&events("no_arguments.sse")).unwrap();
    assert_eq!(calls.calls.len(), 1);
    assert_eq!(
        (
            calls.calls[0].name.as_str(),
            calls.calls[0].arguments.as_str()
        ),
        ("list_couriers", "{}")
    );
}

#[test]
fn a_stream_cut_mid_call_is_an_error_and_no_call() {
    let events = events("truncated.sse");
    let mut stream = StreamAssembler::new();
    for event in &events {
        assert_eq!(stream.push(event).unwrap(), None);
    }
    let error = stream.finish().unwrap_err();
    assert_eq!(
        (parts(&error), error.open_calls()),
        (
            (Truncated, None, "$", "no message_stop"),
            &["toolu_01Cut".to_owned()][..]
        )
    );
    assert_eq!(
        error.to_string(),
        "end of stream: no message_stop; unfinished tool calls: [toolu_01Cut]"
    );
    // Every prefix of a whole stream that stops before `message_stop` is
    // refused too.
    let whole = self::events("text_and_two_tools.sse");
    for cut in 0..whole.len() {
        assert_eq!(
            assemble(&whole[..cut]).map_err(|error| error.kind()).err(),
            Some(Truncated),
            "cut at {cut}"
        );
    }
}

#[test]
fn arguments_cut_by_max_tokens_are_an_error_and_no_call() {
    let events = events("max_tokens.sse");
    let mut stream = StreamAssembler::new();
    let mut result = Ok(None);
    for event in &events {
        result = stream.push(event);
        if result.is_err() {
            break;
        }
    }
    let error = result.unwrap_err();
    assert_eq!(
        (parts(&error), error.open_calls()),
        (
            (
                Truncated,
                Some(3),
                "$",
                "the input of tool_use block 0 (create_refund_draft) is not a whole JSON object"
            ),
            &["toolu_01Long".to_owned()][..]
        )
    );
}

#[test]
fn an_error_event_is_the_apis_error() {
    let error = assemble(&events("overloaded.sse")).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Api,
            Some(1),
            "$.error",
            "the API sent an error event: Overloaded"
        )
    );
    assert_eq!(
        error.to_string(),
        "event 1, $.error: the API sent an error event: Overloaded"
    );
}

#[test]
fn malformed_and_huge_streams_are_refused() {
    let start = json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t", "name": "x", "input": {}}});
    let delta = |text: &str| json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": text}});
    // Each on a fresh assembler: a refused stream stays refused.
    assert_eq!(
        parts(&StreamAssembler::new().push(&delta("{")).unwrap_err()),
        (
            Malformed,
            Some(0),
            "$.index",
            "a delta for content block 0, which did not start"
        )
    );
    let mut stream = StreamAssembler::new();
    stream.push(&start).unwrap();
    assert_eq!(
        parts(&stream.push(&start).unwrap_err()),
        (
            Malformed,
            Some(1),
            "$.index",
            "content block 0 started twice"
        )
    );
    assert_eq!(
        parts(&StreamAssembler::new().push(&json!([1])).unwrap_err()),
        (
            Malformed,
            Some(0),
            "$",
            "expected an event object with a `type`, got an array"
        )
    );
    let mut stream = StreamAssembler::new().with_max_argument_bytes(16);
    stream.push(&start).unwrap();
    stream.push(&delta("{\"a\": \"0123")).unwrap();
    let error = stream.push(&delta("456789\"}")).unwrap_err();
    // The call's id and the limit.
    assert_eq!(
        parts(&error),
        (
            TooLarge,
            Some(2),
            "$.delta.partial_json",
            "the arguments of tool call t are longer than 16 bytes"
        )
    );
    // Not an object: an array of arguments is not a call.
    let mut stream = StreamAssembler::new();
    stream.push(&start).unwrap();
    stream.push(&delta("[1, 2]")).unwrap();
    let error = stream
        .push(&json!({"type": "content_block_stop", "index": 0}))
        .unwrap_err();
    assert_eq!(
        (parts(&error), error.open_calls()),
        (
            (
                Truncated,
                Some(2),
                "$",
                "the input of tool_use block 0 (x) is not a whole JSON object"
            ),
            &["t".to_owned()][..]
        )
    );
    // Events after message_stop.
    let mut stream = StreamAssembler::new();
    stream.push(&json!({"type": "message_stop"})).unwrap();
    assert_eq!(
        parts(&stream.push(&json!({"type": "ping"})).unwrap_err()),
        (Malformed, Some(1), "$", "an event after `message_stop`")
    );
}

/// A refused stream stays refused: every push after an error, and
/// `finish`, give the first error again, never the calls of what was left.
#[test]
fn a_refused_stream_stays_refused() {
    let mut stream = StreamAssembler::new();
    let start = json!({"type": "message_start", "message": {"model": "m", "content": []}});
    stream.push(&start).unwrap();
    let block = json!({"type": "content_block_start", "index": 0, "content_block":
        {"type": "tool_use", "id": "t0", "name": "f", "input": {}}});
    stream.push(&block).unwrap();
    let refused = stream.push(&block).unwrap_err();
    assert_eq!(
        parts(&refused),
        (
            Malformed,
            Some(2),
            "$.index",
            "content block 0 started twice"
        )
    );
    for event in [
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ] {
        assert_eq!(stream.push(&event), Err(refused.clone()));
    }
    assert_eq!(stream.finish().unwrap_err(), refused);
}

/// Arguments sent to a text block are a call mislabelled, not text: the
/// stream is refused rather than the call dropped (the message would stop
/// for `tool_use` with the call lost).
#[test]
fn an_input_json_delta_for_a_text_block_is_refused() {
    let mut stream = StreamAssembler::new();
    for event in [
        json!({"type": "message_start", "message": {"model": "m", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    ] {
        stream.push(&event).unwrap();
    }
    let error = stream
        .push(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{\"sku\": 1}"}}))
        .unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Malformed,
            Some(2),
            "$.delta.type",
            "an input_json_delta for text block 0"
        )
    );
}
