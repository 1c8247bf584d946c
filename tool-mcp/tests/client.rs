//! The MCP server driven by rmcp's own client over an in-memory duplex
//! stream (the same code path as stdio): `tools/list`, a success with
//! `structuredContent`, an argument error, a tool's error, an unknown tool,
//! an approval-required call and its approval, a fatal outcome, on a
//! 2025-11-25 client (`initialize`) and on a 2026-07-28 client
//! (`server/discover`, per-request `_meta`).

#[path = "../../examples/mcp_server.rs"]
#[allow(dead_code)]
mod example;
#[path = "support/rich.rs"]
mod rich;
#[path = "support/shop.rs"]
mod shop;

use example::tools;

// The client side of rmcp is no part of the facade (it re-exports only the
// rmcp types of the server's signatures): the test uses rmcp itself.
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ErrorCode,
    Implementation, ProtocolVersion, Tool,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService, ServiceError,
};
use serde_json::{Map, Value, json};
use tool_contract::Tool as _;
use tool_contract::approval::Approvals;
use tool_contract::mcp::{FATAL_MESSAGE, McpServer, mcp_tool, serve};
use tool_contract::runtime::OutputKind;

type Client = RunningService<RoleClient, ClientConfig>;

/// A client on `revision` connected to `server` through a duplex stream.
async fn connect(server: McpServer, revision: ProtocolVersion) -> Client {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(server, server_read, server_write));
    let lifecycle = if revision == ProtocolVersion::V_2026_07_28 {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![revision.clone()],
        }
    } else {
        ClientLifecycleMode::Initialize
    };
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("test-client", "0.1.0"),
    )
    .with_protocol_version(revision)
    .serve_with_lifecycle(tokio::io::split(client_end), lifecycle)
    .await
    .expect("the client connects")
}

fn arguments(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

async fn call(client: &Client, name: &str, args: Value) -> Result<CallToolResult, ServiceError> {
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments(args)))
        .await
}

/// The result as JSON, without `resultType` (present on 2026-07-28 only).
fn wire(result: &CallToolResult) -> Value {
    let mut value = serde_json::to_value(result).unwrap();
    value.as_object_mut().unwrap().remove("resultType");
    value
}

/// Whether `value` is valid against the `outputSchema` of `tool`.
fn valid_output(tool: &Tool, value: &Value) -> bool {
    let schema = Value::Object(tool.output_schema.as_deref().unwrap().clone());
    jsonschema::draft202012::options()
        .build(&schema)
        .unwrap()
        .is_valid(value)
}

fn mcp_error(result: Result<CallToolResult, ServiceError>) -> (ErrorCode, String) {
    match result {
        Err(ServiceError::McpError(error)) => (error.code, error.message.into_owned()),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

/// What both revisions answer alike: a tool's error, invalid arguments, an
/// unknown tool, an approval-required call and its approval, a fatal call.
async fn errors_and_approvals(client: &Client, approvals: &Approvals, seen: &shop::Seen) {
    // Invalid arguments: `isError`, the runtime's model text.
    let invalid = call(client, "get_inventory", json!({"sku": "", "bogus": 1}))
        .await
        .unwrap();
    let model_text = seen.results().last().unwrap().model_text().unwrap();
    assert!(
        model_text.starts_with("Error [INVALID_ARGUMENTS]: "),
        "{model_text}"
    );
    assert_eq!(
        wire(&invalid),
        json!({
            "content": [{"type": "text", "text": model_text}],
            "isError": true,
            "_meta": {"dev.tool-contract/error": {
                "code": "INVALID_ARGUMENTS",
                "category": "invalid_arguments",
                "safe_message": model_text.trim_start_matches("Error [INVALID_ARGUMENTS]: "),
                "recovery": "fix_arguments",
                "retry_after_ms": null
            }}
        })
    );

    // A tool's declared error.
    let not_found = call(
        client,
        "open_support_ticket",
        json!({"order_ref": "A-404", "summary": "Broken."}),
    )
    .await
    .unwrap();
    assert_eq!(not_found.is_error, Some(true));
    assert_eq!(
        wire(&not_found)["content"],
        json!([{"type": "text", "text":
            "Error [ORDER_NOT_FOUND]: No order A-404 belongs to this customer; ask them to check the reference."}])
    );

    // An unknown tool: a JSON-RPC error that names the tools there are.
    let (code, message) = mcp_error(call(client, "get_inventroy", json!({})).await);
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert_eq!(
        message,
        "There is no tool named \"get_inventroy\". Use one of: build_slow_report, \
         count_shelf_labels, find_order_note, get_city_temperature, get_inventory, list_warehouses, \
         open_support_ticket, replace_category_tree, reserve_inventory."
    );

    // Approval required: refused with the request for the application ...
    let reserve = json!({"sku": "SKU-1042", "quantity": 2,
        "request_id": "0b7e9a52-3f4e-4c1a-9d2b-6a8f1c2e3d4b"});
    let refused = call(client, "reserve_inventory", reserve.clone())
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true));
    let text = wire(&refused)["content"][0]["text"].clone();
    assert!(
        text.as_str()
            .unwrap()
            .starts_with("Error [APPROVAL_REQUIRED]: "),
        "{text}"
    );
    let request = seen
        .results()
        .last()
        .unwrap()
        .approval_request
        .clone()
        .expect("an approval request for the application");
    assert_eq!(request.tool, "reserve_inventory");
    // ... and once the user approves, the same call runs.
    approvals.grant(request.approve("appr-1"));
    let reserved = call(client, "reserve_inventory", reserve).await.unwrap();
    assert_eq!(
        reserved.structured_content,
        Some(json!({"reservation_id": "RSV-acme-2", "expires_at": "2026-12-01T10:00:00.000Z"}))
    );
    assert_eq!(
        seen.results().last().unwrap().audit.approval_id.as_deref(),
        Some("appr-1")
    );

    // A fatal outcome: a JSON-RPC internal error; the reason is in the audit.
    let (code, message) =
        mcp_error(call(client, "count_shelf_labels", json!({"shelf": "A-3"})).await);
    assert_eq!(code, ErrorCode::INTERNAL_ERROR);
    assert_eq!(message, FATAL_MESSAGE);
    let audit = seen.results().last().unwrap().audit.clone();
    assert_eq!(audit.tool, "count_shelf_labels");
    assert_eq!(audit.result, OutputKind::Fatal);
    assert!(
        audit
            .internal_detail
            .as_deref()
            .is_some_and(|d| d.contains("label printer database is gone")),
        "{audit:?}"
    );
}

#[tokio::test]
async fn a_2025_11_25_client_lists_and_calls_tools() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let client = connect(
        shop::server(&approvals, &seen),
        ProtocolVersion::V_2025_11_25,
    )
    .await;

    let info = client.peer_info().unwrap();
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert_eq!(
        serde_json::to_value(&info.server_info).unwrap(),
        json!({"name": "shop-tools", "version": "2.1.0"})
    );
    assert_eq!(
        info.instructions.as_deref(),
        Some("Tools of the shop's order desk.")
    );

    let listed = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = listed.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "build_slow_report",
            "count_shelf_labels",
            "find_order_note",
            "get_city_temperature",
            "get_inventory",
            "list_warehouses",
            "open_support_ticket",
            "replace_category_tree",
            "reserve_inventory",
        ]
    );
    let legacy = Some(&ProtocolVersion::V_2025_11_25);
    let inventory = listed.iter().find(|t| t.name == "get_inventory").unwrap();
    assert_eq!(
        inventory,
        &mcp_tool(tools::GetInventory::contract(), legacy)
    );
    let warehouses = listed.iter().find(|t| t.name == "list_warehouses").unwrap();
    assert_eq!(
        warehouses,
        &mcp_tool(rich::ListWarehouses::contract(), legacy)
    );
    assert_eq!(warehouses.output_schema.as_ref().unwrap()["type"], "object");

    // A success: structuredContent valid against the output schema, and the
    // same JSON as text.
    let stock = call(&client, "get_inventory", json!({"sku": "SKU-1042"}))
        .await
        .unwrap();
    assert_eq!(
        wire(&stock),
        json!({
            "content": [{"type": "text", "text": "{\"sku\":\"SKU-1042\",\"available\":12,\"reserved\":0}"}],
            "structuredContent": {"sku": "SKU-1042", "available": 12, "reserved": 0},
            "isError": false
        })
    );
    assert!(valid_output(
        inventory,
        stock.structured_content.as_ref().unwrap()
    ));

    // A non-object output is wrapped for this revision.
    let codes = call(&client, "list_warehouses", json!({})).await.unwrap();
    assert_eq!(
        wire(&codes),
        json!({
            "content": [{"type": "text", "text": "[\"BER-1\",\"HAM-2\"]"}],
            "structuredContent": {"value": ["BER-1", "HAM-2"]},
            "isError": false
        })
    );
    assert!(valid_output(
        warehouses,
        codes.structured_content.as_ref().unwrap()
    ));

    // A tool without a declared output answers with text only.
    let report = call(&client, "build_slow_report", json!({"wait": 0}))
        .await
        .unwrap();
    assert_eq!(
        wire(&report),
        json!({"content": [{"type": "text", "text": "Report ready."}], "isError": false})
    );

    errors_and_approvals(&client, &approvals, &seen).await;
    assert!(
        seen.revisions()
            .iter()
            .all(|v| v.as_deref() == Some("2025-11-25"))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_2026_07_28_client_discovers_and_calls_tools() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let client = connect(
        shop::server(&approvals, &seen),
        ProtocolVersion::V_2026_07_28,
    )
    .await;

    let listed = client.list_all_tools().await.unwrap();
    assert_eq!(listed.len(), 9);
    let current = Some(&ProtocolVersion::V_2026_07_28);
    let warehouses = listed.iter().find(|t| t.name == "list_warehouses").unwrap();
    assert_eq!(
        warehouses,
        &mcp_tool(rich::ListWarehouses::contract(), current)
    );
    assert_eq!(warehouses.output_schema.as_ref().unwrap()["type"], "array");

    // This revision takes any JSON as structured content: no wrapping.
    let codes = call(&client, "list_warehouses", json!({})).await.unwrap();
    assert_eq!(codes.structured_content, Some(json!(["BER-1", "HAM-2"])));
    assert!(valid_output(
        warehouses,
        codes.structured_content.as_ref().unwrap()
    ));
    let ticket = call(
        &client,
        "open_support_ticket",
        json!({"order_ref": "A-1", "summary": "Broken.", "priority": "urgent"}),
    )
    .await
    .unwrap();
    assert_eq!(
        ticket.structured_content,
        Some(json!({"ticket": "T-c-42", "answer_by": null}))
    );
    // An output that may be null is wrapped on this revision too.
    let note = call(&client, "find_order_note", json!({"order_ref": "A-2"}))
        .await
        .unwrap();
    assert_eq!(note.structured_content, Some(json!({"value": null})));

    errors_and_approvals(&client, &approvals, &seen).await;
    assert!(
        seen.revisions()
            .iter()
            .all(|v| v.as_deref() == Some("2026-07-28"))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn concurrent_calls_each_get_their_own_answer() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let client = connect(
        shop::server(&approvals, &seen),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
    let calls = (0..32).map(|i| {
        let client = &client;
        async move {
            let sku = format!("SKU-{i}");
            let result = call(client, "get_inventory", json!({"sku": sku}))
                .await
                .unwrap();
            (sku, result.structured_content.unwrap()["sku"].clone())
        }
    });
    for (sent, answered) in futures_join_all(calls).await {
        assert_eq!(answered, sent);
    }
    assert_eq!(seen.results().len(), 32);
    client.cancel().await.unwrap();
}

/// Runs the futures concurrently on this task, outputs in order.
async fn futures_join_all<F: std::future::Future>(
    futures: impl Iterator<Item = F>,
) -> Vec<F::Output> {
    let handles: Vec<_> = futures.map(Box::pin).collect();
    let mut outputs = Vec::new();
    let mut pending: Vec<_> = handles.into_iter().map(Some).collect();
    let mut done: Vec<Option<F::Output>> = (0..pending.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all = true;
        for (slot, out) in pending.iter_mut().zip(done.iter_mut()) {
            if let Some(future) = slot {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => {
                        *out = Some(value);
                        *slot = None;
                    }
                    std::task::Poll::Pending => all = false,
                }
            }
        }
        if all {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    outputs.extend(done.into_iter().flatten());
    outputs
}

#[tokio::test]
async fn the_example_server_answers_clients_of_both_revisions() {
    for revision in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        let approvals = Approvals::new();
        let client = connect(example::server(&approvals), revision.clone()).await;
        let names: Vec<String> = client
            .list_all_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|tool| tool.name.into_owned())
            .collect();
        assert_eq!(
            names,
            ["create_refund_draft", "get_inventory", "reserve_inventory"]
        );
        let stock = call(&client, "get_inventory", json!({"sku": "SKU-1042"}))
            .await
            .unwrap();
        assert_eq!(
            stock.structured_content,
            Some(json!({"sku": "SKU-1042", "available": 12, "reserved": 0})),
            "{revision:?}"
        );
        let invalid = call(&client, "get_inventory", json!({})).await.unwrap();
        assert_eq!(
            wire(&invalid)["content"][0]["text"],
            "Error [INVALID_ARGUMENTS]: $.sku: missing required field \"sku\"",
            "{revision:?}"
        );
        client.cancel().await.unwrap();
    }
}
