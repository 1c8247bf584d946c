//! Property tests of the strict-schema compiler that
//! `tool-openai/tests/idempotence.rs` does not cover (that file checks
//! idempotence and the strict checker on nested documents with plain
//! definition names):
//!
//! - definition names that JSON pointers must escape (`/`, `~`) or that
//!   look like escapes, referenced through escaped pointers, plain or
//!   percent-encoded: the output passes the checker, compiles to itself, and
//!   every `$ref` in it names a definition it has (percent-decoded, then
//!   unescaped, as RFC 6901 reads a URI fragment);
//! - wide objects: every property is listed in `required`, in property
//!   order, and exactly the properties that were optional admit `null`.

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value, json};
use tool_contract::openai::{check_strict_schema, to_strict_json_schema};

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// A definition name as a JSON pointer segment (RFC 6901).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// Every byte outside a few safe ASCII characters as `%XX`.
fn percent_encode(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `%XX` sequences as the bytes they stand for.
fn percent_decode(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() + 1 && segment.get(i + 1..i + 3).is_some() {
            out.push(u8::from_str_radix(&segment[i + 1..i + 3], 16).expect("hex"));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("UTF-8")
}

/// Names that need escaping, look like escapes, or are unusual otherwise.
fn def_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "a/b",
            "a~b",
            "~1",
            "~0",
            "~",
            "/",
            "a~1b",
            "with space",
            "Ünïcödé",
            "x.y",
            "%25",
        ])
        .prop_map(str::to_owned),
        "[a-z~/]{1,6}",
    ]
}

/// What a definition holds: an object, an enum or a string with a format.
fn def_body(refs: Vec<String>) -> impl Strategy<Value = Value> {
    let targets = refs.clone();
    prop_oneof![
        Just(json!({"type": "string", "enum": ["a", "b"]})),
        Just(json!({"type": "string", "format": "uuid", "description": "An id."})),
        prop::sample::select(targets).prop_map(|target| json!({
            "type": "object",
            "properties": {
                "next": {"anyOf": [{"$ref": target}, {"type": "null"}]},
                "label": {"type": "string"}
            },
            "required": ["label"]
        })),
    ]
}

/// A document with up to five definitions under unusual names, and root
/// properties that refer to them, bare, with a description beside the
/// `$ref`, as array items and as optional properties.
fn document() -> impl Strategy<Value = Value> {
    prop::collection::btree_set(def_name(), 1..5)
        .prop_flat_map(|names| {
            let names: Vec<String> = names.into_iter().collect();
            let refs: Vec<String> = names
                .iter()
                .flat_map(|n| {
                    [
                        format!("#/$defs/{}", escape(n)),
                        format!("#/$defs/{}", percent_encode(&escape(n))),
                    ]
                })
                .collect();
            let bodies = prop::collection::vec(def_body(refs.clone()), names.len());
            let uses =
                prop::collection::vec((prop::sample::select(refs), 0..4usize, any::<bool>()), 1..6);
            (Just(names), bodies, uses)
        })
        .prop_map(|(names, bodies, uses)| {
            let defs: Map<String, Value> = names.into_iter().zip(bodies).collect();
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (i, (target, shape, is_required)) in uses.into_iter().enumerate() {
                let schema = match shape {
                    0 => json!({"$ref": target}),
                    1 => json!({"$ref": target, "description": "Described beside the $ref."}),
                    2 => json!({"type": "array", "items": {"$ref": target}, "maxItems": 3}),
                    _ => json!({"allOf": [{"$ref": target}]}),
                };
                let name = format!("p{i}");
                if is_required {
                    required.push(name.clone());
                }
                properties.insert(name, schema);
            }
            json!({"type": "object", "properties": properties, "required": required, "$defs": defs})
        })
}

/// Every `$ref` in `value`.
fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                match (key.as_str(), member) {
                    ("$ref", Value::String(target)) => out.push(target.clone()),
                    _ => refs(member, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs(item, out)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn escaped_definition_names_resolve_after_compiling(document in document()) {
        let compiled = to_strict_json_schema(&document);
        prop_assert!(compiled.is_ok(), "{document:#} was refused: {}", compiled.unwrap_err());
        let compiled = compiled.unwrap();
        prop_assert_eq!(check_strict_schema(&compiled), Ok(()));
        let again = to_strict_json_schema(&compiled);
        prop_assert_eq!(again.as_ref(), Ok(&compiled));

        let defs = compiled["$defs"].as_object().cloned().unwrap_or_default();
        let mut targets = Vec::new();
        refs(&compiled, &mut targets);
        prop_assert!(!targets.is_empty());
        for target in targets {
            let named = target
                .strip_prefix("#/$defs/")
                .map(percent_decode)
                .is_some_and(|segment| defs.keys().any(|name| escape(name) == segment));
            prop_assert!(named || target == "#", "{target} names no definition of {compiled:#}");
        }
    }
}

/// A property of a wide object: a scalar type, and whether it is required.
fn wide_object() -> impl Strategy<Value = (Vec<(String, Value)>, Vec<bool>)> {
    let scalar = prop::sample::select(vec![
        json!({"type": "string"}),
        json!({"type": "integer", "format": "int64"}),
        json!({"type": "number"}),
        json!({"type": "boolean"}),
        json!({"type": "string", "enum": ["x", "y"]}),
        json!({"type": ["string", "null"]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
    ]);
    prop::collection::vec((scalar, any::<bool>()), 1..200).prop_map(|fields| {
        let (schemas, required): (Vec<Value>, Vec<bool>) = fields.into_iter().unzip();
        let named = schemas
            .into_iter()
            .enumerate()
            .map(|(i, schema)| (format!("field_{i}/{}", i % 7), schema))
            .collect();
        (named, required)
    })
}

/// Whether a compiled property admits `null`.
fn admits_null(schema: &Value) -> bool {
    let typed = match &schema["type"] {
        Value::String(t) => t == "null",
        Value::Array(types) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    let branch = schema["anyOf"]
        .as_array()
        .is_some_and(|branches| branches.iter().any(|b| b["type"] == "null"));
    typed || branch
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn wide_objects_list_every_property_and_null_only_the_optional(
        (fields, required) in wide_object()
    ) {
        let properties: Map<String, Value> = fields.iter().cloned().collect();
        let required_names: Vec<&String> = fields
            .iter()
            .zip(&required)
            .filter(|(_, is_required)| **is_required)
            .map(|((name, _), _)| name)
            .collect();
        let document = json!({
            "type": "object",
            "properties": properties,
            "required": required_names,
        });
        let compiled = to_strict_json_schema(&document).unwrap();
        let names: Vec<&String> = fields.iter().map(|(name, _)| name).collect();
        prop_assert_eq!(&compiled["required"], &json!(names));
        prop_assert_eq!(&compiled["additionalProperties"], &json!(false));
        for ((name, input), is_required) in fields.iter().zip(&required) {
            let output = &compiled["properties"][name];
            let expected = admits_null(input) || !is_required;
            prop_assert_eq!(admits_null(output), expected, "{}: {} -> {}", name, input, output);
        }
    }
}
