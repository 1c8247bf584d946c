//! The contract and input schema that `#[derive(Tool)]` builds, compared as JSON.

use crate::tools;

use serde_json::json;
use tool_contract::{
    Tool, contract::Approval, contract::Constraint, contract::DataClass, contract::Effect,
    contract::ErrorCategory, contract::Idempotency, contract::NumberBound, contract::Presence,
    contract::Recovery, contract::Version,
};
use tools::{CreateRefundDraft, GetInventory, ReserveInventory};

#[test]
fn rich_tool_input_schema() {
    assert_eq!(
        CreateRefundDraft::input_schema(),
        &json!({
            "type": "object",
            "properties": {
                "order_ref": {
                    "description": "Order reference exactly as the app shows it to the customer, e.g. \"A-10293\".",
                    "type": "string",
                    "minLength": 1,
                    "pattern": "^[A-Z]-[0-9]+$"
                },
                "reason": {
                    "description": "Why the customer wants the refund.",
                    "$ref": "#/$defs/RefundReason"
                },
                "amount": {
                    "description": "Amount to refund; null refunds the whole order.",
                    "anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]
                },
                "note": {
                    "description": "Anything the customer said about the refund, in their words.",
                    "type": ["string", "null"],
                    "maxLength": 500
                }
            },
            "required": ["order_ref", "reason"],
            "additionalProperties": false,
            "$defs": {
                "RefundReason": {
                    "oneOf": [
                        {"type": "string", "const": "damaged", "description": "The item arrived damaged."},
                        {"type": "string", "const": "late", "description": "The order arrived after the promised date."},
                        {"type": "string", "const": "other", "description": "Any other reason; explain it in `note`."}
                    ],
                    "description": "Why the customer wants a refund."
                },
                "Money": {
                    "type": "object",
                    "description": "An amount of money in integer minor units of an ISO 4217 currency.",
                    "properties": {
                        "amount_minor": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "The amount in the currency's minor unit, e.g. 1999 for 19.99 USD or 500 for 500 JPY; never negative."
                        },
                        "currency": {
                            "description": "ISO 4217 currency code, e.g. \"USD\"; the parser checks it against the ISO 4217 list.",
                            "type": "string",
                            "pattern": "^[A-Z]{3}$"
                        }
                    },
                    "required": ["amount_minor", "currency"],
                    "additionalProperties": false
                }
            }
        })
    );
}

#[test]
fn property_order_is_declaration_order() {
    let keys: Vec<&String> = CreateRefundDraft::input_schema()["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["order_ref", "reason", "amount", "note"]);
}

#[test]
fn units_defaults_and_formats_in_the_schema() {
    assert_eq!(
        ReserveInventory::input_schema(),
        &json!({
            "type": "object",
            "properties": {
                "sku": {
                    "description": "Stock keeping unit as printed on the product page, e.g. \"SKU-1042\".",
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 64
                },
                "quantity": {
                    "description": "How many units to hold.",
                    "type": "integer",
                    "format": "uint32",
                    "minimum": 1,
                    "maximum": 1000
                },
                "hold": {
                    "description": "How long to hold the units before releasing them. Unit: minutes.",
                    "type": ["integer", "null"],
                    "format": "uint32",
                    "minimum": 5,
                    "maximum": 1440
                },
                "request_id": {
                    "description": "A key the model makes up once per reservation (e.g. a UUID) and repeats when it retries, so a retry does not reserve twice.",
                    "type": "string",
                    "format": "uuid"
                }
            },
            "required": ["sku", "quantity", "request_id"],
            "additionalProperties": false
        })
    );
    // A defaulted field is not required; an injected one is absent.
    let schema = GetInventory::input_schema();
    assert_eq!(schema["required"], json!(["sku"]));
    assert_eq!(
        schema["properties"]["include_reserved"],
        json!({"description": "Whether to count units already reserved for other orders.", "type": "boolean"})
    );
    assert!(schema["properties"].get("tenant").is_none());
}

#[test]
fn schemas_are_built_once() {
    assert!(std::ptr::eq(
        CreateRefundDraft::input_schema(),
        CreateRefundDraft::input_schema()
    ));
    let contract = CreateRefundDraft::contract();
    assert!(std::ptr::eq(
        contract.output_schema(),
        contract.output_schema()
    ));
}

#[test]
fn contract_carries_name_version_and_policy() {
    let contract = CreateRefundDraft::contract();
    assert_eq!(contract.name(), "create_refund_draft");
    assert_eq!(contract.rust_name(), "CreateRefundDraft");
    assert_eq!(contract.version(), Version::new(3, 0, 0));
    assert_eq!(
        contract.description(),
        "Create a refund draft for an order that the signed-in customer may refund.\n\nUse it when the customer asks for their money back. It does not submit the refund (a person reviews drafts). Returns the draft id and the amount."
    );
    assert_eq!(contract.effect(), Effect::Write);
    assert_eq!(contract.idempotency(), Idempotency::Idempotent);
    assert_eq!(contract.approval(), Approval::None);
    assert_eq!(contract.timeout_ms(), Some(10_000));
    assert_eq!(contract.data_class(), DataClass::Confidential);
    assert!(!contract.open_world());
    assert_eq!(contract.output().rust_type(), "RefundDraft");
    assert!(contract.output().declared());
    let errors: Vec<_> = contract
        .errors()
        .iter()
        .map(|e| (e.code(), e.category(), e.recovery()))
        .collect();
    assert_eq!(
        errors,
        [
            (
                "ORDER_NOT_FOUND",
                Some(ErrorCategory::NotFound),
                Some(Recovery::AskUser)
            ),
            ("AMOUNT_TOO_HIGH", None, None),
        ]
    );
    assert_eq!(
        contract
            .declared_error("AMOUNT_TOO_HIGH")
            .map(|e| e.meaning()),
        Some("The amount is more than was paid; use at most the order total.")
    );

    let reserve = ReserveInventory::contract();
    assert_eq!(reserve.version(), Version::new(1, 0, 0));
    assert_eq!(reserve.approval(), Approval::Required);
    assert_eq!(
        reserve.idempotency(),
        Idempotency::Keyed {
            field: "request_id"
        }
    );
    assert_eq!(GetInventory::contract().effect(), Effect::Read);
    assert_eq!(
        GetInventory::contract().idempotency(),
        Idempotency::Unspecified
    );
}

#[test]
fn fields_describe_presence_injection_units_and_constraints() {
    let fields = CreateRefundDraft::contract().fields();
    let summary: Vec<_> = fields
        .iter()
        .map(|f| (f.name(), f.rust_type(), f.presence(), f.injected()))
        .collect();
    assert_eq!(
        summary,
        [
            ("order_ref", "String", Presence::Required, false),
            ("reason", "RefundReason", Presence::Required, false),
            ("amount", "Option<Money>", Presence::Optional, false),
            ("note", "Option<String>", Presence::Optional, false),
            ("customer", "CustomerId", Presence::Required, true),
        ]
    );
    assert_eq!(
        fields[0].constraints(),
        [
            Constraint::MinLength(1),
            Constraint::Pattern("^[A-Z]-[0-9]+$")
        ]
    );
    let hold = ReserveInventory::contract().field("hold").unwrap();
    assert_eq!(hold.unit(), Some("minutes"));
    assert_eq!(
        hold.constraints(),
        [
            Constraint::Minimum(NumberBound::UInt(5)),
            Constraint::Maximum(NumberBound::UInt(1440))
        ]
    );
    assert_eq!(
        GetInventory::contract()
            .field("include_reserved")
            .unwrap()
            .presence(),
        Presence::Defaulted
    );
    let model: Vec<&str> = CreateRefundDraft::contract()
        .model_fields()
        .map(|f| f.name())
        .collect();
    assert_eq!(model, ["order_ref", "reason", "amount", "note"]);
}

#[test]
fn output_schema_is_the_declared_type() {
    assert_eq!(
        ReserveInventory::contract().output_schema(),
        &json!({
            "type": "object",
            "properties": {
                "reservation_id": {"type": "string", "description": "The reservation's id."},
                "expires_at": {"type": "string", "description": "When the hold lapses, as an RFC 3339 date-time."}
            },
            "required": ["reservation_id", "expires_at"],
            "description": "A hold on stock for one order line.",
            "title": "Reservation"
        })
    );
}
