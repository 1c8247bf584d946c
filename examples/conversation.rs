//! A scripted conversation (no network, no model) over the Chat Completions
//! API, against two of the example tools: `get_inventory` (read-only) and
//! `reserve_inventory` (a reversible write that needs the customer's
//! approval and carries an idempotency key).
//!
//! Each turn of the "model" is a response as the API returns it, written
//! here as JSON; the toolbox answers all of its tool calls in one call,
//! `toolbox.answer(&tool_contract::openai::Api::ChatCompletions, &response, &session).await`, and the
//! tool messages it gives go into the conversation for the next request.
//!
//! The model looks the stock up and reserves in the same turn: the lookup
//! runs, the reservation waits for the customer's approval. The customer
//! approves and the model repeats the call; its answer gets lost and the
//! model retries with the same idempotency key, which is replayed instead
//! of reserving twice; a last lookup shows the hold, and the model answers
//! in text. For each call it prints what the model reads and what the audit
//! record keeps.
//!
//! Run it with `cargo run --example conversation`.

#[path = "tools/mod.rs"]
mod tools;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tool_contract::openai::ToolRound;
use tool_contract::prelude::*;
use tool_contract::runtime::format_rfc3339;
use tool_contract::serde_json::{self, Value, json};
use tool_contract::{approval::Approvals, audit::Subjects};
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
                expires_at: format_rfc3339(SystemTime::now() + hold),
            })
        }
    });
    toolbox
}

/// A Chat Completions response whose assistant message calls these tools:
/// `(call id, tool name, arguments as JSON text)`.
fn tool_calls(calls: &[(&str, &str, &str)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    chat_completion(
        json!({"role": "assistant", "content": null, "tool_calls": tool_calls}),
        "tool_calls",
    )
}

/// A Chat Completions response whose assistant message is text.
fn text_answer(text: &str) -> Value {
    chat_completion(json!({"role": "assistant", "content": text}), "stop")
}

fn chat_completion(message: Value, finish_reason: &str) -> Value {
    json!({
        "object": "chat.completion",
        "model": "gpt-4.1-2025-04-14",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}]
    })
}

/// One turn: the model's response goes into the conversation, the toolbox
/// answers its calls, and their tool messages follow it.
async fn turn(
    step: &str,
    response: Value,
    toolbox: &Toolbox,
    session: &Session,
    messages: &mut Vec<Value>,
) -> Result<ToolRound<CallResult>, Box<dyn std::error::Error>> {
    println!("\n--- {step}");
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            session,
        )
        .await?;
    let message = &response["choices"][0]["message"];
    messages.push(message.clone());
    if round.is_final_answer() {
        println!("model says   {}", message["content"].as_str().unwrap_or(""));
    }
    for (call, result) in &round.results {
        show(call, result);
    }
    if round.stop {
        return Err("a call failed fatally; the run stops".into());
    }
    messages.extend(round.answer.items.iter().cloned());
    Ok(round)
}

fn show(call: &ToolCall, result: &CallResult) {
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
    let tools = tool_contract::openai::tools_for_chat_completions(
        &toolbox.contracts().collect::<Vec<_>>(),
    )?;

    let question = "Is the blue mug SKU-1042 in stock? Please hold two for me.";
    println!("\ncustomer     {question}");
    let mut messages = vec![json!({"role": "user", "content": question})];

    let lookup = r#"{"sku": "SKU-1042", "warehouse": null, "include_reserved": false}"#;
    let reserve = r#"{"sku": "SKU-1042", "quantity": 2, "hold": 60, "request_id": "6f1c2a9e-4d1b-4c5e-9f0a-2b7d3e8c1a45"}"#;
    let response = tool_calls(&[
        ("call_1", "get_inventory", lookup),
        ("call_2", "reserve_inventory", reserve),
    ]);
    let step = "the model looks the stock up and reserves, without an approval";
    let asked = turn(step, response, &toolbox, &session, &mut messages).await?;

    let Some(request) = asked.approval_requests().next() else {
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
    println!("             {})", serde_json::to_string(request)?);
    println!("customer     Yes.");
    approvals.grant(request.approve("appr-cus_42-1"));

    let response = tool_calls(&[("call_3", "reserve_inventory", reserve)]);
    let step = "the model makes the approved call";
    turn(step, response, &toolbox, &session, &mut messages).await?;

    // The answer got lost on the way (say, a dropped connection) and the
    // model retries with the same request_id: the recorded result comes back
    // and nothing is reserved twice.
    let response = tool_calls(&[("call_4", "reserve_inventory", reserve)]);
    let step = "the model retries with the same request_id";
    let replayed = turn(step, response, &toolbox, &session, &mut messages).await?;
    if let Some(model) = &replayed.results[0].1.model_result {
        println!(
            "\nmodel result of the replay (tool-model-result-v2):\n{}",
            serde_json::to_string_pretty(model)?
        );
    }

    let check = r#"{"sku": "SKU-1042", "warehouse": null, "include_reserved": true}"#;
    let response = tool_calls(&[("call_5", "get_inventory", check)]);
    let step = "the stock shows one reservation of two";
    turn(step, response, &toolbox, &session, &mut messages).await?;

    let response = text_answer("Yes: 12 were in stock, and I am holding 2 for you for an hour.");
    let step = "the model answers in text";
    turn(step, response, &toolbox, &session, &mut messages).await?;

    // The next request would carry the whole conversation and the tools.
    println!(
        "\n== the next request: {} messages, {} tools",
        messages.len(),
        tools.len()
    );
    for message in &messages {
        println!("{}", serde_json::to_string(message)?);
    }
    Ok(())
}
