//! A Messages API response answered through the runtime's `Toolbox`
//! (`Toolbox::answer` with a `tool_contract::anthropic::ToolSet`): object arguments dispatched,
//! enum values of strict tools matched ignoring case, every result in one
//! user message of `tool_result` blocks, errors with `is_error: true`.

use crate::tools;

use crate::support;

use serde_json::json;
use tool_contract::anthropic::{self, StreamAssembler, ToolSet};
use tool_contract::prelude::*;
use tool_contract::{Currency, EnumCase};
use tools::{CreateRefundDraft, CustomerId, GetInventory, RefundDraft, StockLevel, TenantId};

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: GetInventory, _cx: CallContext| async move {
        Ok::<_, ToolError>(StockLevel {
            sku: call.sku,
            available: 12,
            reserved: if call.include_reserved { 3 } else { 0 },
        })
    });
    toolbox.register(|call: CreateRefundDraft, _cx: CallContext| async move {
        let amount = call.amount.unwrap_or(Money {
            amount_minor: 1999,
            currency: Currency::USD,
        });
        Ok::<_, ToolError>(RefundDraft {
            draft_id: format!("RD-{}-{:?}", call.order_ref, call.reason),
            amount,
        })
    });
    toolbox
}

fn session() -> Session {
    Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

#[test]
fn a_recorded_response_is_answered_in_one_user_message() {
    let tools = ToolSet::new(&[GetInventory::contract(), CreateRefundDraft::contract()]).unwrap();
    let response = support::read("recorded/messages.tool_use.json");
    let round = runtime()
        .block_on(toolbox().answer(&tools, &response, &session()))
        .unwrap();
    assert!(!round.stop);
    assert_eq!(round.model, "claude-sonnet-4-5-20250929");
    let message = round.answer.unwrap();
    assert_eq!(message["role"], "user");
    let blocks = message["content"].as_array().unwrap();
    assert_eq!(blocks.len(), 4);
    assert!(blocks.iter().all(|b| b["type"] == "tool_result"));
    let ids: Vec<&str> = blocks
        .iter()
        .map(|b| b["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "toolu_01A09q90qw90lq917835lq9",
            "toolu_01B7cLm2pQ8rT5vW3xY6zA9d",
            "toolu_01C3nP7qR2sT9uV4wX8yZ1aB",
            "toolu_01D5eF6gH7iJ8kL9mN0oP1qR"
        ]
    );
    assert_eq!(blocks[0]["is_error"], false);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(blocks[0]["content"].as_str().unwrap()).unwrap(),
        json!({"sku": "SKU-1042", "available": 12, "reserved": 3})
    );
    // "DAMAGED": Anthropic does not guarantee enum casing under strict
    // mode, so the strict tool's call matches it ignoring case; the key
    // order of `amount` does not matter.
    assert_eq!(blocks[1]["is_error"], false);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(blocks[1]["content"].as_str().unwrap()).unwrap(),
        json!({"draft_id": "RD-A-10293-Damaged", "amount": {"amount_minor": 500, "currency": "USD"}})
    );
    assert_eq!(blocks[2]["is_error"], true);
    assert_eq!(
        blocks[2]["content"],
        "Error [UNKNOWN_TOOL]: There is no tool named \"get_invntory\". Use one of: create_refund_draft, get_inventory."
    );
    assert_eq!(blocks[3]["is_error"], true);
    let text = blocks[3]["content"].as_str().unwrap();
    assert!(
        text.starts_with("Error [INVALID_ARGUMENTS]: $.reason:"),
        "{text}"
    );
    assert_eq!(round.results[1].0.enum_case, EnumCase::Insensitive);
}

#[test]
fn text_goes_after_every_tool_result() {
    let call = ToolCall::new("toolu_1", "get_inventory", "{}");
    let block = anthropic::tool_result(&call, &ToolOutput::success("12")).unwrap();
    let message = anthropic::results_message(vec![block.clone(), block], Some("Also, hurry."));
    let kinds: Vec<&str> = message["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["tool_result", "tool_result", "text"]);
}

#[test]
fn a_fatal_outcome_stops_the_round_and_writes_no_message() {
    let tools = ToolSet::new(&[GetInventory::contract(), CreateRefundDraft::contract()]).unwrap();
    let response = support::read("recorded/messages.tool_use.json");
    let round = anthropic::answer_tool_use(&response, &tools, |call| {
        if call.name == "create_refund_draft" {
            ToolOutput::fatal(ToolError::internal())
        } else {
            ToolOutput::success("ok")
        }
    })
    .unwrap();
    assert!(round.stop);
    assert_eq!(round.answer, None);
    assert_eq!(round.results.len(), 2);
    assert_eq!(round.unanswered.len(), 2);
}

#[test]
fn streamed_calls_are_dispatched_like_whole_ones() {
    let tools = ToolSet::new(&[GetInventory::contract(), CreateRefundDraft::contract()]).unwrap();
    let mut stream = StreamAssembler::new();
    let events = [
        json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "content": []}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_9", "name": "create_refund_draft", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"reason\": \"Late\", "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "\"order_ref\": \"A-7\"}"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        json!({"type": "message_stop"}),
    ];
    for event in &events {
        stream.push(event).unwrap();
    }
    let mut calls = stream.finish().unwrap();
    calls.calls.iter_mut().for_each(|call| tools.mark(call));
    let round = runtime().block_on(toolbox().answer_calls::<tool_contract::anthropic::ToolSet>(
        calls,
        &session(),
        &tool_contract::runtime::AbortHandle::new(),
    ));
    let block = &round.answer.unwrap()["content"][0];
    assert_eq!(block["is_error"], false);
    assert!(
        block["content"].as_str().unwrap().contains("RD-A-7-Late"),
        "{block}"
    );
}
