//! Issue-14 attack: the streamed-call assemblers must never give out a half
//! call or two calls with one id.

use serde_json::{Value, json};
use tool_openai::{ChatCompletionsStream, ResponsesStream};

fn chat_chunk(tool_calls: Value, finish: Option<&str>) -> Value {
    json!({"id": "c1", "object": "chat.completion.chunk", "model": "gpt-5",
           "choices": [{"index": 0, "delta": {"tool_calls": tool_calls}, "finish_reason": finish}]})
}

fn is_whole_object(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v.is_object())
}

// Promise (issue 14 §5, and what tool-anthropic's assembler enforces): a
// streaming application gets whole calls. A choice that finishes
// (`tool_calls`) while a call's arguments are still an open JSON text gives
// that half call out for dispatch.
#[test]
fn chat_gives_out_a_call_whose_arguments_are_cut_off() {
    let mut s = ChatCompletionsStream::new();
    s.push(&chat_chunk(
        json!([{"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\": \"Par"}}]),
        None,
    ))
    .unwrap();
    let out = s.push(&json!({"id": "c1", "model": "gpt-5",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    match out {
        Err(_) => {}
        Ok(calls) => assert!(
            calls.iter().all(|c| is_whole_object(&c.arguments)),
            "a half call came out: {calls:?}"
        ),
    }
}

// Two calls at different indices with one id: answers are matched by
// `tool_call_id`, so the second answer is ambiguous. Both come out.
#[test]
fn chat_gives_out_two_calls_with_one_id() {
    let mut s = ChatCompletionsStream::new();
    s.push(&chat_chunk(
        json!([{"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "a", "arguments": "{}"}},
               {"index": 1, "id": "call_1", "type": "function",
                "function": {"name": "b", "arguments": "{}"}}]),
        None,
    ))
    .unwrap();
    let out = s.push(&json!({"id": "c1", "model": "gpt-5",
        "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    if let Ok(calls) = out {
        panic!("two calls share the id `call_1`: {calls:?}");
    }
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

// Responses: an `output_item.done` without a `status` (compatible servers
// leave it out) whose arguments are an open JSON text gives out a half call.
#[test]
fn responses_gives_out_a_call_whose_arguments_are_cut_off() {
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
    let out = s.push(
        &json!({"type": "response.output_item.done", "output_index": 0,
                             "item": item(0, "call_1", None, None)}),
    );
    match out {
        Err(_) => {}
        Ok(call) => assert!(
            call.iter().all(|c| is_whole_object(&c.arguments)),
            "a half call came out: {call:?}"
        ),
    }
}

// Responses: two function_call items with one `call_id`; the
// `function_call_output` of one cannot be told from the other's.
#[test]
fn responses_gives_out_two_calls_with_one_call_id() {
    let mut s = ResponsesStream::new();
    s.push(&json!({"type": "response.created", "response": {"model": "gpt-5"}}))
        .unwrap();
    let mut out = Vec::new();
    for index in [0, 1] {
        s.push(
            &json!({"type": "response.output_item.added", "output_index": index,
                       "item": item(index, "call_1", Some(""), Some("in_progress"))}),
        )
        .unwrap();
        match s.push(
            &json!({"type": "response.output_item.done", "output_index": index,
                             "item": item(index, "call_1", Some("{}"), Some("completed"))}),
        ) {
            Ok(call) => out.extend(call),
            Err(_) => return,
        }
    }
    panic!("two calls share the call_id `call_1`: {out:?}");
}
