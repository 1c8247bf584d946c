//! `call_tool_result` on the runtime's own results: what a cut success
//! carries (never more than its cut text, as with every provider), and
//! which outcomes are JSON-RPC errors.

#[path = "support/rich.rs"]
mod rich;
#[path = "support/shop.rs"]
mod shop;
#[path = "../../examples/tools/mod.rs"]
mod tools;

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_contract::mcp::rmcp::model::{ErrorCode, ProtocolVersion};
use tool_contract::mcp::{
    FATAL_MESSAGE, McpServer, RESULT_TOO_LARGE, call_tool_result, mcp_tool, serve,
};
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError};

/// Read the notes kept about one shelf, e.g. before restocking it.
#[derive(Debug, Tool)]
#[tool(output = String)]
pub struct GetShelfNotes {
    /// Shelf code, e.g. "A-3".
    pub shelf: String,
}

/// List the items on one shelf, e.g. before counting stock.
#[derive(Debug, Tool)]
#[tool(output = Vec<String>)]
pub struct ListShelfItems {
    /// Shelf code, e.g. "A-3".
    pub shelf: String,
}

/// Read the notes of one shelf as plain text, without a declared output.
#[derive(Debug, Tool)]
pub struct GetShelfText {
    /// Shelf code, e.g. "A-3".
    pub shelf: String,
}

/// Each tool answers 100 bytes or more; the toolbox sends 16.
fn cut_toolbox() -> tool_contract::Toolbox {
    let mut toolbox = tool_contract::Toolbox::new().with_max_content_bytes(16);
    toolbox.register(|call: GetShelfNotes, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("{}: {}", call.shelf, "é".repeat(50)))
    });
    toolbox.register(|call: ListShelfItems, _cx: CallContext| async move {
        Ok::<_, ToolError>(vec![format!("{} item", call.shelf); 10])
    });
    toolbox.register(|call: GetShelfText, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("{}: {}", call.shelf, "x".repeat(100)))
    });
    toolbox
}

const NOTICE: &str = "\n\nThe result was cut to its first 16 bytes; ask for less to see the rest.";

/// A cut string output: the text block, the structured content and the
/// model result's data all carry the same cut text (cut at a character
/// boundary), never the whole; `_meta` says it was cut; on both revisions
/// (2025-11-25 wraps the string as `{"value": ...}`).
#[tokio::test]
async fn a_cut_string_output_is_sent_as_its_cut_text_everywhere() {
    let toolbox = cut_toolbox();
    let call = ToolCall::new("c1", "get_shelf_notes", r#"{"shelf": "A-3"}"#);
    let result = toolbox.call(&call, &Session::new()).await;
    // "A-3: " and five two-byte "é": 15 bytes, the last whole character.
    let cut = format!("A-3: {}", "é".repeat(5));
    assert_eq!(result.model_text(), Some(format!("{cut}{NOTICE}")));
    let model_result = result.model_result.as_ref().unwrap();
    assert!(model_result.execution.truncated);
    assert_eq!(model_result.data, Value::from(cut.as_str()));
    for (object_output, structured) in [(true, json!({"value": cut})), (false, json!(cut))] {
        let answer =
            call_tool_result(&result, Some(GetShelfNotes::contract()), object_output).unwrap();
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": format!("{cut}{NOTICE}")}],
                "structuredContent": structured,
                "isError": false,
                "_meta": {"dev.tool-contract/truncated": true}
            }),
            "object output {object_output}"
        );
    }
    // A tool without a declared output: the cut text, no structured content.
    let call = ToolCall::new("c2", "get_shelf_text", r#"{"shelf": "A-3"}"#);
    let result = toolbox.call(&call, &Session::new()).await;
    let answer = call_tool_result(&result, Some(GetShelfText::contract()), true).unwrap();
    assert_eq!(
        serde_json::to_value(&answer).unwrap(),
        json!({
            "resultType": "complete",
            "content": [{"type": "text", "text": format!("A-3: xxxxxxxxxxx{NOTICE}")}],
            "isError": false,
            "_meta": {"dev.tool-contract/truncated": true}
        })
    );
}

/// A cut output that is no string (a cut JSON text meets no output schema)
/// is answered `RESULT_TOO_LARGE`, saying the tool ran; never the whole
/// output beside a cut text. On both revisions, through the server too
/// (the audit record says what the client got).
#[tokio::test]
async fn a_cut_output_that_is_no_string_is_result_too_large() {
    let toolbox = cut_toolbox();
    let call = ToolCall::new("c1", "list_shelf_items", r#"{"shelf": "A-3"}"#);
    let result = toolbox.call(&call, &Session::new()).await;
    let message = "The tool ran and succeeded, but its result (111 bytes as JSON) is more than this server sends whole (only its first 16 bytes fit), and a cut result would not be valid; do not repeat the call to see it: ask for less (a narrower request), or ask the user.";
    for object_output in [true, false] {
        let answer =
            call_tool_result(&result, Some(ListShelfItems::contract()), object_output).unwrap();
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": format!("Error [RESULT_TOO_LARGE]: {message}")}],
                "isError": true,
                "_meta": {"dev.tool-contract/error": {
                    "code": RESULT_TOO_LARGE, "category": "conflict", "safe_message": message,
                    "recovery": "fix_arguments", "retry_after_ms": null}}
            }),
            "object output {object_output}"
        );
    }

    let seen = Arc::new(Mutex::new(Vec::new()));
    let keep = seen.clone();
    let server = McpServer::new(cut_toolbox(), "cut", "1.0.0")
        .on_result(move |result| keep.lock().unwrap().push(result.clone()));
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(serve(server, read, write));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    for line in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "cut", "version": "1.0.0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "list_shelf_items", "arguments": {"shelf": "A-3"}}}),
    ] {
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    let _init = lines.next_line().await.unwrap().unwrap();
    let answer: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(answer["result"].get("structuredContent"), None, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        format!("Error [RESULT_TOO_LARGE]: {message}")
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].audit.error_code.as_deref(), Some(RESULT_TOO_LARGE));
    assert_eq!(
        seen[0].audit.internal_detail.as_deref(),
        Some(
            "the output's text was cut at the toolbox's content limit and the output is no string: sent as `RESULT_TOO_LARGE`"
        )
    );
    let model_result = seen[0].model_result.as_ref().unwrap();
    assert_eq!(model_result.data, Value::Null);
    assert_eq!(model_result.error.as_ref().unwrap().code, RESULT_TOO_LARGE);
}

/// The other providers send a cut result as its cut text and notice
/// alone: no structured form beside it carries more.
#[tokio::test]
async fn other_providers_send_a_cut_result_as_its_cut_text() {
    let toolbox = cut_toolbox();
    let call = ToolCall::new("c1", "list_shelf_items", r#"{"shelf": "A-3"}"#);
    let result = toolbox.call(&call, &Session::new()).await;
    let text = format!("[\"A-3 item\",\"A-3{NOTICE}");
    assert_eq!(result.model_text(), Some(text.clone()));
    assert_eq!(
        tool_contract::openai::Api::Responses.output_item(&call, &result.output),
        Some(json!({"type": "function_call_output", "call_id": "c1", "output": text}))
    );
    assert_eq!(
        tool_contract::anthropic::tool_result(&call, &result.output),
        Some(
            json!({"type": "tool_result", "tool_use_id": "c1", "content": text, "is_error": false})
        )
    );
    let model_result = result.model_result.as_ref().unwrap();
    assert_eq!(model_result.data, json!("[\"A-3 item\",\"A-3"));
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

/// A cut that falls inside a character, and a limit of 0 bytes: a string
/// output is sent as its cut text (empty at 0), whole characters only;
/// any other output is `RESULT_TOO_LARGE`, whose message says how many
/// bytes fitted (15 of a 16-byte limit when the 16th would split an "é").
#[tokio::test]
async fn cuts_inside_a_character_and_at_zero_bytes() {
    fn toolbox(limit: usize) -> tool_contract::Toolbox {
        let mut toolbox = tool_contract::Toolbox::new().with_max_content_bytes(limit);
        toolbox.register(|_: GetShelfNotes, _cx: CallContext| async move {
            Ok::<_, ToolError>("é".repeat(20))
        });
        toolbox.register(|_: ListShelfItems, _cx: CallContext| async move {
            Ok::<_, ToolError>(vec![format!("x{}", "é".repeat(20))])
        });
        toolbox
    }
    let message = |fit: usize| {
        format!(
            "Error [RESULT_TOO_LARGE]: The tool ran and succeeded, but its result (45 bytes as JSON) is more than this server sends whole (only its first {fit} bytes fit), and a cut result would not be valid; do not repeat the call to see it: ask for less (a narrower request), or ask the user."
        )
    };
    for (limit, cut, fit) in [(16, "é".repeat(8), 15), (0, String::new(), 0)] {
        let toolbox = toolbox(limit);
        let notice =
            format!("The result was cut to its first {limit} bytes; ask for less to see the rest.");
        let call = ToolCall::new("c1", "get_shelf_notes", r#"{"shelf": "A-3"}"#);
        let result = toolbox.call(&call, &Session::new()).await;
        let answer = call_tool_result(&result, Some(GetShelfNotes::contract()), false).unwrap();
        let text = result.model_text().unwrap();
        assert!(text.starts_with(&cut) && text.ends_with(&notice), "{text}");
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": text}],
                "structuredContent": cut,
                "isError": false,
                "_meta": {"dev.tool-contract/truncated": true}
            }),
            "limit {limit}"
        );
        let call = ToolCall::new("c2", "list_shelf_items", r#"{"shelf": "A-3"}"#);
        let result = toolbox.call(&call, &Session::new()).await;
        for object_output in [true, false] {
            let answer =
                call_tool_result(&result, Some(ListShelfItems::contract()), object_output).unwrap();
            let answer = serde_json::to_value(&answer).unwrap();
            assert_eq!(answer["isError"], true, "{answer}");
            assert_eq!(answer.get("structuredContent"), None, "{answer}");
            assert_eq!(answer["content"][0]["text"], message(fit), "limit {limit}");
        }
    }
}
