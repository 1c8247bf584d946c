//! The MCP definitions of a rich tool set (nested types, enums, optional
//! fields, recursion, a tool without arguments, a non-object output) and of
//! the example tools, compared exactly with the golden files for both
//! revisions, and the dialect's rules checked on every input schema.
//!
//! `UPDATE_GOLDEN=1 cargo test -p tool-mcp --test definitions` rewrites the
//! golden files; read the diff before committing it.

#[path = "support/rich.rs"]
mod rich;
#[path = "../../examples/tools/mod.rs"]
mod tools;

use std::path::Path;

use serde_json::{Value, json};
use tool_contract::mcp::rmcp::model::ProtocolVersion;
use tool_contract::mcp::{input_schema, mcp_tool, output_schema};
use tool_contract::{Session, Tool, ToolContract};

fn contracts() -> Vec<&'static ToolContract> {
    vec![
        rich::OpenSupportTicket::contract(),
        rich::ReplaceCategoryTree::contract(),
        rich::ListWarehouses::contract(),
        rich::GetCityTemperature::contract(),
        tools::CreateRefundDraft::contract(),
        tools::GetInventory::contract(),
        tools::ReserveInventory::contract(),
    ]
}

fn definitions(version: &ProtocolVersion) -> Value {
    let tools: Vec<Value> = contracts()
        .into_iter()
        .map(|contract| serde_json::to_value(mcp_tool(contract, Some(version))).unwrap())
        .collect();
    Value::Array(tools)
}

/// Compares `value` with the golden file, byte for byte as pretty JSON.
fn assert_golden(file: &str, value: &Value) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(file);
    let text = serde_json::to_string_pretty(value).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run with UPDATE_GOLDEN=1", path.display()));
    assert_eq!(text, expected, "{file} differs");
}

#[test]
fn definitions_for_2025_11_25_match_the_golden_file() {
    assert_golden(
        "tools.2025-11-25.json",
        &definitions(&ProtocolVersion::V_2025_11_25),
    );
}

#[test]
fn definitions_for_2026_07_28_match_the_golden_file() {
    assert_golden(
        "tools.2026-07-28.json",
        &definitions(&ProtocolVersion::V_2026_07_28),
    );
}

#[test]
fn only_non_object_outputs_differ_between_revisions() {
    let legacy = definitions(&ProtocolVersion::V_2025_11_25);
    let current = definitions(&ProtocolVersion::V_2026_07_28);
    let differ: Vec<&str> = legacy
        .as_array()
        .unwrap()
        .iter()
        .zip(current.as_array().unwrap())
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(differ, ["list_warehouses", "get_city_temperature"]);
    // Peers before 2026-07-28 get an object; later ones the type itself.
    assert_eq!(
        Value::Object(output_schema(
            rich::ListWarehouses::contract().output_schema(),
            true
        )),
        json!({
            "type": "object",
            "properties": {"value": {"title": "Array_of_string", "type": "array", "items": {"type": "string"}}},
            "required": ["value"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        Value::Object(output_schema(
            rich::ListWarehouses::contract().output_schema(),
            false
        )),
        json!({"title": "Array_of_string", "type": "array", "items": {"type": "string"}})
    );
}

#[test]
fn a_tool_without_arguments_takes_a_closed_empty_object() {
    assert_eq!(
        Value::Object(input_schema(
            rich::ListWarehouses::contract().input_schema()
        )),
        json!({"type": "object", "additionalProperties": false})
    );
}

#[test]
fn optional_fields_have_their_plain_type_and_are_not_required() {
    let schema = input_schema(rich::OpenSupportTicket::contract().input_schema());
    assert_eq!(schema["required"], json!(["order_ref", "summary"]));
    assert_eq!(
        schema["properties"]["priority"],
        json!({
            "description": "How urgent the ticket is; normal when absent.",
            "oneOf": [
                {"type": "string", "const": "low", "description": "Answer within a week."},
                {"type": "string", "const": "normal", "description": "Answer within a day."},
                {"type": "string", "const": "urgent", "description": "Answer within the hour."}
            ]
        })
    );
    // The nested optional field of a nested type, too.
    let ship = &schema["properties"]["delivery"]["oneOf"][1];
    assert_eq!(ship["required"], json!(["kind", "address"]));
    assert_eq!(
        ship["properties"]["address"]["properties"]["postal_code"],
        json!({"description": "Postal code as the post writes it, e.g. \"10115\".", "type": "string"})
    );
}

/// Every schema object under `schema`, with its JSON pointer.
fn objects<'a>(schema: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    match schema {
        Value::Object(object) => {
            out.push((at.clone(), schema));
            for (key, child) in object {
                if matches!(
                    key.as_str(),
                    "enum" | "const" | "default" | "examples" | "required"
                ) {
                    continue;
                }
                objects(child, format!("{at}/{key}"), out);
            }
        }
        Value::Array(list) => {
            for (i, child) in list.iter().enumerate() {
                objects(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_input_schema_follows_the_mcp_dialect() {
    for contract in contracts() {
        let schema = Value::Object(input_schema(contract.input_schema()));
        let name = contract.name();
        assert_eq!(schema["type"], "object", "{name}");
        let mut all = Vec::new();
        objects(&schema, String::new(), &mut all);
        for (at, object) in all {
            let is_schema = !at.ends_with("/properties") && !at.ends_with("/$defs");
            if !is_schema {
                continue;
            }
            if object.get("properties").is_some() || object.get("type") == Some(&json!("object")) {
                assert_eq!(
                    object["additionalProperties"],
                    json!(false),
                    "{name}{at} is not closed"
                );
            }
            assert!(!object["type"].is_array(), "{name}{at} has a type array");
            assert!(object.get("nullable").is_none(), "{name}{at} says nullable");
            assert_ne!(object["type"], "null", "{name}{at} admits null");
            if let Some(reference) = object.get("$ref") {
                assert_eq!(reference, "#/$defs/Category", "{name}{at} keeps a $ref");
            }
        }
        let defs: Vec<&String> = schema
            .get("$defs")
            .map(|d| d.as_object().unwrap().keys().collect())
            .unwrap_or_default();
        let expected: &[&str] = if name == "replace_category_tree" {
            &["Category"]
        } else {
            &[]
        };
        assert_eq!(defs, expected, "{name}");
    }
}

#[test]
fn what_the_mcp_schema_accepts_the_contract_parses() {
    let session = Session::new()
        .with(rich::CustomerId("c-1".into()))
        .with(tools::CustomerId("c-1".into()))
        .with(tools::TenantId("t-1".into()));
    let cases: [(&ToolContract, Value); 5] = [
        (
            rich::OpenSupportTicket::contract(),
            json!({"order_ref": "A-1", "summary": "Broken.", "delivery":
                {"kind": "ship", "address": {"street": "Hauptstr. 5", "city": "Berlin"}}}),
        ),
        (
            rich::ReplaceCategoryTree::contract(),
            json!({"parent": "Shoes", "tree": {"name": "Shoes", "children":
                [{"name": "Boots", "children": []}]}}),
        ),
        (rich::ListWarehouses::contract(), json!({})),
        (
            rich::GetCityTemperature::contract(),
            json!({"city": "Berlin"}),
        ),
        (
            tools::CreateRefundDraft::contract(),
            json!({"order_ref": "A-10293", "reason": "late", "amount": {"amount_minor": 1299, "currency": "EUR"}}),
        ),
    ];
    for (contract, arguments) in cases {
        let schema = Value::Object(input_schema(contract.input_schema()));
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap();
        assert!(
            validator.is_valid(&arguments),
            "{}: {arguments}",
            contract.name()
        );
        let text = arguments.to_string();
        let parsed = match contract.name() {
            "open_support_ticket" => {
                rich::OpenSupportTicket::from_arguments(&text, &session).map(|_| ())
            }
            "replace_category_tree" => {
                rich::ReplaceCategoryTree::from_arguments(&text, &session).map(|_| ())
            }
            "list_warehouses" => rich::ListWarehouses::from_arguments(&text, &session).map(|_| ()),
            "get_city_temperature" => {
                rich::GetCityTemperature::from_arguments(&text, &session).map(|_| ())
            }
            _ => tools::CreateRefundDraft::from_arguments(&text, &session).map(|_| ()),
        };
        assert!(parsed.is_ok(), "{}: {parsed:?}", contract.name());
        // A key the schema does not list is refused by both.
        let mut extra = arguments.clone();
        extra["bogus"] = json!(1);
        assert!(!validator.is_valid(&extra), "{}", contract.name());
    }
}

/// Look up how many units of one SKU are in stock.
#[derive(Tool)]
#[tool(example = r#"{"sku": "SKU-1042"}"#)]
pub struct CountUnits {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
}

/// MCP has no field for examples: the client's model reads them in the
/// description, in the words the other providers use.
#[test]
fn a_tools_examples_are_a_paragraph_of_its_description() {
    let tool = mcp_tool(CountUnits::contract(), None);
    assert_eq!(
        tool.description.as_deref(),
        Some(
            "Look up how many units of one SKU are in stock.\n\nExample arguments:\n{\"sku\":\"SKU-1042\"}"
        )
    );
}
