//! OpenAI's documented limits: what is just inside passes, what is just
//! outside is refused with the path and the limit.

mod common;

use serde_json::{Map, Value, json};
use tool_openai::{StrictRule, to_strict_json_schema};

use common::{compile, refused};

/// A root object with `n` required string properties named by `name(i)`.
fn with_properties(n: usize, name: impl Fn(usize) -> String) -> Value {
    let properties: Map<String, Value> = (0..n)
        .map(|i| (name(i), json!({"type": "string"})))
        .collect();
    let required: Vec<String> = (0..n).map(name).collect();
    json!({"type": "object", "properties": properties, "required": required})
}

/// Objects nested `levels` deep through a required property `a`.
fn nested(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json!({"type": "object", "properties": {"a": schema}, "required": ["a"]});
    }
    schema
}

/// A required string enum property `p` with `n` values of `len` characters.
fn with_enum(n: usize, len: usize) -> Value {
    let values: Vec<String> = (0..n).map(|i| format!("{i:0len$}")).collect();
    json!({
        "type": "object",
        "properties": {"p": {"type": "string", "enum": values}},
        "required": ["p"]
    })
}

#[test]
fn at_most_5000_properties() {
    compile(&with_properties(5000, |i| format!("p{i}")));
    refused(
        &with_properties(5001, |i| format!("p{i}")),
        "#",
        StrictRule::TooManyProperties,
        "the schema has 5001 object properties; OpenAI allows at most 5000 in total; split the \
         tool or move rarely used parts into a free-text field",
    );
}

#[test]
fn at_most_10_levels_of_nesting() {
    compile(&nested(10));
    refused(
        &nested(11),
        &format!("#{}", "/properties/a".repeat(11)),
        StrictRule::TooDeep,
        "this schema is nested 11 levels deep; OpenAI allows at most 10 (each property, \
         `items`, `anyOf` branch and `$defs` entry is one level); flatten the structure",
    );
}

#[test]
fn a_nullable_wrapper_counts_as_a_level() {
    // Level 10 holds an optional `$ref`: its `anyOf` branch is level 11.
    let mut schema = json!({
        "type": "object",
        "properties": {"money": {"$ref": "#/$defs/Money"}},
        "required": []
    });
    for _ in 0..9 {
        schema = json!({"type": "object", "properties": {"a": schema}, "required": ["a"]});
    }
    schema["$defs"] = json!({"Money": {"type": "object", "properties": {}}});
    let error = to_strict_json_schema(&schema).unwrap_err();
    assert_eq!(
        (error.path(), error.rule()),
        (
            format!("#{}/properties/money/anyOf/0", "/properties/a".repeat(9)).as_str(),
            StrictRule::TooDeep
        )
    );
}

#[test]
fn at_most_1000_enum_values() {
    let mut schema = with_enum(500, 3);
    schema["properties"]["q"] = json!({"type": "integer", "enum": (0..500).collect::<Vec<_>>()});
    schema["required"] = json!(["p", "q"]);
    compile(&schema);
    schema["properties"]["q"]["enum"] = json!((0..501).collect::<Vec<_>>());
    refused(
        &schema,
        "#",
        StrictRule::TooManyEnumValues,
        "the schema has 1001 enum values; OpenAI allows at most 1000 in total; take large value \
         sets as a validated string",
    );
}

#[test]
fn at_most_120000_characters_of_names_and_values() {
    // 1000 property names of 120 characters each, then of 121.
    compile(&with_properties(1000, |i| format!("{i:0120}")));
    refused(
        &with_properties(1000, |i| format!("{i:0121}")),
        "#",
        StrictRule::TooManyCharacters,
        "property names, definition names, enum and const values add up to 121000 characters; \
         OpenAI allows at most 120000; shorten them or take large value sets as a validated \
         string",
    );
}

#[test]
fn a_string_enum_of_more_than_250_values_has_at_most_15000_characters() {
    compile(&with_enum(250, 100));
    compile(&with_enum(251, 59));
    refused(
        &with_enum(251, 60),
        "#/properties/p/enum",
        StrictRule::EnumTooLong,
        "this enum has 251 values with 15060 characters; OpenAI allows at most 15000 characters \
         in an enum of more than 250 values; take the value as a validated string",
    );
}
