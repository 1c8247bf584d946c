//! The MCP dialect's edge cases: inlining's budget and depth, `null` in
//! every spelling, a recursive output root, properties named like
//! keywords, number formats, and which outputs are wrapped.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};
use tool_contract::mcp::{input_schema, output_schema, wraps};

/// Every `$ref` anywhere under `value`.
fn refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                match (key.as_str(), child) {
                    ("$ref", Value::String(reference)) => {
                        out.insert(reference.clone());
                    }
                    _ => refs(child, out),
                }
            }
        }
        Value::Array(list) => list.iter().for_each(|child| refs(child, out)),
        _ => {}
    }
}

#[test]
fn a_type_used_at_every_level_twice_stops_inlining_at_the_budget() {
    // D0 holds two D1s, D1 two D2s, ...: inlined in full, 2^40 copies.
    let mut defs = Map::new();
    for i in 0..40 {
        let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"a": next, "b": next}, "required": ["a", "b"]}),
        );
    }
    defs.insert("D40".into(), json!({"type": "string"}));
    let contract = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}},
        "required": ["root"], "additionalProperties": false, "$defs": defs});
    let schema = Value::Object(input_schema(&contract));
    let text = schema.to_string();
    assert!(text.len() < 4 * 1024 * 1024, "{} bytes", text.len());
    // What was not inlined is referred to and defined.
    let kept = schema["$defs"].as_object().unwrap();
    assert!(!kept.is_empty());
    let mut names = BTreeSet::new();
    refs(&schema, &mut names);
    assert!(!names.is_empty());
    for name in &names {
        let name = name.strip_prefix("#/$defs/").unwrap();
        assert!(kept.contains_key(name), "#/$defs/{name} is not defined");
    }
}

#[test]
fn a_schema_deeper_than_the_walk_keeps_its_definitions() {
    let mut deep = json!({"$ref": "#/$defs/Leaf"});
    for _ in 0..(128 + 20) {
        deep = json!({"type": "array", "items": deep});
    }
    let contract = json!({"type": "object", "properties": {"deep": deep}, "required": ["deep"],
        "$defs": {"Leaf": {"type": "string"}}});
    let schema = input_schema(&contract);
    assert_eq!(schema["$defs"], json!({"Leaf": {"type": "string"}}));
}

#[test]
fn nulls_leave_optional_properties_only() {
    let contract = json!({
        "type": "object",
        "properties": {
            "a": {"type": ["integer", "null"]},
            "b": {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}], "description": "A pet."},
            "c": {"enum": ["x", null]},
            "d": {"type": ["string", "null"]},
            "e": {"type": "null"},
            "f": {"type": ["null"]},
            "g": {"type": "string", "nullable": true},
            "h": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
        },
        "required": ["d"],
        "$defs": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}},
            "required": ["name"], "description": "Any pet."}}
    });
    assert_eq!(
        Value::Object(input_schema(&contract)),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer"},
                "b": {"description": "A pet.", "type": "object",
                    "properties": {"name": {"type": "string"}}, "required": ["name"],
                    "additionalProperties": false},
                "c": {"enum": ["x"]},
                "d": {"type": ["string", "null"]},
                "e": {"type": "null"},
                "f": {"type": ["null"]},
                "g": {"type": "string"},
                "h": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
            },
            "required": ["d"],
            "additionalProperties": false
        })
    );
}

#[test]
fn a_recursive_root_moves_into_defs_when_wrapped() {
    // schemars writes a root that refers to itself as `$ref: "#"`.
    let output = json!({"title": "Expr", "oneOf": [
        {"type": "integer"},
        {"type": "array", "items": {"$ref": "#"}}
    ]});
    assert_eq!(
        Value::Object(output_schema(&output, true)),
        json!({
            "type": "object",
            "properties": {"value": {"$ref": "#/$defs/Expr"}},
            "required": ["value"],
            "additionalProperties": false,
            "$defs": {"Expr": {"title": "Expr", "oneOf": [
                {"type": "integer"},
                {"type": "array", "items": {"$ref": "#/$defs/Expr"}}
            ]}}
        })
    );
    // Unwrapped, `#` still names the root.
    assert_eq!(Value::Object(output_schema(&output, false)), output);
}

#[test]
fn property_names_that_are_keywords_are_walked_as_properties() {
    let contract = json!({"type": "object", "properties": {
        "enum": {"$ref": "#/$defs/Tag"},
        "x-tool-allow": {"type": "string"},
        "$ref": {"type": "string"}
    }, "required": ["enum", "x-tool-allow", "$ref"],
    "$defs": {"Tag": {"type": "object", "properties": {"name": {"type": "string"}},
        "required": ["name"], "x-tool-allow": {"": ["model_identity"]}}}});
    assert_eq!(
        Value::Object(input_schema(&contract)),
        json!({"type": "object", "properties": {
            "enum": {"type": "object", "properties": {"name": {"type": "string"}},
                "required": ["name"], "additionalProperties": false},
            "x-tool-allow": {"type": "string"},
            "$ref": {"type": "string"}
        }, "required": ["enum", "x-tool-allow", "$ref"], "additionalProperties": false})
    );
}

#[test]
fn an_output_that_may_be_null_is_wrapped_for_every_revision() {
    let cases = [
        (json!({"type": "object", "properties": {}}), false, false),
        (json!({"type": "number"}), false, true),
        (json!({"type": ["string", "null"]}), true, true),
        (json!({"type": "null"}), true, true),
        (
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}),
            true,
            true,
        ),
        (
            json!({"oneOf": [{"type": "integer"}, {"type": "string"}]}),
            false,
            true,
        ),
        (json!({"enum": ["a", "b"]}), false, true),
        (json!({}), true, true),
        (json!(true), true, true),
    ];
    for (schema, any_revision, legacy) in cases {
        assert_eq!(wraps(&schema, false), any_revision, "{schema}");
        assert_eq!(wraps(&schema, true), legacy, "{schema}");
    }
    assert_eq!(
        Value::Object(output_schema(&json!({"type": ["string", "null"]}), false)),
        json!({"type": "object", "properties": {"value": {"type": ["string", "null"]}},
            "required": ["value"], "additionalProperties": false})
    );
}

#[test]
fn number_formats_become_the_bounds_they_stand_for() {
    let contract = json!({"type": "object", "properties": {
        "a": {"type": "integer", "format": "uint8", "minimum": 1},
        "b": {"type": "integer", "format": "int16"},
        "c": {"type": "number", "format": "double"},
        "d": {"type": "string", "format": "uuid"}
    }, "required": ["a", "b", "c", "d"]});
    assert_eq!(
        Value::Object(input_schema(&contract)),
        json!({"type": "object", "properties": {
            "a": {"type": "integer", "minimum": 1, "maximum": 255},
            "b": {"type": "integer", "minimum": -32768, "maximum": 32767},
            "c": {"type": "number"},
            "d": {"type": "string", "format": "uuid"}
        }, "required": ["a", "b", "c", "d"], "additionalProperties": false})
    );
}

#[test]
fn not_an_object_or_a_boolean_schema_is_still_an_object_root() {
    assert_eq!(
        Value::Object(input_schema(&json!(true))),
        json!({"type": "object", "additionalProperties": false})
    );
    assert_eq!(
        Value::Object(output_schema(&json!(true), true)),
        json!({"type": "object", "properties": {"value": {}}, "required": ["value"],
            "additionalProperties": false})
    );
}

#[test]
fn a_root_that_is_a_reference_is_closed_in_its_definition_not_beside_it() {
    // A pydantic recursive model: the root is `$ref` to a definition that
    // contains itself, so the reference stays.
    let contract = json!({
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }, "required": ["name"]}}
    });
    let schema = Value::Object(input_schema(&contract));
    assert_eq!(
        schema,
        json!({
            "$ref": "#/$defs/Node",
            "type": "object",
            "$defs": {"Node": {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
            }, "required": ["name"], "additionalProperties": false}}
        })
    );
    // What it admits is a node, not only `{}`.
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    assert!(validator.is_valid(&json!({"name": "a", "children": [{"name": "b"}]})));
    assert!(!validator.is_valid(&json!({"name": "a", "extra": 1})));
}

#[test]
fn a_long_chain_of_aliases_is_inlined_to_its_end() {
    // A0 -> A1 -> ... -> A4999 -> a string: no cycle, so every alias is
    // inlined (as deep as the walk goes) and the chain's end is kept where
    // the walk stops. The cycle search is one pass over the chain.
    let mut defs = Map::new();
    for i in 0..5_000 {
        defs.insert(
            format!("A{i}"),
            json!({"$ref": format!("#/$defs/A{}", i + 1)}),
        );
    }
    defs.insert("A5000".into(), json!({"type": "string", "minLength": 1}));
    let contract = json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/A0"}},
        "required": ["v"], "$defs": defs});
    let schema = Value::Object(input_schema(&contract));
    // The walk inlines as deep as it goes, then keeps a reference whose
    // definition (written the same way) goes on: every reference resolves,
    // and the schema means what the chain means.
    let mut seen = BTreeSet::new();
    refs(&schema, &mut seen);
    let kept = schema["$defs"].as_object().unwrap();
    for reference in &seen {
        assert!(
            kept.contains_key(&reference["#/$defs/".len()..]),
            "{reference}"
        );
    }
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    assert!(validator.is_valid(&json!({"v": "x"})));
    assert!(!validator.is_valid(&json!({"v": ""})));
    assert!(!validator.is_valid(&json!({"v": 1})));
}
