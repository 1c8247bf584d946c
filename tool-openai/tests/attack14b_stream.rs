//! Issue-14 attacks (round 14b) on the Responses stream assembler: a
//! streaming application never loses a call without a word.

use serde_json::json;
use tool_openai::ResponsesStream;

/// A compatible server that streams no `response.output_item.*` events and
/// sends the whole output in `response.completed` (its `response.output`
/// holds a `function_call`): the assembler reads only the model from that
/// event and ends with no call, so the application takes the turn for a
/// final answer and the model's call is lost without a word. The call must
/// be given out, or the stream refused.
#[test]
fn a_call_that_arrives_only_in_response_completed_is_not_dropped_silently() {
    let mut stream = ResponsesStream::new();
    let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "name": "get_inventory", "arguments": "{\"sku\":\"SKU-1\"}", "status": "completed"});
    let mut refused = false;
    for event in [
        json!({"type": "response.created", "response": {"id": "resp_1", "model": "m", "output": []}}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "model": "m",
            "status": "completed", "output": [call]}}),
    ] {
        refused |= stream.push(&event).is_err();
    }
    match stream.finish() {
        Ok(calls) if !refused => {
            let ids: Vec<&str> = calls.calls.iter().map(|c| c.call_id.as_str()).collect();
            assert_eq!(
                ids,
                ["call_1"],
                "the call in response.completed was dropped"
            );
        }
        _ => {}
    }
}
