//! What the runtime's policy tests share: tools, handlers that count their
//! runs and the drops of their futures, and a session with approvals.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tool_contract::{
    CallContext, Currency, Money, Session, Tool, ToolCall, ToolError, Toolbox,
    approval::ApprovalGrant, approval::Approvals, audit::Subjects,
};

use crate::tools::{
    CreateRefundDraft, CustomerId, GetInventory, RefundDraft, Reservation, ReserveInventory,
    StockLevel, TenantId,
};

/// Delete the customer's saved shopping cart for good.
///
/// Use it only when the customer asks to empty and forget their saved cart;
/// it cannot be undone.
#[derive(Debug, Tool)]
#[tool(
    version = "2.1.0",
    effect = "destructive",
    approval = "required",
    idempotent = false
)]
pub struct DeleteSavedCart {
    /// The saved cart's reference as the app shows it, e.g. "CART-7".
    pub cart_ref: String,
}

/// Look up the note the shop keeps on a product.
///
/// Use it when the customer asks about care or warranty. Read-only; it has
/// no time limit of its own.
#[derive(Debug, Tool)]
pub struct GetProductNote {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
}

/// How often the handlers ran, and how many of their futures were dropped
/// before they finished.
#[derive(Default)]
pub struct Probe {
    pub runs: AtomicUsize,
    pub dropped: AtomicUsize,
}

/// Counts a drop unless disarmed: proves a handler's future was dropped.
pub struct DropFlag(Arc<Probe>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Never finishes; counts its own drop.
pub async fn hang(probe: Arc<Probe>) {
    let _flag = DropFlag(probe);
    std::future::pending::<()>().await;
}

pub fn toolbox(probe: &Arc<Probe>) -> Toolbox {
    let mut toolbox = Toolbox::new().with_default_timeout(Duration::from_millis(250));
    let p = Arc::clone(probe);
    toolbox.register(move |call: GetInventory, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            probe.runs.fetch_add(1, Ordering::SeqCst);
            if call.sku == "SKU-HANG" {
                hang(probe).await;
            }
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available: 12,
                reserved: 0,
            })
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |call: ReserveInventory, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            let run = probe.runs.fetch_add(1, Ordering::SeqCst) + 1;
            match call.sku.as_str() {
                "SKU-HANG" => hang(probe).await,
                "SKU-SLOW" => tokio::time::sleep(Duration::from_millis(100)).await,
                _ => {}
            }
            if call.quantity > 12 {
                return Err(ToolError::conflict(
                    "OUT_OF_STOCK",
                    "Only 12 units are available.",
                ));
            }
            Ok(Reservation {
                reservation_id: format!("R-{run}"),
                expires_at: "2026-05-04T10:00:00Z".into(),
            })
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |_: CreateRefundDraft, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            hang(probe).await;
            Ok::<_, ToolError>(RefundDraft {
                draft_id: "RD-1".into(),
                amount: Money::new(100, Currency::USD),
            })
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |call: DeleteSavedCart, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            probe.runs.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("Deleted {}.", call.cart_ref))
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |_: GetProductNote, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            hang(probe).await;
            Ok::<_, ToolError>(String::new())
        }
    });
    toolbox
}

pub fn session(approvals: &Approvals) -> Session {
    Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
        .with(subjects())
        .with(approvals.clone())
}

/// The subjects of [`session`]: grants must name them.
pub fn subjects() -> Subjects {
    Subjects::new().with("tenant", "acme")
}

pub const KEY: &str = "0b7e9a52-5b8f-4d3a-9a57-2f1f6c1d9e10";

pub fn reserve(sku: &str, quantity: u32) -> String {
    format!(r#"{{"sku": "{sku}", "quantity": {quantity}, "hold": null, "request_id": "{KEY}"}}"#)
}

pub fn approve(approvals: &Approvals, arguments: &str) {
    approvals.grant(
        ApprovalGrant::for_call::<ReserveInventory>("appr-1", arguments).for_subjects(&subjects()),
    );
}

pub fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

pub fn assert_within(elapsed: Duration, limit: Duration) {
    assert!(
        elapsed >= limit && elapsed <= limit + Duration::from_millis(20),
        "took {elapsed:?}, limit {limit:?}"
    );
}
