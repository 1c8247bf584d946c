//! Tool calls in, outputs back, over recorded responses of both OpenAI APIs:
//! calls parsed by the tools' own parsers, outputs written as the API
//! expects, unknown tools and bad arguments answered for the model, a fatal
//! outcome stopping the loop, and a record of every call.

use crate::tools;

use crate::support;

use serde_json::{Value, json};
use tool_contract::openai::{self, Api, ToolRound};
use tool_contract::{
    Session, Tool, ToolCall, ToolContract, ToolError, ToolOutput, contract::ErrorCategory,
};
use tools::{CreateRefundDraft, CustomerId, GetInventory, ReserveInventory, TenantId};

fn contracts() -> [&'static ToolContract; 3] {
    [
        CreateRefundDraft::contract(),
        GetInventory::contract(),
        ReserveInventory::contract(),
    ]
}

fn session() -> Session {
    Session::new()
        .with(CustomerId("cus_42".into()))
        .with(TenantId("acme".into()))
}

/// A small dispatcher: parse with the tool's parser, then "run" the tool.
fn dispatch(call: &ToolCall, session: &Session) -> ToolOutput {
    let ran = match call.name.as_str() {
        "get_inventory" => call.parse::<GetInventory>(session).map(|args| {
            let scope = args.warehouse.as_deref().unwrap_or("all warehouses");
            ToolOutput::success(format!("12 units of {} in {scope}.", args.sku))
        }),
        "create_refund_draft" => call.parse::<CreateRefundDraft>(session).map(|args| {
            ToolOutput::success(format!(
                "Drafted refund RD-1 for order {} ({:?}) for customer {}.",
                args.order_ref, args.reason, args.customer.0
            ))
        }),
        "reserve_inventory" => call.parse::<ReserveInventory>(session).map(|args| {
            ToolOutput::success(format!(
                "Reserved {} of {} for {} minutes (request {}).",
                args.quantity,
                args.sku,
                args.hold.unwrap_or(15),
                args.request_id
            ))
        }),
        other => panic!("the round trip must not run unknown tool {other}"),
    };
    ran.unwrap_or_else(|output| output)
}

fn answer_chat(response: &Value, session: &Session) -> ToolRound {
    openai::answer_chat_completions(response, &contracts(), |call| dispatch(call, session))
        .expect("a well-formed response")
}

#[test]
fn chat_completions_calls_are_answered_in_order() {
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let round = answer_chat(&response, &session());
    assert!(!round.stop);
    assert!(!round.is_final_answer());
    assert_eq!(
        round.answer.items,
        [
            json!({
                "role": "tool",
                "tool_call_id": "call_Xk2n8QzR4tVb7Lm1",
                "content": "12 units of SKU-1042 in all warehouses."
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_P9sD3fGh6JkL0qWe",
                "content": "Drafted refund RD-1 for order A-10293 (Damaged) for customer cus_42."
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_Tz5yU8iO1pAs4DfG",
                "content": "Error [INVALID_ARGUMENTS]: $.sku: expected at least 1 character, got 0 characters"
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_Hj7kL2zX5cV9bN3m",
                "content": "Error [UNKNOWN_TOOL]: There is no tool named \"cancel_order\". Use one of: create_refund_draft, get_inventory, reserve_inventory."
            }),
        ]
    );
}

#[test]
fn every_call_is_recorded_with_provider_api_model_and_contract_version() {
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let round = answer_chat(&response, &session());
    assert_eq!(
        serde_json::to_value(round.answer.records.clone()).unwrap(),
        json!([
            {"provider": "openai", "api": "chat_completions", "model": "gpt-4.1-2025-04-14",
             "call_id": "call_Xk2n8QzR4tVb7Lm1", "tool": "get_inventory", "contract_version": "1.0.0"},
            {"provider": "openai", "api": "chat_completions", "model": "gpt-4.1-2025-04-14",
             "call_id": "call_P9sD3fGh6JkL0qWe", "tool": "create_refund_draft", "contract_version": "3.0.0"},
            {"provider": "openai", "api": "chat_completions", "model": "gpt-4.1-2025-04-14",
             "call_id": "call_Tz5yU8iO1pAs4DfG", "tool": "get_inventory", "contract_version": "1.0.0"},
            {"provider": "openai", "api": "chat_completions", "model": "gpt-4.1-2025-04-14",
             "call_id": "call_Hj7kL2zX5cV9bN3m", "tool": "cancel_order", "contract_version": null}
        ])
    );
    let unknown = &round.results[3].0;
    assert!(unknown.contract_in(&contracts()).is_none());
    assert!(std::ptr::eq(
        round.results[1].0.contract_in(&contracts()).unwrap(),
        CreateRefundDraft::contract()
    ));
}

#[test]
fn the_outputs_extend_the_conversation_for_the_next_request() {
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let round = answer_chat(&response, &session());
    let mut messages = vec![
        json!({"role": "user", "content": "Is SKU-1042 in stock? And refund A-10293, the box was crushed."}),
    ];
    messages.push(response["choices"][0]["message"].clone());
    messages.extend(round.answer.items);
    let request = json!({
        "model": "gpt-4.1",
        "messages": messages,
        "tools": openai::tools_for_chat_completions(&contracts()).unwrap(),
    });
    // Every tool call of the assistant message has its answer, in order.
    let asked: Vec<&Value> = request["messages"][1]["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["id"])
        .collect();
    let answered: Vec<&Value> = request["messages"].as_array().unwrap()[2..]
        .iter()
        .map(|m| &m["tool_call_id"])
        .collect();
    assert_eq!(asked, answered);
    assert_eq!(request["tools"].as_array().unwrap().len(), 3);

    let text = support::read("recorded/chat_completions.text.json");
    let last = answer_chat(&text, &session());
    assert!(last.is_final_answer());
    assert_eq!(last.answer.items, Vec::<Value>::new());
}

#[test]
fn recorded_arguments_satisfy_the_strict_schemas() {
    // Under strict mode the model can only write arguments the strict schema
    // accepts; the empty SKU passes the schema (its length rule lives in the
    // description) and is caught by the tool's parser.
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let calls = openai::chat_completions_calls(&response).unwrap().calls;
    for call in calls
        .iter()
        .filter(|c| c.contract_in(&contracts()).is_some())
    {
        let schema = openai::strict_schema_for(call.contract_in(&contracts()).unwrap()).unwrap();
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(schema)
            .unwrap();
        let arguments: Value = serde_json::from_str(&call.arguments).unwrap();
        assert!(validator.is_valid(&arguments), "{}", call.arguments);
    }
}

#[test]
fn responses_calls_are_answered_with_function_call_outputs() {
    let response = support::read("recorded/responses.function_calls.json");
    let session = session();
    let round =
        openai::answer_responses(&response, &contracts(), |call| dispatch(call, &session)).unwrap();
    assert_eq!(
        round.answer.items,
        [
            json!({
                "type": "function_call_output",
                "call_id": "call_Qw8eR5tY2uI9oP3a",
                "output": "Reserved 2 of SKU-1042 for 30 minutes (request 4f1c9a2e-8b7d-4c6e-9f0a-1b2c3d4e5f60)."
            }),
            json!({
                "type": "function_call_output",
                "call_id": "call_Zx4cV7bN1mL6kJ2h",
                "output": "12 units of SKU-1042 in all warehouses."
            }),
        ]
    );
    let records: Vec<(Api, String, String)> = round
        .answer
        .records
        .clone()
        .into_iter()
        .map(|r| (r.api, r.model, r.contract_version.unwrap().to_string()))
        .collect();
    assert_eq!(
        records,
        [
            (
                Api::Responses,
                "o4-mini-2025-04-16".to_owned(),
                "1.0.0".to_owned()
            ),
            (
                Api::Responses,
                "o4-mini-2025-04-16".to_owned(),
                "1.0.0".to_owned()
            ),
        ]
    );
}

#[test]
fn a_fatal_outcome_writes_nothing_and_stops_the_loop() {
    let response = support::read("recorded/responses.function_calls.json");
    let mut ran = Vec::new();
    let round = openai::answer_responses(&response, &contracts(), |call| {
        ran.push(call.name.clone());
        ToolOutput::fatal(ToolError::new(
            "APPROVAL_STORE_DOWN",
            ErrorCategory::Upstream,
            "Approvals cannot be checked.",
        ))
    })
    .unwrap();
    assert_eq!(ran, ["reserve_inventory"]);
    assert!(round.stop);
    assert_eq!(round.answer.items, Vec::<Value>::new());
    assert_eq!(round.results.len(), 1);
    assert!(round.results[0].1.is_fatal());
    let unanswered: Vec<&str> = round
        .unanswered
        .iter()
        .map(|c| c.call_id.as_str())
        .collect();
    assert_eq!(unanswered, ["call_Zx4cV7bN1mL6kJ2h"]);
}

#[test]
fn a_fatal_outcome_after_answers_keeps_the_answers() {
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let session = session();
    let round = openai::answer_chat_completions(&response, &contracts(), |call| {
        if call.is::<CreateRefundDraft>() {
            ToolOutput::fatal(ToolError::internal())
        } else {
            dispatch(call, &session)
        }
    })
    .unwrap();
    assert!(round.stop);
    let answered: Vec<&str> = round
        .answer
        .items
        .iter()
        .map(|i| i["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(answered, ["call_Xk2n8QzR4tVb7Lm1"]);
    let unanswered: Vec<&str> = round.unanswered.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(unanswered, ["get_inventory", "cancel_order"]);
}

#[test]
fn a_call_of_a_cut_off_response_is_answered_not_run() {
    // `status: incomplete` at `max_output_tokens`, the call's arguments cut
    // mid-string: not run (the closure is never called), answered with an
    // error the model can act on.
    let response = support::read("recorded/responses.incomplete.json");
    let round = openai::answer_responses(&response, &contracts(), |_| {
        panic!("a call of a cut-off response ran")
    })
    .unwrap();
    assert!(!round.stop);
    assert_eq!(
        round.answer.items,
        [json!({
            "type": "function_call_output",
            "call_id": "call_Mn3bV6cX9zL2kJ5h",
            "output": "Error [CALL_NOT_RUN]: The call did not run: the response did not complete (\"max_output_tokens\"), so its arguments may be incomplete. Make the call again if it is still needed."
        })]
    );
}

#[test]
fn a_value_missing_from_the_session_is_not_the_models_fault() {
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let without_customer = Session::new().with(TenantId("acme".into()));
    let round = answer_chat(&response, &without_customer);
    assert_eq!(
        round.answer.items[1]["content"],
        "Error [INTERNAL]: The tool failed unexpectedly. The failure was recorded; do not retry this call."
    );
}

#[test]
fn parse_refuses_a_call_of_another_tool() {
    let call = ToolCall::new(
        "call_1",
        "get_inventory",
        r#"{"sku": "SKU-1", "warehouse": null, "include_reserved": null}"#,
    );
    assert!(call.is::<GetInventory>());
    assert!(!call.is::<ReserveInventory>());
    let inventory = call.parse::<GetInventory>(&session()).unwrap();
    assert_eq!(inventory.sku, "SKU-1");
    let wrong = call.parse::<ReserveInventory>(&session()).unwrap_err();
    assert_eq!(wrong.error().map(|e| e.code.as_ref()), Some("INTERNAL"));
}

#[test]
fn outcomes_of_calls_run_elsewhere_make_a_round_too() {
    // An async dispatcher runs the calls itself (here: all of them, one
    // fatal) and hands the outcomes back.
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let session = session();
    let read = openai::chat_completions_calls(&response).unwrap();
    let results: Vec<(ToolCall, ToolOutput)> = read
        .calls
        .into_iter()
        .map(|call| {
            let output = match call.contract_in(&contracts()) {
                None => openai::unknown_tool(&call.name, &contracts()),
                Some(_) if call.is::<CreateRefundDraft>() => {
                    ToolOutput::fatal(ToolError::internal())
                }
                Some(_) => dispatch(&call, &session),
            };
            (call, output)
        })
        .collect();
    let round = ToolRound::from_results(
        openai::ResponseCalls::new(read.api, read.model, Vec::new()),
        results,
        &contracts(),
    );
    assert!(round.stop);
    assert!(round.unanswered.is_empty());
    let answered: Vec<&str> = round
        .answer
        .items
        .iter()
        .map(|i| i["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        answered,
        [
            "call_Xk2n8QzR4tVb7Lm1",
            "call_Tz5yU8iO1pAs4DfG",
            "call_Hj7kL2zX5cV9bN3m"
        ]
    );
}
