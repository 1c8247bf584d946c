//! The OpenAI tool definitions of derived tools: golden files of both wire
//! formats, the cached strict schema, tool sets, and a tool strict mode
//! cannot express.

use crate::tools;

use crate::support;

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::openai::{
    self, StrictRule, ToolSetError, check_strict_schema, to_strict_json_schema,
};
use tool_contract::{Tool, ToolContract};
use tools::{CreateRefundDraft, GetInventory, ReserveInventory};

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

fn all_tools() -> [&'static ToolContract; 3] {
    [
        CreateRefundDraft::contract(),
        GetInventory::contract(),
        ReserveInventory::contract(),
    ]
}

#[test]
fn chat_completions_definition_of_a_rich_tool() {
    let tool = openai::chat_completions_tool::<CreateRefundDraft>().unwrap();
    support::golden("create_refund_draft.chat_completions.json", &tool);
    assert_eq!(keys(&tool), ["type", "function"]);
    assert_eq!(
        keys(&tool["function"]),
        ["name", "description", "parameters", "strict"]
    );
}

#[test]
fn responses_definition_of_a_rich_tool() {
    let tool = openai::responses_tool::<CreateRefundDraft>().unwrap();
    support::golden("create_refund_draft.responses.json", &tool);
    assert_eq!(
        keys(&tool),
        ["type", "name", "description", "parameters", "strict"]
    );
}

#[test]
fn both_formats_carry_the_cached_strict_schema_and_spell_out_strict() {
    for contract in all_tools() {
        let strict = openai::strict_schema_for(contract).unwrap();
        // Compiled once: the same reference every time.
        assert!(std::ptr::eq(
            strict,
            openai::strict_schema_for(contract).unwrap()
        ));
        assert_eq!(
            strict,
            &to_strict_json_schema(contract.input_schema()).unwrap()
        );
        assert_eq!(check_strict_schema(strict), Ok(()));
        assert_eq!(&to_strict_json_schema(strict).unwrap(), strict);

        let chat = openai::chat_completions_tool_for(contract).unwrap();
        assert_eq!(
            chat,
            json!({
                "type": "function",
                "function": {
                    "name": contract.name(),
                    "description": contract.description(),
                    "parameters": strict,
                    "strict": true
                }
            })
        );
        let responses = openai::responses_tool_for(contract).unwrap();
        assert_eq!(
            responses,
            json!({
                "type": "function",
                "name": contract.name(),
                "description": contract.description(),
                "parameters": strict,
                "strict": true
            })
        );
    }
    assert!(std::ptr::eq(
        openai::strict_schema::<GetInventory>().unwrap(),
        openai::strict_schema_for(GetInventory::contract()).unwrap()
    ));
}

#[test]
fn strict_schemas_of_the_example_tools() {
    assert_eq!(
        openai::strict_schema::<GetInventory>().unwrap(),
        &json!({
            "type": "object",
            "properties": {
                "sku": {
                    "description": "Stock keeping unit as printed on the product page, e.g. \"SKU-1042\". Between 1 and 64 characters.",
                    "type": "string"
                },
                "warehouse": {
                    "description": "Warehouse code such as \"BER-1\"; null means all warehouses.",
                    "type": ["string", "null"]
                },
                "include_reserved": {
                    "description": "Whether to count units already reserved for other orders.",
                    "type": ["boolean", "null"]
                }
            },
            "required": ["sku", "warehouse", "include_reserved"],
            "additionalProperties": false
        })
    );
    assert_eq!(
        openai::strict_schema::<ReserveInventory>().unwrap()["properties"],
        json!({
            "sku": {
                "description": "Stock keeping unit as printed on the product page, e.g. \"SKU-1042\". Between 1 and 64 characters.",
                "type": "string"
            },
            "quantity": {
                "description": "How many units to hold.",
                "type": "integer",
                "minimum": 1,
                "maximum": 1000
            },
            "hold": {
                "description": "How long to hold the units before releasing them. Unit: minutes.",
                "type": ["integer", "null"],
                "minimum": 5,
                "maximum": 1440
            },
            "request_id": {
                "description": "A key the model makes up once per reservation (e.g. a UUID) and repeats when it retries, so a retry does not reserve twice.",
                "type": "string",
                "format": "uuid"
            }
        })
    );
}

#[test]
fn non_strict_definitions_are_asked_for_by_name_and_say_strict_false() {
    assert_eq!(
        openai::chat_completions_tool_non_strict::<GetInventory>(),
        json!({
            "type": "function",
            "function": {
                "name": "get_inventory",
                "description": GetInventory::contract().description(),
                "parameters": GetInventory::input_schema(),
                "strict": false
            }
        })
    );
    assert_eq!(
        openai::responses_tool_non_strict::<GetInventory>(),
        json!({
            "type": "function",
            "name": "get_inventory",
            "description": GetInventory::contract().description(),
            "parameters": GetInventory::input_schema(),
            "strict": false
        })
    );
}

#[test]
fn tool_sets_list_every_tool_in_order() {
    let chat = openai::tools_for_chat_completions(&all_tools()).unwrap();
    let names: Vec<&str> = chat
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["create_refund_draft", "get_inventory", "reserve_inventory"]
    );
    assert_eq!(
        chat[1],
        openai::chat_completions_tool::<GetInventory>().unwrap()
    );

    let responses = openai::tools_for_responses(&all_tools()).unwrap();
    support::golden("example_tools.responses.json", &Value::Array(responses));
    assert_eq!(
        openai::tools_for_responses(&[]).unwrap(),
        Vec::<Value>::new()
    );
}

#[test]
fn a_tool_set_with_two_tools_of_one_name_is_refused() {
    let contracts = [
        GetInventory::contract(),
        CreateRefundDraft::contract(),
        GetInventory::contract(),
    ];
    let error = openai::tools_for_chat_completions(&contracts).unwrap_err();
    assert_eq!(
        error,
        ToolSetError::DuplicateName {
            name: "get_inventory"
        }
    );
    assert_eq!(
        error.to_string(),
        "two tools are named `get_inventory`; give each tool its own name, or offer only one"
    );
    assert_eq!(
        openai::tools_for_responses(&contracts).unwrap_err(),
        ToolSetError::DuplicateName {
            name: "get_inventory"
        }
    );
}

/// Labels as a map: a type with its own schema, which strict mode cannot express.
#[derive(Debug, Deserialize)]
pub struct Labels(pub std::collections::BTreeMap<String, String>);

impl JsonSchema for Labels {
    fn schema_name() -> Cow<'static, str> {
        "Labels".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "Labels by name.",
            "additionalProperties": {"type": "string"}
        })
    }
}

/// Tag an order with labels the customer chose. Use it when the customer
/// asks to label an order; returns the labels the order now has.
#[derive(Debug, Tool)]
pub struct TagOrder {
    /// Order reference exactly as the app shows it, e.g. "A-10293".
    pub order_ref: String,
    /// The labels to set, by name.
    pub labels: Labels,
}

#[test]
fn a_tool_strict_mode_cannot_express_is_refused_with_the_path() {
    let error = openai::strict_schema::<TagOrder>().unwrap_err();
    assert_eq!(error.path(), "#/$defs/Labels/additionalProperties");
    assert_eq!(error.rule(), StrictRule::OpenObject);
    assert_eq!(
        error.to_string(),
        "#/$defs/Labels/additionalProperties: `additionalProperties` with a schema makes an open \
         object (a map), which strict mode cannot express; list the keys as `properties`, or use \
         an array of `{key, value}` objects"
    );
    // The error is cached too.
    assert_eq!(openai::strict_schema::<TagOrder>().unwrap_err(), error);
    assert_eq!(
        openai::chat_completions_tool::<TagOrder>().unwrap_err(),
        error
    );
    assert_eq!(openai::responses_tool::<TagOrder>().unwrap_err(), error);
    let set = openai::tools_for_responses(&[GetInventory::contract(), TagOrder::contract()]);
    assert_eq!(
        set.unwrap_err(),
        ToolSetError::Schema {
            tool: "tag_order",
            error: error.clone()
        }
    );
    // Without strict mode the tool can still be offered, by name.
    let loose = openai::responses_tool_non_strict::<TagOrder>();
    assert_eq!(loose["strict"], json!(false));
    assert_eq!(loose["parameters"], *TagOrder::input_schema());
}
