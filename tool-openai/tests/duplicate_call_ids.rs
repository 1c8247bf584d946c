//! Whole responses under attack: two calls with one id, in
//! a Chat Completions or a Responses response, are refused with the place,
//! as the stream assemblers refuse them (`stream_whole_calls_only.rs`).

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

/// The closure path answers the calls of a response that did not complete
/// as not run, without calling the closure, as the loop and the toolbox do.
#[test]
fn the_calls_of_an_unfinished_response_are_answered_not_run() {
    use tool_contract::Tool;
    /// Look up the opening hours of one store.
    #[derive(tool_contract::Tool)]
    #[tool(crate = "tool_contract")]
    #[allow(dead_code)]
    struct GetStoreHours {
        /// Store code as printed on the receipt, e.g. "BER-1".
        store: String,
    }
    let response = json!({"id": "resp_1", "model": "m", "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
        "output": [{"type": "function_call", "call_id": "call_1", "name": "get_store_hours",
                    "arguments": "{\"store\":\"BER-1\"}"}]});
    let round = tool_openai::answer_responses(&response, &[GetStoreHours::contract()], |_| {
        panic!("a call of an unfinished response ran")
    })
    .unwrap();
    assert_eq!(
        round.answer.items,
        [
            json!({"type": "function_call_output", "call_id": "call_1", "output":
            "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
             (\"max_output_tokens\"), so its arguments may be incomplete. Make the call again \
             if it is still needed."})
        ]
    );
}

/// Calls built by hand that share an id: the closure path runs none of
/// them, as `Toolbox::call_turn` does not.
#[test]
fn the_closure_path_runs_no_call_that_shares_an_id() {
    use tool_contract::ToolCall;
    use tool_openai::{Api, ResponseCalls, answer_tool_calls};
    let calls = ResponseCalls::new(
        Api::Responses,
        "m",
        vec![
            ToolCall::new("call_1", "get_inventory", "{}"),
            ToolCall::new("call_1", "get_inventory", "{}"),
        ],
    );
    let round = answer_tool_calls(calls, &[], |_| panic!("a call that shares an id ran"));
    let texts: Vec<Option<String>> = round.results.iter().map(|(_, o)| o.model_text()).collect();
    let refused = Some(
        r#"Error [DUPLICATE_CALL_ID]: Another call in this turn has the call id "call_1", so neither ran: their results could not be told apart. Make each call again, once."#
            .to_owned(),
    );
    assert_eq!(texts, [refused.clone(), refused]);
}
