//! The shop behind `examples/agent_loop.rs` and its tests
//! (`tests/openai/agent_loop.rs`, `tests/anthropic/agent_loop.rs`): the example
//! tools' handlers over an in-memory stock, the session the application
//! trusts, the settings of each loop (OpenAI Responses, Anthropic
//! Messages, Gemini generateContent), and the recorded conversations the
//! loops replay without an API key.
//!
//! Included with `#[path]` beside `tools/mod.rs` (as `mod tools`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use tool_contract::anthropic::agent as messages;
use tool_contract::approval::Approvals;
use tool_contract::audit::Subjects;
use tool_contract::gemini::agent as gemini;
use tool_contract::openai::agent::{AgentSettings, Continuation, RESPONSES_PATH};
use tool_contract::prelude::*;
use tool_contract::runtime::format_rfc3339;
use tool_contract::transport::Replay;
use tool_contract::{Currency, Money};

use crate::tools::{
    CreateRefundDraft, CustomerId, GetInventory, RefundDraft, Reservation, ReserveInventory,
    StockLevel, TenantId,
};

/// The model the recording was made with (and the live default).
pub const MODEL: &str = "gpt-5-mini";

/// The Claude model the Anthropic recording was made with (and the live
/// default).
pub const ANTHROPIC_MODEL: &str = "claude-sonnet-4-5";

/// The shop's instructions to the model.
pub const INSTRUCTIONS: &str = "You are the assistant of the ACME shop. Answer with the tools' \
     results only. Reserve stock only for what the customer asked for; a reservation needs the \
     customer's approval, which the app asks for.";

/// The customer's first message.
pub const QUESTION: &str =
    "Is the blue mug SKU-1042 in stock in Berlin or Hamburg? Please hold two for me for an hour.";

/// What the customer says after approving in the app.
pub const APPROVED: &str = "I approved the reservation in the app. Please go ahead.";

/// 2026-05-04T09:00:00Z: the clock of the recorded conversation.
pub const RECORDED_AT: u64 = 1_777_885_200;

/// Units on the shelf and units held, by SKU and warehouse.
pub type Stock = Arc<Mutex<BTreeMap<(String, String), (u32, u32)>>>;

/// 12 blue mugs in Berlin, none in Hamburg.
pub fn stock() -> Stock {
    Arc::new(Mutex::new(BTreeMap::from([
        (("SKU-1042".to_owned(), "BER-1".to_owned()), (12, 0)),
        (("SKU-1042".to_owned(), "HAM-1".to_owned()), (0, 0)),
    ])))
}

/// The example tools over `stock`, stamped by `clock` (a fixed instant in
/// the replay, so every output is the recorded one).
pub fn toolbox(stock: &Stock, clock: fn() -> SystemTime) -> Toolbox {
    let mut toolbox = Toolbox::new().with_clock(clock);
    let shelf = Arc::clone(stock);
    toolbox.register(move |call: GetInventory, _cx: CallContext| {
        let shelf = Arc::clone(&shelf);
        async move {
            let levels = shelf.lock().unwrap_or_else(|e| e.into_inner());
            let (mut available, mut reserved) = (0, 0);
            for ((sku, warehouse), (shelf, held)) in levels.iter() {
                if *sku == call.sku && call.warehouse.as_ref().is_none_or(|w| w == warehouse) {
                    available += shelf;
                    reserved += held;
                }
            }
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available,
                reserved: if call.include_reserved { reserved } else { 0 },
            })
        }
    });
    let shelf = Arc::clone(stock);
    toolbox.register(move |call: ReserveInventory, _cx: CallContext| {
        let shelf = Arc::clone(&shelf);
        async move {
            let mut levels = shelf.lock().unwrap_or_else(|e| e.into_inner());
            // The first warehouse with enough units holds them.
            let Some((available, reserved)) = levels
                .iter_mut()
                .filter(|((sku, _), _)| *sku == call.sku)
                .map(|(_, level)| level)
                .find(|(available, _)| *available >= call.quantity)
            else {
                return Err(ToolError::conflict(
                    "OUT_OF_STOCK",
                    format!("No warehouse has {} units of {}.", call.quantity, call.sku),
                ));
            };
            *available -= call.quantity;
            *reserved += call.quantity;
            let hold = Duration::from_secs(60 * u64::from(call.hold.unwrap_or(30)));
            Ok(Reservation {
                reservation_id: format!("RSV-{}-{}", call.tenant.0, *reserved),
                expires_at: format_rfc3339(clock() + hold),
            })
        }
    });
    toolbox.register(|call: CreateRefundDraft, _cx: CallContext| async move {
        if call.order_ref != "A-10293" || call.customer.0 != "cus_42" {
            return Err(ToolError::not_found(
                "ORDER_NOT_FOUND",
                format!("No order {} belongs to this customer.", call.order_ref),
            ));
        }
        let paid = Money {
            amount_minor: 1999,
            currency: Currency::USD,
        };
        Ok(RefundDraft {
            draft_id: format!("RD-{}", call.order_ref),
            amount: call.amount.unwrap_or(paid),
        })
    });
    toolbox
}

/// The recorded conversation's clock.
pub fn recorded_clock() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(RECORDED_AT)
}

/// What the application trusts: tenant, customer, and the approvals the
/// customer gives in the app.
pub fn session(approvals: &Approvals) -> Session {
    Session::new()
        .with(TenantId("acme".into()))
        .with(CustomerId("cus_42".into()))
        .with(
            Subjects::new()
                .with("tenant", "acme")
                .with("customer", "cus_42"),
        )
        .with(approvals.clone())
}

/// The loop's settings for `model`, continued as `continuation` says.
pub fn settings(model: &str, continuation: Continuation) -> AgentSettings {
    let mut settings = AgentSettings::new(model);
    settings.instructions = Some(INSTRUCTIONS.to_owned());
    settings.continuation = continuation;
    settings.max_requests = 6;
    settings
}

/// The recorded tool definitions, exactly as each request must carry them.
pub const RECORDED_TOOLS: &str = include_str!("recorded/tools.json");
/// The recorded responses, in order (the same in both continuations).
pub const RECORDED_RESPONSES: &str = include_str!("recorded/responses.json");
/// The requests the loop must send, continued by `previous_response_id`.
pub const REQUESTS_PREVIOUS_RESPONSE_ID: &str =
    include_str!("recorded/requests_previous_response_id.json");
/// The requests the loop must send, resending the items.
pub const REQUESTS_RESEND: &str = include_str!("recorded/requests_resend.json");

/// The recorded conversation for `continuation`: each expected request
/// (with `"tools": "<tools.json>"` standing for the recorded tool
/// definitions) and the response it got, in the layout a
/// `transport::Recorder` writes (its `requests.json` is one of the two
/// request files here, which share the responses).
pub fn recorded(continuation: Continuation) -> Result<Replay, Box<dyn std::error::Error>> {
    let requests = match continuation {
        Continuation::PreviousResponseId => REQUESTS_PREVIOUS_RESPONSE_ID,
        Continuation::Resend => REQUESTS_RESEND,
    };
    Ok(Replay::from_files(
        RESPONSES_PATH,
        requests,
        RECORDED_RESPONSES,
        Some(RECORDED_TOOLS),
    )?)
}

/// The Messages loop's settings for `model`: the shop's instructions as the
/// system prompt, extended thinking with a budget of 1024 tokens (so
/// `max_tokens` is 2048), at most 6 requests a turn.
pub fn anthropic_settings(model: &str) -> messages::AgentSettings {
    let mut settings = messages::AgentSettings::new(model);
    settings.system = Some(INSTRUCTIONS.to_owned());
    settings.max_tokens = 2048;
    settings.max_requests = 6;
    settings.extra.insert(
        "thinking".to_owned(),
        tool_contract::serde_json::json!({"type": "enabled", "budget_tokens": 1024}),
    );
    settings
}

/// The recorded Anthropic tool definitions, exactly as each request must
/// carry them.
pub const ANTHROPIC_TOOLS: &str = include_str!("recorded/anthropic/tools.json");
/// The recorded Messages API responses, in order.
pub const ANTHROPIC_RESPONSES: &str = include_str!("recorded/anthropic/responses.json");
/// The Messages API requests the loop must send, each with the whole
/// conversation so far.
pub const ANTHROPIC_REQUESTS: &str = include_str!("recorded/anthropic/requests.json");

/// The recorded Messages API conversation: each expected request (with
/// `"tools": "<tools.json>"` standing for the recorded tool definitions)
/// and the response it got.
pub fn recorded_anthropic() -> Result<Replay, Box<dyn std::error::Error>> {
    Ok(Replay::from_files(
        messages::MESSAGES_PATH,
        ANTHROPIC_REQUESTS,
        ANTHROPIC_RESPONSES,
        Some(ANTHROPIC_TOOLS),
    )?)
}

/// The Gemini model of the recorded `generateContent` conversation.
pub const GEMINI_MODEL: &str = "gemini-2.5-flash";

/// The Gemini loop's settings for `model`: the shop's instructions as the
/// system instruction, the model's thoughts included in its responses, at
/// most 6 requests a turn.
pub fn gemini_settings(model: &str) -> gemini::AgentSettings {
    let mut settings = gemini::AgentSettings::new(model);
    settings.system_instruction = Some(INSTRUCTIONS.to_owned());
    settings.max_requests = 6;
    settings.extra.insert(
        "generationConfig".to_owned(),
        tool_contract::serde_json::json!({"thinkingConfig": {"includeThoughts": true}}),
    );
    settings
}

/// The recorded Gemini function declarations, exactly as each request must
/// carry them.
pub const GEMINI_TOOLS: &str = include_str!("recorded/gemini/tools.json");
/// The recorded `generateContent` responses, in order.
pub const GEMINI_RESPONSES: &str = include_str!("recorded/gemini/responses.json");
/// The `generateContent` requests the loop must send, each with the whole
/// conversation so far.
pub const GEMINI_REQUESTS: &str = include_str!("recorded/gemini/requests.json");

/// The recorded `generateContent` conversation: each expected request
/// (with `"tools": "<tools.json>"` standing for the recorded declarations)
/// and the response it got.
pub fn recorded_gemini() -> Result<Replay, Box<dyn std::error::Error>> {
    Ok(Replay::from_files(
        &gemini::generate_content_path(GEMINI_MODEL),
        GEMINI_REQUESTS,
        GEMINI_RESPONSES,
        Some(GEMINI_TOOLS),
    )?)
}
