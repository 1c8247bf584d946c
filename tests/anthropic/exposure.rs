//! Exposure over the Messages loop, replayed: a narrowed turn writes its
//! `tool_choice` (keeping `disable_parallel_tool_use`) over the same
//! definitions; a call of a tool the turn did not offer is refused
//! `TOOL_NOT_OFFERED` naming the tools it did, and nothing of it runs.

use crate::shop;

use serde_json::{Value, json};
use tool_contract::anthropic::ToolChoice;
use tool_contract::anthropic::agent::{AgentSettings, MESSAGES_PATH, MessagesAgent};
use tool_contract::approval::Approvals;
use tool_contract::prelude::*;
use tool_contract::transport::{Exchange, Replay};
use tool_contract::{Exposure, Narrowing};

const NOT_OFFERED: &str = r#"Error [TOOL_NOT_OFFERED]: The tool "reserve_inventory" is not offered in this turn. Use one of: create_refund_draft, get_inventory."#;

fn response(stop_reason: &str, content: Value) -> Value {
    json!({"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": content, "stop_reason": stop_reason, "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 5}})
}

fn reserve_call(id: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "reserve_inventory", "input": {"sku": "SKU-1042",
        "quantity": 2, "hold": 60, "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}})
}

fn offered(toolbox: &Toolbox) -> Vec<Value> {
    let contracts: Vec<_> = toolbox.contracts().collect();
    tool_contract::anthropic::ToolSet::new(&contracts)
        .unwrap()
        .definitions()
}

#[tokio::test]
async fn a_call_of_a_tool_the_narrowed_turn_did_not_offer_is_refused_naming_the_offered_ones() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let tools = offered(&toolbox);
    let question = json!({"role": "user", "content": "Hold 2 mugs."});
    let calls = json!([reserve_call("toolu_1")]);
    // Anthropic cannot choose two of three tools: the turn is `auto` over
    // every definition, and the runtime refuses the third.
    let choice = json!({"type": "auto", "disable_parallel_tool_use": true});
    let mut replay = Replay::new(vec![
        Exchange::new(
            MESSAGES_PATH,
            json!({"model": "m", "max_tokens": 1024, "messages": [question], "tools": tools,
                "tool_choice": choice}),
            response("tool_use", calls.clone()),
        ),
        Exchange::new(
            MESSAGES_PATH,
            json!({"model": "m", "max_tokens": 1024, "messages": [
                question,
                {"role": "assistant", "content": calls},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                    "content": NOT_OFFERED, "is_error": true}]}
            ], "tools": tools, "tool_choice": choice}),
            response(
                "end_turn",
                json!([{"type": "text", "text": "I can look up the stock."}]),
            ),
        ),
    ]);
    let session = shop::session(&Approvals::new());
    let mut settings = AgentSettings::new("m");
    settings.tool_choice = Some(ToolChoice::Any {
        disable_parallel_tool_use: true,
    });
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, settings).unwrap();
    agent
        .narrow(Narrowing::auto(["get_inventory", "create_refund_draft"]))
        .unwrap();
    let turn = agent.send("Hold 2 mugs.", &session).await.unwrap();
    let (call, result) = &turn.steps[0].round.results[0];
    assert_eq!(call.name, "reserve_inventory");
    assert_eq!(result.model_text().as_deref(), Some(NOT_OFFERED));
    assert_eq!(result.audit.error_code.as_deref(), Some("TOOL_NOT_OFFERED"));
    assert_eq!(
        turn.steps[0].offered,
        Exposure::new(["create_refund_draft", "get_inventory"])
    );
    assert_eq!(turn.answer(), Some("I can look up the stock."));
    let held = stock.lock().unwrap()[&("SKU-1042".to_owned(), "BER-1".to_owned())];
    assert_eq!(held, (12, 0));
    drop(agent);
    assert!(replay.is_done());
}

#[tokio::test]
async fn a_turn_narrowed_to_one_tool_that_needs_approval_names_it_and_still_needs_the_approval() {
    let stock = shop::stock();
    let toolbox = shop::toolbox(&stock, shop::recorded_clock);
    let tools = offered(&toolbox);
    let mut replay = Replay::new(vec![Exchange::new(
        MESSAGES_PATH,
        json!({"model": "m", "max_tokens": 1024,
            "messages": [{"role": "user", "content": "Hold 2 mugs."}], "tools": tools,
            "tool_choice": {"type": "tool", "name": "reserve_inventory"}}),
        response("tool_use", json!([reserve_call("toolu_1")])),
    )]);
    let session = shop::session(&Approvals::new());
    let mut settings = AgentSettings::new("m");
    settings.max_requests = 1;
    let mut agent = MessagesAgent::new(&toolbox, &mut replay, settings).unwrap();
    agent
        .narrow(Narrowing::required(["reserve_inventory"]))
        .unwrap();
    let turn = agent.send("Hold 2 mugs.", &session).await.unwrap();
    let (_, result) = &turn.steps[0].round.results[0];
    assert_eq!(
        result.audit.error_code.as_deref(),
        Some("APPROVAL_REQUIRED")
    );
    let requests: Vec<&str> = turn.approval_requests().map(|r| r.tool.as_str()).collect();
    assert_eq!(requests, ["reserve_inventory"]);
    drop(agent);
    assert!(replay.is_done());
}
