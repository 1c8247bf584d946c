//! The bounds both OpenAI stream assemblers hold a whole streamed response
//! to, the ones every provider's assembler shares
//! (`tool_core::outcome::stream_limits`): calls, argument bytes over all
//! calls, choices. What is at a bound is accepted, one past it refused
//! with the event, the path and the shared message.

use serde_json::{Value, json};
use tool_core::outcome::stream_limits;
use tool_openai::{
    ChatCompletionsStream, MAX_STREAMED_ARGUMENT_BYTES, MAX_STREAMED_CALLS,
    MAX_STREAMED_RESPONSE_ARGUMENT_BYTES, ResponsesStream, StreamError, StreamErrorKind,
};

/// The place and message of a stream refused past a bound (each one here
/// is, so its kind is `OverLimit`).
fn parts(error: &StreamError) -> (Option<usize>, &str, &str) {
    assert_eq!(error.kind(), StreamErrorKind::OverLimit, "{error}");
    (error.event(), error.path(), error.message())
}

/// A JSON string value of exactly `bytes` bytes of text (quotes included).
fn json_text(bytes: usize) -> String {
    format!("\"{}\"", "a".repeat(bytes - 2))
}

#[test]
fn the_bounds_are_the_shared_ones() {
    assert_eq!(MAX_STREAMED_CALLS, 1024);
    assert_eq!(MAX_STREAMED_CALLS, stream_limits::MAX_CALLS);
    assert_eq!(MAX_STREAMED_RESPONSE_ARGUMENT_BYTES, 32 << 20);
    assert_eq!(
        MAX_STREAMED_RESPONSE_ARGUMENT_BYTES,
        stream_limits::MAX_ARGUMENT_BYTES
    );
    assert_eq!(MAX_STREAMED_ARGUMENT_BYTES, 16 << 20);
    assert_eq!(stream_limits::MAX_PARTS, 4096);
    assert_eq!(stream_limits::MAX_TEXT_BYTES, 16 << 20);
}

// ---- Chat Completions ----

fn chat_call(index: usize, name: &str, arguments: &str) -> Value {
    json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": index, "id": format!("call_{index}"), "type": "function",
         "function": {"name": name, "arguments": arguments}}]}}]})
}

fn chat_finish() -> Value {
    json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
}

#[test]
fn chat_takes_1024_calls_and_refuses_the_1025th() {
    let mut stream = ChatCompletionsStream::new();
    for index in 0..1024 {
        stream.push(&chat_call(index, "f", "{}")).unwrap();
    }
    let mut past = stream;
    let error = past.push(&chat_call(1024, "f", "{}")).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(1024),
            "$.choices[0].delta.tool_calls[0].index",
            "more than 1024 calls in one response; the stream is refused"
        )
    );
    let mut stream = ChatCompletionsStream::new();
    for index in 0..1024 {
        stream.push(&chat_call(index, "f", "{}")).unwrap();
    }
    assert_eq!(stream.push(&chat_finish()).unwrap().len(), 1024);
    assert_eq!(stream.finish().unwrap().calls.len(), 1024);
}

/// Many calls each under the per-call limit no longer add up past the
/// response's bound: 32 MiB of ids, names and arguments in all pass, one
/// byte more is refused at the fragment that brings it.
#[test]
fn chat_arguments_over_all_calls_are_bounded() {
    let half = MAX_STREAMED_ARGUMENT_BYTES;
    let at_bound = |last: usize| {
        let mut stream = ChatCompletionsStream::new();
        // 6 + 1 + 16 MiB, then 6 + 1 + (16 MiB - 14) + `last`.
        stream.push(&chat_call(0, "f", &json_text(half))).unwrap();
        stream
            .push(&chat_call(1, "g", &json_text(half - 14 + last)))
            .map(|_| stream)
    };
    let mut stream = at_bound(0).unwrap();
    let whole = stream.push(&chat_finish()).unwrap();
    assert_eq!(whole.len(), 2);
    assert_eq!(
        whole
            .iter()
            .map(|c| c.call_id.len() + c.name.len() + c.arguments.len())
            .sum::<usize>(),
        MAX_STREAMED_RESPONSE_ARGUMENT_BYTES
    );
    let error = at_bound(1).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(1),
            "$.choices[0].delta.tool_calls[0].function.arguments",
            "the arguments of the response's calls add up to more than 33554432 bytes; the \
             stream is refused"
        )
    );
    assert_eq!(error.message(), stream_limits::too_much_arguments());
}

#[test]
fn chat_takes_4096_choices_and_refuses_the_4097th() {
    let choices = |n: usize| {
        let choices: Vec<Value> = (0..n)
            .map(
                |index| json!({"index": index, "delta": {"content": "x"}, "finish_reason": "stop"}),
            )
            .collect();
        json!({"model": "m", "choices": choices})
    };
    let mut stream = ChatCompletionsStream::new();
    stream.push(&choices(4096)).unwrap();
    assert!(stream.finish().unwrap().calls.is_empty());
    let error = ChatCompletionsStream::new()
        .push(&choices(4097))
        .unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(0),
            "$.choices[4096].index",
            "more than 4096 choices in one response; the stream is refused"
        )
    );
}

// ---- Responses ----

fn added(index: usize, arguments: &str) -> Value {
    json!({"type": "response.output_item.added", "output_index": index, "item": {
        "type": "function_call", "id": format!("fc_{index}"), "call_id": format!("call_{index}"),
        "name": "f", "arguments": arguments, "status": "in_progress"}})
}

fn done(index: usize, arguments: &str) -> Value {
    json!({"type": "response.output_item.done", "output_index": index, "item": {
        "type": "function_call", "id": format!("fc_{index}"), "call_id": format!("call_{index}"),
        "name": "f", "arguments": arguments, "status": "completed"}})
}

fn created() -> Value {
    json!({"type": "response.created", "response": {"id": "resp_1", "model": "m", "output": []}})
}

fn completed() -> Value {
    json!({"type": "response.completed", "response": {"id": "resp_1", "model": "m", "status": "completed"}})
}

#[test]
fn responses_takes_1024_calls_and_refuses_the_1025th() {
    let mut stream = ResponsesStream::new();
    stream.push(&created()).unwrap();
    for index in 0..1024 {
        stream.push(&added(index, "")).unwrap();
        stream.push(&done(index, "{}")).unwrap();
    }
    let mut past = ResponsesStream::new();
    past.push(&created()).unwrap();
    for index in 0..1024 {
        past.push(&added(index, "")).unwrap();
    }
    let error = past.push(&added(1024, "")).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(1025),
            "$.item",
            "more than 1024 calls in one response; the stream is refused"
        )
    );
    assert_eq!(stream.push(&completed()).unwrap().len(), 1024);
}

/// The bound counts what is held: arguments replaced by
/// `function_call_arguments.done` or by the done item's whole text are
/// not counted twice; two calls of 16 MiB pass, one byte more does not.
#[test]
fn responses_arguments_over_all_calls_are_bounded() {
    let per_call = MAX_STREAMED_ARGUMENT_BYTES;
    let run = |last: usize| -> Result<usize, StreamError> {
        let mut stream = ResponsesStream::new();
        stream.push(&created())?;
        let first = json_text(per_call - 1);
        stream.push(&added(0, ""))?;
        stream.push(&json!({"type": "response.function_call_arguments.delta",
            "output_index": 0, "item_id": "fc_0", "delta": first}))?;
        stream.push(&json!({"type": "response.function_call_arguments.done",
            "output_index": 0, "item_id": "fc_0", "arguments": first}))?;
        stream.push(&done(0, &first))?;
        // 4 + 6 + 1 + (16 MiB - 1) held (item id, call id, name,
        // arguments); then 4 + 6 + 1 + (16 MiB - 21) + `last`.
        let second = json_text(per_call - 21 + last);
        stream.push(&added(1, ""))?;
        stream.push(&json!({"type": "response.function_call_arguments.delta",
            "output_index": 1, "item_id": "fc_1", "delta": second}))?;
        stream.push(&done(1, &second))?;
        Ok(stream.push(&completed())?.len())
    };
    assert_eq!(run(0), Ok(2));
    let error = run(1).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(6),
            "$.delta",
            "the arguments of the response's calls add up to more than 33554432 bytes; the \
             stream is refused"
        )
    );
}

/// Ids are held as long as names and arguments are, and count toward the
/// same bound: three calls with ids of 11 MiB are refused at the third id.
#[test]
fn chat_ids_count_toward_the_arguments_bound() {
    let id = "i".repeat(11 << 20);
    let mut stream = ChatCompletionsStream::new();
    let call = |index: usize| {
        json!({"model": "m", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": index, "id": format!("{index}{id}"), "type": "function",
             "function": {"name": "f", "arguments": "{}"}}]}}]})
    };
    stream.push(&call(0)).unwrap();
    stream.push(&call(1)).unwrap();
    let error = stream.push(&call(2)).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(2),
            "$.choices[0].delta.tool_calls[0].id",
            stream_limits::too_much_arguments().as_str()
        )
    );
}

#[test]
fn responses_ids_count_toward_the_arguments_bound() {
    let id = "i".repeat(11 << 20);
    let item = |index: usize| {
        json!({"type": "response.output_item.added", "output_index": index, "item": {
            "type": "function_call", "call_id": format!("{index}{id}"), "name": "f",
            "arguments": "", "status": "in_progress"}})
    };
    let mut stream = ResponsesStream::new();
    stream.push(&created()).unwrap();
    stream.push(&item(0)).unwrap();
    stream.push(&item(1)).unwrap();
    let error = stream.push(&item(2)).unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(3),
            "$.item.call_id",
            stream_limits::too_much_arguments().as_str()
        )
    );
    // The item ids as well.
    let item = |index: usize| {
        json!({"type": "response.output_item.added", "output_index": index, "item": {
            "type": "function_call", "id": format!("{index}{id}"), "call_id": format!("c{index}"),
            "name": "f", "arguments": "", "status": "in_progress"}})
    };
    let mut stream = ResponsesStream::new();
    stream.push(&created()).unwrap();
    stream.push(&item(0)).unwrap();
    stream.push(&item(1)).unwrap();
    assert_eq!(
        parts(&stream.push(&item(2)).unwrap_err()),
        (
            Some(3),
            "$.item.call_id",
            stream_limits::too_much_arguments().as_str()
        )
    );
}

/// The `function_call` items only `response.completed` lists count their
/// ids as well.
#[test]
fn responses_ids_of_completed_output_count_toward_the_arguments_bound() {
    let id = "i".repeat(11 << 20);
    let output: Vec<Value> = (0..3)
        .map(|index| {
            json!({"type": "function_call", "call_id": format!("{index}{id}"), "name": "f",
                   "arguments": "{}", "status": "completed"})
        })
        .collect();
    let mut stream = ResponsesStream::new();
    stream.push(&created()).unwrap();
    let error = stream
        .push(&json!({"type": "response.completed", "response": {
            "model": "m", "status": "completed", "output": output}}))
        .unwrap_err();
    assert_eq!(
        parts(&error),
        (
            Some(1),
            "$.response.output[2]",
            stream_limits::too_much_arguments().as_str()
        )
    );
}
