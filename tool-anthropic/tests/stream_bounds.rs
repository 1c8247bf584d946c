//! The bounds the Messages stream assembler holds a whole streamed response
//! to, the ones every provider's assembler shares
//! (`tool_core::outcome::stream_limits`): calls, argument bytes over all
//! calls, text over all blocks, content blocks. What is at a bound is
//! accepted, one past it refused with the shared message, never buffered.

use serde_json::{Value, json};
use tool_anthropic::{StreamAssembler, StreamError, StreamErrorKind};
use tool_core::outcome::stream_limits;

fn start() -> Value {
    json!({"type": "message_start", "message": {"model": "m", "content": []}})
}

fn tool_use(index: usize) -> [Value; 2] {
    [
        json!({"type": "content_block_start", "index": index, "content_block":
            {"type": "tool_use", "id": format!("t{index}"), "name": "f", "input": {}}}),
        json!({"type": "content_block_stop", "index": index}),
    ]
}

fn end() -> [Value; 2] {
    [
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ]
}

/// The kind and message of a stream refused past a bound (the event and
/// the place are asserted where they are known).
fn over(message: String) -> (StreamErrorKind, String) {
    (StreamErrorKind::OverLimit, message)
}

fn kind_and_message(error: &StreamError) -> (StreamErrorKind, String) {
    (error.kind(), error.message().to_owned())
}

#[test]
fn takes_1024_calls_and_refuses_the_1025th() {
    let mut stream = StreamAssembler::new();
    stream.push(&start()).unwrap();
    for index in 0..1024 {
        for event in tool_use(index) {
            stream.push(&event).unwrap();
        }
    }
    let [started, _] = tool_use(1024);
    let mut past = StreamAssembler::new();
    past.push(&start()).unwrap();
    for index in 0..1024 {
        for event in tool_use(index) {
            past.push(&event).unwrap();
        }
    }
    let error = past.push(&started).unwrap_err();
    assert_eq!(
        kind_and_message(&error),
        over(stream_limits::too_many_calls())
    );
    // The message_start, then 2 events a call.
    assert_eq!(
        (error.event(), error.path()),
        (Some(1 + 2 * 1024), "$.content_block")
    );
    assert_eq!(
        error.to_string(),
        "event 2049, $.content_block: more than 1024 calls in one response; the stream is refused"
    );
    for event in end() {
        stream.push(&event).unwrap();
    }
    assert_eq!(stream.finish().unwrap().calls.len(), 1024);

    // The calls of a replayed `message_start` count as well.
    let blocks: Vec<Value> = (0..1025)
        .map(|i| json!({"type": "tool_use", "id": format!("t{i}"), "name": "f", "input": {}}))
        .collect();
    let replayed = json!({"type": "message_start", "message": {"model": "m", "content": blocks}});
    let error = StreamAssembler::new().push(&replayed).unwrap_err();
    assert_eq!(
        kind_and_message(&error),
        over(stream_limits::too_many_calls())
    );
    assert_eq!(
        (error.event(), error.path()),
        (Some(0), "$.message.content")
    );
}

/// 300 MiB of text in one block was kept; now 16 MiB of text over all
/// blocks is, and the delta that goes past it is refused.
#[test]
fn text_over_all_blocks_is_bounded() {
    let piece = "a".repeat(1 << 20);
    let run = |extra: &str| -> Result<usize, StreamError> {
        let mut stream = StreamAssembler::new();
        stream.push(&start())?;
        // 8 MiB in each of two blocks, then `extra` in the second.
        for index in 0..2 {
            stream.push(&json!({"type": "content_block_start", "index": index,
                "content_block": {"type": "text", "text": ""}}))?;
            for _ in 0..8 {
                stream.push(&json!({"type": "content_block_delta", "index": index,
                    "delta": {"type": "text_delta", "text": piece}}))?;
            }
        }
        stream.push(&json!({"type": "content_block_delta", "index": 1,
            "delta": {"type": "text_delta", "text": extra}}))?;
        Ok(stream.text().len())
    };
    assert_eq!(run(""), Ok(stream_limits::MAX_TEXT_BYTES));
    let error = run("b").unwrap_err();
    assert_eq!(
        kind_and_message(&error),
        over(stream_limits::too_much_text())
    );
    // The start, 2 blocks of 1 start and 8 deltas each, then the delta.
    assert_eq!(
        error.to_string(),
        "event 19, $.delta.text: the response's text and thinking add up to more than 16777216 \
         bytes; the stream is refused"
    );
}

/// With the per-call limit raised, the response's bound still holds: the
/// id, name and arguments of its calls add up to at most 32 MiB.
#[test]
fn arguments_over_all_calls_are_bounded() {
    let run = |extra: &str| -> Result<usize, StreamError> {
        let mut stream = StreamAssembler::new().with_max_argument_bytes(usize::MAX);
        stream.push(&start())?;
        // `t0` and `f`: 3 bytes; then the input, 32 MiB - 3 bytes in all.
        stream.push(
            &json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "tool_use", "id": "t0", "name": "f", "input": {}}}),
        )?;
        let chunk = "a".repeat(1 << 20);
        let mut pieces = vec!["{\"a\": \"".to_owned()];
        let mut len = 7;
        while len + chunk.len() <= stream_limits::MAX_ARGUMENT_BYTES - 3 - 2 {
            pieces.push(chunk.clone());
            len += chunk.len();
        }
        pieces.push("a".repeat(stream_limits::MAX_ARGUMENT_BYTES - 3 - 2 - len));
        pieces.push(format!("{extra}\"}}"));
        for piece in pieces {
            stream.push(&json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": piece}}))?;
        }
        let call = stream
            .push(&json!({"type": "content_block_stop", "index": 0}))?
            .expect("a whole call");
        Ok(call.call_id.len() + call.name.len() + call.arguments.len())
    };
    assert_eq!(run(""), Ok(stream_limits::MAX_ARGUMENT_BYTES));
    let error = run("a").unwrap_err();
    assert_eq!(
        kind_and_message(&error),
        over(stream_limits::too_much_arguments())
    );
    assert_eq!(error.path(), "$.delta.partial_json");
    assert_eq!(
        stream_limits::too_much_arguments(),
        "the arguments of the response's calls add up to more than 33554432 bytes; the stream \
         is refused"
    );
}

#[test]
fn takes_4096_content_blocks_and_refuses_the_4097th() {
    let block = |index: usize| {
        json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "server_tool_use_of_2030"}})
    };
    let mut stream = StreamAssembler::new();
    stream.push(&start()).unwrap();
    for index in 0..4096 {
        stream.push(&block(index)).unwrap();
    }
    let error = stream.push(&block(4096)).unwrap_err();
    assert_eq!(
        kind_and_message(&error),
        over(stream_limits::too_many_parts("content blocks"))
    );
    assert_eq!(
        error.to_string(),
        "event 4097, $.content_block: more than 4096 content blocks in one response; the stream \
         is refused"
    );
}

/// The content a `message_start` carries (a proxy replaying a finished
/// message) is part of the response: its blocks count toward the 4,096.
#[test]
fn content_blocks_of_message_start_count_toward_the_bound() {
    let content: Vec<Value> = (0..4000)
        .map(|_| json!({"type": "text", "text": "x"}))
        .collect();
    let block = |index: usize| {
        json!({"type": "content_block_start", "index": index,
            "content_block": {"type": "server_tool_use_of_2030"}})
    };
    let mut stream = StreamAssembler::new();
    stream
        .push(&json!({"type": "message_start", "message": {"model": "m", "content": content}}))
        .unwrap();
    for index in 4000..4096 {
        stream.push(&block(index)).unwrap();
    }
    let error = stream.push(&block(4096)).unwrap_err();
    assert_eq!(
        kind_and_message(&error),
        over(stream_limits::too_many_parts("content blocks"))
    );
    assert_eq!((error.event(), error.path()), (Some(97), "$.content_block"));
}

/// The ids and names of the calls a `message_start` carries count toward
/// the response's 32 MiB as a streamed block's do.
#[test]
fn ids_and_names_of_message_start_calls_count_toward_the_bound() {
    let long = "i".repeat(11 << 20);
    let message = |field: &str| {
        let content: Vec<Value> = (0..3)
            .map(|index| {
                let mut block = json!({"type": "tool_use", "id": format!("t{index}"),
                    "name": format!("f{index}"), "input": {}});
                block[field] = json!(format!("{field}{index}{long}"));
                block
            })
            .collect();
        json!({"type": "message_start", "message": {"model": "m", "content": content,
            "stop_reason": "tool_use"}})
    };
    for field in ["id", "name"] {
        let error = StreamAssembler::new().push(&message(field)).unwrap_err();
        assert_eq!(
            kind_and_message(&error),
            over(stream_limits::too_much_arguments()),
            "{field}"
        );
        assert_eq!(
            (error.event(), error.path()),
            (Some(0), "$.message.content"),
            "{field}"
        );
    }
}
