//! A hostile client against the MCP server, in raw JSON-RPC lines: huge
//! names, ids and arguments, arguments nested past the parser's depth, a
//! cancelled call, and many calls of an approval-required tool at once.

#[path = "support/rich.rs"]
mod rich;
#[path = "support/shop.rs"]
mod shop;
#[path = "../../examples/tools/mod.rs"]
mod tools;

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tool_contract::approval::Approvals;
use tool_contract::mcp::serve;

struct Host {
    to_server: tokio::io::WriteHalf<DuplexStream>,
    from_server: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
}

impl Host {
    /// Connected to the shop server, after a 2025-11-25 handshake.
    async fn start(approvals: &Approvals, seen: &shop::Seen) -> Host {
        let (host_end, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(serve(
            shop::server(approvals, seen),
            server_read,
            server_write,
        ));
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
        assert_eq!(init["result"]["serverInfo"]["name"], "shop-tools");
        host.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        host
    }

    async fn send_line(&mut self, line: &str) {
        self.to_server.write_all(line.as_bytes()).await.unwrap();
        self.to_server.write_all(b"\n").await.unwrap();
    }

    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.from_server.next_line())
            .await
            .expect("an answer within 10 s")
            .unwrap()
            .expect("an open stream");
        serde_json::from_str(&line).unwrap()
    }

    async fn answer(&mut self, message: Value) -> Value {
        self.send_line(&message.to_string()).await;
        self.next().await
    }
}

fn call(id: Value, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}})
}

#[tokio::test]
async fn a_megabyte_tool_name_gets_a_short_error_and_a_cut_audit_name() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let mut host = Host::start(&approvals, &seen).await;
    let name = "a".repeat(1 << 20);
    let answer = host.answer(call(json!(1), &name, json!({}))).await;
    assert_eq!(answer["error"]["code"], -32602);
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.len() < 1024, "{} bytes", message.len());
    assert!(
        message.starts_with("There is no tool named \"aaaa"),
        "{message}"
    );
    assert_eq!(seen.results()[0].audit.tool.chars().count(), 256);
}

#[tokio::test]
async fn a_huge_request_id_is_cut_in_the_audit_record() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let mut host = Host::start(&approvals, &seen).await;
    let id = "é".repeat(10_000);
    let answer = host
        .answer(call(json!(id), "get_inventory", json!({"sku": "SKU-1"})))
        .await;
    assert_eq!(answer["id"], json!(id));
    assert_eq!(answer["result"]["isError"], false);
    assert_eq!(seen.results()[0].audit.call_id, "é".repeat(128));
}

#[tokio::test]
async fn arguments_over_the_session_limit_are_an_argument_error() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let mut host = Host::start(&approvals, &seen).await;
    let sku = "S".repeat(2 << 20);
    let answer = host
        .answer(call(json!(1), "get_inventory", json!({"sku": sku})))
        .await;
    assert_eq!(
        answer["result"]["isError"],
        true,
        "{}",
        &answer.to_string()[..200]
    );
    let error = &answer["result"]["_meta"]["dev.tool-contract/error"];
    assert_eq!(error["code"], "INVALID_ARGUMENTS");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.len() < 1024, "{} bytes", text.len());
}

#[tokio::test]
async fn arguments_nested_past_any_depth_leave_the_server_serving() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let mut host = Host::start(&approvals, &seen).await;
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_inventory","arguments":{{"sku":{deep}}}}}}}"#
    );
    host.send_line(&line).await;
    // The line cannot be read as JSON-RPC; whatever rmcp answers to it, the
    // next request is served.
    let answer = host
        .answer(call(json!(2), "get_inventory", json!({"sku": "SKU-2"})))
        .await;
    let answer = if answer["id"] == 2 {
        answer
    } else {
        host.next().await
    };
    assert_eq!(answer["id"], 2, "{answer}");
    assert_eq!(answer["result"]["structuredContent"]["sku"], "SKU-2");
}

#[tokio::test]
async fn a_cancelled_call_is_aborted_and_audited() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let mut host = Host::start(&approvals, &seen).await;
    host.send_line(&call(json!(7), "build_slow_report", json!({"wait": 60_000})).to_string())
        .await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    host.send_line(
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user stopped it"}}"#,
    )
    .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let audit = loop {
        if let Some(result) = seen.results().first() {
            break result.audit.clone();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the call was not aborted"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(audit.tool, "build_slow_report");
    assert_eq!(audit.error_code.as_deref(), Some("ABORTED"));
    // The server goes on serving.
    let answer = host
        .answer(call(json!(8), "get_inventory", json!({"sku": "SKU-8"})))
        .await;
    let answer = if answer["id"] == 8 {
        answer
    } else {
        host.next().await
    };
    assert_eq!(answer["result"]["structuredContent"]["sku"], "SKU-8");
}

#[tokio::test]
async fn one_approval_runs_one_call_however_many_race_for_it() {
    let (approvals, seen) = (Approvals::new(), shop::Seen::default());
    let mut host = Host::start(&approvals, &seen).await;
    let reserve = json!({"sku": "SKU-1042", "quantity": 1,
        "request_id": "5c7e9a52-3f4e-4c1a-9d2b-6a8f1c2e3d4b"});
    let refused = host
        .answer(call(json!(1), "reserve_inventory", reserve.clone()))
        .await;
    assert_eq!(refused["result"]["isError"], true);
    let request = seen.results()[0].approval_request.clone().unwrap();
    approvals.grant(request.approve("appr-once"));
    // The approved call sent 16 times at once: it runs once; the others
    // are replays of that run, or wait for it (`CALL_IN_PROGRESS`).
    for i in 0..16 {
        host.send_line(&call(json!(100 + i), "reserve_inventory", reserve.clone()).to_string())
            .await;
    }
    let mut answers = Vec::new();
    for _ in 0..16 {
        answers.push(host.next().await);
    }
    let ran: Vec<_> = seen
        .results()
        .into_iter()
        .skip(1)
        .filter(|r| r.audit.delivery.as_str() == "fresh" && r.audit.approval_id.is_some())
        .collect();
    assert_eq!(ran.len(), 1, "the approved call ran {} times", ran.len());
    assert_eq!(ran[0].audit.approval_id.as_deref(), Some("appr-once"));
    let fresh = &ran[0].output.details().clone();
    for answer in &answers {
        if answer["result"]["isError"] == false {
            // A replay carries the first run's output.
            assert_eq!(&answer["result"]["structuredContent"], fresh, "{answer}");
        }
        let code = &answer["result"]["_meta"]["dev.tool-contract/error"]["code"];
        assert!(
            answer["result"]["isError"] == false || code == "CALL_IN_PROGRESS",
            "{answer}"
        );
    }
    assert_eq!(approvals.unused(), 0);
}

#[tokio::test]
async fn a_panic_in_the_applications_closures_fails_one_call_not_the_connection() {
    use tool_contract::Session;
    use tool_contract::mcp::{FATAL_MESSAGE, McpServer};

    let server = McpServer::new(shop::toolbox(), "shop-tools", "2.1.0")
        .with_session_fn(|context| {
            if context.id.to_string() == "1" {
                panic!("session store is down");
            }
            Session::new().with(tools::TenantId("acme".into()))
        })
        .on_result(|_| panic!("audit sink is down"));
    let (host_end, server_end) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(serve(server, server_read, server_write));
    let (read, write) = tokio::io::split(host_end);
    let mut host = Host {
        to_server: write,
        from_server: BufReader::new(read).lines(),
    };
    host.answer(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "hostile", "version": "6.6.6"}}}),
    )
    .await;
    host.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        .await;
    let failed = host
        .answer(call(json!(1), "get_inventory", json!({"sku": "SKU-1"})))
        .await;
    assert_eq!(
        failed,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": FATAL_MESSAGE}})
    );
    let served = host
        .answer(call(json!(2), "get_inventory", json!({"sku": "SKU-2"})))
        .await;
    assert_eq!(served["result"]["structuredContent"]["sku"], "SKU-2");
}
