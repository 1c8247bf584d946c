//! Two versions of one tool served over MCP by one server: a host pinned
//! to `create_refund_draft` 1.3.0 (its session pins it, by the client's
//! name) and a host at 2.0.0, each connected through rmcp's own client,
//! each listing only its version (the deprecated one with its notice in
//! the description and its sunset and note in `_meta`), each call served
//! at its host's version (a version-1 call upgraded into the handler, its
//! structured content version 1's output), a failed upgrade answered as an
//! argument error, and the sunset enforced by the toolbox's clock.

#[path = "../../tests/versions_support/mod.rs"]
mod refund;

use std::sync::{Arc, Mutex};

use refund::{
    BEFORE_SUNSET_SECS, Clock, CreateRefundDraftV1, CreateRefundDraftV2, NAME, NOTE, NOTICE,
    SUNSET_SECS,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ErrorCode,
    Implementation, ProtocolVersion, Tool,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService, ServiceError,
};
use serde_json::{Map, Value, json};
use tool_contract::Tool as _;
use tool_contract::mcp::{McpServer, mcp_tool, serve};
use tool_contract::runtime::{CallResult, VersionPins};

type Client = RunningService<RoleClient, ClientConfig>;

/// The host whose conversations stay at version 1.
const LEGACY_HOST: &str = "legacy-host";

/// A server of the two versions on `clock`: a peer named `legacy-host`
/// is pinned to version 1, every other peer gets the newest; each call's
/// result is kept in `seen`.
fn server(clock: &Clock, seen: &Arc<Mutex<Vec<CallResult>>>) -> McpServer {
    let (toolbox, _) = refund::toolbox(clock);
    let seen = Arc::clone(seen);
    McpServer::new(toolbox, "refund-desk", "1.0.0")
        .with_session_fn(|context| {
            let legacy = context
                .peer
                .peer_info()
                .is_some_and(|info| info.client_info.name == LEGACY_HOST);
            let session = refund::session();
            if legacy {
                session.with(VersionPins::new().with(NAME, 1))
            } else {
                session
            }
        })
        .on_result(move |result| seen.lock().unwrap().push(result.clone()))
}

/// A client named `name` on `revision` connected to `server`.
async fn connect(server: McpServer, name: &str, revision: ProtocolVersion) -> Client {
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
        Implementation::new(name, "0.1.0"),
    )
    .with_protocol_version(revision)
    .serve_with_lifecycle(tokio::io::split(client_end), lifecycle)
    .await
    .expect("the client connects")
}

async fn call(client: &Client, args: Value) -> Result<CallToolResult, ServiceError> {
    let Value::Object(arguments) = args else {
        panic!("not an object: {args}");
    };
    client
        .call_tool(CallToolRequestParams::new(NAME).with_arguments(arguments))
        .await
}

/// The result as JSON, without `resultType` (present on 2026-07-28 only).
fn wire(result: &CallToolResult) -> Value {
    let mut value = serde_json::to_value(result).unwrap();
    value.as_object_mut().unwrap().remove("resultType");
    value
}

fn meta(tool: &Tool) -> Value {
    Value::Object(Map::from_iter(tool.meta.as_ref().unwrap().0.clone()))
}

fn v1_arguments(amount_minor: i64) -> Value {
    json!({
        "order_ref": "A-10293",
        "amount": {"amount_minor": amount_minor, "currency": "EUR"},
        "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45",
    })
}

fn v2_arguments() -> Value {
    json!({
        "order_ref": "A-10293",
        "amount": {"amount_minor": 1250, "currency": "EUR"},
        "refund_to": "store_credit",
        "request_id": "9d2e4b7a-1c3f-4a8e-b6d5-7f0e2c4a9b13",
    })
}

#[tokio::test]
async fn each_host_lists_and_calls_only_its_version() {
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    let seen = Arc::default();
    let server = server(&clock, &seen);
    let legacy = connect(server.clone(), LEGACY_HOST, ProtocolVersion::V_2025_11_25).await;
    let current = connect(server, "current-host", ProtocolVersion::V_2025_11_25).await;

    // tools/list: one version each.
    let revision = Some(&ProtocolVersion::V_2025_11_25);
    let listed = legacy.list_all_tools().await.unwrap();
    assert_eq!(
        listed,
        [mcp_tool(CreateRefundDraftV1::contract(), revision)]
    );
    let v1 = &listed[0];
    assert!(
        v1.description
            .as_deref()
            .unwrap()
            .ends_with(&format!("\n\n{NOTICE}"))
    );
    assert_eq!(
        meta(v1),
        json!({
            "dev.tool-contract/approval": "none",
            "dev.tool-contract/version": "1.3.0",
            "dev.tool-contract/data_class": "internal",
            "dev.tool-contract/deprecated": {"sunset": "2026-09-30", "note": NOTE},
        })
    );
    let listed = current.list_all_tools().await.unwrap();
    assert_eq!(
        listed,
        [mcp_tool(CreateRefundDraftV2::contract(), revision)]
    );
    assert_eq!(
        meta(&listed[0]),
        json!({
            "dev.tool-contract/approval": "none",
            "dev.tool-contract/version": "2.0.0",
            "dev.tool-contract/data_class": "internal",
        })
    );

    // tools/call: each at its host's version, through one handler.
    let drafted = call(&legacy, v1_arguments(1250)).await.unwrap();
    assert_eq!(
        wire(&drafted),
        json!({
            "content": [{"type": "text", "text": r#"{"draft_id":"RD-1","amount":{"amount_minor":1250,"currency":"EUR"}}"#}],
            "structuredContent": {"draft_id": "RD-1", "amount": {"amount_minor": 1250, "currency": "EUR"}},
            "isError": false
        })
    );
    let drafted = call(&current, v2_arguments()).await.unwrap();
    assert_eq!(
        wire(&drafted),
        json!({
            "content": [{"type": "text", "text": r#"{"draft_id":"RD-2","amount":{"amount_minor":1250,"currency":"EUR"},"refund_to":"store_credit"}"#}],
            "structuredContent": {"draft_id": "RD-2", "amount": {"amount_minor": 1250, "currency": "EUR"}, "refund_to": "store_credit"},
            "isError": false
        })
    );
    // A version-2 call from the version-1 host is read as version 1.
    let refused = call(&legacy, v2_arguments()).await.unwrap();
    assert_eq!(
        wire(&refused)["content"],
        json!([{"type": "text", "text": "Error [INVALID_ARGUMENTS]: $.refund_to: unknown field \"refund_to\"; expected one of \"order_ref\", \"amount\", \"request_id\""}])
    );
    // A failed upgrade: the model's argument error, in the conversion's words.
    let message =
        "$: \"amount\" must be more than 0.00 EUR; a refund draft refunds a positive amount";
    let failed = call(&legacy, v1_arguments(0)).await.unwrap();
    assert_eq!(
        wire(&failed),
        json!({
            "content": [{"type": "text", "text": format!("Error [INVALID_ARGUMENTS]: {message}")}],
            "isError": true,
            "_meta": {"dev.tool-contract/error": {
                "code": "INVALID_ARGUMENTS",
                "category": "invalid_arguments",
                "safe_message": message,
                "recovery": "fix_arguments",
                "retry_after_ms": null
            }}
        })
    );
    let versions: Vec<Option<String>> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|result| result.version().map(|v| v.to_string()))
        .collect();
    assert_eq!(
        versions,
        [Some("1.3.0"), Some("2.0.0"), Some("1.3.0"), Some("1.3.0")].map(|v| v.map(str::to_owned))
    );
    legacy.cancel().await.unwrap();
    current.cancel().await.unwrap();
}

#[tokio::test]
async fn after_the_sunset_the_pinned_host_is_told_the_version_to_use() {
    let clock = Clock::at(BEFORE_SUNSET_SECS);
    let seen = Arc::default();
    let server = server(&clock, &seen);
    let legacy = connect(server.clone(), LEGACY_HOST, ProtocolVersion::V_2025_11_25).await;
    let current = connect(server, "current-host", ProtocolVersion::V_2026_07_28).await;
    assert_eq!(legacy.list_all_tools().await.unwrap().len(), 1);

    clock.set(SUNSET_SECS);
    let message = "Version 1.3.0 of the tool \"create_refund_draft\" was retired on 2026-09-30; nothing was run. Use version 2.0.0 of it.";
    match legacy.list_all_tools().await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
            assert_eq!(error.message, format!("VERSION_RETIRED: {message}"));
            assert_eq!(error.data, Some(json!({"code": "VERSION_RETIRED"})));
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    let refused = call(&legacy, v1_arguments(1250)).await.unwrap();
    assert_eq!(
        wire(&refused),
        json!({
            "content": [{"type": "text", "text": format!("Error [VERSION_RETIRED]: {message}")}],
            "isError": true,
            "_meta": {"dev.tool-contract/error": {
                "code": "VERSION_RETIRED",
                "category": "not_found",
                "safe_message": message,
                "recovery": "none",
                "retry_after_ms": null
            }}
        })
    );
    // The other host goes on at version 2, on the current revision too.
    let revision = Some(&ProtocolVersion::V_2026_07_28);
    assert_eq!(
        current.list_all_tools().await.unwrap(),
        [mcp_tool(CreateRefundDraftV2::contract(), revision)]
    );
    let drafted = call(&current, v2_arguments()).await.unwrap();
    assert_eq!(drafted.is_error, Some(false));
    assert_eq!(
        drafted.structured_content.unwrap()["refund_to"],
        "store_credit"
    );
    let outcomes: Vec<(Option<String>, Option<String>)> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result.version().map(|v| v.to_string()),
                result.audit.error_code.clone(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            (Some("1.3.0".to_owned()), Some("VERSION_RETIRED".to_owned())),
            (Some("2.0.0".to_owned()), None),
        ]
    );
    legacy.cancel().await.unwrap();
    current.cancel().await.unwrap();
}

#[tokio::test]
async fn a_peer_pinned_to_a_version_not_served_is_told_the_versions_served() {
    let (toolbox, _) = refund::toolbox(&Clock::at(BEFORE_SUNSET_SECS));
    let server = McpServer::new(toolbox, "refund-desk", "1.0.0")
        .with_session(refund::session().with(VersionPins::new().with(NAME, 7)));
    let client = connect(server, "any-host", ProtocolVersion::V_2025_11_25).await;
    let message = "The tool \"create_refund_draft\" is not served at major version 7; it is served at 2.0.0 and 1.3.0.";
    match client.list_all_tools().await {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INTERNAL_ERROR);
            assert_eq!(error.message, format!("VERSION_NOT_SERVED: {message}"));
            assert_eq!(error.data, Some(json!({"code": "VERSION_NOT_SERVED"})));
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    let refused = call(&client, v2_arguments()).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(
        wire(&refused)["content"],
        json!([{"type": "text", "text": format!("Error [VERSION_NOT_SERVED]: {message}")}])
    );
    client.cancel().await.unwrap();
}
