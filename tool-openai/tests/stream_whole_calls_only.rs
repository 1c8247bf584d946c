//! Attacks on the streamed-call assemblers: they never give out a
//! half call or two calls with one id, and say which call and why.

use serde_json::{Value, json};
use tool_openai::{ChatCompletionsStream, ResponsesStream, StreamErrorKind};

fn chat_chunk(tool_calls: Value, finish: Option<&str>) -> Value {
    json!({"id": "c1", "object": "chat.completion.chunk", "model": "gpt-5",
           "choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": finish}]})
}

fn finish_chunk() -> Value {
    json!({"id": "c1", "model": "gpt-5",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
}

// A choice that finishes (`tool_calls`) while a call's arguments are still
// an open JSON text: no call comes out.
#[test]
fn chat_refuses_a_call_whose_arguments_are_cut_off() {
    let mut s = ChatCompletionsStream::new();
    s.push(&chat_chunk(
        json!([{"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\": \"Par"}}]),
        None,
    ))
    .unwrap();
    let error = s.push(&finish_chunk()).expect_err("a half call");
    assert_eq!(
        (error.kind(), error.message(), error.open_calls()),
        (
            StreamErrorKind::Truncated,
            "call 0 (`call_1`) finished with arguments that are not whole JSON; they were cut \
             off, so no call is given out",
            &["call_1".to_owned()][..]
        )
    );
    assert_eq!(
        error.to_string(),
        "event 1, $.choices[0]: call 0 (`call_1`) finished with arguments that are not \
         whole JSON; they were cut off, so no call is given out; unfinished tool calls: [call_1]"
    );
}

// Two calls at different indices with one id: outputs are matched by
// `tool_call_id`, so neither comes out.
#[test]
fn chat_refuses_two_calls_with_one_id() {
    let mut s = ChatCompletionsStream::new();
    s.push(&chat_chunk(
        json!([{"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "a", "arguments": "{}"}},
               {"index": 1, "id": "call_1", "type": "function",
                "function": {"name": "b", "arguments": "{}"}}]),
        None,
    ))
    .unwrap();
    let error = s.push(&finish_chunk()).expect_err("two calls with one id");
    assert_eq!(
        error.to_string(),
        "event 1, $.choices[0]: call 1 has the id `call_1` of another call; two calls \
         with one id cannot be told apart, so no call is given out"
    );
}

fn item(index: usize, call_id: &str, arguments: Option<&str>, status: Option<&str>) -> Value {
    let mut item = json!({"type": "function_call", "id": format!("fc_{index}"),
                          "call_id": call_id, "name": "get_weather"});
    if let Some(a) = arguments {
        item["arguments"] = json!(a);
    }
    if let Some(s) = status {
        item["status"] = json!(s);
    }
    item
}

// An `output_item.done` without a `status` (compatible servers leave it
// out) whose arguments are an open JSON text: no call comes out.
#[test]
fn responses_refuses_a_call_whose_arguments_are_cut_off() {
    let mut s = ResponsesStream::new();
    s.push(&json!({"type": "response.created", "response": {"model": "gpt-5"}}))
        .unwrap();
    s.push(
        &json!({"type": "response.output_item.added", "output_index": 0,
                   "item": item(0, "call_1", Some(""), Some("in_progress"))}),
    )
    .unwrap();
    s.push(
        &json!({"type": "response.function_call_arguments.delta", "output_index": 0,
                   "item_id": "fc_0", "delta": "{\"city\": \"Par"}),
    )
    .unwrap();
    let error = s
        .push(
            &json!({"type": "response.output_item.done", "output_index": 0,
                      "item": item(0, "call_1", None, None)}),
        )
        .expect_err("a half call");
    assert_eq!(
        (error.kind(), error.message(), error.open_calls()),
        (
            StreamErrorKind::Truncated,
            "call `call_1` is done with arguments that are not whole JSON; they were cut off, so \
             no call is given out",
            &["call_1".to_owned()][..]
        )
    );
    assert_eq!(
        error.to_string(),
        "event 3, $.item.arguments: call `call_1` is done with arguments that are not whole JSON; they \
         were cut off, so no call is given out; unfinished tool calls: [call_1]"
    );
}

// Two function_call items with one `call_id`: the second is refused.
#[test]
fn responses_refuses_two_calls_with_one_call_id() {
    let mut s = ResponsesStream::new();
    s.push(&json!({"type": "response.created", "response": {"model": "gpt-5"}}))
        .unwrap();
    let mut results = Vec::new();
    for index in [0, 1] {
        s.push(
            &json!({"type": "response.output_item.added", "output_index": index,
                       "item": item(index, "call_1", Some(""), Some("in_progress"))}),
        )
        .unwrap();
        results.push(
            s.push(
                &json!({"type": "response.output_item.done", "output_index": index,
                        "item": item(index, "call_1", Some("{}"), Some("completed"))}),
            )
            .map(|calls| calls.len())
            .map_err(|e| e.to_string()),
        );
    }
    assert_eq!(
        results,
        [
            Ok(0),
            Err("event 4, $.item.call_id: call `call_1` is done a second time; two calls with one id \
                 cannot be told apart, so no call is given out"
                .to_owned())
        ]
    );
}
