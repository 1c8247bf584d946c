//! Hostile schemas: deep nesting, definitions that blow up when inlined
//! (refused where the dialect has no `$ref`, kept as references where it has),
//! reference cycles with nothing in between, names that need escaping.
//! Each is refused with a path or compiled correctly, never a panic, a hang
//! or a stack overflow.

mod common;

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};
use tool_gemini::{Dialect, GeminiRule, to_gemini_schema};

use common::{compile, refused};

const BOTH: [Dialect; 2] = [Dialect::ParametersJsonSchema, Dialect::OpenApiParameters];

#[test]
fn a_document_nested_thousands_deep_is_refused_without_recursion() {
    // Built by hand: `json!` serializes an inner `Value`, which recurses.
    let mut schema = json!({"type": "string"});
    for _ in 0..50_000 {
        let mut map = Map::new();
        map.insert("type".to_owned(), json!("array"));
        map.insert("items".to_owned(), schema);
        schema = Value::Object(map);
    }
    let mut root = Map::new();
    root.insert("type".to_owned(), json!("object"));
    let mut properties = Map::new();
    properties.insert("p".to_owned(), schema);
    root.insert("properties".to_owned(), Value::Object(properties));
    let root = Value::Object(root);
    for dialect in BOTH {
        refused(
            &root,
            dialect,
            "#",
            GeminiRule::TooLarge,
            "the schema document is nested more than 256 levels deep",
        );
    }
    // Dropping a value this deep recurses in serde_json; leak it instead.
    std::mem::forget(root);
}

#[test]
fn schema_levels_past_the_limit_are_refused_with_the_path() {
    let mut schema = json!({"type": "string"});
    for _ in 0..70 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    let error = to_gemini_schema(&schema, Dialect::OpenApiParameters).unwrap_err();
    assert_eq!(error.rule(), GeminiRule::TooLarge);
    assert_eq!(error.path(), format!("#{}", "/properties/a".repeat(65)));
    assert_eq!(
        error.message(),
        "the schema is nested more than 64 levels deep (inlined definitions count); flatten it"
    );
}

#[test]
fn definitions_that_double_at_each_level_are_refused_quickly() {
    // D0 uses D1 four times, D1 uses D2 four times, ...: 4^20 nodes when
    // inlined, within the level limit.
    let mut defs = Map::new();
    for i in 0..20 {
        let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"a": next, "b": next, "c": next, "d": next}}),
        );
    }
    defs.insert("D20".to_owned(), json!({"type": "string"}));
    let schema = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}},
                        "$defs": defs});
    // `parameters` has no `$ref`: the whole tree would have to be written.
    let start = Instant::now();
    let error = to_gemini_schema(&schema, Dialect::OpenApiParameters).unwrap_err();
    assert_eq!(error.rule(), GeminiRule::TooLarge);
    assert_eq!(
        error.message(),
        "with its definitions inlined the schema grows past 100000 nodes; share fewer large \
         types between properties"
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    // `parametersJsonSchema` takes `$ref`: past the inlining budget the
    // definitions still to come are kept as references, each written once.
    let out = to_gemini_schema(&schema, Dialect::ParametersJsonSchema)
        .unwrap()
        .unwrap();
    let text = out.to_string();
    // 170 KB, where inlining all of it was refused past 100,000 nodes.
    assert!(text.len() < 200_000, "{} bytes", text.len());
    let defs = out["$defs"].as_object().unwrap();
    let mut references = Vec::new();
    collect_refs(&out, &mut references);
    assert!(!references.is_empty());
    for reference in &references {
        let name = reference.strip_prefix("#/$defs/").unwrap();
        assert!(defs.contains_key(name), "{reference}");
    }
    let names: Vec<&str> = defs.keys().map(String::as_str).collect();
    let expected: Vec<String> = (1..=20).map(|i| format!("D{i}")).collect();
    assert_eq!(names, expected);
    assert_eq!(
        defs["D1"],
        json!({"type": "object", "properties": {
            "a": {"$ref": "#/$defs/D2"}, "b": {"$ref": "#/$defs/D2"},
            "c": {"$ref": "#/$defs/D2"}, "d": {"$ref": "#/$defs/D2"}
        }, "additionalProperties": false})
    );
    assert_eq!(defs["D20"], json!({"type": "string"}));
}

/// Every `$ref` under `value`.
fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                match (key.as_str(), child) {
                    ("$ref", Value::String(reference)) => out.push(reference.clone()),
                    _ => collect_refs(child, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|child| collect_refs(child, out)),
        _ => {}
    }
}

#[test]
fn reference_cycles_with_nothing_between_are_refused() {
    let schema = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"anyOf": [{"$ref": "#/$defs/A"}]}}});
    refused(
        &schema,
        Dialect::ParametersJsonSchema,
        "#/$defs/A/$ref",
        GeminiRule::Recursion,
        "`A` refers back to itself through required properties only; Gemini unrolls a \
         recursive schema only through properties that are not required (a nullable required \
         property is not enough), so make a property on the way optional (`Option<...>`)",
    );
    refused(
        &schema,
        Dialect::OpenApiParameters,
        "#/$defs/A",
        GeminiRule::Recursion,
        "`A` refers back to itself; Gemini `parameters` has no `$ref`, so a recursive type \
         cannot be written out; use `parametersJsonSchema` (`Dialect::ParametersJsonSchema`) or give the \
         type a fixed depth",
    );
}

#[test]
fn definition_names_are_escaped_in_refs() {
    let schema = json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/a~1b"}},
        "$defs": {"a/b": {"type": "object", "properties": {
            "next": {"$ref": "#/$defs/a~1b"}}}}});
    let compiled = compile(&schema, Dialect::ParametersJsonSchema);
    assert_eq!(compiled["properties"]["p"], json!({"$ref": "#/$defs/a~1b"}));
    assert_eq!(
        compiled["$defs"]["a/b"]["properties"]["next"],
        json!({"$ref": "#/$defs/a~1b"})
    );
}

#[test]
fn the_same_name_in_defs_and_definitions_is_kept_apart() {
    let schema = json!({"type": "object", "properties": {
        "a": {"$ref": "#/$defs/N"}, "b": {"$ref": "#/definitions/N"}},
        "$defs": {"N": {"type": "object", "properties": {"x": {"$ref": "#/$defs/N"}}}},
        "definitions": {"N": {"type": "object", "properties": {"y": {"$ref": "#/definitions/N"}}}}});
    let compiled = compile(&schema, Dialect::ParametersJsonSchema);
    assert_eq!(compiled["properties"]["a"], json!({"$ref": "#/$defs/N"}));
    assert_eq!(compiled["properties"]["b"], json!({"$ref": "#/$defs/N_2"}));
    assert_eq!(
        compiled["$defs"]["N_2"]["properties"]["y"],
        json!({"$ref": "#/$defs/N_2"})
    );
}

#[test]
fn malformed_keywords_are_refused_with_a_path() {
    let cases = [
        (
            json!({"type": "string", "enum": []}),
            "#/properties/p/enum",
            GeminiRule::Malformed,
            "`enum` must be a non-empty array",
        ),
        (
            json!({"type": "null"}),
            "#/properties/p",
            GeminiRule::Untyped,
            "a schema that only admits null; Gemini needs a type on every schema (\"schema didnt \
          specify the schema type field\"); give it a concrete type",
        ),
        (
            json!({"type": "text"}),
            "#/properties/p/type",
            GeminiRule::Malformed,
            "`type` must be one of \"string\", \"number\", \"integer\", \"boolean\", \"array\", \
          \"object\", \"null\" or a list of them, got \"text\"",
        ),
        (
            json!({"type": "string", "minLength": -1}),
            "#/properties/p/minLength",
            GeminiRule::Malformed,
            "expected a non-negative integer, got -1",
        ),
        (
            json!({"type": "integer", "minimum": "1"}),
            "#/properties/p/minimum",
            GeminiRule::Malformed,
            "expected a number, got \"1\"",
        ),
        (
            json!(true),
            "#/properties/p",
            GeminiRule::Untyped,
            "`true` accepts any JSON value; Gemini needs a type on every schema (\"schema didnt \
          specify the schema type field\"); give it a concrete type",
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": "a"}),
            "#/properties/p/required",
            GeminiRule::Malformed,
            "`required` must be an array of property names",
        ),
    ];
    for (p, path, rule, message) in cases {
        let schema = json!({"type": "object", "properties": {"p": p}});
        for dialect in BOTH {
            refused(&schema, dialect, path, rule, message);
        }
    }
}

#[test]
fn a_huge_enum_of_strings_is_kept() {
    let values: Vec<String> = (0..5000).map(|i| format!("v{i}")).collect();
    let schema = json!({"type": "object", "properties": {"p": {"type": "string", "enum": values}}});
    for dialect in BOTH {
        assert_eq!(
            compile(&schema, dialect)["properties"]["p"]["enum"]
                .as_array()
                .unwrap()
                .len(),
            5000
        );
    }
}

#[test]
fn an_unused_recursive_definition_is_left_out() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
        "$defs": {"Loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Loop"}},
                           "required": ["next"]}}});
    for dialect in BOTH {
        assert_eq!(
            compile(&schema, dialect)["properties"],
            json!({"a": {"type": "string"}})
        );
        assert!(compile(&schema, dialect).get("$defs").is_none());
    }
}
