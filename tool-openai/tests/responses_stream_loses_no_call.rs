//! Attacks on the Responses stream assembler: a
//! streaming application never loses a call without a word.

use serde_json::json;
use tool_openai::{ResponsesStream, StreamErrorKind};

/// A compatible server that streams no `response.output_item.*` events and
/// sends the whole output in `response.completed` (its `response.output`
/// holds a `function_call`): the assembler once read only the model from
/// that event and ended with no call, so the application took the turn for
/// a final answer. The call is given by `finish`, checked as a done item.
#[test]
fn a_call_that_arrives_only_in_response_completed_is_given_by_finish() {
    let mut stream = ResponsesStream::new();
    let call = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "name": "get_inventory", "arguments": "{\"sku\":\"SKU-1\"}", "status": "completed"});
    let created = json!({"type": "response.created", "response": {"id": "resp_1", "model": "m",
        "output": []}});
    assert_eq!(stream.push(&created).unwrap(), []);
    // The call is given at `response.completed`, and again by `finish`.
    let given = stream
        .push(
            &json!({"type": "response.completed", "response": {"id": "resp_1", "model": "m",
            "status": "completed", "output": [call]}}),
        )
        .unwrap();
    assert_eq!(given.len(), 1);
    let calls = stream.finish().unwrap().calls;
    let calls: Vec<(&str, &str, &str)> = calls
        .iter()
        .map(|c| (c.call_id.as_str(), c.name.as_str(), c.arguments.as_str()))
        .collect();
    assert_eq!(calls, [("call_1", "get_inventory", r#"{"sku":"SKU-1"}"#)]);
}

/// A call streamed item by item and repeated in `response.completed` (as
/// the API does) is given once; one whose arguments in `response.completed`
/// are cut off is refused with its place.
#[test]
fn calls_in_response_completed_are_given_once_and_checked() {
    let call = |arguments: &str| {
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
            "name": "get_inventory", "arguments": arguments, "status": "completed"})
    };
    let mut stream = ResponsesStream::new();
    stream
        .push(&json!({"type": "response.created", "response": {"model": "m"}}))
        .unwrap();
    stream
        .push(
            &json!({"type": "response.output_item.added", "output_index": 0,
            "item": call("")}),
        )
        .unwrap();
    stream
        .push(
            &json!({"type": "response.output_item.done", "output_index": 0,
            "item": call("{}")}),
        )
        .unwrap();
    stream
        .push(
            &json!({"type": "response.completed", "response": {"model": "m",
            "output": [call("{}")]}}),
        )
        .unwrap();
    assert_eq!(stream.finish().unwrap().calls.len(), 1);

    let mut stream = ResponsesStream::new();
    let error = stream
        .push(
            &json!({"type": "response.completed", "response": {"model": "m",
            "output": [call("{\"sku\":")]}}),
        )
        .unwrap_err();
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
        "event 0, $.response.output[0].arguments: call `call_1` is done with arguments that are \
         not whole JSON; they were cut off, so no call is given out; unfinished tool calls: \
         [call_1]"
    );
}
