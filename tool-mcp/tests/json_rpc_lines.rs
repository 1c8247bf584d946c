//! Attacks on the MCP server in raw JSON-RPC lines: arguments rmcp's map
//! would change, lines that are no message, ids that are `null` or in use,
//! methods and keys spelled with escapes or given twice.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::sync::Semaphore;
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

/// Put a label on one shelf of the store, replacing the one there.
#[derive(Debug, Tool)]
#[tool(output = String, effect = "write", idempotent = false)]
pub struct PutShelfLabel {
    /// Shelf code, e.g. "A-3".
    pub shelf: String,
}

/// A server whose `put_shelf_label` waits for a permit of `gate` and counts
/// its runs in `runs`.
fn gated(gate: &Arc<Semaphore>, runs: &Arc<AtomicUsize>) -> McpServer {
    let mut toolbox = toolbox();
    let (gate, runs) = (gate.clone(), runs.clone());
    toolbox.register(move |call: PutShelfLabel, _cx: CallContext| {
        let (gate, runs) = (gate.clone(), runs.clone());
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            gate.acquire().await.expect("open").forget();
            Ok::<_, ToolError>(format!("labelled {}", call.shelf))
        }
    });
    McpServer::new(toolbox, "attack", "0.0.1")
}

fn put(id: Value, shelf: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "put_shelf_label", "arguments": {"shelf": shelf}}})
    .to_string()
}

/// Waits until `runs` is `n` (the call reached the tool).
async fn until_runs(runs: &AtomicUsize, n: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while runs.load(Ordering::SeqCst) != n {
        assert!(
            tokio::time::Instant::now() < deadline,
            "runs {runs:?}, not {n}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// MCP: a request id is a string or an integer, never `null`. A request
/// with `"id": null` is an invalid request answered with id `null` (not a
/// notification left unanswered), and its tool does not run.
#[tokio::test]
async fn a_request_with_a_null_id_is_an_invalid_request() {
    let (gate, runs) = (Arc::new(Semaphore::new(10)), Arc::new(AtomicUsize::new(0)));
    let mut host = Host::start_with(gated(&gate, &runs)).await;
    let (before, served) = host.send_then_probe(&put(Value::Null, "A-1"), 2).await;
    assert!(served);
    assert_eq!(
        before,
        vec![
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
            "message": "Invalid request: the id is `null`; a request's id is a string or an integer, and a notification has no `id`"}})
        ]
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A second request with the id of one still in flight is refused with
/// that id ("in use"); the first runs once and gets its one answer; once
/// answered, the id may be used again.
#[tokio::test]
async fn a_request_reusing_an_id_in_flight_is_refused_and_the_first_answered() {
    let (gate, runs) = (Arc::new(Semaphore::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut host = Host::start_with(gated(&gate, &runs)).await;
    host.send_line(&put(json!(7), "A-1")).await;
    until_runs(&runs, 1).await;
    host.send_line(&put(json!(7), "B-2")).await;
    assert_eq!(
        host.next().await,
        Some(json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
            "message": "Invalid request: the id 7 is in use by a request that has not been answered yet; give each request in flight its own id"}}))
    );
    // The string "7" is another id.
    host.send_line(&put(json!("7"), "C-3")).await;
    until_runs(&runs, 2).await;
    gate.add_permits(2);
    let mut answers = vec![
        host.next().await.expect("an answer"),
        host.next().await.expect("an answer"),
    ];
    answers.sort_by_key(|answer| answer["id"].to_string());
    assert_eq!(answers[0]["id"], "7", "{answers:?}");
    assert_eq!(answers[0]["result"]["content"][0]["text"], "labelled C-3");
    assert_eq!(answers[1]["id"], 7, "{answers:?}");
    assert_eq!(answers[1]["result"]["content"][0]["text"], "labelled A-1");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    // Answered: 7 is free again.
    gate.add_permits(1);
    let answer = host
        .answer(serde_json::from_str(&put(json!(7), "D-4")).unwrap())
        .await;
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "labelled D-4");
    let (before, served) = host
        .send_then_probe(r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#, 10)
        .await;
    assert!(served);
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["id"], 9);
}

/// A cancelled call is aborted and not answered; its id stays in use
/// until the call has ended, then is free again.
#[tokio::test]
async fn a_cancelled_id_is_in_use_until_its_call_ends() {
    let (gate, runs) = (Arc::new(Semaphore::new(0)), Arc::new(AtomicUsize::new(0)));
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = seen.clone();
    let server = gated(&gate, &runs)
        .on_result(move |result| keep.lock().unwrap().push(result.audit.clone()));
    let mut host = Host::start_with(server).await;
    host.send_line(&put(json!(5), "A-1")).await;
    until_runs(&runs, 1).await;
    host.send_line(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#,
    )
    .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while seen.lock().unwrap().is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the call was not aborted"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        seen.lock().unwrap()[0].error_code.as_deref(),
        Some("ABORTED")
    );
    // Once the aborted call's (unsent) answer has passed, 5 is free; until
    // then a reuse is refused, never answered with the aborted call's text.
    gate.add_permits(100);
    let answer = loop {
        let answer = host
            .answer(serde_json::from_str(&put(json!(5), "B-2")).unwrap())
            .await;
        if answer["error"]["code"] != -32600 {
            break answer;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "5 stayed in use: {answer}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "labelled B-2");
    let (before, served) = host
        .send_then_probe(r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#, 10)
        .await;
    assert!(served);
    assert_eq!(before.len(), 1, "{before:?}");
}

/// The text the parser gives `{"shelf": "A-1", "shelf": "B-2"}`.
async fn repeated_key_text() -> Value {
    let direct = direct("get_shelf_label", r#"{"shelf": "A-1", "shelf": "B-2"}"#).await;
    let text = direct.model_text().expect("a text");
    assert!(text.starts_with("Error [INVALID_ARGUMENTS]"), "{text}");
    Value::from(text)
}

/// The method and the keys the envelope reads are recognised however they
/// are spelled: an escaped `tools/call` or `arguments` still hands the
/// parser the arguments as written (a repeated key refused, not the last
/// value winning).
#[tokio::test]
async fn an_escaped_method_or_key_still_reaches_the_parser_as_written() {
    let expected = repeated_key_text().await;
    let arguments = r#"{"shelf": "A-1", "shelf": "B-2"}"#;
    let mut host = Host::start().await;
    for (id, envelope) in [
        r#""method":"tools\/call","params":{"name":"get_shelf_label","arguments":ARGS}"#,
        r#""method":"tools/call","params":{"name":"get_shelf_label","arguments":ARGS}"#,
        r#""method":"tools/call","params":{"name":"get_shelf_label","arguments":ARGS}"#,
        r#""method":"tools/call","params":{"name":"get_shelf_label","arguments":ARGS}"#,
    ]
    .iter()
    .enumerate()
    {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},{}}}"#,
            envelope.replace("ARGS", arguments)
        );
        host.send_line(&line).await;
        let answer = host.next().await.expect("an answer");
        assert_eq!(answer["id"], id, "{line}: {answer}");
        assert_eq!(answer["result"]["isError"], true, "{line}: {answer}");
        assert_eq!(answer["result"]["content"][0]["text"], expected, "{line}");
    }
}

/// A key given twice in a message or in its `params` makes it an invalid
/// request: rmcp would keep one of the two, unseen by the parser.
#[tokio::test]
async fn a_key_given_twice_in_the_envelope_or_params_is_an_invalid_request() {
    let mut host = Host::start().await;
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"},"arguments":{"shelf":"B"}}}"#,
            json!(1),
            "Invalid request: the key `arguments` is given twice in `params`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"},"arguments":{"shelf":"B"}}}"#,
            json!(2),
            "Invalid request: the key `arguments` is given twice in `params`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_points_quote","name":"get_shelf_label","arguments":{"shelf":"A"}}}"#,
            json!(3),
            "Invalid request: the key `name` is given twice in `params`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}},"params":{"name":"get_shelf_label","arguments":{"shelf":"B"}}}"#,
            json!(4),
            "Invalid request: the key `params` is given twice; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#,
            json!(5),
            "Invalid request: the key `method` is given twice; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"id":7,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"}}}"#,
            Value::Null,
            "Invalid request: the key `id` is given twice; give each key once",
        ),
    ];
    for (probe, (line, id, message)) in (100..).zip(cases) {
        let (before, served) = host.send_then_probe(line, probe).await;
        assert!(served, "{line}");
        assert_eq!(
            before,
            vec![
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": message}})
            ],
            "{line}"
        );
    }
    // A notification given a key twice gets no answer.
    let (before, served) = host
        .send_then_probe(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized","method":"x"}"#,
            200,
        )
        .await;
    assert!(served);
    assert_eq!(before, Vec::<Value>::new());
}

/// The escapes a client may spell any key or the method with: each is
/// read as the key it stands for, so the parser gets the arguments as
/// written (a repeated key refused), and an escaped key given next to its
/// plain spelling is a key given twice.
#[tokio::test]
async fn keys_spelled_with_escapes_are_read_as_the_keys_they_are() {
    let expected = repeated_key_text().await;
    let arguments = r#"{"shelf": "A-1", "shelf": "B-2"}"#;
    let mut host = Host::start().await;
    for (id, envelope) in [
        r#""method":"tools\/call","params":{"name":"get_shelf_label","arguments":ARGS}"#,
        r#""\u006dethod":"tools/call","params":{"name":"get_shelf_label","arguments":ARGS}"#,
        r#""method":"tools\u002fcall","para\u006ds":{"na\u006de":"get_shelf_label","argu\u006dents":ARGS}"#,
        r#""params":{"arguments":ARGS,"name":"get\u005fshelf\u005flabel"},"method":"\u0074ools/call""#,
    ]
    .iter()
    .enumerate()
    {
        let line = format!(
            r#"{{"jsonrpc":"2.0","\u0069d":{id},{}}}"#,
            envelope.replace("ARGS", arguments)
        );
        host.send_line(&line).await;
        let answer = host.next().await.expect("an answer");
        assert_eq!(answer["id"], id, "{line}: {answer}");
        assert_eq!(answer["result"]["isError"], true, "{line}: {answer}");
        assert_eq!(answer["result"]["content"][0]["text"], expected, "{line}");
    }
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"},"argu\u006dents":{"shelf":"B"}}}"#,
            json!(10),
            "Invalid request: the key `arguments` is given twice in `params`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"na\u006de":"get_points_quote","name":"get_shelf_label","arguments":{"shelf":"A"}}}"#,
            json!(11),
            "Invalid request: the key `name` is given twice in `params`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":12,"\u0069d":13,"method":"tools/list"}"#,
            Value::Null,
            "Invalid request: the key `id` is given twice; give each key once",
        ),
    ];
    for (probe, (line, id, message)) in (100..).zip(cases) {
        let (before, served) = host.send_then_probe(line, probe).await;
        assert!(served, "{line}");
        assert_eq!(
            before,
            vec![
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": message}})
            ],
            "{line}"
        );
    }
}

/// An id is one id however it is written: `7.0` and `"\u0037"` are the
/// in-flight `7` and `"7"`, refused while those run; `"7"` and `7` are two.
#[tokio::test]
async fn an_id_in_flight_is_refused_however_it_is_written() {
    let (gate, runs) = (Arc::new(Semaphore::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut host = Host::start_with(gated(&gate, &runs)).await;
    host.send_line(&put(json!(7), "A-1")).await;
    host.send_line(&put(json!("7"), "B-2")).await;
    until_runs(&runs, 2).await;
    let in_use = |id: Value, shown: &str| {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": format!(
            "Invalid request: the id {shown} is in use by a request that has not been answered yet; give each request in flight its own id")}})
    };
    host.send_line(&put(json!(7.0), "C-3")).await;
    assert_eq!(host.next().await, Some(in_use(json!(7), "7")));
    host.send_line(
        r#"{"jsonrpc":"2.0","id":"\u0037","method":"tools/call","params":{"name":"put_shelf_label","arguments":{"shelf":"D-4"}}}"#,
    )
    .await;
    assert_eq!(host.next().await, Some(in_use(json!("7"), "\"7\"")));
    gate.add_permits(2);
    let mut answers = vec![host.next().await.unwrap(), host.next().await.unwrap()];
    answers.sort_by_key(|answer| answer["id"].to_string());
    assert_eq!(answers[0]["id"], "7", "{answers:?}");
    assert_eq!(answers[0]["result"]["content"][0]["text"], "labelled B-2");
    assert_eq!(answers[1]["id"], 7, "{answers:?}");
    assert_eq!(answers[1]["result"]["content"][0]["text"], "labelled A-1");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// Cancellations of ids not in flight (never sent, answered already, of
/// another type) and malformed ones get no answer and cancel nothing; a
/// storm of them leaves a call in flight to its one answer.
#[tokio::test]
async fn cancellations_of_ids_not_in_flight_cancel_nothing() {
    let (gate, runs) = (Arc::new(Semaphore::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut host = Host::start_with(gated(&gate, &runs)).await;
    host.send_line(&put(json!(5), "A-1")).await;
    until_runs(&runs, 1).await;
    let cancels = [
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"5"}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5.5}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":[5]}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"requestId":6}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"no"}}"#,
    ];
    for round in 0..50 {
        for cancel in cancels {
            host.send_line(cancel).await;
        }
        let (before, served) = host
            .send_then_probe(
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#,
                1000 + round,
            )
            .await;
        assert!(served);
        assert_eq!(before, Vec::<Value>::new(), "round {round}");
    }
    gate.add_permits(1);
    let answer = host.next().await.expect("an answer");
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "labelled A-1");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// A JSON-RPC batch (an array) is no MCP message: one invalid request, the
/// tools inside not run.
#[tokio::test]
async fn a_batch_is_one_invalid_request_and_runs_nothing() {
    let (gate, runs) = (Arc::new(Semaphore::new(10)), Arc::new(AtomicUsize::new(0)));
    let mut host = Host::start_with(gated(&gate, &runs)).await;
    let batch = format!("[{},{}]", put(json!(1), "A-1"), put(json!(2), "B-2"));
    let (before, served) = host.send_then_probe(&batch, 3).await;
    assert!(served);
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["id"], Value::Null, "{before:?}");
    assert_eq!(before[0]["error"]["code"], -32600, "{before:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// `{"jsonrpc":"2.0","id":1,"method":"tools/list"` padded with spaces to
/// `len` bytes, closed by `}`.
fn padded_list(id: i64, len: usize) -> String {
    let head = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list""#);
    format!("{head}{}}}", " ".repeat(len - head.len() - 1))
}

/// A line of exactly 16 MiB (without its `\n`) is a message like any; a
/// line of 16 MiB + 1 is refused whole, and the next line is served.
#[tokio::test]
async fn a_line_of_16_mib_is_served_and_one_byte_more_refused() {
    const MIB16: usize = 16 * 1024 * 1024;
    let mut host = Host::start().await;
    let (before, served) = host.send_then_probe(&padded_list(1, MIB16), 2).await;
    assert!(served);
    assert_eq!(
        before.len(),
        1,
        "{:?}",
        before.iter().map(|m| &m["error"]).collect::<Vec<_>>()
    );
    assert_eq!(before[0]["id"], 1);
    assert!(before[0]["result"]["tools"].is_array(), "{}", before[0]);
    let (before, served) = host.send_then_probe(&padded_list(3, MIB16 + 1), 4).await;
    assert!(served);
    assert_eq!(
        before,
        vec![
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600,
            "message": "Invalid request: the line is longer than 16 MiB"}})
        ]
    );
}

/// Bytes cut anywhere (a BOM, a UTF-8 character, a `\r\n`) are put back
/// together before the line is read; a NUL byte or invalid UTF-8 is a
/// parse error, and the server goes on.
#[tokio::test]
async fn bytes_split_across_reads_are_one_line() {
    let mut host = Host::start().await;
    let call = "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_shelf_label\",\"arguments\":{\"shelf\":\"\u{00e9}\u{1f600}\"}}}\r\n";
    for byte in call.as_bytes() {
        host.to_server.write_all(&[*byte]).await.unwrap();
        host.to_server.flush().await.unwrap();
        tokio::task::yield_now().await;
    }
    let answer = host.next().await.expect("an answer");
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "shelf \u{e9}\u{1f600}"
    );
    for (line, message) in [
        (
            &b"{\"jsonrpc\":\"2.0\",\"id\":2,\0\"method\":\"tools/list\"}"[..],
            "Parse error: the line is not JSON",
        ),
        (
            &b"{\"jsonrpc\":\"2.0\",\"id\":\"\xC3\x28\",\"method\":\"tools/list\"}"[..],
            "Parse error: the line is not UTF-8",
        ),
        (&b"\xEF\xBB"[..], "Parse error: the line is not UTF-8"),
    ] {
        for byte in line {
            host.to_server.write_all(&[*byte]).await.unwrap();
            tokio::task::yield_now().await;
        }
        host.to_server.write_all(b"\n").await.unwrap();
        assert_eq!(
            host.next().await,
            Some(
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": message}})
            )
        );
    }
    let answer = host
        .answer(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
        .await;
    assert_eq!(answer["id"], 3, "{answer}");
}

/// When the client closes stdin, a call in flight still gets its answer,
/// and so does a last request whose line has no `\n`; then stdout closes.
#[tokio::test]
async fn closing_stdin_leaves_no_request_unanswered() {
    let (gate, runs) = (Arc::new(Semaphore::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut host = Host::start_with(gated(&gate, &runs)).await;
    host.send_line(&put(json!(5), "A-1")).await;
    until_runs(&runs, 1).await;
    host.to_server
        .write_all(br#"{"jsonrpc":"2.0","id":6,"method":"tools/list"}"#)
        .await
        .unwrap();
    host.to_server.shutdown().await.unwrap();
    let answer = host.next().await.expect("the last line's answer");
    assert_eq!(answer["id"], 6, "{answer}");
    gate.add_permits(1);
    let answer = host.next().await.expect("the call's answer");
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "labelled A-1");
    assert_eq!(host.next().await, None);
}

/// A client that writes calls and never reads an answer is not read ahead
/// of without bound: once the answers it has not read fill what the server
/// holds, the server stops reading (the client's writes block), runs no
/// more calls, and holds no more answers; when the client reads, every call
/// gets its one answer.
#[tokio::test(start_paused = true)]
async fn a_client_that_reads_no_answers_is_not_read_ahead_of() {
    const CALLS: usize = 20_000;
    let (gate, runs) = (
        Arc::new(Semaphore::new(CALLS)),
        Arc::new(AtomicUsize::new(0)),
    );
    let Host {
        mut to_server,
        mut from_server,
    } = Host::start_with(gated(&gate, &runs)).await;
    let writer = tokio::spawn(async move {
        for id in 0..CALLS {
            to_server
                .write_all(format!("{}\n", put(json!(id), &"x".repeat(100))).as_bytes())
                .await
                .unwrap();
        }
        to_server
    });
    // The paused clock moves on only when every task waits: the client on
    // its writes, the server on its.
    tokio::time::sleep(Duration::from_secs(3600)).await;
    let ran = runs.load(Ordering::SeqCst);
    assert!(!writer.is_finished(), "the server read all {CALLS} calls");
    let mut answered = vec![0u32; CALLS];
    for at in 0..CALLS {
        let line = from_server.next_line().await.unwrap().expect("an answer");
        if at == 0 {
            // The answers of the calls that ran are all the server holds
            // for this client (1 MiB waiting, the rest in the pipe's and
            // the writer's buffers): under 2 MiB.
            let held = ran * (line.len() + 1);
            assert!(
                held < 2 << 20,
                "{ran} calls ran, {held} bytes of answers held"
            );
        }
        let answer: Value = serde_json::from_str(&line).unwrap();
        let id = usize::try_from(answer["id"].as_u64().expect("an id")).unwrap();
        assert_eq!(
            answer["result"]["content"][0]["text"],
            format!("labelled {}", "x".repeat(100))
        );
        answered[id] += 1;
    }
    drop(writer.await.unwrap());
    assert!(answered.iter().all(|n| *n == 1));
    assert_eq!(runs.load(Ordering::SeqCst), CALLS);
}

/// A key given twice in any object of a message, however deep (its
/// `_meta`, an array in it), is an invalid request naming where; inside a
/// `tools/call`'s `arguments` it is the parser's argument error.
#[tokio::test]
async fn a_key_given_twice_at_any_depth_is_refused_naming_where() {
    let mut host = Host::start().await;
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A"},"_meta":{"progressToken":1,"progressToken":2}}}"#,
            "Invalid request: the key `progressToken` is given twice in `params._meta`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"trace":[{"span":1},{"span":1,"sp\u0061n":2}]}}}"#,
            "Invalid request: the key `span` is given twice in `params._meta.trace[1]`; give each key once",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"a"},"extra":{"a":{"b":1,"b":1}}}"#,
            "Invalid request: the key `b` is given twice in `extra.a`; give each key once",
        ),
    ];
    for (probe, (line, message)) in (100..).zip(cases) {
        let (before, served) = host.send_then_probe(line, probe).await;
        assert!(served, "{line}");
        let id: Value = serde_json::from_str::<Value>(line).unwrap()["id"].clone();
        assert_eq!(
            before,
            vec![
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": message}})
            ],
            "{line}"
        );
    }
    let expected = repeated_key_text().await;
    host.send_line(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_shelf_label","arguments":{"shelf":"A-1","shelf":"B-2"}}}"#).await;
    let answer = host.next().await.expect("an answer");
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], expected);
}

/// A message of half a million keys (unknown ones, which rmcp ignores) is
/// read in linear time: answered, not
/// left to a quadratic search for a key given twice.
// Two workers: a reader stuck in a quadratic search would not stop the
// test's own timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_of_half_a_million_keys_is_answered() {
    let mut host = Host::start().await;
    let keys: String = (0..500_000).map(|k| format!(r#","k{k}":0"#)).collect();
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","x":0{keys}}}"#);
    host.send_line(&line).await;
    let answer = tokio::time::timeout(Duration::from_secs(60), host.from_server.next_line())
        .await
        .expect("an answer within 60 s")
        .unwrap()
        .unwrap();
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["id"], 1, "{answer}");
    assert!(answer["result"]["tools"].is_array(), "{answer}");
    // So is a line of 16 MiB that is one array of eight million numbers.
    let head = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","x":[0"#;
    let items = (16 * 1024 * 1024 - head.len() - 2) / 2;
    let line = format!("{head}{}]}}", ",0".repeat(items));
    host.send_line(&line).await;
    let answer = tokio::time::timeout(Duration::from_secs(60), host.from_server.next_line())
        .await
        .expect("an answer within 60 s")
        .unwrap()
        .unwrap();
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["id"], 2, "{answer}");
    assert!(answer["result"]["tools"].is_array(), "{answer}");
}

/// A client that sends notifications or responses before `initialize`
/// (rmcp ends the connection on them) still gets its `initialize` and
/// every later request answered.
#[tokio::test]
async fn messages_before_initialize_leave_the_session_to_open() {
    let (host_end, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    let server = McpServer::new(toolbox(), "attack", "0.0.1");
    tokio::spawn(serve(server, server_read, server_write));
    let (read, write) = tokio::io::split(host_end);
    let mut host = Host {
        to_server: write,
        from_server: BufReader::new(read).lines(),
    };
    for early in [
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}}"#,
    ] {
        host.send_line(early).await;
    }
    let ping = host
        .answer(json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}))
        .await;
    assert_eq!(ping, json!({"jsonrpc": "2.0", "id": "p", "result": {}}));
    host.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    let init = host
        .answer(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "early", "version": "1.0.0"}}}),
        )
        .await;
    assert_eq!(init["id"], 0, "{init}");
    assert_eq!(init["result"]["serverInfo"]["name"], "attack", "{init}");
    host.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    let answer = host
        .answer(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "get_shelf_label", "arguments": {"shelf": "A-1"}}}))
        .await;
    assert_eq!(answer["id"], 3, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "shelf A-1");
}
