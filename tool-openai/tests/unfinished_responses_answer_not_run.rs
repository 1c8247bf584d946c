//! Attacks on the OpenAI closure path: every call of
//! a Responses response that did not complete gets exactly one
//! `CALL_NOT_RUN` output, whatever tool it names (a name cut off by the
//! token limit included), as the agent loop and `Toolbox::answer` answer it.

use serde_json::json;
use tool_contract::Tool;

/// Look up the opening hours of one store.
#[derive(tool_contract::Tool)]
#[tool(crate = "tool_contract")]
#[allow(dead_code)]
struct GetStoreHours {
    /// Store code as printed on the receipt, e.g. "BER-1".
    store: String,
}

const NOT_RUN: &str = "Error [CALL_NOT_RUN]: The call did not run: the response did not complete \
     (\"max_output_tokens\"), so its arguments may be incomplete. Make the call again if it is \
     still needed.";

/// A call whose tool name is unknown (here cut off, `get_store_ho`) in a
/// response that did not complete is answered `CALL_NOT_RUN` like its
/// siblings; the closure path answered it `UNKNOWN_TOOL`, unlike
/// `Toolbox::answer` with `Api::Responses` (the refusal comes before the tool
/// lookup in the runtime).
#[test]
fn an_unknown_tool_call_of_an_unfinished_response_is_answered_not_run() {
    let response = json!({"id": "resp_1", "model": "m", "status": "incomplete",
    "incomplete_details": {"reason": "max_output_tokens"},
    "output": [
        {"type": "function_call", "call_id": "call_1", "name": "get_store_hours",
         "arguments": "{\"store\":\"BER-1\"}"},
        {"type": "function_call", "call_id": "call_2", "name": "get_store_ho",
         "arguments": "{\"sto"}
    ]});
    let round = tool_openai::answer_responses(&response, &[GetStoreHours::contract()], |_| {
        panic!("a call of an unfinished response ran")
    })
    .unwrap();
    assert_eq!(
        round.answer.items,
        [
            json!({"type": "function_call_output", "call_id": "call_1", "output": NOT_RUN}),
            json!({"type": "function_call_output", "call_id": "call_2", "output": NOT_RUN}),
        ]
    );
}
