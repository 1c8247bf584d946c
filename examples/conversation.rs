//! A scripted conversation (no network, no model) against two of the example
//! tools: `get_inventory` (read-only) and `reserve_inventory` (a reversible
//! write that needs the customer's approval and carries an idempotency key).
//!
//! The "model" asks for stock, tries to reserve without an approval and is
//! refused, the customer approves, the reservation runs, and a retry with the
//! same idempotency key is replayed instead of reserving twice. For each call
//! it prints what the model would read and what the audit record keeps.
//!
//! Run it with `cargo run --example conversation`.

#[path = "tools/mod.rs"]
mod tools;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tool_contract::serde_json;
use tool_contract::{
    CallContext, CallResult, Session, ToolCall, ToolError, Toolbox, approval::Approvals,
    audit::Subjects, runtime::AbortHandle,
};
use tools::{CustomerId, GetInventory, Reservation, ReserveInventory, StockLevel, TenantId};

/// The shop's stock: units on the shelf and units held, by SKU.
type Stock = Arc<Mutex<HashMap<String, (u32, u32)>>>;

fn toolbox(stock: &Stock) -> Toolbox {
    let mut toolbox = Toolbox::new();
    let shelf = Arc::clone(stock);
    toolbox.register(move |call: GetInventory, _cx: CallContext| {
        let shelf = Arc::clone(&shelf);
        async move {
            let levels = shelf.lock().unwrap_or_else(|e| e.into_inner());
            // An item the shop does not stock has no units.
            let (available, reserved) = levels.get(&call.sku).copied().unwrap_or((0, 0));
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available,
                reserved: if call.include_reserved { reserved } else { 0 },
            })
        }
    });
    let shelf = Arc::clone(stock);
    toolbox.register(move |call: ReserveInventory, cx: CallContext| {
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
            cx.set_resource_revision(format!("stock:{}:{}", call.sku, *reserved));
            let hold = Duration::from_secs(60 * u64::from(call.hold.unwrap_or(30)));
            Ok(Reservation {
                reservation_id: format!("RSV-{}-{}", call.tenant.0, *reserved),
                expires_at: rfc3339(SystemTime::now() + hold),
            })
        }
    });
    toolbox
}

fn show(step: &str, call: &ToolCall, result: &CallResult) {
    println!("\n--- {step}");
    println!("model calls  {}({})", call.name, call.arguments);
    match result.model_text() {
        Some(text) => {
            let lines: Vec<String> = text
                .lines()
                .map(|line| {
                    if line.is_empty() {
                        String::new()
                    } else {
                        format!("             {line}")
                    }
                })
                .collect();
            println!("model reads  {}", lines.join("\n").trim_start());
        }
        None => println!("model reads  nothing: the run stops (fatal)"),
    }
    if let Some(model) = &result.model_result {
        let execution = serde_json::to_string(&model.execution).unwrap_or_default();
        println!("execution    {execution}");
    }
    let audit = serde_json::to_string(&result.audit).unwrap_or_default();
    println!("audit keeps  {audit}");
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let stock: Stock = Arc::new(Mutex::new(HashMap::from([(
        "SKU-1042".to_owned(),
        (12, 0),
    )])));
    let toolbox = toolbox(&stock);

    // What the application trusts: the tenant, who the calls are for, and the
    // approvals the customer gives in the app's own UI.
    let approvals = Approvals::new();
    let session = Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
        .with(
            Subjects::new()
                .with("tenant", "acme")
                .with("customer", "cus_42"),
        )
        .with(approvals.clone());
    let run = AbortHandle::new();

    println!("== tools offered to the model");
    for contract in toolbox.contracts() {
        println!(
            "{} v{}: effect {:?}, approval {:?}, timeout {:?} ms",
            contract.name(),
            contract.version(),
            contract.effect(),
            contract.approval(),
            contract.timeout_ms()
        );
    }

    println!("\ncustomer     Is the blue mug SKU-1042 in stock? Please hold two for me.");
    let lookup = ToolCall::new(
        "call_1",
        "get_inventory",
        r#"{"sku": "SKU-1042", "warehouse": null, "include_reserved": false}"#,
    );
    let result = toolbox
        .call_with_abort(&lookup, &session, &run.child())
        .await;
    show("the model looks the stock up", &lookup, &result);

    let reserve = ToolCall::new(
        "call_2",
        "reserve_inventory",
        r#"{"sku": "SKU-1042", "quantity": 2, "hold": 60, "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}"#,
    );
    let refused = toolbox
        .call_with_abort(&reserve, &session, &run.child())
        .await;
    show("the model reserves without an approval", &reserve, &refused);

    let Some(request) = refused.approval_request else {
        return Err("the reservation should have asked for an approval".into());
    };
    // The exact values the model sent, as the user approves them.
    let wanted = |key: &str| request.arguments.member(key).unwrap_or("null");
    println!(
        "\napp asks     Reserve {} x {} for {} minutes? (approval request:",
        wanted("quantity"),
        wanted("sku"),
        wanted("hold")
    );
    println!("             {})", serde_json::to_string(&request)?);
    println!("customer     Yes.");
    approvals.grant(request.approve("appr-cus_42-1"));

    let again = ToolCall {
        call_id: "call_3".into(),
        ..reserve.clone()
    };
    let result = toolbox
        .call_with_abort(&again, &session, &run.child())
        .await;
    show("the model makes the approved call", &again, &result);

    // The answer got lost on the way (say, a dropped connection) and the
    // model retries with the same request_id: the recorded result comes back
    // and nothing is reserved twice.
    let retry = ToolCall {
        call_id: "call_4".into(),
        ..reserve
    };
    let replayed = toolbox
        .call_with_abort(&retry, &session, &run.child())
        .await;
    show(
        "the model retries with the same request_id",
        &retry,
        &replayed,
    );
    if let Some(model) = &replayed.model_result {
        println!(
            "\nmodel result of the replay (tool-model-result-v2):\n{}",
            serde_json::to_string_pretty(model)?
        );
    }

    let check = ToolCall::new(
        "call_5",
        "get_inventory",
        r#"{"sku": "SKU-1042", "warehouse": null, "include_reserved": true}"#,
    );
    let result = toolbox
        .call_with_abort(&check, &session, &run.child())
        .await;
    show("the stock shows one reservation of two", &check, &result);
    Ok(())
}

/// `time` as an RFC 3339 date-time in UTC, to the second.
fn rfc3339(time: SystemTime) -> String {
    let secs = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let (era, doe) = (z / 146_097, z % 146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}
