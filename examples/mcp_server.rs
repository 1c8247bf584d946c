//! The example tools served over MCP on stdio: newline-delimited JSON-RPC on
//! stdin and stdout, logs and audit records on stderr.
//!
//! Run it with `cargo run --example mcp_server --features mcp`, or register
//! it with an MCP host (Claude Desktop, Claude Code, Cursor, the MCP
//! Inspector) as the README shows. Try it by hand:
//!
//! ```text
//! $ cargo run -q --example mcp_server --features mcp
//! {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"me","version":"0"}}}
//! {"jsonrpc":"2.0","method":"notifications/initialized"}
//! {"jsonrpc":"2.0","id":2,"method":"tools/list"}
//! {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_inventory","arguments":{"sku":"SKU-1042"}}}
//! ```
//!
//! `reserve_inventory` needs the customer's approval: a call is answered
//! `APPROVAL_REQUIRED` and the approval request goes to stderr. An
//! application shows it to the user and grants it into the session's
//! `Approvals` ([`server`] takes them), after which the same call runs.
//! tool-mcp's tests drive [`server`] over an in-memory stream, in raw
//! JSON-RPC lines (`tests/wire.rs`) and through rmcp's own client
//! (`tests/client.rs`).

#[path = "tools/mod.rs"]
pub mod tools;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tool_contract::approval::Approvals;
use tool_contract::audit::Subjects;
use tool_contract::mcp::{McpServer, serve_stdio};
use tool_contract::runtime::format_rfc3339;
use tool_contract::serde_json;
use tool_contract::{CallContext, Currency, Money, Session, ToolError, Toolbox};
use tools::{
    CreateRefundDraft, CustomerId, GetInventory, RefundDraft, Reservation, ReserveInventory,
    StockLevel, TenantId,
};

/// The shop's stock: units on the shelf and units held, by SKU.
type Stock = Arc<Mutex<HashMap<String, (u32, u32)>>>;

/// The example tools with handlers over an in-memory stock.
pub fn toolbox() -> Toolbox {
    let stock: Stock = Arc::new(Mutex::new(HashMap::from([
        ("SKU-1042".to_owned(), (12, 3)),
        ("SKU-2001".to_owned(), (0, 0)),
    ])));
    let mut toolbox = Toolbox::new();
    let shelf = Arc::clone(&stock);
    toolbox.register(move |call: GetInventory, _cx: CallContext| {
        let shelf = Arc::clone(&shelf);
        async move {
            let levels = shelf.lock().unwrap_or_else(|e| e.into_inner());
            let (available, reserved) = levels.get(&call.sku).copied().unwrap_or((0, 0));
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available,
                reserved: if call.include_reserved { reserved } else { 0 },
            })
        }
    });
    let shelf = Arc::clone(&stock);
    toolbox.register(move |call: ReserveInventory, _cx: CallContext| {
        let shelf = Arc::clone(&shelf);
        async move {
            let mut levels = shelf.lock().unwrap_or_else(|e| e.into_inner());
            let Some((available, reserved)) = levels.get_mut(&call.sku) else {
                return Err(ToolError::conflict(
                    "OUT_OF_STOCK",
                    "This item is not stocked.",
                ));
            };
            if *available < call.quantity {
                return Err(ToolError::conflict(
                    "OUT_OF_STOCK",
                    format!("Only {available} units are available."),
                ));
            }
            *available -= call.quantity;
            *reserved += call.quantity;
            let hold = Duration::from_secs(60 * u64::from(call.hold.unwrap_or(30)));
            Ok(Reservation {
                reservation_id: format!("RSV-{}-{}", call.tenant.0, *reserved),
                expires_at: format_rfc3339(SystemTime::now() + hold),
            })
        }
    });
    toolbox.register(|call: CreateRefundDraft, _cx: CallContext| async move {
        match call.amount {
            Some(amount) if amount.amount_minor > 50_000 => Err(ToolError::declared(
                CreateRefundDraft::AMOUNT_TOO_HIGH,
                "The amount is more than was paid; use at most 500.00 EUR.",
            )),
            amount => Ok(RefundDraft {
                draft_id: format!("RD-{}", call.order_ref),
                amount: amount.unwrap_or(Money::new(50_000, Currency::EUR)),
            }),
        }
    });
    toolbox
}

/// The MCP server of [`toolbox`] for one signed-in customer of one shop;
/// approvals granted into `approvals` let approval-required calls run.
pub fn server(approvals: &Approvals) -> McpServer {
    let session = Session::new()
        .with(CustomerId("c-42".into()))
        .with(TenantId("demo-shop".into()))
        .with(
            Subjects::new()
                .with("tenant", "demo-shop")
                .with("customer", "c-42"),
        )
        .with(approvals.clone());
    McpServer::new(
        toolbox(),
        "tool-contract-example-shop",
        env!("CARGO_PKG_VERSION"),
    )
    .with_instructions(
        "Order and inventory tools of a small shop. Look stock up before \
             reserving it; a reservation needs the customer's approval.",
    )
    .with_session(session)
    .on_result(|result| {
        // stdout carries the protocol; everything else goes to stderr.
        let audit = serde_json::to_string(&result.audit).unwrap_or_default();
        eprintln!("audit {audit}");
        if let Some(request) = &result.approval_request {
            let request = serde_json::to_string(request).unwrap_or_default();
            eprintln!("approval needed {request}");
        }
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    eprintln!("serving the example tools over MCP on stdio; close stdin to stop");
    serve_stdio(server(&Approvals::new())).await?;
    Ok(())
}
