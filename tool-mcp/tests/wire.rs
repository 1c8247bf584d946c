//! The example server (`examples/mcp_server.rs`, the same `server()` that
//! `cargo run --example mcp_server --features mcp` serves on stdio) spoken
//! to in raw newline-delimited JSON-RPC over a duplex stream, as a host
//! speaks to it: the exact lines of a 2025-11-25 session (`initialize`) and
//! of a 2026-07-28 one (`server/discover`, per-request `_meta`).

#[path = "../../examples/mcp_server.rs"]
#[allow(dead_code)]
mod example;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tool_contract::approval::Approvals;
use tool_contract::mcp::serve;

struct Host {
    to_server: tokio::io::WriteHalf<DuplexStream>,
    from_server: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
}

impl Host {
    fn start(approvals: &Approvals) -> Host {
        let (host_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(serve(example::server(approvals), server_read, server_write));
        let (read, write) = tokio::io::split(host_end);
        Host {
            to_server: write,
            from_server: BufReader::new(read).lines(),
        }
    }

    async fn send(&mut self, message: Value) {
        let line = message.to_string() + "\n";
        self.to_server.write_all(line.as_bytes()).await.unwrap();
    }

    async fn answer(&mut self, message: Value) -> Value {
        self.send(message).await;
        let line = self
            .from_server
            .next_line()
            .await
            .unwrap()
            .expect("an answer");
        serde_json::from_str(&line).unwrap()
    }
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "host", "version": "1.0.0"}
    })
}

const APPROVAL_TEXT: &str = "This call needs the user's approval before it runs. Ask the user \
    to approve it, then make the same call again with the same arguments.";

#[tokio::test]
async fn a_2025_11_25_session_line_by_line() {
    let approvals = Approvals::new();
    let mut host = Host::start(&approvals);
    let init = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "host", "version": "1.0.0"}}}),
        )
        .await;
    assert_eq!(
        init,
        json!({"jsonrpc": "2.0", "id": 1, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "tool-contract-example-shop", "version": "0.1.0"},
            "instructions": "Order and inventory tools of a small shop. Look stock up before \
                reserving it; a reservation needs the customer's approval."
        }})
    );
    host.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;

    let list = host
        .answer(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["create_refund_draft", "get_inventory", "reserve_inventory"]
    );
    assert_eq!(
        list["result"]["tools"][2]["annotations"],
        json!({"title": "Reserve inventory", "readOnlyHint": false, "destructiveHint": false,
            "idempotentHint": true, "openWorldHint": false})
    );
    assert!(list["result"].get("resultType").is_none());

    let stock = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "get_inventory", "arguments": {"sku": "SKU-1042", "include_reserved": true}}}),
        )
        .await;
    assert_eq!(
        stock,
        json!({"jsonrpc": "2.0", "id": 3, "result": {
            "content": [{"type": "text", "text": "{\"sku\":\"SKU-1042\",\"available\":12,\"reserved\":3}"}],
            "structuredContent": {"sku": "SKU-1042", "available": 12, "reserved": 3},
            "isError": false
        }})
    );

    let reserve = json!({"sku": "SKU-1042", "quantity": 2,
        "request_id": "0b7e9a52-3f4e-4c1a-9d2b-6a8f1c2e3d4b"});
    let refused = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "reserve_inventory", "arguments": reserve}}),
        )
        .await;
    assert_eq!(
        refused,
        json!({"jsonrpc": "2.0", "id": 4, "result": {
            "content": [{"type": "text", "text": format!("Error [APPROVAL_REQUIRED]: {APPROVAL_TEXT}")}],
            "isError": true,
            "_meta": {"dev.tool-contract/error": {"code": "APPROVAL_REQUIRED", "category": "approval",
                "safe_message": APPROVAL_TEXT, "recovery": "request_approval", "retry_after_ms": null}}
        }})
    );

    let unknown = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "delete_everything", "arguments": {}}}),
        )
        .await;
    assert_eq!(
        unknown,
        json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32602, "message":
            "There is no tool named \"delete_everything\". Use one of: create_refund_draft, get_inventory, reserve_inventory."}})
    );

    // Arguments that are not an object are a malformed request.
    let malformed = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
            "name": "get_inventory", "arguments": "{\"sku\": \"SKU-1042\"}"}}),
        )
        .await;
    assert_eq!(
        malformed,
        json!({"jsonrpc": "2.0", "id": 6, "error": {"code": -32602, "message":
            "malformed tools/call: `params` needs a `name` string and, if any, an `arguments` object"}})
    );
    let bad_name = host
        .answer(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": 42}}))
        .await;
    assert_eq!(bad_name["error"]["code"], -32602, "{bad_name}");
    let other = host
        .answer(json!({"jsonrpc": "2.0", "id": 8, "method": "tools/destroy", "params": {}}))
        .await;
    assert_eq!(
        other,
        json!({"jsonrpc": "2.0", "id": 8, "error": {"code": -32601, "message": "tools/destroy"}})
    );
}

#[tokio::test]
async fn a_2026_07_28_session_line_by_line() {
    let approvals = Approvals::new();
    let mut host = Host::start(&approvals);
    let discover = host
        .answer(json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta()}}))
        .await;
    assert_eq!(
        discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "tool-contract-example-shop", "version": "0.1.0"})
    );
    assert_eq!(
        discover["result"]["supportedVersions"],
        json!([
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28"
        ])
    );

    let list = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta()}}),
        )
        .await;
    assert_eq!(list["result"]["resultType"], "complete");
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 3);

    let invalid = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "get_inventory", "arguments": {"sku": 7}, "_meta": meta()}}),
        )
        .await;
    assert_eq!(
        invalid,
        json!({"jsonrpc": "2.0", "id": 3, "result": {
            "resultType": "complete",
            "content": [{"type": "text", "text": "Error [INVALID_ARGUMENTS]: $.sku: expected a string, got the integer 7"}],
            "isError": true,
            "_meta": {"dev.tool-contract/error": {"code": "INVALID_ARGUMENTS", "category": "invalid_arguments",
                "safe_message": "$.sku: expected a string, got the integer 7", "recovery": "fix_arguments",
                "retry_after_ms": null}}
        }})
    );

    let draft = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "create_refund_draft", "arguments": {"order_ref": "A-10293", "reason": "late"},
            "_meta": meta()}}),
        )
        .await;
    assert_eq!(
        draft["result"]["structuredContent"],
        json!({"draft_id": "RD-A-10293", "amount": {"amount_minor": 50000, "currency": "EUR"}})
    );
    assert_eq!(draft["result"]["isError"], false);
}
