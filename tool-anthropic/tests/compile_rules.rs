//! Each construct Anthropic's strict tool use refuses or does not take,
//! next to the provider's rule or error text it prevents (structured-outputs
//! guide, "JSON Schema limitations"; docs/providers-dialects.md §1.2): refused
//! with our path, rule and message, or moved into the description in the
//! words tool-openai uses.

use serde_json::{Value, json};
use tool_anthropic::{StrictRule, to_strict_input_schema};

fn compile(schema: Value) -> Value {
    to_strict_input_schema(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

fn refused(schema: Value, path: &str, rule: StrictRule) -> String {
    let error = to_strict_input_schema(&schema).expect_err("expected a refusal");
    assert_eq!(
        (error.path(), error.rule()),
        (path, rule),
        "{schema}: {error}"
    );
    error.message().to_owned()
}

fn object(property: Value) -> Value {
    json!({"type": "object", "properties": {"x": property}, "required": ["x"]})
}

fn compiled_property(property: Value) -> Value {
    compile(object(property))["properties"]["x"].clone()
}

// "For 'object' type, 'additionalProperties' must be explicitly set to false"
#[test]
fn every_object_is_closed_nested_and_in_defs() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]},
                       "c": {"$ref": "#/$defs/C"}},
        "required": ["a", "c"],
        "$defs": {"C": {"properties": {"d": {"type": "integer"}}, "required": ["d"]}}
    });
    assert_eq!(
        compile(schema),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"], "additionalProperties": false},
                "c": {"$ref": "#/$defs/C"}
            },
            "required": ["a", "c"],
            "additionalProperties": false,
            "$defs": {"C": {"type": "object", "properties": {"d": {"type": "integer"}}, "required": ["d"], "additionalProperties": false}}
        })
    );
}

// "For 'object' type, 'additionalProperties' must be explicitly set to false"
#[test]
fn a_map_is_refused() {
    let message = refused(
        object(json!({"type": "object", "additionalProperties": {"type": "string"}})),
        "#/properties/x/additionalProperties",
        StrictRule::OpenObject,
    );
    assert!(
        message.contains(
            "(\"For 'object' type, 'additionalProperties' must be explicitly set to false\")"
        ),
        "{message}"
    );
    refused(
        object(json!({"type": "object", "additionalProperties": true})),
        "#/properties/x/additionalProperties",
        StrictRule::OpenObject,
    );
}

// rig PR #2296: the API requires a top-level `type: object` and rejects
// `type` next to a root `$ref`.
#[test]
fn a_root_ref_is_inlined_and_the_root_is_an_object() {
    let schema = json!({
        "$ref": "#/$defs/Args",
        "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}
    });
    assert_eq!(
        compile(schema),
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false})
    );
    refused(json!({"type": "string"}), "#", StrictRule::RootNotObject);
    refused(
        json!({"anyOf": [{"type": "object"}, {"type": "null"}]}),
        "#",
        StrictRule::RootNotObject,
    );
    refused(json!([1]), "#", StrictRule::RootNotObject);
    assert_eq!(
        compile(json!({})),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

// "Recursive schemas" are not supported.
#[test]
fn recursion_is_refused() {
    let message = refused(
        json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}}, "required": ["n"],
               "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}}),
        "#/$defs/Node/properties/next/$ref",
        StrictRule::Recursion,
    );
    assert!(
        message.contains("(\"Recursive schemas\" are not supported)"),
        "{message}"
    );
    refused(
        json!({"type": "object", "properties": {"self": {"$ref": "#"}}}),
        "#/properties/self/$ref",
        StrictRule::Recursion,
    );
    // Through two definitions, and through an inlined (described) use.
    refused(
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A", "description": "An A."}},
               "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                         "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}}}),
        "#/$defs/B/properties/a/$ref",
        StrictRule::Recursion,
    );
}

// "External `$ref`" is not supported.
#[test]
fn external_and_dangling_refs_are_refused() {
    let message = refused(
        object(json!({"$ref": "https://example.com/schema.json"})),
        "#/properties/x/$ref",
        StrictRule::UnresolvedRef,
    );
    assert!(
        message.contains("(\"External `$ref`\" is not supported)"),
        "{message}"
    );
    refused(
        object(json!({"$ref": "#/$defs/Missing"})),
        "#/properties/x/$ref",
        StrictRule::UnresolvedRef,
    );
}

// Numerical constraints (`minimum`, `maximum`, `multipleOf`, ...) are not
// supported: moved into the description.
#[test]
fn numeric_bounds_move_into_the_description() {
    assert_eq!(
        compiled_property(
            json!({"type": "integer", "description": "How many.", "minimum": 1, "maximum": 10})
        ),
        json!({"type": "integer", "description": "How many. From 1 to 10."})
    );
    assert_eq!(
        compiled_property(json!({"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5})),
        json!({"description": "Greater than 0. A multiple of 0.5.", "type": "number"})
    );
}

// String constraints (`minLength`, `maxLength`) are not supported.
#[test]
fn string_lengths_move_into_the_description() {
    assert_eq!(
        compiled_property(json!({"type": "string", "minLength": 1, "maxLength": 64})),
        json!({"description": "Between 1 and 64 characters.", "type": "string"})
    );
}

// Array constraints beyond `minItems` 0/1, so `maxItems` too.
#[test]
fn array_sizes_beyond_min_items_one_move_into_the_description() {
    assert_eq!(
        compiled_property(
            json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4})
        ),
        json!({"description": "At most 4 items.", "type": "array", "items": {"type": "string"}, "minItems": 1})
    );
    assert_eq!(
        compiled_property(
            json!({"type": "array", "items": {"type": "string"}, "minItems": 2, "uniqueItems": true})
        ),
        json!({"description": "At least 2 items. No duplicate items.", "type": "array", "items": {"type": "string"}})
    );
    assert_eq!(
        compiled_property(json!({"type": "array", "items": {"type": "string"}, "minItems": 0})),
        json!({"type": "array", "items": {"type": "string"}, "minItems": 0})
    );
}

// `pattern`: backreferences, lookahead/lookbehind, `\b \B` and complex
// `{n,m}` with large ranges are not supported.
#[test]
fn patterns_strict_mode_cannot_compile_move_into_the_description() {
    assert_eq!(
        compiled_property(json!({"type": "string", "pattern": "^[A-Z]{3}$"})),
        json!({"type": "string", "pattern": "^[A-Z]{3}$"})
    );
    for pattern in [r"^(a)\1$", "^(?=x).+$", r"\bword\b", "^a{1,5000}$"] {
        let compiled = compiled_property(json!({"type": "string", "pattern": pattern}));
        assert_eq!(
            compiled,
            json!({"description": format!("Matches the regular expression `{pattern}`."), "type": "string"}),
            "{pattern}"
        );
    }
}

// String `format`: only date-time, time, date, duration, email, hostname,
// uri, ipv4, ipv6, uuid.
#[test]
fn only_the_ten_formats_are_kept() {
    for format in [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ] {
        assert_eq!(
            compiled_property(json!({"type": "string", "format": format}))["format"],
            format
        );
    }
    assert_eq!(
        compiled_property(json!({"type": "integer", "format": "uint8"})),
        json!({"type": "integer", "description": "A whole number from 0 to 255."})
    );
    assert_eq!(
        compiled_property(json!({"type": "string", "format": "iban"})),
        json!({"type": "string", "description": "Format: iban."})
    );
}

// "Complex types within enums" are not supported.
#[test]
fn complex_enum_and_const_values_are_refused() {
    let message = refused(
        object(json!({"enum": ["a", {"b": 1}]})),
        "#/properties/x/enum/1",
        StrictRule::ComplexEnum,
    );
    assert!(
        message.contains("(\"Complex types within enums\" are not supported)"),
        "{message}"
    );
    refused(
        object(json!({"const": [1, 2]})),
        "#/properties/x/const",
        StrictRule::ComplexEnum,
    );
    assert_eq!(
        compiled_property(json!({"enum": ["a", 1, true, null]})),
        json!({"enum": ["a", 1, true, null]})
    );
}

// "Structured outputs don't guarantee the capitalization of string `enum`
// and `const` values … avoid enum values that differ only in capitalization."
#[test]
fn enum_values_that_differ_only_in_case_are_refused() {
    let message = refused(
        object(json!({"type": "string", "enum": ["Red", "red"]})),
        "#/properties/x/enum",
        StrictRule::EnumCase,
    );
    assert!(
        message.starts_with("\"Red\" and \"red\" differ only in letter case;"),
        "{message}"
    );
    refused(
        object(json!({"oneOf": [{"const": "Open"}, {"const": "OPEN"}]})),
        "#/properties/x/oneOf",
        StrictRule::EnumCase,
    );
    assert_eq!(
        compiled_property(
            json!({"oneOf": [{"type": "string", "const": "open"}, {"type": "string", "const": "closed"}]})
        ),
        json!({"anyOf": [{"type": "string", "const": "open"}, {"type": "string", "const": "closed"}]})
    );
}

// `allOf` with `$ref` is not supported: one entry merges in, several are
// refused.
#[test]
fn all_of_merges_one_entry_and_refuses_several() {
    let schema = json!({
        "type": "object",
        "properties": {"x": {"description": "The money.", "allOf": [{"$ref": "#/$defs/M"}]}},
        "required": ["x"],
        "$defs": {"M": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}
    });
    assert_eq!(
        compile(schema)["properties"]["x"],
        json!({"description": "The money.", "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false})
    );
    refused(
        object(json!({"allOf": [{"type": "string"}, {"minLength": 1}]})),
        "#/properties/x/allOf",
        StrictRule::AllOf,
    );
}

#[test]
fn keywords_without_a_strict_form_are_refused() {
    for key in [
        "not",
        "if",
        "patternProperties",
        "propertyNames",
        "prefixItems",
        "dependentRequired",
        "minProperties",
    ] {
        let property = json!({"type": "object", key: {}});
        refused(
            object(property),
            &format!("#/properties/x/{key}"),
            StrictRule::UnsupportedKeyword,
        );
    }
    refused(
        object(json!({"type": "array", "items": [{"type": "string"}]})),
        "#/properties/x/items",
        StrictRule::UnsupportedKeyword,
    );
    refused(object(json!({})), "#/properties/x", StrictRule::AnyValue);
    refused(object(json!(true)), "#/properties/x", StrictRule::AnyValue);
    refused(
        object(json!({"type": "string", "frobnicate": 1})),
        "#/properties/x/frobnicate",
        StrictRule::UnsupportedKeyword,
    );
}

#[test]
fn optional_properties_are_absent_and_not_nullable() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": ["string", "null"], "description": "A."},
            "b": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}], "description": "B."},
            "c": {"anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}]},
            "d": {"enum": ["x", "y", null]},
            "e": {"type": "integer"}
        },
        "$defs": {"M": {"type": "object", "properties": {}, "required": []}}
    });
    assert_eq!(
        compile(schema),
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "string", "description": "A."},
                "b": {"type": "object", "properties": {}, "required": [], "additionalProperties": false, "description": "B."},
                "c": {"$ref": "#/$defs/M"},
                "d": {"enum": ["x", "y"]},
                "e": {"type": "integer"}
            },
            "additionalProperties": false,
            "$defs": {"M": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}
        })
    );
}

#[test]
fn hostile_schemas_end_in_errors_not_overflows() {
    // Deep nesting.
    let mut deep = json!({"type": "string"});
    for _ in 0..500 {
        deep = json!({"type": "object", "properties": {"a": deep}, "required": ["a"]});
    }
    let error = to_strict_input_schema(&deep).unwrap_err();
    assert_eq!(error.rule(), StrictRule::TooLarge);
    // A chain of definitions, each used twice with a description: inlining
    // would double at each step.
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {
                "l": {"$ref": next, "description": "Left."},
                "r": {"$ref": next, "description": "Right."}
            }, "required": ["l", "r"]}),
        );
    }
    defs.insert("D40".into(), json!({"type": "string"}));
    let schema = json!({"type": "object", "properties": {"d": {"$ref": "#/$defs/D0"}}, "required": ["d"], "$defs": defs});
    let error = to_strict_input_schema(&schema).unwrap_err();
    assert_eq!(error.rule(), StrictRule::TooLarge);
    // Weird property names are escaped in pointers and kept as keys.
    let schema = json!({"type": "object", "properties": {"a/b~c": {"type": "object", "additionalProperties": true}}});
    let error = to_strict_input_schema(&schema).unwrap_err();
    assert_eq!(error.path(), "#/properties/a~1b~0c/additionalProperties");
    // A huge enum compiles (it has no limit of its own here).
    let values: Vec<Value> = (0..5000).map(|i| json!(format!("v{i}"))).collect();
    let compiled = compiled_property(json!({"type": "string", "enum": values}));
    assert_eq!(compiled["enum"].as_array().unwrap().len(), 5000);
}
