//! The strict checker on schemas that break the rules: every violation is
//! reported, each at its path with its rule.

mod common;

use serde_json::{Value, json};
use tool_openai::{StrictRule, check_strict_schema};

use common::{read_json, test_path};

fn violations(schema: &Value) -> Vec<(String, StrictRule)> {
    check_strict_schema(schema)
        .expect_err("expected violations")
        .into_iter()
        .map(|v| (v.path().to_owned(), v.rule()))
        .collect()
}

fn at(path: &str, rule: StrictRule) -> (String, StrictRule) {
    (path.to_owned(), rule)
}

#[test]
fn a_plain_json_schema_breaks_the_object_rules() {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "address": {"type": "object", "properties": {"city": {"type": "string"}}},
            "tags": {"type": "array"},
            "color": {"$ref": "#/$defs/Color", "description": "The color."}
        },
        "required": ["name", "color"],
        "$defs": {"Color": {"type": "string", "enum": ["red"], "title": "Color"}}
    });
    assert_eq!(
        violations(&schema),
        [
            at("#", StrictRule::OpenObject),
            at(
                "#/properties/name/minLength",
                StrictRule::UnsupportedKeyword
            ),
            at("#/properties/address", StrictRule::NotRequired),
            at("#/properties/address", StrictRule::OpenObject),
            at(
                "#/properties/address/properties/city",
                StrictRule::NotRequired
            ),
            at("#/properties/tags", StrictRule::NotRequired),
            at("#/properties/tags", StrictRule::AnyValue),
            at("#/properties/color/description", StrictRule::RefSiblings),
            at("#/$defs/Color/title", StrictRule::UnsupportedKeyword),
        ]
    );
}

#[test]
fn refs_formats_types_and_unions_are_checked() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Missing"},
            "b": {"type": "string", "format": "uri"},
            "c": {"description": "No type."},
            "d": {"anyOf": [{"type": "string"}], "type": "string"},
            "e": {"type": ["string", "null"], "enum": ["x"]},
            "f": {"type": "string", "$defs": {}},
            "g": true,
            "h": {"anyOf": []}
        },
        "required": ["a", "b", "c", "d", "e", "f", "g", "h", "z"],
        "additionalProperties": false
    });
    assert_eq!(
        violations(&schema),
        [
            at("#/required", StrictRule::NotRequired),
            at("#/properties/a/$ref", StrictRule::UnresolvedRef),
            at("#/properties/b/format", StrictRule::UnsupportedFormat),
            at("#/properties/c", StrictRule::AnyValue),
            at("#/properties/d/type", StrictRule::UnionSiblings),
            at("#/properties/e/enum", StrictRule::Malformed),
            at("#/properties/f/$defs", StrictRule::UnsupportedKeyword),
            at("#/properties/g", StrictRule::AnyValue),
            at("#/properties/h/anyOf", StrictRule::Malformed),
        ]
    );
    let messages: Vec<String> = check_strict_schema(&schema)
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        messages[..3],
        [
            "#/required: `required` names `z`, which is not a property",
            "#/properties/a/$ref: `$ref` \"#/$defs/Missing\" is neither `#` nor a \
             `#/$defs/NAME` that exists",
            "#/properties/b/format: format \"uri\" is not supported; use one of date-time, time, \
             date, duration, email, hostname, ipv4, ipv6, uuid",
        ]
    );
}

#[test]
fn the_root_must_be_a_closed_object() {
    assert_eq!(
        violations(&json!({"anyOf": [{"type": "object"}]})),
        [
            at("#", StrictRule::RootNotObject),
            at("#/anyOf", StrictRule::RootNotObject),
            at("#/anyOf/0", StrictRule::OpenObject),
        ]
    );
    assert_eq!(
        violations(&json!({
            "type": ["object", "null"],
            "properties": {},
            "required": [],
            "additionalProperties": false
        })),
        [at("#/type", StrictRule::RootNotObject)]
    );
    assert_eq!(violations(&json!([])), [at("#", StrictRule::RootNotObject)]);
}

#[test]
fn the_references_keep_titles_that_the_compiler_drops() {
    // The conformance references are strict-valid for the API, which ignores
    // `title`; the checker holds to the documented keyword list.
    let reference = read_json(&test_path("conformance/openai-strict/S4/reference.json"));
    assert_eq!(
        violations(&reference),
        [
            at("#/title", StrictRule::UnsupportedKeyword),
            at("#/properties/city/title", StrictRule::UnsupportedKeyword),
            at(
                "#/properties/temperature/title",
                StrictRule::UnsupportedKeyword
            ),
            at("#/properties/units/title", StrictRule::UnsupportedKeyword),
        ]
    );
    let reference = read_json(&test_path("conformance/openai-strict/S16a/reference.json"));
    assert_eq!(check_strict_schema(&reference), Ok(()));
}

#[test]
fn limits_are_checked_on_finished_schemas() {
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let schema = json!({
        "type": "object",
        "properties": {"p": {"type": "string", "enum": values}},
        "required": ["p"],
        "additionalProperties": false
    });
    assert_eq!(
        violations(&schema),
        [at("#", StrictRule::TooManyEnumValues)]
    );
}
