//! A streamed response's calls, assembled from their deltas, dispatched
//! through a `Toolbox` as one turn: a streaming application gets whole
//! calls and answers them as it would a whole response.

use serde_json::json;
use tool_contract::openai::{Api, ChatCompletionsStream, ResponsesStream, ToolboxExt};
use tool_contract::runtime::AbortHandle;
use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};

/// Look up how many units of an item are in stock, e.g. before promising a delivery.
#[derive(Tool)]
pub struct CountStock {
    /// Stock keeping unit, e.g. "SKU-1042".
    #[tool(min_length = 1)]
    pub sku: String,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: CountStock, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("12 units of {}", call.sku))
    });
    toolbox
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

#[test]
fn streamed_chat_calls_are_answered_as_one_turn() {
    let mut stream = ChatCompletionsStream::new();
    let chunks = [
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [
            {"index": 0, "id": "call_a", "type": "function", "function": {"name": "count_stock", "arguments": "{\"sku\""}},
            {"index": 1, "id": "call_b", "type": "function", "function": {"name": "count_stock", "arguments": "{\"sku\": \"\"}"}}
        ]}}]}),
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": ": \"SKU-1\"}"}}]}}]}),
        json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    for chunk in &chunks {
        stream.push(chunk).unwrap();
    }
    let calls = stream.finish().unwrap();
    let round =
        runtime().block_on(toolbox().answer_calls(calls, &Session::new(), &AbortHandle::new()));
    assert_eq!(round.api, Api::ChatCompletions);
    assert_eq!(
        round.items,
        [
            json!({"role": "tool", "tool_call_id": "call_a", "content": "12 units of SKU-1"}),
            json!({"role": "tool", "tool_call_id": "call_b", "content":
                "Error [INVALID_ARGUMENTS]: $.sku: expected at least 1 character, got 0 characters"}),
        ]
    );
}

#[test]
fn a_streamed_responses_call_is_answered_once_the_stream_completes() {
    let mut stream = ResponsesStream::new();
    let events = [
        json!({"type": "response.created", "response": {"id": "resp_1", "model": "gpt-4.1", "output": []}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call",
            "id": "fc_1", "call_id": "call_1", "name": "count_stock", "arguments": ""}}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"sku\":\"SKU-9\"}"}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call",
            "id": "fc_1", "call_id": "call_1", "name": "count_stock", "arguments": "{\"sku\":\"SKU-9\"}", "status": "completed"}}),
        json!({"type": "response.completed", "response": {"id": "resp_1", "model": "gpt-4.1", "status": "completed"}}),
    ];
    for event in &events {
        stream.push(event).unwrap();
    }
    let round = runtime().block_on(toolbox().answer_calls(
        stream.finish().unwrap(),
        &Session::new(),
        &AbortHandle::new(),
    ));
    assert_eq!(
        round.items,
        [
            json!({"type": "function_call_output", "call_id": "call_1", "output": "12 units of SKU-9"})
        ]
    );
}
