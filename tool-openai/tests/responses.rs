//! Reading tool calls out of API responses: shapes that are not calls are
//! left alone, malformed responses are errors with a path, never panics.
//! (Calls of real tools are tested in the facade's `tests/openai/round_trip.rs`.)

use serde_json::{Value, json};
use tool_core::{ToolCall, ToolError, ToolOutput};
use tool_openai::{
    Api, CallRecord, ResponseCalls, answer_chat_completions, answer_responses, answer_tool_calls,
    chat_completions_calls, responses_calls,
};

fn chat(tool_calls: Value) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-4.1-2025-04-14",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": null, "tool_calls": tool_calls},
            "finish_reason": "tool_calls"
        }]
    })
}

fn chat_error(response: &Value) -> (String, String) {
    let error = chat_completions_calls(response).expect_err("expected an error");
    (error.path().to_owned(), error.message().to_owned())
}

fn responses_error(response: &Value) -> (String, String) {
    let error = responses_calls(response).expect_err("expected an error");
    (error.path().to_owned(), error.message().to_owned())
}

fn pair(path: &str, message: &str) -> (String, String) {
    (path.to_owned(), message.to_owned())
}

#[test]
fn chat_completions_calls_are_read_in_order() {
    let response = chat(json!([
        {"id": "call_1", "type": "function", "function": {"name": "a", "arguments": "{}"}},
        {"id": "call_2", "type": "custom", "custom": {"name": "grammar", "input": "x"}},
        {"id": "call_3", "type": "function", "function": {"name": "b", "arguments": "{\"x\":1}"}}
    ]));
    let calls = chat_completions_calls(&response).unwrap();
    let read: Vec<(Api, &str, &str, &str, &str)> = calls
        .calls
        .iter()
        .map(|c| {
            (
                calls.api,
                calls.model.as_str(),
                c.call_id.as_str(),
                c.name.as_str(),
                c.arguments.as_str(),
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            (
                Api::ChatCompletions,
                "gpt-4.1-2025-04-14",
                "call_1",
                "a",
                "{}"
            ),
            (
                Api::ChatCompletions,
                "gpt-4.1-2025-04-14",
                "call_3",
                "b",
                "{\"x\":1}"
            ),
        ]
    );
    assert_eq!(calls.record(&calls.calls[0], &[]).contract_version, None);
    assert_eq!(calls.provider(), "openai");
}

#[test]
fn a_text_answer_has_no_calls() {
    let response = json!({
        "model": "gpt-4.1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Done.", "refusal": null}}]
    });
    let round = answer_chat_completions(&response, &[], |_| unreachable!()).unwrap();
    assert!(round.is_final_answer());
    assert_eq!(round.answer.items, Vec::<Value>::new());
    assert!(!round.stop);
}

#[test]
fn responses_calls_skip_other_output_items() {
    let response = json!({
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "error": null,
        "model": "o4-mini-2025-04-16",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "web_search_call", "id": "ws_1", "status": "completed"},
            {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "a", "arguments": "{}", "status": "completed"},
            {"type": "message", "id": "msg_1", "role": "assistant", "content": []}
        ]
    });
    let calls = responses_calls(&response).unwrap();
    assert_eq!(
        calls,
        ResponseCalls::new(
            Api::Responses,
            "o4-mini-2025-04-16",
            vec![ToolCall::new("call_9", "a", "{}")]
        )
    );
}

#[test]
fn unknown_tools_are_answered_for_the_model_without_running_anything() {
    let response = chat(json!([
        {"id": "call_1", "type": "function", "function": {"name": "delete_everything", "arguments": "{}"}}
    ]));
    let round = answer_chat_completions(&response, &[], |_| unreachable!()).unwrap();
    assert_eq!(
        round.answer.items,
        [json!({
            "role": "tool",
            "tool_call_id": "call_1",
            "content": "Error [UNKNOWN_TOOL]: There is no tool named \"delete_everything\"; no tools are available."
        })]
    );
    let (_, output) = &round.results[0];
    assert_eq!(
        serde_json::to_value(output).unwrap(),
        json!({
            "outcome": "respond_to_model",
            "error": {
                "code": "UNKNOWN_TOOL",
                "category": "invalid_arguments",
                "safe_message": "There is no tool named \"delete_everything\"; no tools are available.",
                "recovery": "fix_arguments",
                "retry_after_ms": null
            },
            "details": {"tool": "delete_everything", "known_tools": []}
        })
    );
    assert_eq!(
        serde_json::to_value(round.answer.records.clone()).unwrap(),
        json!([{
            "provider": "openai",
            "api": "chat_completions",
            "model": "gpt-4.1-2025-04-14",
            "call_id": "call_1",
            "tool": "delete_everything",
            "contract_version": null
        }])
    );
}

#[test]
fn outputs_take_the_shape_of_their_api() {
    let chat_call = ToolCall::new("call_1", "t", "{}");
    let responses_call = ToolCall::new("call_2", "t", "{}");
    let success = ToolOutput::success("3 in stock");
    let error = ToolOutput::respond_to_model(ToolError::not_found("NO_SKU", "No such SKU."));
    let fatal = ToolOutput::fatal(ToolError::internal());
    assert_eq!(
        Api::ChatCompletions.output_item(&chat_call, &success),
        Some(json!({"role": "tool", "tool_call_id": "call_1", "content": "3 in stock"}))
    );
    assert_eq!(
        Api::Responses.output_item(&responses_call, &error),
        Some(json!({
            "type": "function_call_output",
            "call_id": "call_2",
            "output": "Error [NO_SKU]: No such SKU."
        }))
    );
    assert_eq!(Api::ChatCompletions.output_item(&chat_call, &fatal), None);
    assert_eq!(Api::Responses.output_item(&responses_call, &fatal), None);
}

#[test]
fn every_unknown_call_is_answered_in_order() {
    let calls = ResponseCalls::new(
        Api::Responses,
        "m",
        vec![
            ToolCall::new("call_1", "x", "{}"),
            ToolCall::new("call_2", "y", "{}"),
        ],
    );
    let round = answer_tool_calls(calls, &[], |_| unreachable!());
    let answered: Vec<&str> = round
        .answer
        .items
        .iter()
        .map(|i| i["call_id"].as_str().unwrap())
        .collect();
    assert_eq!(answered, ["call_1", "call_2"]);
    assert!(!round.stop);
    assert_eq!(round.unanswered, Vec::<ToolCall>::new());
    let record: CallRecord = serde_json::from_value(json!({
        "provider": "openai", "api": "responses", "model": "m", "call_id": "call_2",
        "tool": "y", "contract_version": null
    }))
    .unwrap();
    assert_eq!(round.answer.records.clone()[1], record);
}

#[test]
fn malformed_chat_completions_responses_are_errors() {
    assert_eq!(
        chat_error(&json!([])),
        pair("$", "expected an object, got an array")
    );
    assert_eq!(
        chat_error(&json!({"choices": []})),
        pair("$.model", "missing")
    );
    assert_eq!(
        chat_error(&json!({"model": "m", "choices": {}})),
        pair("$.choices", "expected an array, got an object")
    );
    assert_eq!(
        chat_error(&json!({"model": "m", "choices": [{"index": 0}]})),
        pair("$.choices[0].message", "missing")
    );
    assert_eq!(
        chat_error(&chat(json!("call"))),
        pair("$.choices[0].message.tool_calls", "not an array")
    );
    assert_eq!(
        chat_error(&chat(
            json!([{"type": "function", "function": {"name": "a", "arguments": "{}"}}])
        )),
        pair("$.choices[0].message.tool_calls[0].id", "missing")
    );
    assert_eq!(
        chat_error(&chat(
            json!([{"id": "c", "type": "function", "function": {"name": "a", "arguments": {}}}])
        )),
        pair(
            "$.choices[0].message.tool_calls[0].function.arguments",
            "expected a string, got an object"
        )
    );
    assert_eq!(
        chat_error(
            &json!({"error": {"message": "Invalid schema for function 'a'", "type": "invalid_request_error"}})
        ),
        pair(
            "$.error",
            "the API answered with an error: Invalid schema for function 'a'"
        )
    );
    let call = json!({"id": "c", "type": "function", "function": {"name": "a", "arguments": "{}"}});
    let two_choices = json!({
        "model": "m",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "tool_calls": [call]}},
            {"index": 1, "message": {"role": "assistant", "tool_calls": [call]}}
        ]
    });
    assert_eq!(
        chat_error(&two_choices),
        pair(
            "$.choices",
            "2 choices have tool calls; they are alternatives and only one can be answered, so \
             request `n: 1` when offering tools"
        )
    );
}

#[test]
fn malformed_responses_api_responses_are_errors() {
    assert_eq!(
        responses_error(&json!("ok")),
        pair("$", "expected an object, got a string")
    );
    assert_eq!(
        responses_error(&json!({"model": "m"})),
        pair("$.output", "missing")
    );
    assert_eq!(
        responses_error(&json!({"model": "m", "output": [{"id": "x"}]})),
        pair("$.output[0].type", "missing")
    );
    assert_eq!(
        responses_error(&json!({"model": "m", "output": [
            {"type": "function_call", "name": "a", "arguments": "{}"}
        ]})),
        pair("$.output[0].call_id", "missing")
    );
    assert_eq!(
        responses_error(&json!({"model": 4, "output": []})),
        pair("$.model", "expected a string, got a number")
    );
    assert_eq!(
        responses_error(&json!({"error": {"code": "server_error"}})),
        pair(
            "$.error",
            "the API answered with an error: {\"code\":\"server_error\"}"
        )
    );
    let error =
        answer_responses(&json!({"model": "m", "output": 1}), &[], |_| unreachable!()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "$.output: expected an array, got a number"
    );
}
