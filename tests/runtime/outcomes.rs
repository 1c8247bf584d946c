//! Each way a call can end, with the exact text the model reads, the model
//! result and the audit record.

use crate::tools;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use schemars::JsonSchema;
use serde::{Serialize, Serializer};
use serde_json::json;
use tool_contract::{
    CallContext, Session, Tool, ToolCall, ToolError, ToolOutput, Toolbox, audit::Subjects,
    contract::ErrorCategory, contract::Recovery, runtime::ExecutionOutcome, runtime::OutputKind,
};
use tools::{GetInventory, StockLevel, TenantId};

/// 2026-05-04T09:30:00Z.
fn clock() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_777_887_000)
}

/// Look up the name of a product as the shop displays it.
///
/// Use it to name a product to the customer. Read-only.
#[derive(Debug, Tool)]
#[tool(errors(
    PRODUCT_NOT_FOUND(
        meaning = "No product has this SKU; ask the customer to check it.",
        category = "not_found",
        recovery = "ask_user"
    ),
    PRODUCT_HIDDEN = "The product exists but is not for sale."
))]
pub struct GetProductName {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    pub sku: String,
}

/// A value whose serialization always fails.
#[derive(Debug, JsonSchema)]
pub struct Unwritable;

impl Serialize for Unwritable {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom(
            "secret-token-123 cannot be written",
        ))
    }
}

/// Look up a broken record that cannot be written out.
///
/// Used to check what happens when an output does not serialize. Read-only.
#[derive(Debug, Tool)]
#[tool(output = Unwritable)]
pub struct GetBrokenRecord {
    /// The record's number.
    pub number: u32,
}

fn session() -> Session {
    Session::new().with(TenantId("acme".into())).with(
        Subjects::new()
            .with("tenant", "acme")
            .with("customer", "cus_42"),
    )
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new().with_clock(clock);
    toolbox
        .register(|call: GetInventory, cx: CallContext| async move {
            tokio::time::sleep(Duration::from_millis(40)).await;
            if call.sku == "SKU-PAGED" {
                cx.set_notice("Only the BER-1 warehouse was counted.");
                cx.set_incomplete();
                cx.set_resource_revision("stock@v17");
            }
            Ok::<_, ToolError>(StockLevel {
                sku: call.sku,
                available: 12,
                reserved: if call.include_reserved { 3 } else { 0 },
            })
        })
        .register(|call: GetProductName, _cx: CallContext| async move {
            match call.sku.as_str() {
                "SKU-1042" => Ok("Blue mug (350 ml)".to_owned()),
                // A category that the contract overrides.
                "SKU-0" => Err(ToolError::new(
                    "PRODUCT_NOT_FOUND",
                    ErrorCategory::Upstream,
                    "No product has the SKU \"SKU-0\".",
                )),
                "SKU-DB" => Err(ToolError::new(
                    "DB_DOWN",
                    ErrorCategory::Upstream,
                    "db at 10.0.0.7 refused",
                )),
                "SKU-BAD" => Err(ToolError::invalid_arguments(
                    "$.sku: this SKU belongs to a retired catalog; use the new SKU",
                )),
                _ => panic!("unexpected SKU {}", call.sku),
            }
        })
        .register(|_call: GetBrokenRecord, _cx: CallContext| async move {
            Ok::<_, ToolError>(Unwritable)
        });
    toolbox
}

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall::new(id, name, arguments)
}

#[tokio::test(start_paused = true)]
async fn a_struct_output_is_compact_json_with_its_model_result_and_audit() {
    let arguments = r#"{"sku": "SKU-1042", "warehouse": null, "include_reserved": true}"#;
    let result = toolbox()
        .call(&call("call_1", "get_inventory", arguments), &session())
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(r#"{"sku":"SKU-1042","available":12,"reserved":3}"#)
    );
    assert_eq!(
        result.output,
        ToolOutput::Success {
            content_text: r#"{"sku":"SKU-1042","available":12,"reserved":3}"#.into(),
            notice: None,
            truncated: false,
            details: json!({"sku": "SKU-1042", "available": 12, "reserved": 3}),
        }
    );
    assert_eq!(
        serde_json::to_string(&result.model_result).unwrap(),
        concat!(
            r#"{"schema_version":"tool-model-result-v2","status":"ok","#,
            r#""data":{"sku":"SKU-1042","available":12,"reserved":3},"error":null,"#,
            r#""execution":{"outcome":"completed","delivery":"fresh","complete":true,"truncated":false},"#,
            r#""provenance":{"source_label":"get_inventory","producer_revision":"1.0.0","resource_revision":null,"#,
            r#""observed_at":"2026-05-04T09:30:00.000Z","trust":"application"}}"#
        )
    );
    // sha256 of {"include_reserved":true,"sku":"SKU-1042"}
    assert_eq!(
        serde_json::to_string(&result.audit).unwrap(),
        concat!(
            r#"{"schema_version":"tool-audit-v1","call_id":"call_1","tool":"get_inventory","#,
            r#""contract_version":"1.0.0","#,
            r#""subjects":[{"kind":"tenant","id":"acme"},{"kind":"customer","id":"cus_42"}],"#,
            r#""started_at":"2026-05-04T09:30:00.000Z","duration_ms":40,"#,
            r#""arguments_sha256":"1b0d9931ab531dc7474d0678277209c275f62b7ff106e614e0b350bde73a08ac","#,
            r#""result":"success","error_code":null,"outcome":"completed","delivery":"fresh","#,
            r#""approval_id":null,"idempotency_key":null,"undeclared_error_code":null,"internal_detail":null}"#
        )
    );
    assert_eq!(result.approval_request, None);
}

#[tokio::test(start_paused = true)]
async fn a_string_output_is_the_text_itself() {
    let result = toolbox()
        .call(
            &call("c", "get_product_name", r#"{"sku":"SKU-1042"}"#),
            &session(),
        )
        .await;
    assert_eq!(result.model_text().as_deref(), Some("Blue mug (350 ml)"));
    assert_eq!(result.output.details(), &json!("Blue mug (350 ml)"));
    assert_eq!(
        result.model_result.unwrap().data,
        json!("Blue mug (350 ml)")
    );
}

#[tokio::test(start_paused = true)]
async fn a_handler_can_add_a_notice_mark_the_data_partial_and_name_its_revision() {
    let result = toolbox()
        .call(
            &call("c", "get_inventory", r#"{"sku":"SKU-PAGED"}"#),
            &session(),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "{\"sku\":\"SKU-PAGED\",\"available\":12,\"reserved\":0}\n\nOnly the BER-1 warehouse was counted."
        )
    );
    let model = serde_json::to_value(result.model_result.unwrap()).unwrap();
    assert_eq!(
        model["execution"],
        json!({"outcome": "completed", "delivery": "fresh", "complete": false, "truncated": false})
    );
    assert_eq!(model["provenance"]["resource_revision"], json!("stock@v17"));
}

#[tokio::test(start_paused = true)]
async fn a_long_text_is_cut_at_a_character_boundary_and_marked_truncated() {
    let toolbox = toolbox().with_max_content_bytes(20);
    let result = toolbox
        .call(
            &call("c", "get_inventory", r#"{"sku":"SKU-1042"}"#),
            &session(),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "{\"sku\":\"SKU-1042\",\"a\n\nThe result was cut to its first 20 bytes; ask for less to see the rest."
        )
    );
    let ToolOutput::Success {
        truncated, details, ..
    } = &result.output
    else {
        panic!("expected a success, got {:?}", result.output);
    };
    assert!(truncated);
    assert_eq!(details["available"], json!(12));
    let execution = result.model_result.unwrap().execution;
    assert!(execution.truncated && !execution.complete);

    // Multi-byte characters are never split.
    let toolbox = Toolbox::new().with_max_content_bytes(6);
    let mut toolbox = toolbox;
    toolbox.register(|_: GetProductName, _: CallContext| async {
        Ok::<_, ToolError>("äöü-äöü".to_owned())
    });
    let result = toolbox
        .call(&call("c", "get_product_name", r#"{"sku":"x"}"#), &session())
        .await;
    let ToolOutput::Success { content_text, .. } = result.output else {
        panic!("expected a success");
    };
    assert_eq!(content_text, "äöü");
    let mut toolbox = Toolbox::new().with_max_content_bytes(5);
    toolbox.register(|_: GetProductName, _: CallContext| async {
        Ok::<_, ToolError>("äöü-äöü".to_owned())
    });
    let result = toolbox
        .call(&call("c", "get_product_name", r#"{"sku":"x"}"#), &session())
        .await;
    let ToolOutput::Success { content_text, .. } = result.output else {
        panic!("expected a success");
    };
    assert_eq!(content_text, "äö");
}

#[tokio::test(start_paused = true)]
async fn a_declared_error_takes_the_contracts_category_and_recovery() {
    let result = toolbox()
        .call(
            &call("c", "get_product_name", r#"{"sku":"SKU-0"}"#),
            &session(),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some("Error [PRODUCT_NOT_FOUND]: No product has the SKU \"SKU-0\".")
    );
    let error = result.output.error().unwrap();
    assert_eq!(error.category, ErrorCategory::NotFound);
    assert_eq!(error.recovery, Recovery::AskUser);
    assert_eq!(result.output.kind(), OutputKind::RespondToModel);
    assert_eq!(result.audit.outcome, ExecutionOutcome::Failed);
    assert_eq!(
        result.audit.error_code.as_deref(),
        Some("PRODUCT_NOT_FOUND")
    );
    assert_eq!(result.audit.undeclared_error_code, None);
    let model = serde_json::to_value(result.model_result.unwrap()).unwrap();
    assert_eq!(model["status"], json!("error"));
    assert_eq!(model["data"], json!(null));
    assert_eq!(
        model["error"],
        json!({
            "code": "PRODUCT_NOT_FOUND",
            "category": "not_found",
            "safe_message": "No product has the SKU \"SKU-0\".",
            "recovery": "ask_user",
            "retry_after_ms": null
        })
    );
    assert_eq!(
        model["execution"],
        json!({"outcome": "failed", "delivery": "fresh", "complete": true, "truncated": false})
    );
}

#[tokio::test(start_paused = true)]
async fn an_undeclared_error_code_becomes_internal_and_the_audit_says_so() {
    let result = toolbox()
        .call(
            &call("c", "get_product_name", r#"{"sku":"SKU-DB"}"#),
            &session(),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [INTERNAL]: The tool failed unexpectedly. The failure was recorded; do not retry this call."
        )
    );
    assert_eq!(result.output.kind(), OutputKind::RespondToModel);
    assert_eq!(result.audit.error_code.as_deref(), Some("INTERNAL"));
    assert_eq!(
        result.audit.undeclared_error_code.as_deref(),
        Some("DB_DOWN")
    );
    assert_eq!(result.audit.outcome, ExecutionOutcome::Failed);

    // INVALID_ARGUMENTS needs no declaration: the input contract implies it.
    let result = toolbox()
        .call(
            &call("c", "get_product_name", r#"{"sku":"SKU-BAD"}"#),
            &session(),
        )
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [INVALID_ARGUMENTS]: $.sku: this SKU belongs to a retired catalog; use the new SKU"
        )
    );
    assert_eq!(result.audit.undeclared_error_code, None);
}

#[tokio::test(start_paused = true)]
async fn invalid_arguments_carry_the_parsers_message_and_nothing_runs() {
    let result = toolbox()
        .call(&call("c", "get_inventory", r#"{"sku": 5}"#), &session())
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some("Error [INVALID_ARGUMENTS]: $.sku: expected a string, got the integer 5")
    );
    let error = result.output.error().unwrap();
    assert_eq!(error.category, ErrorCategory::InvalidArguments);
    assert_eq!(error.recovery, Recovery::FixArguments);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(result.audit.duration_ms, 0);
    let model = serde_json::to_value(result.model_result.unwrap()).unwrap();
    assert_eq!(
        model["provenance"],
        json!({
            "source_label": "get_inventory",
            "producer_revision": "1.0.0",
            "resource_revision": null,
            "observed_at": "2026-05-04T09:30:00.000Z",
            "trust": "runtime"
        })
    );
}

#[tokio::test(start_paused = true)]
async fn an_unknown_tool_lists_the_known_names() {
    let result = toolbox()
        .call(&call("call_9", "get_stock", "{}"), &session())
        .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [UNKNOWN_TOOL]: There is no tool named \"get_stock\". Use one of: get_broken_record, get_inventory, get_product_name."
        )
    );
    assert_eq!(result.audit.tool, "get_stock");
    assert_eq!(result.audit.contract_version, None);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    let model = serde_json::to_value(result.model_result.unwrap()).unwrap();
    assert_eq!(model["provenance"]["source_label"], json!("tool-contract"));
    assert_eq!(
        model["provenance"]["producer_revision"],
        json!(env!("CARGO_PKG_VERSION"))
    );
}

#[tokio::test(start_paused = true)]
async fn a_missing_session_value_is_fatal_and_the_model_learns_nothing_of_it() {
    let session = Session::new();
    let result = toolbox()
        .call(
            &call("c", "get_inventory", r#"{"sku":"SKU-1042"}"#),
            &session,
        )
        .await;
    assert!(result.is_fatal());
    assert_eq!(result.model_text(), None);
    assert_eq!(result.model_result, None);
    assert_eq!(result.output, ToolOutput::fatal(ToolError::internal()));
    assert_eq!(result.audit.result, OutputKind::Fatal);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert_eq!(result.audit.subjects, vec![]);
    let detail = result.audit.internal_detail.unwrap();
    assert!(
        detail.starts_with("MISSING_SESSION_VALUE: $.tenant: "),
        "{detail}"
    );
    assert!(detail.contains("TenantId"), "{detail}");
}

#[tokio::test(start_paused = true)]
async fn a_panicking_handler_is_fatal_and_later_calls_still_run() {
    let toolbox = toolbox();
    let result = toolbox
        .call(
            &call("c1", "get_product_name", r#"{"sku":"SKU-PANIC"}"#),
            &session(),
        )
        .await;
    assert!(result.is_fatal());
    assert_eq!(result.model_text(), None);
    assert_eq!(result.output.error().unwrap().code, "INTERNAL");
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("the handler panicked: unexpected SKU SKU-PANIC")
    );
    // A read-only tool that was stopped changed nothing.
    assert_eq!(result.audit.outcome, ExecutionOutcome::Failed);

    let after = toolbox
        .call(
            &call("c2", "get_product_name", r#"{"sku":"SKU-1042"}"#),
            &session(),
        )
        .await;
    assert_eq!(after.model_text().as_deref(), Some("Blue mug (350 ml)"));
}

#[tokio::test(start_paused = true)]
async fn an_output_that_does_not_serialize_is_fatal_after_the_tool_ran() {
    let result = toolbox()
        .call(
            &call("c", "get_broken_record", r#"{"number":1}"#),
            &session(),
        )
        .await;
    assert!(result.is_fatal());
    assert_eq!(result.audit.outcome, ExecutionOutcome::Completed);
    assert_eq!(
        result.audit.internal_detail.as_deref(),
        Some("the output could not be serialized: secret-token-123 cannot be written")
    );
    let error = result.output.error().unwrap();
    assert!(!error.safe_message.contains("secret"));
}

#[test]
fn the_toolbox_exposes_its_contracts_for_provider_adapters() {
    let toolbox = toolbox();
    let names: Vec<&str> = toolbox.contracts().map(|c| c.name()).collect();
    assert_eq!(
        names,
        ["get_broken_record", "get_inventory", "get_product_name"]
    );
    assert_eq!(toolbox.names().collect::<Vec<_>>(), names);
    assert_eq!(toolbox.len(), 3);
    assert!(!toolbox.is_empty());
    assert!(std::ptr::eq(
        toolbox.contract("get_inventory").unwrap(),
        GetInventory::contract()
    ));
    assert!(toolbox.contract("get_stock").is_none());
    assert_eq!(
        format!("{toolbox:?}"),
        "Toolbox { tools: [\"get_broken_record\", \"get_inventory\", \"get_product_name\"], default_timeout: 30s, max_content_bytes: 65536, .. }"
    );
}

#[test]
#[should_panic(expected = "a tool named `get_product_name` is already registered")]
fn registering_a_name_twice_is_refused() {
    let mut toolbox = toolbox();
    toolbox
        .register(|_: GetProductName, _: CallContext| async { Ok::<_, ToolError>(String::new()) });
}
