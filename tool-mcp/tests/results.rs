//! `call_tool_result` on the runtime's own results: what a cut success
//! carries, and which outcomes are JSON-RPC errors.

#[path = "support/rich.rs"]
mod rich;
#[path = "support/shop.rs"]
mod shop;
#[path = "../../examples/tools/mod.rs"]
mod tools;

use serde_json::{Value, json};
use tool_contract::mcp::rmcp::model::{ErrorCode, ProtocolVersion};
use tool_contract::mcp::{FATAL_MESSAGE, call_tool_result, mcp_tool};
use tool_contract::{Session, Tool, ToolCall};

#[tokio::test]
async fn a_cut_success_keeps_its_whole_structured_content() {
    let toolbox = shop::toolbox().with_max_content_bytes(16);
    let session = Session::new().with(tools::TenantId("acme".into()));
    let call = ToolCall::new("c1", "get_inventory", r#"{"sku": "SKU-1042-LONG-NAME"}"#);
    let result = toolbox.call(&call, &session).await;
    let answer = call_tool_result(&result, Some(tools::GetInventory::contract()), true).unwrap();
    // The text is the runtime's cut model text; the structured content must
    // be valid against the output schema, so it is whole.
    let text = answer.content[0].as_text().unwrap().text.clone();
    assert_eq!(Some(text), result.model_text());
    assert!(result.model_result.as_ref().unwrap().execution.truncated);
    assert_eq!(
        answer.structured_content,
        Some(json!({"sku": "SKU-1042-LONG-NAME", "available": 12, "reserved": 0}))
    );
    assert_eq!(answer.is_error, Some(false));
}

#[tokio::test]
async fn unknown_tools_and_fatal_outcomes_are_json_rpc_errors() {
    let toolbox = shop::toolbox();
    let session = Session::new();
    let unknown = toolbox
        .call(&ToolCall::new("c1", "list_warehouse", "{}"), &session)
        .await;
    let error = call_tool_result(&unknown, None, true).unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(
        error
            .message
            .starts_with("There is no tool named \"list_warehouse\".")
    );

    // A value missing from the session is the application's fault: fatal.
    let fatal = toolbox
        .call(
            &ToolCall::new(
                "c2",
                "open_support_ticket",
                r#"{"order_ref": "A-1", "summary": "x"}"#,
            ),
            &session,
        )
        .await;
    assert!(fatal.is_fatal());
    let error =
        call_tool_result(&fatal, Some(rich::OpenSupportTicket::contract()), true).unwrap_err();
    assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
    assert_eq!(error.message, FATAL_MESSAGE);
    assert_eq!(error.data, None);
}

#[tokio::test]
async fn a_non_object_output_is_wrapped_only_for_peers_that_need_objects() {
    let toolbox = shop::toolbox();
    let call = ToolCall::new("c1", "get_city_temperature", r#"{"city": "Berlin"}"#);
    let result = toolbox.call(&call, &Session::new()).await;
    let contract = Some(rich::GetCityTemperature::contract());
    let legacy = call_tool_result(&result, contract, true).unwrap();
    let current = call_tool_result(&result, contract, false).unwrap();
    assert_eq!(legacy.structured_content, Some(json!({"value": 10.0})));
    assert_eq!(current.structured_content, Some(json!(10.0)));
    assert_eq!(legacy.content[0].as_text().unwrap().text, "10.0");
}

#[tokio::test]
async fn an_output_that_may_be_null_is_wrapped_for_both_revisions() {
    let toolbox = shop::toolbox();
    let contract = Some(shop::FindOrderNote::contract());
    for (order, value) in [("A-2", json!(null)), ("A-1", json!("Leave at the door."))] {
        let arguments = json!({"order_ref": order}).to_string();
        let call = ToolCall::new("c1", "find_order_note", arguments);
        let result = toolbox.call(&call, &Session::new()).await;
        for object_output in [true, false] {
            let answer = call_tool_result(&result, contract, object_output).unwrap();
            // `"structuredContent": null` reads as missing to the official
            // clients, which then refuse the result.
            assert_eq!(answer.structured_content, Some(json!({"value": value})));
        }
    }
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let tool = mcp_tool(shop::FindOrderNote::contract(), Some(&version));
        assert_eq!(
            Value::Object(tool.output_schema.unwrap().as_ref().clone()),
            json!({"type": "object", "properties": {"value": {"title": "Nullable_string",
                "type": ["string", "null"]}}, "required": ["value"], "additionalProperties": false})
        );
    }
}
