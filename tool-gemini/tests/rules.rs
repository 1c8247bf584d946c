//! One test per construct Gemini refuses: what we write instead (moved into
//! the description, still enforced by the parser) or the build-time error
//! we give, each next to the provider error it prevents
//! (docs/providers-dialects.md section 2.2, 2.3).

mod common;

use serde_json::{Value, json};
use tool_gemini::{Dialect, GeminiRule, to_gemini_schema};

use common::{compile, refused};

const BOTH: [Dialect; 2] = [Dialect::ParametersJsonSchema, Dialect::OpenApiParameters];

/// A root object with one required property `p`.
fn with(p: Value) -> Value {
    json!({"type": "object", "properties": {"p": p}, "required": ["p"]})
}

/// The compiled schema of property `p`.
fn property(p: Value, dialect: Dialect) -> Value {
    compile(&with(p), dialect)["properties"]["p"].clone()
}

// ---- moved into the description, or rewritten ----

#[test]
fn a_non_string_const_is_stated_in_the_description() {
    // Gemini: Invalid JSON payload received. Unknown name "const" ... Cannot
    // find field (zed#44875, python-genai#1093: dropped silently through
    // parametersJsonSchema).
    for dialect in BOTH {
        assert_eq!(
            property(
                json!({"type": "integer", "const": 7, "description": "The version"}),
                dialect
            ),
            json!({"type": "integer", "description": "The version. Always 7."})
        );
    }
}

#[test]
fn a_string_const_becomes_a_one_value_enum() {
    for dialect in BOTH {
        assert_eq!(
            property(json!({"type": "string", "const": "address"}), dialect),
            json!({"type": "string", "enum": ["address"]})
        );
    }
}

#[test]
fn an_enum_of_numbers_or_booleans_is_stated_in_the_description() {
    // Gemini: "...enum: only allowed for STRING type" (opencode#12911) and
    // "Invalid value at '...enum[0]' (TYPE_STRING), 0" (thClaws#172).
    for dialect in BOTH {
        assert_eq!(
            property(json!({"type": "integer", "enum": [1, 2, 3]}), dialect),
            json!({"type": "integer", "description": "One of: 1, 2, 3."})
        );
        assert_eq!(
            property(json!({"enum": [true]}), dialect),
            json!({"type": "boolean", "description": "One of: true."})
        );
    }
}

#[test]
fn a_string_enum_with_null_is_a_nullable_string_enum() {
    assert_eq!(
        property(
            json!({"type": ["string", "null"], "enum": ["a", "b", null]}),
            Dialect::OpenApiParameters
        ),
        json!({"type": "string", "enum": ["a", "b"], "nullable": true})
    );
    assert_eq!(
        property(
            json!({"type": ["string", "null"], "enum": ["a", "b", null]}),
            Dialect::ParametersJsonSchema
        ),
        json!({"anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]})
    );
}

#[test]
fn string_formats_other_than_date_time_are_stated_in_the_description() {
    // Gemini: "format: only 'enum' and 'date-time' are supported for STRING
    // type" (gemini-cli#3178).
    for dialect in BOTH {
        assert_eq!(
            property(json!({"type": "string", "format": "email"}), dialect),
            json!({"type": "string", "description": "An email address such as \"ana@example.com\"."})
        );
        assert_eq!(
            property(json!({"type": "string", "format": "date-time"}), dialect),
            json!({"type": "string", "format": "date-time"})
        );
    }
}

#[test]
fn exclusive_bounds_and_steps_are_stated_in_the_description() {
    // Gemini: Unknown name "exclusiveMinimum" (openswarm#24, pizza-bot#62).
    for dialect in BOTH {
        assert_eq!(
            property(
                json!({"type": "number", "exclusiveMinimum": 0, "maximum": 10, "multipleOf": 0.5}),
                dialect
            ),
            json!({"type": "number", "description": "Greater than 0. A multiple of 0.5.", "maximum": 10})
        );
    }
}

#[test]
fn unique_items_is_stated_in_the_description() {
    // Gemini: Unknown name "uniqueItems" (9router#3018).
    for dialect in BOTH {
        assert_eq!(
            property(
                json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true, "minItems": 1}),
                dialect
            ),
            json!({"type": "array", "description": "No duplicate items.",
                   "items": {"type": "string"}, "minItems": 1})
        );
    }
}

#[test]
fn string_lengths_and_patterns_are_stated_in_the_description() {
    // Not in the proto `Schema`; dropped silently through
    // parametersJsonSchema (python-genai#1093), so the parser enforces them.
    for dialect in BOTH {
        assert_eq!(
            property(
                json!({"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[A-Z]+$"}),
                dialect
            ),
            json!({"type": "string", "description":
                "Between 1 and 8 characters. Matches the regular expression `^[A-Z]+$`."})
        );
    }
}

#[test]
fn type_arrays_become_nullable() {
    // Gemini: Unknown name "type" ... Proto field is not repeating, cannot
    // start list (zed#53919, edgecrab#21).
    assert_eq!(
        property(
            json!({"type": ["integer", "null"], "minimum": 0}),
            Dialect::OpenApiParameters
        ),
        json!({"type": "integer", "minimum": 0, "nullable": true})
    );
    assert_eq!(
        property(
            json!({"type": ["integer", "null"]}),
            Dialect::ParametersJsonSchema
        ),
        json!({"anyOf": [{"type": "integer"}, {"type": "null"}]})
    );
    // Two real types: one branch each.
    assert_eq!(
        property(
            json!({"type": ["integer", "string"]}),
            Dialect::OpenApiParameters
        ),
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}]})
    );
}

#[test]
fn additional_properties_is_left_out_of_parameters() {
    // Gemini: Unknown name "additionalProperties" (zed#44875,
    // obsidian-smart-composer#455); parametersJsonSchema takes it.
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}},
                        "required": ["a"], "additionalProperties": false});
    assert_eq!(
        compile(&schema, Dialect::OpenApiParameters),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
    );
    assert_eq!(
        compile(&schema, Dialect::ParametersJsonSchema),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
               "additionalProperties": false})
    );
}

#[test]
fn schema_and_annotations_are_dropped() {
    // Gemini: Unknown name "$schema" (openswarm#24).
    let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Args", "type": "object", "properties": {"a": {"type": "string", "default": "x"}}});
    for dialect in BOTH {
        assert_eq!(
            to_gemini_schema(&schema, dialect).unwrap().unwrap()["properties"],
            json!({"a": {"type": "string"}})
        );
    }
}

#[test]
fn one_of_is_any_of_and_one_schema_all_of_is_merged() {
    for dialect in BOTH {
        assert_eq!(
            property(
                json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
                dialect
            ),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
        );
        assert_eq!(
            property(
                json!({"description": "Size", "allOf": [{"type": "integer", "minimum": 1}]}),
                dialect
            ),
            json!({"type": "integer", "description": "Size", "minimum": 1})
        );
    }
}

#[test]
fn definitions_are_inlined_and_a_ref_keeps_no_siblings() {
    // Gemini: "$ref 'X' was set alongside unsupported fields. If a schema
    // node has $ref set, then only description and default can be set
    // alongside it" (opencode#12295).
    let schema = json!({
        "type": "object",
        "properties": {"size": {"description": "Shoe size", "$ref": "#/$defs/Size"}},
        "$defs": {"Size": {"type": "string", "enum": ["s", "m"], "description": "A size."}}
    });
    for dialect in BOTH {
        assert_eq!(
            compile(&schema, dialect)["properties"]["size"],
            json!({"type": "string", "description": "Shoe size. A size.", "enum": ["s", "m"]})
        );
    }
}

#[test]
fn recursion_through_an_optional_property_is_kept_as_a_ref() {
    // "Cyclic references are unrolled to a limited degree and, as such, may
    // only be used within non-required properties."
    let schema = json!({
        "type": "object",
        "properties": {"root": {"description": "The tree", "$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "next": {"$ref": "#/$defs/Node"}
        }, "required": ["name"]}}
    });
    let compiled = compile(&schema, Dialect::ParametersJsonSchema);
    assert_eq!(
        compiled["properties"]["root"],
        json!({"description": "The tree", "anyOf": [{"$ref": "#/$defs/Node"}]})
    );
    assert_eq!(
        compiled["$defs"]["Node"],
        json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "next": {"$ref": "#/$defs/Node"}
        }, "required": ["name"], "additionalProperties": false})
    );
}

// ---- refused at build time ----

#[test]
fn recursion_is_refused_for_parameters() {
    let schema = json!({
        "type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
    });
    refused(
        &schema,
        Dialect::OpenApiParameters,
        "#/$defs/Node",
        GeminiRule::Recursion,
        "`Node` refers back to itself; Gemini `parameters` has no `$ref`, so a recursive type \
         cannot be written out; use `parametersJsonSchema` (`Dialect::ParametersJsonSchema`) or give the \
         type a fixed depth",
    );
}

#[test]
fn recursion_through_required_properties_only_is_refused() {
    // "(Nullable properties are not sufficient.)"
    let schema = json!({
        "type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "parent": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
        }, "required": ["children", "parent"]}}
    });
    refused(
        &schema,
        Dialect::ParametersJsonSchema,
        "#/$defs/Node/properties/children/items/$ref",
        GeminiRule::Recursion,
        "`Node` refers back to itself through required properties only; Gemini unrolls a \
         recursive schema only through properties that are not required (a nullable required \
         property is not enough), so make a property on the way optional (`Option<...>`)",
    );
}

#[test]
fn property_names_outside_the_gemini_alphabet_are_refused() {
    // "Parameter names must start with a letter or an underscore and must
    // only contain chars a-z, A-Z, 0-9, or underscores with a maximum length
    // of 64."
    let message = |name: &str| {
        format!(
            "property name `{name}` is not one Gemini takes: \"Parameter names must start with \
             a letter or an underscore and must only contain chars a-z, A-Z, 0-9, or \
             underscores with a maximum length of 64\"; rename it (`#[tool(rename = \"...\")]`, \
             `#[serde(rename = \"...\")]`)"
        )
    };
    let long = "a".repeat(65);
    for name in ["order-ref", "1st", "naïve", "a.b", long.as_str()] {
        let schema = json!({"type": "object", "properties": {name: {"type": "string"}}});
        for dialect in BOTH {
            refused(
                &schema,
                dialect,
                &format!("#/properties/{name}"),
                GeminiRule::PropertyName,
                &message(name),
            );
        }
    }
    let longest = "a".repeat(64);
    for name in ["_private", "A9_z", longest.as_str()] {
        compile(
            &json!({"type": "object", "properties": {name: {"type": "string"}}}),
            Dialect::OpenApiParameters,
        );
    }
}

#[test]
fn a_schema_without_a_type_is_refused() {
    // Gemini: "...schema didnt specify the schema type field" (tidebreak#1537).
    for dialect in BOTH {
        refused(
            &with(json!({"description": "Anything"})),
            dialect,
            "#/properties/p",
            GeminiRule::Untyped,
            "a schema without a type accepts any JSON value; Gemini needs a type on every schema \
             (\"schema didnt specify the schema type field\"); give it a concrete type",
        );
    }
}

#[test]
fn an_array_without_items_is_refused() {
    // Gemini: "any_of[5].items: missing field" (mastra#13649).
    for dialect in BOTH {
        refused(
            &with(json!({"type": "array"})),
            dialect,
            "#/properties/p",
            GeminiRule::Untyped,
            "an array without `items` accepts items of any type (Gemini: \"items: missing \
             field\"); Gemini needs a type on every schema (\"schema didnt specify the schema \
             type field\"); give it a concrete type",
        );
    }
}

#[test]
fn a_required_name_without_a_property_is_refused() {
    // Gemini: "parameters.required[0]: property is not defined" (probe#569).
    for dialect in BOTH {
        refused(
            &json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
            dialect,
            "#/required/0",
            GeminiRule::Malformed,
            "`required` names \"b\", which is not a property (Gemini: \"required[0]: property is \
             not defined\")",
        );
    }
}

#[test]
fn a_nested_empty_object_is_refused_for_parameters() {
    // Gemini: "parameters.properties: should be non-empty for OBJECT type"
    // (pipecat-flows#110).
    refused(
        &with(json!({"type": "object", "properties": {}})),
        Dialect::OpenApiParameters,
        "#/properties/p",
        GeminiRule::EmptyObject,
        "an object without properties cannot be sent in Gemini `parameters` (\"properties: \
         should be non-empty for OBJECT type\"); remove the field or give the type a property",
    );
    assert_eq!(
        property(
            json!({"type": "object", "properties": {}}),
            Dialect::ParametersJsonSchema
        ),
        json!({"type": "object", "additionalProperties": false})
    );
}

#[test]
fn keywords_that_cannot_be_stated_are_refused() {
    // Gemini: Unknown name "propertyNames" (thClaws#172), "if" (goai#39).
    for (key, value) in [
        ("propertyNames", json!({"pattern": "^a"})),
        ("not", json!({"type": "string"})),
        ("if", json!({"type": "string"})),
    ] {
        let mut p = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        p[key] = value;
        for dialect in BOTH {
            refused(
                &with(p.clone()),
                dialect,
                &format!("#/properties/p/{key}"),
                GeminiRule::UnsupportedKeyword,
                &format!(
                    "Gemini does not take `{key}`, and it cannot be stated in the description; \
                     express the rule with types, enums or separate properties"
                ),
            );
        }
    }
}

#[test]
fn all_of_of_several_schemas_is_refused() {
    for dialect in BOTH {
        refused(
            &with(json!({"allOf": [{"type": "string"}, {"minLength": 1}]})),
            dialect,
            "#/properties/p/allOf",
            GeminiRule::AllOf,
            "Gemini has no `allOf`, and only an `allOf` of one schema is merged here; write the \
             combined type as one struct",
        );
    }
}

#[test]
fn maps_are_refused_for_parameters_and_kept_for_json_schema() {
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    refused(
        &with(map.clone()),
        Dialect::OpenApiParameters,
        "#/properties/p/additionalProperties",
        GeminiRule::OpenObject,
        "a map (`additionalProperties` with a schema) cannot be sent in Gemini `parameters` \
         (\"Unknown name \\\"additionalProperties\\\"\"), nor beside properties; take a list of \
         key-value objects",
    );
    assert_eq!(
        property(map, Dialect::ParametersJsonSchema),
        json!({"type": "object", "additionalProperties": {"type": "integer"}})
    );
}

#[test]
fn tuples_non_local_refs_and_non_object_roots_are_refused() {
    for dialect in BOTH {
        refused(
            &with(json!({"type": "array", "prefixItems": [{"type": "string"}]})),
            dialect,
            "#/properties/p",
            GeminiRule::Tuple,
            "a tuple (`prefixItems` or an array of `items`) cannot be sent to Gemini; use an \
             object with named properties",
        );
        refused(
            &with(json!({"$ref": "https://example.com/schema.json"})),
            dialect,
            "#/properties/p/$ref",
            GeminiRule::UnresolvedRef,
            "`https://example.com/schema.json` is not a definition of this schema \
             (`#/$defs/NAME` or `#/definitions/NAME`); Gemini resolves no other references",
        );
        refused(
            &json!({"type": ["object", "null"], "properties": {"a": {"type": "string"}}}),
            dialect,
            "#",
            GeminiRule::RootNotObject,
            "the root of a function's parameters must be a plain object schema (`\"type\": \
             \"object\"`, not nullable, not a union); wrap the value in a property",
        );
    }
}
