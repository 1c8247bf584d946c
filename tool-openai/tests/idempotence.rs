//! Property tests: compiling a compiled schema changes nothing, compiled
//! schemas pass the strict checker, and no input makes the compiler panic.

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value, json};
use tool_openai::{check_strict_schema, to_strict_json_schema};

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "order_ref", "note", "x/y"]).prop_map(str::to_owned)
}

/// Keywords that ride along on any schema: annotations the compiler drops
/// or moves into the description.
fn annotate(schema: Value, description: Option<String>, title: bool) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    if let Some(description) = description {
        map.insert("description".into(), Value::from(description));
    }
    if title {
        map.insert("title".into(), Value::from("Title"));
    }
    Value::Object(map)
}

/// Scalar schemas as schemars and pydantic write them.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        (
            prop::option::of(0u64..5),
            prop::option::of(5u64..50),
            prop::option::of(prop::sample::select(vec![
                "uuid",
                "uri",
                "date-time",
                "email",
                "int",
                "hostname"
            ])),
        )
            .prop_map(|(min, max, format)| {
                let mut map = Map::new();
                map.insert("type".into(), json!("string"));
                if let Some(min) = min {
                    map.insert("minLength".into(), json!(min));
                }
                if let Some(max) = max {
                    map.insert("maxLength".into(), json!(max));
                }
                if let Some(format) = format {
                    map.insert("format".into(), json!(format));
                }
                Value::Object(map)
            }),
        prop::sample::select(vec!["int32", "uint32", "int64", "uint8"])
            .prop_map(|f| json!({"type": "integer", "format": f, "minimum": 0})),
        Just(json!({"type": "number", "format": "double", "exclusiveMinimum": 0})),
        Just(json!({"type": "boolean", "default": false})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"type": "null"})),
        prop::collection::vec("[a-z]{1,6}", 1..4)
            .prop_map(|v| json!({"type": "string", "enum": v})),
        prop::collection::vec("[a-z]{1,6}", 1..4).prop_map(|v| json!({"enum": v})),
        "[a-z]{1,6}".prop_map(|c| json!({"const": c})),
    ]
}

/// Scalars and references to the definitions and the root.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => scalar(),
        1 => Just(json!({"$ref": "#/$defs/Node"})),
        1 => Just(json!({"$ref": "#/definitions/Leaf"})),
        1 => Just(json!({"$ref": "#"})),
        1 => Just(json!({"$ref": "#/$defs/Node", "description": "A node.", "minLength": 1})),
    ]
}

/// Nested schemas: objects, arrays, unions, `Option<T>`, single `allOf`.
fn schema() -> impl Strategy<Value = Value> {
    let annotated = (leaf(), prop::option::of("[A-Z][a-z ]{0,12}"), any::<bool>())
        .prop_map(|(s, d, t)| annotate(s, d, t));
    annotated.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (
                prop::collection::vec((name(), inner.clone(), any::<bool>()), 0..4),
                any::<bool>()
            )
                .prop_map(|(fields, closed)| {
                    let mut properties = Map::new();
                    let mut required = Vec::new();
                    for (name, schema, is_required) in fields {
                        if is_required && !required.contains(&name) {
                            required.push(name.clone());
                        }
                        properties.insert(name, schema);
                    }
                    required.retain(|n| properties.contains_key(n));
                    let mut map = Map::new();
                    map.insert("type".into(), json!("object"));
                    map.insert("properties".into(), Value::Object(properties));
                    map.insert("required".into(), json!(required));
                    if closed {
                        map.insert("additionalProperties".into(), json!(false));
                    }
                    Value::Object(map)
                }),
            (inner.clone(), any::<bool>()).prop_map(|(items, unique)| {
                json!({"type": "array", "items": items, "uniqueItems": unique, "maxItems": 3})
            }),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|b| json!({"anyOf": b})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|b| json!({"oneOf": b})),
            inner
                .clone()
                .prop_map(|s| json!({"anyOf": [s, {"type": "null"}], "default": null})),
            inner.prop_map(|s| json!({"allOf": [s], "description": "Merged."})),
        ]
    })
}

/// A document: a root object with properties and two definitions, a
/// recursive object and a scalar.
fn document() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec((name(), schema(), any::<bool>()), 0..5),
        schema(),
        scalar(),
    )
        .prop_map(|(fields, next, leaf)| {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (name, schema, is_required) in fields {
                if is_required && !required.contains(&name) {
                    required.push(name.clone());
                }
                properties.insert(name, schema);
            }
            required.retain(|n| properties.contains_key(n));
            json!({
                "type": "object",
                "properties": properties,
                "required": required,
                "$defs": {"Node": {
                    "type": "object",
                    "properties": {"value": {"type": "integer"}, "next": next},
                    "required": ["value"]
                }},
                "definitions": {"Leaf": leaf}
            })
        })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn compiling_twice_equals_compiling_once(document in document()) {
        let once = to_strict_json_schema(&document);
        prop_assert!(once.is_ok(), "{document:#} was refused: {}", once.unwrap_err());
        let once = once.unwrap();
        prop_assert_eq!(check_strict_schema(&once), Ok(()));
        let twice = to_strict_json_schema(&once);
        prop_assert_eq!(twice.as_ref(), Ok(&once));
    }
}

/// Any JSON at all, built from schema keywords, so that many inputs look
/// almost like schemas.
fn anything() -> impl Strategy<Value = Value> {
    let key = prop::sample::select(vec![
        "type",
        "properties",
        "required",
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "enum",
        "const",
        "additionalProperties",
        "description",
        "minLength",
        "format",
        "not",
        "definitions",
        "title",
        "prefixItems",
        "minimum",
        "exclusiveMinimum",
    ]);
    let scalar = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..3).prop_map(Value::from),
        prop::sample::select(vec![
            "object",
            "string",
            "null",
            "array",
            "#",
            "#/$defs/a",
            "#/definitions/a",
            "uuid",
            "a",
        ])
        .prop_map(Value::from),
    ];
    scalar.prop_recursive(4, 40, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..5).prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

/// The `n`th object of `value` in pre-order (counting from 0, wrapping).
fn nth_object(value: &mut Value, n: usize) -> Option<&mut Map<String, Value>> {
    fn count(value: &Value) -> usize {
        match value {
            Value::Object(map) => 1 + map.values().map(count).sum::<usize>(),
            Value::Array(items) => items.iter().map(count).sum(),
            _ => 0,
        }
    }
    fn find<'v>(value: &'v mut Value, n: &mut usize) -> Option<&'v mut Map<String, Value>> {
        match value {
            Value::Object(map) => {
                if *n == 0 {
                    return Some(map);
                }
                *n -= 1;
                map.values_mut().find_map(|v| find(v, n))
            }
            Value::Array(items) => items.iter_mut().find_map(|v| find(v, n)),
            _ => None,
        }
    }
    let total = count(value);
    if total == 0 {
        return None;
    }
    let mut n = n % total;
    find(value, &mut n)
}

/// Random JSON; or a valid document with one keyword of one of its schemas
/// set to random JSON, so that many inputs are almost right.
fn input() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => anything(),
        4 => (document(), any::<usize>(), prop::sample::select(vec![
            "type", "properties", "required", "items", "anyOf", "oneOf", "allOf", "$ref",
            "enum", "const", "additionalProperties", "minLength", "format", "not", "description",
        ]), anything())
            .prop_map(|(mut document, n, key, value)| {
                if let Some(object) = nth_object(&mut document, n) {
                    object.insert(key.to_owned(), value);
                }
                document
            }),
    ]
}

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn any_input_compiles_to_a_strict_fixed_point_or_is_refused(input in input()) {
        if let Ok(once) = to_strict_json_schema(&input) {
            prop_assert_eq!(check_strict_schema(&once), Ok(()));
            let twice = to_strict_json_schema(&once);
            prop_assert_eq!(twice.as_ref(), Ok(&once));
        }
    }
}
