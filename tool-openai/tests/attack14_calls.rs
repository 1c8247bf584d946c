//! Whole responses under the issue-14 attack: two calls with one id, in
//! a Chat Completions or a Responses response, are refused with the place,
//! as the stream assemblers refuse them (`attack14_stream.rs`).

use serde_json::json;
use tool_openai::{chat_completions_calls, responses_calls};

#[test]
fn a_responses_response_with_two_calls_of_one_id_is_refused() {
    let call = |sku: &str| {
        json!({"type": "function_call", "call_id": "call_1", "name": "get_inventory",
               "arguments": format!(r#"{{"sku":"{sku}"}}"#)})
    };
    let response = json!({"id": "resp_1", "model": "gpt-5-mini", "output": [call("A"), call("B")]});
    let error = responses_calls(&response).expect_err("two calls with one id");
    assert_eq!(error.path(), "$.output[1].call_id");
    assert_eq!(
        error.message(),
        "a second call with the id `call_1`; two calls with one id cannot be told apart (their \
         outputs would answer either), so no call is given out"
    );
}

#[test]
fn a_chat_completion_with_two_tool_calls_of_one_id_is_refused() {
    let call = |sku: &str| {
        json!({"id": "call_1", "type": "function",
               "function": {"name": "get_inventory", "arguments": format!(r#"{{"sku":"{sku}"}}"#)}})
    };
    let response = json!({"model": "gpt-4.1", "choices": [{"index": 0, "message": {
        "role": "assistant", "content": null, "tool_calls": [call("A"), call("B")]
    }}]});
    let error = chat_completions_calls(&response).expect_err("two calls with one id");
    assert_eq!(error.path(), "$.choices[0].message.tool_calls[1].id");
    assert_eq!(
        error.message(),
        "a second call with the id `call_1`; two calls with one id cannot be told apart (their \
         outputs would answer either), so no call is given out"
    );
}

/// A choice cut off by the token limit (or the content filter) while it
/// called tools: its calls may be cut short, so none is given out, as the
/// stream assembler refuses them.
#[test]
fn a_chat_completion_cut_off_while_calling_tools_gives_no_call() {
    for reason in ["length", "content_filter"] {
        let response = json!({"model": "gpt-4.1", "choices": [{"index": 0, "finish_reason": reason,
        "message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_inventory", "arguments": "{}"}}
        ]}}]});
        let error = chat_completions_calls(&response).expect_err(reason);
        assert_eq!(error.path(), "$.choices[0].finish_reason");
        assert_eq!(
            error.message(),
            format!(
                "the choice finished with `{reason}` while calling tools; its calls may be cut \
                 off, so no call is given out"
            )
        );
    }
}
