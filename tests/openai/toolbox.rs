//! Recorded OpenAI responses answered by a `Toolbox` in one call
//! (`toolbox.answer(&tool_contract::openai::Api::ChatCompletions, ..)`, `toolbox.answer(&tool_contract::openai::Api::Responses, ..)`):
//! the messages and items the model reads, the audit records the
//! application keeps, approvals and idempotent replays across rounds, a
//! fatal outcome that stops the run, the calls of a turn overlapping, and
//! responses with no calls or of the wrong shape.

use crate::tools;

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use tokio::time::Instant;
use tool_contract::Currency;
use tool_contract::approval::{ApprovalGrant, Approvals};
use tool_contract::audit::{Subjects, arguments_sha256};
use tool_contract::openai::{Api, ToolRound};
use tool_contract::prelude::*;
use tool_contract::runtime::AbortHandle;
use tools::{
    CreateRefundDraft, CustomerId, GetInventory, RefundDraft, Reservation, ReserveInventory,
    StockLevel, TenantId,
};

/// 2026-05-04T09:30:00Z, the toolbox's clock in every test.
const NOW_SECS: u64 = 1_777_887_000;
const NOW: &str = "2026-05-04T09:30:00.000Z";

/// Order A-10293 of customer cus_42 was paid 19.99 USD.
const PAID_MINOR: i64 = 1999;

/// How often each handler ran.
#[derive(Default)]
struct Runs {
    inventory: AtomicUsize,
    refunds: AtomicUsize,
    reservations: AtomicUsize,
}

/// The example tools with handlers that answer the same way every time.
/// `panic_on_refund` makes the refund handler panic (a fatal outcome).
fn toolbox(runs: &Arc<Runs>, panic_on_refund: bool) -> Toolbox {
    let mut toolbox =
        Toolbox::new().with_clock(|| SystemTime::UNIX_EPOCH + Duration::from_secs(NOW_SECS));
    let r = Arc::clone(runs);
    toolbox.register(move |call: GetInventory, _cx: CallContext| {
        r.inventory.fetch_add(1, Ordering::SeqCst);
        async move {
            let (available, reserved) = match call.sku.as_str() {
                "SKU-1042" => (12, 3),
                _ => (0, 0),
            };
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available,
                reserved: if call.include_reserved { reserved } else { 0 },
            })
        }
    });
    let r = Arc::clone(runs);
    toolbox.register(move |call: CreateRefundDraft, _cx: CallContext| {
        r.refunds.fetch_add(1, Ordering::SeqCst);
        async move {
            if panic_on_refund {
                panic!("the refund ledger is unreachable");
            }
            if call.order_ref != "A-10293" || call.customer.0 != "cus_42" {
                return Err(ToolError::not_found(
                    "ORDER_NOT_FOUND",
                    format!("No order {} belongs to this customer.", call.order_ref),
                ));
            }
            let paid = Money {
                amount_minor: PAID_MINOR,
                currency: Currency::USD,
            };
            let amount = call.amount.unwrap_or(paid);
            if amount.currency != paid.currency || amount.amount_minor > paid.amount_minor {
                return Err(ToolError::conflict(
                    "AMOUNT_TOO_HIGH",
                    "The order was paid 19.99 USD; refund at most that.",
                ));
            }
            Ok(RefundDraft {
                draft_id: format!("RD-{}", call.order_ref),
                amount,
            })
        }
    });
    let r = Arc::clone(runs);
    toolbox.register(move |call: ReserveInventory, _cx: CallContext| {
        let n = r.reservations.fetch_add(1, Ordering::SeqCst) + 1;
        async move {
            Ok::<_, ToolError>(Reservation {
                reservation_id: format!("RSV-{}-{n}", call.tenant.0),
                expires_at: "2026-05-04T10:00:00Z".to_owned(),
            })
        }
    });
    toolbox
}

fn session(approvals: &Approvals) -> Session {
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

/// Per call, as its audit record keeps it: `call_id tool: result [code]
/// (outcome, delivery)`.
fn audit(round: &ToolRound<CallResult>) -> Vec<String> {
    round
        .audit_records()
        .map(|record| {
            let code = record
                .error_code
                .as_deref()
                .map_or_else(String::new, |code| format!(" {code}"));
            format!(
                "{} {}: {}{code} ({}, {})",
                record.call_id,
                record.tool,
                record.result.as_str(),
                record.outcome.as_str(),
                record.delivery.as_str()
            )
        })
        .collect()
}

/// The `arguments` text of the call with `call_id`.
fn arguments<'a>(round: &'a ToolRound<CallResult>, call_id: &str) -> &'a str {
    let (call, _) = round
        .results
        .iter()
        .find(|(call, _)| call.call_id == call_id)
        .unwrap();
    &call.arguments
}

#[tokio::test(start_paused = true)]
async fn a_chat_completions_turn_runs_through_the_toolbox() {
    let runs = Arc::default();
    let toolbox = toolbox(&runs, false);
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            &session(&Approvals::new()),
        )
        .await
        .unwrap();

    assert_eq!(round.answer.api, Api::ChatCompletions);
    assert_eq!(round.model, "gpt-4.1-2025-04-14");
    assert!(!round.stop);
    assert!(!round.is_final_answer());
    assert_eq!(
        round.answer.items,
        [
            json!({
                "role": "tool",
                "tool_call_id": "call_Xk2n8QzR4tVb7Lm1",
                "content": r#"{"sku":"SKU-1042","available":12,"reserved":0}"#
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_P9sD3fGh6JkL0qWe",
                "content": r#"{"draft_id":"RD-A-10293","amount":{"amount_minor":1999,"currency":"USD"}}"#
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_Tz5yU8iO1pAs4DfG",
                "content": "Error [INVALID_ARGUMENTS]: $.sku: expected at least 1 character, got 0 characters"
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_Hj7kL2zX5cV9bN3m",
                "content": "Error [UNKNOWN_TOOL]: There is no tool named \"cancel_order\". Use one of: create_refund_draft, get_inventory, reserve_inventory."
            }),
        ]
    );
    assert_eq!(
        audit(&round),
        [
            "call_Xk2n8QzR4tVb7Lm1 get_inventory: success (completed, fresh)",
            "call_P9sD3fGh6JkL0qWe create_refund_draft: success (completed, fresh)",
            "call_Tz5yU8iO1pAs4DfG get_inventory: respond_to_model INVALID_ARGUMENTS (not_started, fresh)",
            "call_Hj7kL2zX5cV9bN3m cancel_order: respond_to_model UNKNOWN_TOOL (not_started, fresh)",
        ]
    );
    // Neither the bad arguments nor the unknown tool reached a handler.
    assert_eq!(runs.inventory.load(Ordering::SeqCst), 1);
    assert_eq!(runs.refunds.load(Ordering::SeqCst), 1);

    // The whole audit record of the refund: who it was for, which contract
    // version ran, bound to the exact arguments by their hash.
    let refund = &round.results[1].1.audit;
    assert_eq!(
        serde_json::to_value(refund).unwrap(),
        json!({
            "schema_version": "tool-audit-v1",
            "call_id": "call_P9sD3fGh6JkL0qWe",
            "tool": "create_refund_draft",
            "contract_version": "3.0.0",
            "subjects": [{"kind": "tenant", "id": "acme"}, {"kind": "customer", "id": "cus_42"}],
            "started_at": NOW,
            "duration_ms": 0,
            "arguments_sha256": arguments_sha256(arguments(&round, "call_P9sD3fGh6JkL0qWe")),
            "result": "success",
            "error_code": null,
            "outcome": "completed",
            "delivery": "fresh",
            "approval_id": null,
            "idempotency_key": null,
            "undeclared_error_code": null,
            "internal_detail": null
        })
    );
    // The provider's facts about each call, with the version that ran it.
    assert_eq!(
        serde_json::to_value(round.answer.records.clone()).unwrap()[1],
        json!({"provider": "openai", "api": "chat_completions", "model": "gpt-4.1-2025-04-14",
               "call_id": "call_P9sD3fGh6JkL0qWe", "tool": "create_refund_draft", "contract_version": "3.0.0"})
    );
    assert_eq!(round.approval_requests().count(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_declared_error_in_a_parallel_turn_leaves_the_other_calls_alone() {
    let runs = Arc::default();
    let toolbox = toolbox(&runs, false);
    let session = session(&Approvals::new());
    let response = support::read("recorded/chat_completions.declared_error.json");
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            &session,
        )
        .await
        .unwrap();

    assert!(!round.stop);
    assert_eq!(
        round.answer.items,
        [
            json!({
                "role": "tool",
                "tool_call_id": "call_Rf1aB2cD3eF4gH5i",
                "content": r#"{"sku":"SKU-1042","available":12,"reserved":3}"#
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_Rf2jK3lM4nO5pQ6r",
                "content": "Error [ORDER_NOT_FOUND]: No order A-77777 belongs to this customer."
            }),
            json!({
                "role": "tool",
                "tool_call_id": "call_Rf3sT4uV5wX6yZ7a",
                "content": r#"{"draft_id":"RD-A-10293","amount":{"amount_minor":1999,"currency":"USD"}}"#
            }),
        ]
    );
    assert_eq!(
        audit(&round),
        [
            "call_Rf1aB2cD3eF4gH5i get_inventory: success (completed, fresh)",
            "call_Rf2jK3lM4nO5pQ6r create_refund_draft: respond_to_model ORDER_NOT_FOUND (failed, fresh)",
            "call_Rf3sT4uV5wX6yZ7a create_refund_draft: success (completed, fresh)",
        ]
    );
    // The declared error keeps the category and recovery its contract gives.
    let error = round.results[1].1.model_result.as_ref().unwrap();
    assert_eq!(
        serde_json::to_value(&error.error).unwrap(),
        json!({
            "code": "ORDER_NOT_FOUND",
            "category": "not_found",
            "safe_message": "No order A-77777 belongs to this customer.",
            "recovery": "ask_user",
            "retry_after_ms": null
        })
    );

    // Each successful call answers exactly as it does on its own.
    for i in [0, 2] {
        let (call, in_turn) = &round.results[i];
        let alone = toolbox.call(call, &session).await;
        assert_eq!(in_turn.output, alone.output, "{}", call.call_id);
        assert_eq!(in_turn.model_result, alone.model_result, "{}", call.call_id);
    }
}

#[tokio::test(start_paused = true)]
async fn a_responses_turn_skips_other_items_and_answers_each_call() {
    let runs = Arc::default();
    let toolbox = toolbox(&runs, false);
    let response = support::read("recorded/responses.parallel.json");
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::Responses,
            &response,
            &session(&Approvals::new()),
        )
        .await
        .unwrap();

    assert_eq!(round.answer.api, Api::Responses);
    assert_eq!(round.model, "o4-mini-2025-04-16");
    assert!(!round.stop);
    // The reasoning and web search items are not calls.
    assert_eq!(
        round.answer.items,
        [
            json!({
                "type": "function_call_output",
                "call_id": "call_Pa1bC2dE3fG4hI5j",
                "output": r#"{"sku":"SKU-1042","available":12,"reserved":0}"#
            }),
            json!({
                "type": "function_call_output",
                "call_id": "call_Pa2kL3mN4oP5qR6s",
                "output": "Error [AMOUNT_TOO_HIGH]: The order was paid 19.99 USD; refund at most that."
            }),
            json!({
                "type": "function_call_output",
                "call_id": "call_Pa3tU4vW5xY6zA7b",
                "output": r#"{"sku":"SKU-2077","available":0,"reserved":0}"#
            }),
        ]
    );
    assert_eq!(
        audit(&round),
        [
            "call_Pa1bC2dE3fG4hI5j get_inventory: success (completed, fresh)",
            "call_Pa2kL3mN4oP5qR6s create_refund_draft: respond_to_model AMOUNT_TOO_HIGH (failed, fresh)",
            "call_Pa3tU4vW5xY6zA7b get_inventory: success (completed, fresh)",
        ]
    );
    assert_eq!(
        serde_json::to_value(round.answer.records.clone()).unwrap(),
        json!([
            {"provider": "openai", "api": "responses", "model": "o4-mini-2025-04-16",
             "call_id": "call_Pa1bC2dE3fG4hI5j", "tool": "get_inventory", "contract_version": "1.0.0"},
            {"provider": "openai", "api": "responses", "model": "o4-mini-2025-04-16",
             "call_id": "call_Pa2kL3mN4oP5qR6s", "tool": "create_refund_draft", "contract_version": "3.0.0"},
            {"provider": "openai", "api": "responses", "model": "o4-mini-2025-04-16",
             "call_id": "call_Pa3tU4vW5xY6zA7b", "tool": "get_inventory", "contract_version": "1.0.0"}
        ])
    );
}

#[tokio::test(start_paused = true)]
async fn an_approval_lets_the_same_response_run_and_a_repeat_is_replayed() {
    let runs: Arc<Runs> = Arc::default();
    let toolbox = toolbox(&runs, false);
    let approvals = Approvals::new();
    let session = session(&approvals);
    let response = support::read("recorded/responses.function_calls.json");
    let reserve_arguments = response["output"][1]["arguments"].as_str().unwrap();

    // 1. Not approved yet: the reservation asks; the lookup runs.
    let asked = toolbox
        .answer(&tool_contract::openai::Api::Responses, &response, &session)
        .await
        .unwrap();
    assert!(!asked.stop);
    assert_eq!(
        asked.answer.items,
        [
            json!({
                "type": "function_call_output",
                "call_id": "call_Qw8eR5tY2uI9oP3a",
                "output": "Error [APPROVAL_REQUIRED]: This call needs the user's approval before it runs. Ask the user to approve it, then make the same call again with the same arguments."
            }),
            json!({
                "type": "function_call_output",
                "call_id": "call_Zx4cV7bN1mL6kJ2h",
                "output": r#"{"sku":"SKU-1042","available":12,"reserved":0}"#
            }),
        ]
    );
    let requests: Vec<_> = asked.approval_requests().collect();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        serde_json::to_value(requests[0]).unwrap(),
        json!({
            "call_id": "call_Qw8eR5tY2uI9oP3a",
            "tool": "reserve_inventory",
            "contract_version": "1.0.0",
            "subjects": [{"kind": "tenant", "id": "acme"}, {"kind": "customer", "id": "cus_42"}],
            "arguments_sha256": arguments_sha256(reserve_arguments),
            "arguments": {"hold": 30, "quantity": 2, "request_id": "4f1c9a2e-8b7d-4c6e-9f0a-1b2c3d4e5f60", "sku": "SKU-1042"}
        })
    );
    assert_eq!(
        audit(&asked)[0],
        "call_Qw8eR5tY2uI9oP3a reserve_inventory: respond_to_model APPROVAL_REQUIRED (not_started, fresh)"
    );
    assert_eq!(runs.reservations.load(Ordering::SeqCst), 0);

    // 2. The user approves exactly this call; the same response now runs it.
    approvals.grant(requests[0].approve("appr-cus_42-1"));
    let ran = toolbox
        .answer(&tool_contract::openai::Api::Responses, &response, &session)
        .await
        .unwrap();
    assert_eq!(
        ran.answer.items[0],
        json!({
            "type": "function_call_output",
            "call_id": "call_Qw8eR5tY2uI9oP3a",
            "output": r#"{"reservation_id":"RSV-acme-1","expires_at":"2026-05-04T10:00:00Z"}"#
        })
    );
    assert_eq!(ran.approval_requests().count(), 0);
    let record = &ran.results[0].1.audit;
    assert_eq!(record.approval_id.as_deref(), Some("appr-cus_42-1"));
    assert_eq!(
        record.idempotency_key.as_deref(),
        Some("4f1c9a2e-8b7d-4c6e-9f0a-1b2c3d4e5f60")
    );
    assert_eq!(
        audit(&ran)[0],
        "call_Qw8eR5tY2uI9oP3a reserve_inventory: success (completed, fresh)"
    );
    assert_eq!(runs.reservations.load(Ordering::SeqCst), 1);

    // 3. The same response again (say, the answer was lost): the recorded
    // reservation comes back, nothing is reserved twice, no new approval.
    let again = toolbox
        .answer(&tool_contract::openai::Api::Responses, &response, &session)
        .await
        .unwrap();
    assert_eq!(
        again.answer.items[0],
        json!({
            "type": "function_call_output",
            "call_id": "call_Qw8eR5tY2uI9oP3a",
            "output": "{\"reservation_id\":\"RSV-acme-1\",\"expires_at\":\"2026-05-04T10:00:00Z\"}\n\nThis is the recorded result of an earlier call with the same request_id; it was not run again."
        })
    );
    assert_eq!(
        audit(&again)[0],
        "call_Qw8eR5tY2uI9oP3a reserve_inventory: success (completed, replayed)"
    );
    assert_eq!(runs.reservations.load(Ordering::SeqCst), 1);
    assert_eq!(approvals.unused(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_fatal_outcome_writes_no_item_and_stops_the_run() {
    let runs = Arc::default();
    let toolbox = toolbox(&runs, true);
    let response = support::read("recorded/chat_completions.tool_calls.json");
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            &session(&Approvals::new()),
        )
        .await
        .unwrap();

    assert!(round.stop);
    assert!(!round.is_final_answer());
    // No answer for the refund; the other calls of the turn ran together
    // with it and are answered, but the run must not go on.
    let answered: Vec<&str> = round
        .answer
        .items
        .iter()
        .map(|item| item["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        answered,
        [
            "call_Xk2n8QzR4tVb7Lm1",
            "call_Tz5yU8iO1pAs4DfG",
            "call_Hj7kL2zX5cV9bN3m"
        ]
    );
    assert!(round.unanswered.is_empty());
    let (call, result) = round.fatal().unwrap();
    assert_eq!(call.call_id, "call_P9sD3fGh6JkL0qWe");
    assert_eq!(result.model_text(), None);
    assert_eq!(result.model_result, None);
    assert_eq!(
        audit(&round)[1],
        "call_P9sD3fGh6JkL0qWe create_refund_draft: fatal INTERNAL (unknown, fresh)"
    );
    // Why, for the application only.
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("the handler panicked: the refund ledger is unreachable")
    );
}

#[tokio::test(start_paused = true)]
async fn a_final_answer_runs_nothing() {
    let runs: Arc<Runs> = Arc::default();
    let toolbox = toolbox(&runs, false);
    let session = session(&Approvals::new());

    let chat = support::read("recorded/chat_completions.text.json");
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &chat,
            &session,
        )
        .await
        .unwrap();
    assert!(round.is_final_answer());
    assert!(!round.stop);
    assert_eq!(round.answer.items, Vec::<Value>::new());
    assert_eq!(round.audit_records().count(), 0);
    assert_eq!(
        (round.answer.api, round.model.as_str()),
        (Api::ChatCompletions, "gpt-4.1-2025-04-14")
    );

    let responses = support::read("recorded/responses.text.json");
    let round = toolbox
        .answer(&tool_contract::openai::Api::Responses, &responses, &session)
        .await
        .unwrap();
    assert!(round.is_final_answer());
    assert!(!round.stop);
    assert_eq!(round.answer.items, Vec::<Value>::new());
    assert_eq!(round.results, Vec::new());
    let ran = runs.inventory.load(Ordering::SeqCst)
        + runs.refunds.load(Ordering::SeqCst)
        + runs.reservations.load(Ordering::SeqCst);
    assert_eq!(ran, 0);
}

#[tokio::test(start_paused = true)]
async fn a_malformed_response_is_an_error_with_its_path_and_runs_nothing() {
    let runs: Arc<Runs> = Arc::default();
    let toolbox = toolbox(&runs, false);
    let session = session(&Approvals::new());

    let mut response = support::read("recorded/responses.function_calls.json");
    response["output"][2]
        .as_object_mut()
        .unwrap()
        .remove("call_id");
    let error = toolbox
        .answer(&tool_contract::openai::Api::Responses, &response, &session)
        .await
        .unwrap_err();
    assert_eq!(error.to_string(), "$.output[2].call_id: missing");

    let mut response = support::read("recorded/chat_completions.tool_calls.json");
    response["choices"][0]["message"]["tool_calls"][1]["function"]["arguments"] =
        json!({"order_ref": "A-10293"});
    let error = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            &session,
        )
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "$.choices[0].message.tool_calls[1].function.arguments: expected a string, got an object"
    );

    // A Responses body given as a Chat Completions one.
    let responses = support::read("recorded/responses.function_calls.json");
    let error = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &responses,
            &session,
        )
        .await
        .unwrap_err();
    assert_eq!(error.path(), "$.choices");
    assert_eq!(runs.inventory.load(Ordering::SeqCst), 0);
}

/// Cancel a reservation before it lapses and put the units back on the
/// shelf.
///
/// Use it when the customer no longer wants the held units; it cannot be
/// undone.
#[derive(Debug, Tool)]
#[tool(effect = "destructive", approval = "required", idempotent = false)]
pub struct CancelReservation {
    /// The reservation's id, e.g. "RSV-acme-1".
    #[tool(min_length = 1)]
    pub reservation_id: String,
}

#[tokio::test(start_paused = true)]
async fn the_calls_of_a_turn_overlap_and_a_destructive_one_runs_alone() {
    let start = Instant::now();
    let started = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut toolbox = Toolbox::new();
    let log = Arc::clone(&started);
    toolbox.register(move |call: GetInventory, _cx: CallContext| {
        let log = Arc::clone(&log);
        async move {
            log.lock().unwrap().push(("get_inventory", start.elapsed()));
            tokio::time::sleep(Duration::from_millis(200)).await;
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available: 12,
                reserved: 0,
            })
        }
    });
    let log = Arc::clone(&started);
    toolbox.register(move |call: CancelReservation, _cx: CallContext| {
        let log = Arc::clone(&log);
        async move {
            log.lock()
                .unwrap()
                .push(("cancel_reservation", start.elapsed()));
            tokio::time::sleep(Duration::from_millis(100)).await;
            Ok::<_, ToolError>(format!("Cancelled {}.", call.reservation_id))
        }
    });

    let cancel = r#"{"reservation_id":"RSV-acme-1"}"#;
    let approvals = Approvals::new();
    approvals.grant(
        ApprovalGrant::for_call::<CancelReservation>("appr-1", cancel)
            .for_subjects(&session(&approvals).get::<Subjects>().unwrap().clone()),
    );
    let lookup = r#"{"sku":"SKU-1042","warehouse":null,"include_reserved":false}"#;
    let response = json!({
        "model": "gpt-4.1-2025-04-14",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_inventory", "arguments": lookup}},
                {"id": "call_2", "type": "function", "function": {"name": "get_inventory", "arguments": lookup}},
                {"id": "call_3", "type": "function", "function": {"name": "cancel_reservation", "arguments": cancel}}
            ]}}]
    });
    let round = toolbox
        .answer(
            &tool_contract::openai::Api::ChatCompletions,
            &response,
            &session(&approvals),
        )
        .await
        .unwrap();

    // Both reads ran at once; the destructive call waited for them.
    assert_eq!(start.elapsed(), Duration::from_millis(300));
    assert_eq!(
        *started.lock().unwrap(),
        [
            ("get_inventory", Duration::ZERO),
            ("get_inventory", Duration::ZERO),
            ("cancel_reservation", Duration::from_millis(200)),
        ]
    );
    let texts: Vec<&str> = round
        .answer
        .items
        .iter()
        .map(|item| item["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            r#"{"sku":"SKU-1042","available":12,"reserved":0}"#,
            r#"{"sku":"SKU-1042","available":12,"reserved":0}"#,
            "Cancelled RSV-acme-1."
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn an_aborted_turn_answers_aborted_and_runs_on_another_task() {
    let runs: Arc<Runs> = Arc::default();
    let toolbox = Arc::new(toolbox(&runs, false));
    let response = support::read("recorded/chat_completions.declared_error.json");
    let calls = tool_contract::openai::chat_completions_calls(&response).unwrap();

    // The round's future is Send: it can run on another task.
    let shared = Arc::clone(&toolbox);
    let handle = tokio::spawn(async move {
        let abort = AbortHandle::new();
        abort.abort();
        shared
            .answer_calls::<tool_contract::openai::Api>(calls, &session(&Approvals::new()), &abort)
            .await
    });
    let round = handle.await.unwrap();
    assert!(!round.stop);
    assert_eq!(
        audit(&round),
        [
            "call_Rf1aB2cD3eF4gH5i get_inventory: respond_to_model ABORTED (not_started, fresh)",
            "call_Rf2jK3lM4nO5pQ6r create_refund_draft: respond_to_model ABORTED (not_started, fresh)",
            "call_Rf3sT4uV5wX6yZ7a create_refund_draft: respond_to_model ABORTED (not_started, fresh)",
        ]
    );
    assert_eq!(
        round.answer.items[0],
        json!({
            "role": "tool",
            "tool_call_id": "call_Rf1aB2cD3eF4gH5i",
            "content": "Error [ABORTED]: The call was cancelled before it started; nothing was changed."
        })
    );
    assert_eq!(runs.inventory.load(Ordering::SeqCst), 0);
    assert_eq!(runs.refunds.load(Ordering::SeqCst), 0);
}
