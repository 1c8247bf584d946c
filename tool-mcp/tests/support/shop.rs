//! A toolbox of the rich tool set and the example tools, with handlers, and
//! an MCP server of it on one end of an in-memory duplex stream.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use tool_contract::approval::Approvals;
use tool_contract::audit::Subjects;
use tool_contract::mcp::McpServer;
use tool_contract::mcp::rmcp::model::ProtocolVersion;
use tool_contract::runtime::CallResult;
use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};

use super::rich::{
    CustomerId, GetCityTemperature, ListWarehouses, OpenSupportTicket, ReplaceCategoryTree,
    TicketNumber,
};
use super::tools::{GetInventory, Reservation, ReserveInventory, StockLevel, TenantId};

/// Fail the way a bug does: the handler panics.
#[derive(Debug, Tool)]
pub struct CountShelfLabels {
    /// Shelf code, e.g. "A-3".
    pub shelf: String,
}

/// Wait for a while before answering, e.g. a slow report.
#[derive(Debug, Tool)]
#[tool(timeout_ms = 60_000)]
pub struct BuildSlowReport {
    /// How long the report takes, in milliseconds.
    #[tool(unit = "milliseconds", maximum = 60_000)]
    pub wait: u64,
}

/// Look up the note the shop keeps on an order, if there is one.
#[derive(Debug, Tool)]
#[tool(output = Option<String>)]
pub struct FindOrderNote {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    pub order_ref: String,
}

pub fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: GetInventory, _cx: CallContext| async move {
        Ok::<_, ToolError>(StockLevel {
            sku: call.sku,
            available: 12,
            reserved: if call.include_reserved { 3 } else { 0 },
        })
    });
    toolbox.register(|call: ReserveInventory, _cx: CallContext| async move {
        Ok::<_, ToolError>(Reservation {
            reservation_id: format!("RSV-{}-{}", call.tenant.0, call.quantity),
            expires_at: "2026-12-01T10:00:00.000Z".into(),
        })
    });
    toolbox.register(|call: OpenSupportTicket, _cx: CallContext| async move {
        if call.order_ref == "A-404" {
            return Err(ToolError::declared(
                OpenSupportTicket::ORDER_NOT_FOUND,
                "No order A-404 belongs to this customer; ask them to check the reference.",
            ));
        }
        Ok(TicketNumber {
            ticket: format!("T-{}", call.customer.0),
            answer_by: None,
        })
    });
    toolbox.register(|_call: ReplaceCategoryTree, _cx: CallContext| async move {
        Ok::<_, ToolError>("Replaced.".to_owned())
    });
    toolbox.register(|_call: ListWarehouses, _cx: CallContext| async move {
        Ok::<_, ToolError>(vec!["BER-1".to_owned(), "HAM-2".to_owned()])
    });
    toolbox.register(|call: GetCityTemperature, _cx: CallContext| async move {
        Ok::<_, ToolError>(if call.fahrenheit == Some(true) {
            50.0
        } else {
            10.0
        })
    });
    toolbox.register(|_call: CountShelfLabels, _cx: CallContext| async move {
        if true {
            panic!("label printer database is gone");
        }
        Ok::<_, ToolError>("0".to_owned())
    });
    toolbox.register(|call: FindOrderNote, _cx: CallContext| async move {
        Ok::<_, ToolError>((call.order_ref == "A-1").then(|| "Leave at the door.".to_owned()))
    });
    toolbox.register(|call: BuildSlowReport, _cx: CallContext| async move {
        tokio::time::sleep(std::time::Duration::from_millis(call.wait)).await;
        Ok::<_, ToolError>("Report ready.".to_owned())
    });
    toolbox
}

/// What the server saw: each call's result, and the revision of each call's
/// request as the session function read it.
#[derive(Clone, Default)]
pub struct Seen {
    pub results: Arc<Mutex<Vec<CallResult>>>,
    pub revisions: Arc<Mutex<Vec<Option<ProtocolVersion>>>>,
}

impl Seen {
    pub fn results(&self) -> Vec<CallResult> {
        self.results.lock().unwrap().clone()
    }

    pub fn revisions(&self) -> Vec<Option<String>> {
        self.revisions
            .lock()
            .unwrap()
            .iter()
            .map(|v| v.as_ref().map(|v| v.as_str().to_owned()))
            .collect()
    }
}

/// The server of [`toolbox`], named `shop-tools` 2.1.0, whose calls run in
/// the session of customer c-42 of tenant acme with `approvals`.
pub fn server(approvals: &Approvals, seen: &Seen) -> McpServer {
    let session = Session::new()
        .with(CustomerId("c-42".into()))
        .with(TenantId("acme".into()))
        .with(
            Subjects::new()
                .with("tenant", "acme")
                .with("customer", "c-42"),
        )
        .with(approvals.clone());
    let revisions = Arc::clone(&seen.revisions);
    let results = Arc::clone(&seen.results);
    McpServer::new(toolbox(), "shop-tools", "2.1.0")
        .with_instructions("Tools of the shop's order desk.")
        .with_session_fn(move |context| {
            revisions.lock().unwrap().push(context.protocol_version());
            session.clone()
        })
        .on_result(move |result| results.lock().unwrap().push(result.clone()))
}
