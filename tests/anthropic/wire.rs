//! The Anthropic tool definitions of derived tools: golden files of a rich
//! tool set (nested types, enums, optional fields, Money, constraints moved
//! into descriptions, a tool without arguments), recursion refused, and
//! calls of strict tools read with enum values matched ignoring case.

use crate::tools;

use crate::support;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::anthropic::{self, StrictRule, ToolChoice, ToolSet, ToolSetError};
use tool_contract::{Money, Session, Tool, ToolCall, ToolContract};
use tools::{CreateRefundDraft, GetInventory, ReserveInventory};

/// How fast to ship.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Speed {
    /// Within a week.
    Standard,
    /// Next day.
    Express,
}

/// The color of the label.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum LabelColor {
    Red,
    Green,
}

/// A postal address.
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Address {
    /// Street and number, e.g. "Main St 1".
    street: String,
    /// Second address line; null for none.
    line2: Option<String>,
    /// Postal code as written in the country, e.g. "10115".
    #[schemars(length(min = 3, max = 10))]
    postal_code: String,
}

/// One parcel of the shipment.
#[derive(Clone, Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Parcel {
    /// Stock keeping unit, e.g. "SKU-1".
    #[schemars(regex(pattern = r"^SKU-\d+$"))]
    sku: String,
    /// Weight of the packed parcel in grams.
    #[schemars(range(min = 1, max = 30000))]
    weight_grams: u32,
    /// Declared value of the parcel.
    value: Money,
}

/// Book a shipment of parcels to an address for the signed-in customer.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
#[allow(dead_code)]
struct BookShipment {
    /// Free-text reference the customer gave, e.g. "SH-1".
    #[tool(min_length = 1, max_length = 64, pattern = r"^[A-Z]+-\d{1,200}\b$")]
    reference: String,
    /// How fast to ship.
    speed: Speed,
    /// Where to deliver.
    address: Address,
    /// What to ship, one to four parcels.
    #[tool(min_items = 1, max_items = 4)]
    parcels: Vec<Parcel>,
    /// Declared value for insurance; null for none.
    insured_value: Option<Money>,
    /// The label color; null for the default.
    label: Option<LabelColor>,
    /// A note for the courier; null for none.
    #[tool(max_length = 200)]
    note: Option<String>,
    /// When to pick up, as an RFC 3339 date-time, e.g. "2026-12-01T09:00:00Z".
    #[tool(format = "date-time")]
    pickup_at: String,
    /// The customer's order number, e.g. 1042.
    #[tool(minimum = 1)]
    order_number: u64,
}

/// List the couriers that can pick up today.
#[derive(Debug, Tool)]
struct ListCouriers {}

/// A folder of the document tree.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Folder {
    /// The folder's name, e.g. "Invoices".
    name: String,
    /// Folders inside it.
    children: Vec<Folder>,
}

/// Create a folder tree under the signed-in user's root folder.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
#[allow(dead_code)]
struct CreateFolderTree {
    /// The tree to create.
    root: Folder,
}

fn rich_set() -> [&'static ToolContract; 5] {
    [
        BookShipment::contract(),
        ListCouriers::contract(),
        CreateRefundDraft::contract(),
        GetInventory::contract(),
        ReserveInventory::contract(),
    ]
}

#[test]
fn definitions_of_a_rich_tool_set() {
    let set = ToolSet::new(&rich_set()).unwrap();
    support::golden("rich_tools.json", &Value::Array(set.definitions()));
    let usage = set.usage();
    assert_eq!(
        (
            usage.strict_tools,
            usage.optional_parameters,
            usage.union_parameters
        ),
        (5, 9, 2)
    );
    assert!(set.nullable_fields().is_empty());
}

#[test]
fn every_definition_has_the_documented_shape() {
    let set = ToolSet::new(&rich_set()).unwrap();
    for definition in set.definitions() {
        let keys: Vec<&str> = definition
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["name", "description", "input_schema", "strict"]);
        assert_eq!(definition["strict"], true);
        assert_eq!(definition["input_schema"]["type"], "object");
        assert!(definition["input_schema"].get("$ref").is_none());
    }
    // Anthropic: "For 'object' type, 'additionalProperties' must be
    // explicitly set to false" — on every object, nested and in $defs.
    fn closed(schema: &Value) {
        match schema {
            Value::Object(map) => {
                if map.get("type") == Some(&json!("object")) {
                    assert_eq!(
                        map.get("additionalProperties"),
                        Some(&json!(false)),
                        "{schema}"
                    );
                }
                for (key, value) in map {
                    if !["enum", "const", "default"].contains(&key.as_str()) {
                        closed(value);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(closed),
            _ => {}
        }
    }
    set.definitions().iter().for_each(closed);
}

#[test]
fn a_tool_without_arguments_is_an_empty_closed_object() {
    let tool = anthropic::tool::<ListCouriers>().unwrap();
    assert_eq!(
        tool["input_schema"],
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
}

#[test]
fn recursion_is_refused_naming_the_tool_and_the_ref() {
    // Anthropic: "Recursive schemas" are not supported (400 with details).
    let error = ToolSet::new(&[CreateFolderTree::contract()]).unwrap_err();
    let ToolSetError::Schema { tool, error } = error else {
        panic!("expected a schema error, got {error:?}");
    };
    assert_eq!(tool, "create_folder_tree");
    assert_eq!(error.rule(), StrictRule::Recursion);
    assert_eq!(
        error.path(),
        "#/$defs/Folder/properties/children/items/$ref"
    );
    assert!(
        error
            .message()
            .starts_with("`#/$defs/Folder` refers to a schema that contains it"),
        "{}",
        error.message()
    );
    // The same tool goes non-strict, with its schema as it is.
    let set = ToolSet::with_non_strict(&[], &[CreateFolderTree::contract()]).unwrap();
    assert_eq!(set.definitions()[0]["strict"], false);
    assert_eq!(
        &set.definitions()[0]["input_schema"],
        CreateFolderTree::input_schema()
    );
    assert_eq!(set.usage().strict_tools, 0);
}

#[test]
fn calls_of_strict_tools_match_enum_values_ignoring_case() {
    let set = ToolSet::new(&rich_set()).unwrap();
    let response = json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_01", "name": "create_refund_draft",
            "input": {"order_ref": "A-10293", "reason": "Damaged"}}]
    });
    let calls = set.calls(&response).unwrap();
    let call = &calls.calls[0];
    assert_eq!(call.enum_case, tool_contract::EnumCase::Insensitive);
    let session = Session::new().with(tools::CustomerId("c-42".into()));
    let parsed = call.parse::<CreateRefundDraft>(&session).ok().unwrap();
    assert_eq!(parsed.reason, tools::RefundReason::Damaged);
    // Read without the set, the same call keeps exact matching.
    let plain = anthropic::tool_use_calls(&response).unwrap();
    let error = plain.calls[0]
        .parse::<CreateRefundDraft>(&session)
        .unwrap_err();
    assert!(
        error.model_text().unwrap().contains("$.reason"),
        "{error:?}"
    );
}

#[test]
fn a_non_strict_tool_keeps_exact_enum_matching() {
    let set = ToolSet::with_non_strict(
        &[GetInventory::contract()],
        &[CreateRefundDraft::contract()],
    )
    .unwrap();
    assert!(set.is_strict("get_inventory"));
    assert!(!set.is_strict("create_refund_draft"));
    let mut call = ToolCall::new("t", "create_refund_draft", "{}");
    set.mark(&mut call);
    assert!(call.enum_case.is_exact());
}

#[test]
fn tool_choice_in_every_form() {
    assert_eq!(
        ToolChoice::Auto {
            disable_parallel_tool_use: false
        }
        .to_json(),
        json!({"type": "auto"})
    );
    assert_eq!(
        ToolChoice::Auto {
            disable_parallel_tool_use: true
        }
        .to_json(),
        json!({"type": "auto", "disable_parallel_tool_use": true})
    );
    assert_eq!(
        ToolChoice::Any {
            disable_parallel_tool_use: true
        }
        .to_json(),
        json!({"type": "any", "disable_parallel_tool_use": true})
    );
    assert_eq!(
        ToolChoice::Tool {
            name: "book_shipment".into(),
            disable_parallel_tool_use: false
        }
        .to_json(),
        json!({"type": "tool", "name": "book_shipment"})
    );
    assert_eq!(ToolChoice::None.to_json(), json!({"type": "none"}));
}

#[test]
fn names_anthropic_refuses_and_duplicates_are_errors() {
    let error = ToolSet::new(&[GetInventory::contract(), GetInventory::contract()]).unwrap_err();
    assert_eq!(
        error,
        ToolSetError::DuplicateName {
            name: "get_inventory"
        }
    );
}

#[test]
fn the_strict_schema_accepts_what_the_parser_accepts_and_the_parser_keeps_what_moved() {
    let set = ToolSet::new(&rich_set()).unwrap();
    let definition = &set.definitions()[0];
    let validator = jsonschema::validator_for(&definition["input_schema"]).unwrap();
    let valid = json!({
        "reference": "SH-1", "speed": "express",
        "address": {"street": "Main St 1", "postal_code": "10115"},
        "parcels": [{"sku": "SKU-1", "weight_grams": 500, "value": {"amount_minor": 1999, "currency": "EUR"}}],
        "label": "red", "pickup_at": "2026-12-01T09:00:00Z", "order_number": 1042
    });
    assert!(validator.is_valid(&valid));
    assert!(BookShipment::from_value(&valid, &Session::new()).is_ok());
    // Moved into the description, so the schema lets it through; the
    // parser still refuses it.
    let mut long = valid.clone();
    long["reference"] = json!("SH-1".repeat(20));
    assert!(validator.is_valid(&long));
    let error = BookShipment::from_value(&long, &Session::new()).unwrap_err();
    assert_eq!(error.path(), "$.reference");
    let mut heavy = valid.clone();
    heavy["parcels"][0]["weight_grams"] = json!(40_000);
    assert!(validator.is_valid(&heavy));
    assert_eq!(
        BookShipment::from_value(&heavy, &Session::new())
            .unwrap_err()
            .path(),
        "$.parcels[0].weight_grams"
    );
    // Absent optional fields are not nullable in the strict schema; the
    // parser reads null as absent anyway.
    let mut null = valid.clone();
    null["note"] = Value::Null;
    assert!(!validator.is_valid(&null));
    assert!(BookShipment::from_value(&null, &Session::new()).is_ok());
}
