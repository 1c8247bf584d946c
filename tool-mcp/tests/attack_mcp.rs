//! Attacks on the MCP server (issue 13) in raw JSON-RPC lines.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tool_contract::mcp::{McpServer, serve};
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};

/// Quote what a number of loyalty points is worth, e.g. before a purchase.
#[derive(Debug, Tool)]
#[tool(output = String)]
pub struct GetPointsQuote {
    /// How many points, exactly as the account shows them.
    pub points: u128,
}

/// Look up the label printed on one shelf of the store.
#[derive(Debug, Tool)]
#[tool(output = String)]
pub struct GetShelfLabel {
    /// Shelf code, e.g. "A-3".
    pub shelf: String,
}

/// Work out the share of an order that was refunded, as a fraction.
#[derive(Debug, Tool)]
#[tool(output = f64)]
pub struct GetRefundShare {
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|_: GetRefundShare, _cx: CallContext| async move {
        // An order with a total of 0: 0.0 / 0.0.
        Ok::<_, ToolError>(f64::NAN)
    });
    toolbox.register(|call: GetPointsQuote, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("{} points", call.points))
    });
    toolbox.register(|call: GetShelfLabel, _cx: CallContext| async move {
        Ok::<_, ToolError>(format!("shelf {}", call.shelf))
    });
    toolbox
}

struct Host {
    to_server: tokio::io::WriteHalf<DuplexStream>,
    from_server: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
}

impl Host {
    async fn start() -> Host {
        Host::start_with(McpServer::new(toolbox(), "attack", "0.0.1")).await
    }

    async fn start_with(server: McpServer) -> Host {
        let (host_end, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(serve(server, server_read, server_write));
        let (read, write) = tokio::io::split(host_end);
        let mut host = Host {
            to_server: write,
            from_server: BufReader::new(read).lines(),
        };
        let init = host
            .answer(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "6.6.6"}}}),
            )
            .await;
        assert_eq!(init["result"]["serverInfo"]["name"], "attack");
        host.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        host
    }

    async fn send_line(&mut self, line: &str) {
        self.to_server.write_all(line.as_bytes()).await.unwrap();
        self.to_server.write_all(b"\n").await.unwrap();
    }

    async fn next(&mut self) -> Option<Value> {
        let line = tokio::time::timeout(Duration::from_secs(5), self.from_server.next_line())
            .await
            .ok()?
            .ok()??;
        Some(serde_json::from_str(&line).unwrap())
    }

    async fn answer(&mut self, message: Value) -> Value {
        self.send_line(&message.to_string()).await;
        self.next().await.expect("an answer")
    }

    /// Sends `line`, then a `tools/list` with id `probe`; returns what came
    /// back before the probe's answer, and whether the probe was answered.
    async fn send_then_probe(&mut self, line: &str, probe: i64) -> (Vec<Value>, bool) {
        self.send_line(line).await;
        self.send_line(&json!({"jsonrpc": "2.0", "id": probe, "method": "tools/list"}).to_string())
            .await;
        let mut before = Vec::new();
        while let Some(message) = self.next().await {
            if message["id"] == json!(probe) {
                return (before, true);
            }
            before.push(message);
        }
        (before, false)
    }
}

async fn direct(name: &str, arguments: &str) -> tool_contract::CallResult {
    toolbox()
        .call(&ToolCall::new("c", name, arguments), &Session::new())
        .await
}

/// An integer beyond 64 bits that the input schema allows (`type:
/// integer`, u128) reaches the tool exactly through `Toolbox::call`, but
/// the MCP server reads the arguments into a `serde_json` map (no
/// arbitrary precision) and hands the tool a float.
#[tokio::test]
async fn an_integer_beyond_64_bits_reaches_the_tool_exactly() {
    let arguments = r#"{"points": 18446744073709551617}"#;
    let direct = direct("get_points_quote", arguments).await;
    assert_eq!(
        direct.model_text().as_deref(),
        Some("18446744073709551617 points")
    );
    let mut host = Host::start().await;
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_points_quote","arguments":{arguments}}}}}"#
    );
    host.send_line(&line).await;
    let answer = host.next().await.expect("an answer");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["value"], "18446744073709551617 points",
        "{answer}"
    );
}

/// A key given twice is an argument error of the parser (`Toolbox::call`
/// refuses it); over MCP the second value silently wins.
#[tokio::test]
async fn a_key_given_twice_is_an_argument_error_over_mcp_too() {
    let arguments = r#"{"shelf": "A-1", "shelf": "B-2"}"#;
    let direct = direct("get_shelf_label", arguments).await;
    assert!(direct.output.error().is_some(), "{:?}", direct.model_text());
    let mut host = Host::start().await;
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_shelf_label","arguments":{arguments}}}}}"#
    );
    host.send_line(&line).await;
    let answer = host.next().await.expect("an answer");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
}

#[tokio::test]
async fn hostile_lines_leave_the_server_serving() {
    let lines: Vec<String> = vec![
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"\ud800"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":null}"#.into(),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"x"}"#.into(),
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_shelf_label","arguments":[1]}}"#.into(),
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_shelf_label","arguments":"{\"shelf\":\"A\"}"}}"#.into(),
        r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":5}}"#.into(),
        r#"{"jsonrpc":"2.0","id":7,"id":8,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]"#.into(),
        r#"{"jsonrpc":"1.0","id":10,"method":"tools/list"}"#.into(),
        r#"garbage"#.into(),
        r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"},"_meta":{"progressToken":{"x":1}}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"get_shelf_label","arguments":null}}"#.into(),
        r#"{"jsonrpc":"2.0","id":"","method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#.into(),
        r#"{"jsonrpc":"2.0","id":-9223372036854775809,"method":"tools/list"}"#.into(),
        r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"tools/list"}"#.into(),
    ];
    let mut host = Host::start().await;
    let mut dead = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let probe = 1000 + i as i64;
        let (before, served) = host.send_then_probe(line, probe).await;
        println!("LINE {line}\n  -> {before:?} served={served}");
        if !served {
            dead.push(line.clone());
            break;
        }
    }
    assert!(
        dead.is_empty(),
        "the server stopped answering after {dead:?}"
    );
}

/// A `tools/call` whose arguments hold a lone surrogate escape: the toolbox
/// answers it (`INVALID_ARGUMENTS`), but over MCP the request is dropped
/// without any answer, so the client waits for id 1 forever.
#[tokio::test]
async fn a_call_with_a_lone_surrogate_gets_an_answer() {
    let arguments = r#"{"shelf": "\ud800"}"#;
    let direct = direct("get_shelf_label", arguments).await;
    assert!(direct.output.error().is_some(), "{:?}", direct.model_text());
    let mut host = Host::start().await;
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_shelf_label","arguments":{arguments}}}}}"#
    );
    let (before, served) = host.send_then_probe(&line, 2).await;
    assert!(served);
    assert!(
        before
            .iter()
            .any(|m| m["id"] == 1 || m["error"]["code"] == -32700),
        "no answer to the call, nor a parse error: {before:?}"
    );
}

/// A line that is not JSON gets JSON-RPC's parse error (-32700), not
/// silence.
#[tokio::test]
async fn a_line_that_is_not_json_gets_a_parse_error() {
    let mut host = Host::start().await;
    let (before, served) = host.send_then_probe("garbage", 2).await;
    assert!(served);
    assert!(
        before.iter().any(|m| m["error"]["code"] == -32700),
        "{before:?}"
    );
}

/// "Whatever the MCP schema accepts, the contract's parser accepts"
/// (tool-mcp/src/schema.rs): the dialect writes schemars' `uint128` format
/// as bounds, and a JSON number cannot hold u128::MAX exactly.
#[test]
fn what_the_mcp_schema_accepts_for_a_u128_the_parser_accepts() {
    let schema = Value::Object(tool_contract::mcp::input_schema(
        GetPointsQuote::input_schema(),
    ));
    println!("{}", schema["properties"]["points"]);
    let validator = jsonschema::draft202012::options().build(&schema).unwrap();
    let text = r#"{"points": 340282366920938463463374607431768211456}"#;
    let document: Value = serde_json::from_str(text).unwrap();
    let by_mcp = validator.is_valid(&document);
    let parsed = GetPointsQuote::from_arguments(text, &Session::new());
    assert!(
        !by_mcp || parsed.is_ok(),
        "the MCP schema {} accepts {text}; the parser: {:?}",
        schema["properties"]["points"],
        parsed.err().map(|e| e.to_string())
    );
}

/// Draw the next raffle ticket number for the customer: each call gives a
/// new number.
#[derive(Debug, Tool)]
#[tool(idempotent = false, output = String)]
pub struct GetNextRaffleNumber {
    /// The raffle, e.g. "R-1".
    #[tool(pattern = "^R-[0-9]+$")]
    pub raffle_ref: String,
}

/// A read tool declared `idempotent = false` is announced with
/// `idempotentHint: true`: the annotation overrides what the author said.
#[test]
fn a_read_tool_declared_not_idempotent_is_not_announced_idempotent() {
    let contract = GetNextRaffleNumber::contract();
    let tool = tool_contract::mcp::mcp_tool(contract, None);
    let annotations = serde_json::to_value(tool.annotations.unwrap()).unwrap();
    assert_eq!(
        annotations["idempotentHint"],
        false,
        "policy {:?}, annotations {annotations}",
        contract.idempotency()
    );
}

/// A handler's output that serde_json writes as `null` (a NaN or infinite
/// float) goes out as `structuredContent` that its own `outputSchema`
/// (`type: number`) refuses, with `isError: false`.
#[tokio::test]
async fn structured_content_is_valid_against_the_output_schema() {
    let mut host = Host::start().await;
    let list = host
        .answer(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    let tool = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "get_refund_share")
        .unwrap()
        .clone();
    let answer = host
        .answer(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "get_refund_share", "arguments": {"order_ref": "A-1"}}}))
        .await;
    let validator = jsonschema::draft202012::options()
        .build(&tool["outputSchema"])
        .unwrap();
    let structured = &answer["result"]["structuredContent"];
    assert!(
        answer["result"]["isError"] == true || validator.is_valid(structured),
        "structuredContent {structured} against outputSchema {}: {answer}",
        tool["outputSchema"]
    );
}

/// The output that fails its schema answers `INTERNAL` (the model told no
/// more), and the audit record `on_result` sees says why.
#[tokio::test]
async fn an_output_that_fails_its_schema_is_internal_with_the_reason_in_the_audit() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = seen.clone();
    let server = McpServer::new(toolbox(), "attack", "0.0.1")
        .on_result(move |result| keep.lock().unwrap().push(result.audit.clone()));
    let mut host = Host::start_with(server).await;
    let answer = host
        .answer(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "get_refund_share", "arguments": {"order_ref": "A-1"}}}))
        .await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(answer["result"].get("structuredContent"), None, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        tool_contract::ToolError::internal().model_text()
    );
    let audits = seen.lock().unwrap();
    assert_eq!(audits.len(), 1);
    assert_eq!(audits[0].error_code.as_deref(), Some("INTERNAL"));
    assert_eq!(
        audits[0].result,
        tool_contract::runtime::OutputKind::RespondToModel
    );
    let detail = audits[0].internal_detail.as_deref().unwrap();
    assert!(
        detail.starts_with(
            "the output does not meet the tool's output schema: null is not of type \"number\""
        ),
        "{detail}"
    );
}

/// A line that is not JSON gets `-32700` with `id: null`; a JSON line that
/// is no message of the protocol `-32600`, with its id when it has one.
#[tokio::test]
async fn lines_that_are_no_message_get_jsonrpc_errors_with_the_ids_they_have() {
    let mut host = Host::start().await;
    let (before, served) = host.send_then_probe("{\"jsonrpc\":", 2).await;
    assert!(served);
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["error"]["code"], -32700);
    assert_eq!(before[0].get("id"), Some(&Value::Null));
    let (before, served) = host
        .send_then_probe(r#"{"jsonrpc":"1.0","id":10,"method":"tools/list"}"#, 3)
        .await;
    assert!(served);
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["error"]["code"], -32600);
    assert_eq!(before[0]["id"], 10);
    // A notification gets no answer, however malformed.
    let (before, served) = host
        .send_then_probe(
            r#"{"jsonrpc":"1.0","method":"notifications/initialized"}"#,
            4,
        )
        .await;
    assert!(served);
    assert_eq!(before, Vec::<Value>::new());
}
