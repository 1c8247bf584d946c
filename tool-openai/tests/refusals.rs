//! What strict mode cannot express is refused: each case names the exact
//! path, rule and message (what is wrong, and what to write instead).

mod common;

use serde_json::{Value, json};
use tool_openai::StrictRule;

use common::refused;

/// An object schema whose one property `p` is `schema`, required.
fn with_property(schema: Value) -> Value {
    json!({"type": "object", "properties": {"p": schema}, "required": ["p"]})
}

#[test]
fn maps_are_refused() {
    let filters = json!({
        "type": "object",
        "properties": {
            "filters": {"type": "object", "additionalProperties": {"type": "string"}}
        },
        "required": ["filters"]
    });
    refused(
        &filters,
        "#/properties/filters/additionalProperties",
        StrictRule::OpenObject,
        "`additionalProperties` with a schema makes an open object (a map), which strict mode \
         cannot express; list the keys as `properties`, or use an array of `{key, value}` objects",
    );
    // serde_json::Map<String, Value> in schemars.
    refused(
        &with_property(json!({"type": "object", "additionalProperties": true})),
        "#/properties/p/additionalProperties",
        StrictRule::OpenObject,
        "`additionalProperties: true` makes an open object (a map), which strict mode cannot \
         express; list the keys as `properties`, or use an array of `{key, value}` objects",
    );
    refused(
        &with_property(json!({"type": "object"})),
        "#/properties/p",
        StrictRule::OpenObject,
        "an object without `properties` accepts any keys (a map), which strict mode cannot \
         express; list its keys as `properties`, or write `\"properties\": {}` for an object \
         that takes none",
    );
    refused(
        &with_property(json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}})),
        "#/properties/p/patternProperties",
        StrictRule::OpenObject,
        "`patternProperties` describes an open object (a map), which strict mode cannot \
         express; list the keys as `properties`, or use an array of `{key, value}` objects",
    );
}

#[test]
fn the_root_must_be_a_plain_object() {
    let not_object = "the root of a strict schema must be `\"type\": \"object\"`; wrap the value \
                      in an object property";
    refused(
        &json!({"type": "string"}),
        "#/type",
        StrictRule::RootNotObject,
        not_object,
    );
    refused(
        &json!({"items": {"type": "string"}}),
        "#/type",
        StrictRule::RootNotObject,
        not_object,
    );
    refused(
        &json!({"type": ["object", "null"], "properties": {}}),
        "#/type",
        StrictRule::RootNotObject,
        "the root of a strict schema cannot be nullable; write `\"type\": \"object\"` and make \
         the properties nullable instead",
    );
    refused(
        &json!({"oneOf": [
            {"type": "object", "properties": {}},
            {"type": "object", "properties": {"a": {"type": "string"}}}
        ]}),
        "#/oneOf",
        StrictRule::RootNotObject,
        "the root of a strict schema must be a plain object, not `oneOf`; make the root an \
         object whose one property holds the union",
    );
    refused(
        &json!(true),
        "#",
        StrictRule::RootNotObject,
        "the root of a strict schema must be an object schema, not `true`; write `{\"type\": \
         \"object\", \"properties\": {...}}`",
    );
    refused(
        &json!({"$ref": "#"}),
        "#/$ref",
        StrictRule::RootNotObject,
        "the root is a `$ref` to itself; write the root object schema",
    );
}

#[test]
fn any_json_value_is_refused() {
    let message = "this schema has no type and accepts any JSON value (`{}`, `true`, or \
                   `serde_json::Value`), which strict mode cannot express; give it a type, or \
                   take the value as a string that holds JSON";
    // schemars writes `true` for serde_json::Value; pydantic writes `{}` for Any.
    refused(
        &with_property(json!(true)),
        "#/properties/p",
        StrictRule::AnyValue,
        message,
    );
    refused(
        &with_property(json!({})),
        "#/properties/p",
        StrictRule::AnyValue,
        message,
    );
    refused(
        &with_property(json!({"description": "Anything."})),
        "#/properties/p",
        StrictRule::AnyValue,
        message,
    );
    refused(
        &with_property(json!({"type": "array", "items": {}})),
        "#/properties/p/items",
        StrictRule::AnyValue,
        message,
    );
    refused(
        &with_property(json!({"type": "array"})),
        "#/properties/p",
        StrictRule::AnyValue,
        "an array without `items` accepts any values, which strict mode cannot express; give \
         its items a schema",
    );
}

#[test]
fn keywords_strict_mode_cannot_express_are_refused() {
    let cases = [
        (
            json!({"type": "string", "not": {"const": "x"}}),
            "not",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `not`; describe the values to avoid in `description` \
             and reject them in the tool",
        ),
        (
            json!({"type": "object", "properties": {}, "if": {}, "then": {}}),
            "if",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support conditional schemas (`if`); use `anyOf` with one \
             object schema per case",
        ),
        (
            json!({"type": "string", "else": {}}),
            "else",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support conditional schemas (`else`); use `anyOf` with one \
             object schema per case",
        ),
        (
            json!({"type": "object", "properties": {}, "dependentRequired": {"a": ["b"]}}),
            "dependentRequired",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `dependentRequired` (every property is always sent); \
             make the dependent properties nullable and check the dependency in the tool",
        ),
        (
            json!({"type": "object", "properties": {}, "dependentSchemas": {}}),
            "dependentSchemas",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `dependentSchemas` (every property is always sent); \
             make the dependent properties nullable and check the dependency in the tool",
        ),
        (
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}),
            "prefixItems",
            StrictRule::Tuple,
            "tuples (`prefixItems`) cannot be expressed in strict mode; use an object with one \
             named property per position",
        ),
        (
            json!({"type": "array", "items": [{"type": "string"}]}),
            "items",
            StrictRule::Tuple,
            "tuples (`items` as an array) cannot be expressed in strict mode; use an object \
             with one named property per position",
        ),
        (
            json!({"type": "object", "properties": {}, "unevaluatedProperties": false}),
            "unevaluatedProperties",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `unevaluatedProperties`; close objects with \
             `additionalProperties: false` and give arrays one `items` schema",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}}),
            "contains",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `contains`; state the rule in `description` and check \
             it in the tool",
        ),
        (
            json!({"type": "object", "properties": {}, "minProperties": 1}),
            "minProperties",
            StrictRule::UnsupportedKeyword,
            "strict mode sends every property of an object, so `minProperties` cannot be \
             expressed; state the rule in `description` and check it in the tool",
        ),
        (
            json!({"type": "string", "nullable": true}),
            "nullable",
            StrictRule::UnsupportedKeyword,
            "unknown keyword `nullable`, which strict mode rejects; remove it, or say what it \
             means in `description`",
        ),
        (
            json!({"type": "string", "$anchor": "x"}),
            "$anchor",
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `$anchor`; put the schema in the root `$defs` and \
             refer to it with `\"$ref\": \"#/$defs/NAME\"`",
        ),
        (
            json!({"type": "string", "$defs": {}}),
            "$defs",
            StrictRule::UnsupportedKeyword,
            "`$defs` is only supported at the root; move these definitions into the root `$defs`",
        ),
    ];
    for (schema, keyword, rule, message) in cases {
        refused(
            &with_property(schema),
            &format!("#/properties/p/{keyword}"),
            rule,
            message,
        );
    }
}

#[test]
fn refs_that_do_not_resolve_are_refused() {
    refused(
        &with_property(json!({"$ref": "#/$defs/Missing"})),
        "#/properties/p/$ref",
        StrictRule::UnresolvedRef,
        "`$ref` \"#/$defs/Missing\" does not resolve: there is no definition `Missing`; add it \
         to `$defs` or fix the name",
    );
    refused(
        &with_property(json!({"$ref": "#/properties/q"})),
        "#/properties/p/$ref",
        StrictRule::UnresolvedRef,
        "`$ref` \"#/properties/q\" does not resolve: the document has nothing at that pointer; \
         point it at a schema in the document, e.g. `#/$defs/NAME`",
    );
    refused(
        &with_property(json!({"$ref": "https://example.com/schema.json"})),
        "#/properties/p/$ref",
        StrictRule::UnresolvedRef,
        "`$ref` \"https://example.com/schema.json\" is not a local reference and does not \
         resolve; point it at `#` or at a definition, `#/$defs/NAME`",
    );
    let cycle = json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/A"}},
        "required": ["p"],
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}
    });
    refused(
        &cycle,
        "#/properties/p/$ref",
        StrictRule::UnresolvedRef,
        "`$ref` \"#/$defs/A\" only leads to itself (A -> B -> A); give one of these \
         definitions a schema",
    );
}

#[test]
fn all_of_that_cannot_be_merged_is_refused() {
    refused(
        &with_property(
            json!({"allOf": [{"type": "string"}, {"minLength": 1}, {"type": "integer"}]}),
        ),
        "#/properties/p/allOf/2/type",
        StrictRule::AllOf,
        "`type` here differs from the `type` of another `allOf` schema; write one schema",
    );
    refused(
        &with_property(json!({"type": "string", "allOf": [{"type": "integer"}]})),
        "#/properties/p/allOf/0/type",
        StrictRule::AllOf,
        "`type` here differs from the `type` beside `allOf`; write one schema",
    );
    refused(
        &with_property(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "allOf": [{"properties": {"a": {"type": "integer"}}}]
        })),
        "#/properties/p/allOf/0/properties/a",
        StrictRule::AllOf,
        "property `a` has a different schema here than in the parent; give it one schema",
    );
}

#[test]
fn keywords_beside_refs_and_unions_that_cannot_move_are_refused() {
    let defs = json!({"Money": {"type": "object", "properties": {}}});
    refused(
        &json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/Money", "type": "object"}},
            "$defs": defs
        }),
        "#/properties/p/type",
        StrictRule::RefSiblings,
        "`$ref` cannot have `type` beside it in strict mode; move `type` into the referenced \
         definition",
    );
    refused(
        &with_property(json!({
            "type": "object",
            "properties": {"kind": {"type": "string"}},
            "oneOf": [{"properties": {"a": {"type": "string"}}}]
        })),
        "#/properties/p/properties",
        StrictRule::UnionSiblings,
        "`properties` beside `anyOf` cannot be expressed in strict mode; move it into each \
         branch of the union",
    );
    refused(
        &with_property(json!({"anyOf": [{"type": "string"}], "oneOf": [{"type": "integer"}]})),
        "#/properties/p/oneOf",
        StrictRule::UnionSiblings,
        "a schema with both `anyOf` and `oneOf` cannot be expressed in strict mode; write one \
         `anyOf` that lists every case",
    );
}

#[test]
fn malformed_schemas_are_errors_not_panics() {
    let cases = [
        (
            json!({"type": "text"}),
            "#/properties/p/type",
            "\"text\" is not a JSON Schema type; use one of `string`, `number`, `integer`, \
             `boolean`, `object`, `array`, `null`",
        ),
        (
            json!({"type": []}),
            "#/properties/p/type",
            "`type` must be a type name or a non-empty array of type names; write e.g. \
             `\"string\"` or `[\"string\", \"null\"]`",
        ),
        (
            json!({"type": ["string", "string"]}),
            "#/properties/p/type",
            "`type` lists `string` twice; list each type once",
        ),
        (
            json!({"type": "string", "enum": []}),
            "#/properties/p/enum",
            "`enum` must be a non-empty array of values",
        ),
        (
            json!(false),
            "#/properties/p",
            "`false` accepts no value; remove the property or give it a type",
        ),
        (
            json!(12),
            "#/properties/p",
            "a schema must be a JSON object, not a number",
        ),
        (
            json!({"type": "string", "description": 5}),
            "#/properties/p/description",
            "expected a string, got 5",
        ),
        (
            json!({"type": "string", "maxLength": "ten"}),
            "#/properties/p/maxLength",
            "expected a non-negative integer, got \"ten\"",
        ),
        (
            json!({"type": "integer", "minimum": "0"}),
            "#/properties/p/minimum",
            "expected a number, got \"0\"",
        ),
        (
            json!({"type": "object", "properties": []}),
            "#/properties/p/properties",
            "`properties` must be an object of named schemas",
        ),
        (
            json!({"$ref": 5}),
            "#/properties/p/$ref",
            "expected a string, got 5",
        ),
        (
            json!({"anyOf": []}),
            "#/properties/p/anyOf",
            "`anyOf` must be a non-empty array of schemas",
        ),
        (
            json!({"allOf": {}}),
            "#/properties/p/allOf",
            "`allOf` must be an array of schemas",
        ),
    ];
    for (schema, path, message) in cases {
        refused(&with_property(schema), path, StrictRule::Malformed, message);
    }
    refused(
        &json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}),
        "#/required/1",
        StrictRule::NotRequired,
        "`required` names `b`, which is not among `properties`; add the property or remove the \
         name",
    );
    refused(
        &json!({"type": "object", "properties": {}, "$defs": []}),
        "#/$defs",
        StrictRule::Malformed,
        "`$defs` must be an object of named schemas",
    );
}

#[test]
fn absurdly_deep_input_is_refused_without_overflowing_the_stack() {
    let mut schema = json!({"type": "string"});
    for _ in 0..200 {
        schema = json!({"type": "array", "items": schema});
    }
    let mut path = String::from("#/properties/p");
    for _ in 0..64 {
        path.push_str("/items");
    }
    refused(
        &with_property(schema),
        &path,
        StrictRule::TooDeep,
        "the schema is nested more than 64 levels deep; strict mode allows 10, so flatten the \
         structure",
    );
}

#[test]
fn absurdly_deep_all_of_is_refused_without_overflowing_the_stack() {
    let mut schema = json!({"type": "string"});
    for _ in 0..100 {
        schema = json!({"allOf": [schema]});
    }
    let mut path = String::from("#/properties/p");
    for _ in 0..65 {
        path.push_str("/allOf/0");
    }
    refused(
        &with_property(schema),
        &path,
        StrictRule::TooDeep,
        "`allOf` is nested more than 64 levels deep; write one schema",
    );
}
