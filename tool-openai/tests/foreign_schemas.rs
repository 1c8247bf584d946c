//! The strict compiler against schemas it did not write: one test
//! per shape, with the exact output, or the exact path, rule and message;
//! and the checker catches every shape the compiler refuses.

mod common;

use serde_json::{Value, json};
use tool_openai::{StrictRule, check_strict_schema, to_strict_json_schema};

use common::{compile, refused};

/// An object schema whose one property `p` is `schema`, required.
fn with_property(schema: Value) -> Value {
    json!({"type": "object", "properties": {"p": schema}, "required": ["p"]})
}

/// A closed object whose one property `p` is `schema`: what a finished
/// strict schema looks like around it, for the checker.
fn finished(schema: Value) -> Value {
    json!({
        "type": "object",
        "properties": {"p": schema},
        "required": ["p"],
        "additionalProperties": false
    })
}

/// The checker's violations: (path, rule).
fn violations(schema: &Value) -> Vec<(String, StrictRule)> {
    check_strict_schema(schema)
        .expect_err("expected violations")
        .into_iter()
        .map(|v| (v.path().to_owned(), v.rule()))
        .collect()
}

fn at(path: &str, rule: StrictRule) -> Vec<(String, StrictRule)> {
    vec![(path.to_owned(), rule)]
}

// ---------------------------------------------------------------------------
// It emitted schemas OpenAI rejects, and its own checker let them through.
// ---------------------------------------------------------------------------

/// The decimal-string pattern pydantic users write (with a lookahead).
const DECIMAL: &str = r"^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$";

#[test]
fn lookaround_patterns_move_into_the_description() {
    let input =
        with_property(json!({"type": "string", "pattern": DECIMAL, "description": "Amount"}));
    assert_eq!(
        compile(&input)["properties"]["p"],
        json!({
            "type": "string",
            "description": format!("Amount. Matches the regular expression `{DECIMAL}`.")
        })
    );
    for pattern in [
        "(?<=a)b",
        "(?<!a)b",
        "a(?=b)",
        r"(a)\1",
        r"(?<n>a)\k<n>",
        "(?>a)",
    ] {
        let compiled = compile(&with_property(
            json!({"type": "string", "pattern": pattern}),
        ));
        assert_eq!(
            compiled["properties"]["p"],
            json!({
                "description": format!("Matches the regular expression `{pattern}`."),
                "type": "string"
            }),
            "{pattern}"
        );
    }
    // Escaped parentheses and character classes are not lookaround.
    for pattern in [r"^\(?=x\)$", "^[(?=]+$", r"^[\](?!]+$"] {
        let compiled = compile(&with_property(
            json!({"type": "string", "pattern": pattern}),
        ));
        assert_eq!(
            compiled["properties"]["p"],
            json!({"type": "string", "pattern": pattern})
        );
    }
    // Beside a `$ref`, the pattern was already a sentence; now it is checked.
    refused(
        &json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/S", "pattern": "(?=a"}},
            "required": ["p"],
            "$defs": {"S": {"type": "string"}}
        }),
        "#/properties/p/pattern",
        StrictRule::InvalidPattern,
        "`pattern` is not a valid regular expression (unclosed group); fix the expression, \
         escaping `\\`, `(`, `[` and other special characters meant literally",
    );
}

#[test]
fn the_checker_reports_lookaround_patterns() {
    assert_eq!(
        violations(&finished(json!({"type": "string", "pattern": DECIMAL}))),
        at("#/properties/p/pattern", StrictRule::UnsupportedPattern)
    );
    let error = check_strict_schema(&finished(json!({"type": "string", "pattern": "(?<=a)b"})))
        .unwrap_err()
        .remove(0);
    assert_eq!(
        error.message(),
        "OpenAI's regex engine does not support lookbehind; state the rule in `description` and \
         check it in the tool"
    );
}

#[test]
fn invalid_patterns_are_refused() {
    refused(
        &with_property(json!({"type": "string", "pattern": "("})),
        "#/properties/p/pattern",
        StrictRule::InvalidPattern,
        "`pattern` is not a valid regular expression (unclosed group); fix the expression, \
         escaping `\\`, `(`, `[` and other special characters meant literally",
    );
    refused(
        &with_property(json!({"type": "string", "pattern": "[a-"})),
        "#/properties/p/pattern",
        StrictRule::InvalidPattern,
        "`pattern` is not a valid regular expression (unclosed character class); fix the \
         expression, escaping `\\`, `(`, `[` and other special characters meant literally",
    );
    assert_eq!(
        violations(&finished(json!({"type": "string", "pattern": "("}))),
        at("#/properties/p/pattern", StrictRule::InvalidPattern)
    );
}

#[test]
fn a_multiple_of_zero_or_below_is_refused() {
    for step in [json!(0), json!(-2), json!(-0.5)] {
        refused(
            &with_property(json!({"type": "number", "multipleOf": step})),
            "#/properties/p/multipleOf",
            StrictRule::Malformed,
            &format!(
                "`multipleOf` must be greater than 0, got {step}; write a positive step such as 1 \
                 or 0.01, or remove it"
            ),
        );
        assert_eq!(
            violations(&finished(json!({"type": "number", "multipleOf": step}))),
            at("#/properties/p/multipleOf", StrictRule::Malformed)
        );
    }
}

#[test]
fn bounds_no_value_meets_are_refused() {
    refused(
        &with_property(json!({"type": "integer", "minimum": 5, "maximum": 1})),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        "`minimum` 5 and `maximum` 1 leave no number between them, so no value is accepted; swap \
         the bounds or correct one of them",
    );
    refused(
        &with_property(json!({"type": "number", "exclusiveMinimum": 1, "maximum": 1})),
        "#/properties/p/exclusiveMinimum",
        StrictRule::Unsatisfiable,
        "`exclusiveMinimum` 1 and `maximum` 1 leave no number between them, so no value is \
         accepted; swap the bounds or correct one of them",
    );
    refused(
        &with_property(
            json!({"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 1}),
        ),
        "#/properties/p/minItems",
        StrictRule::Unsatisfiable,
        "`minItems` 3 is greater than `maxItems` 1, so no array is accepted; swap them or correct \
         one of them",
    );
    refused(
        &with_property(json!({"type": "string", "minLength": 9, "maxLength": 2})),
        "#/properties/p/minLength",
        StrictRule::Unsatisfiable,
        "`minLength` 9 is greater than `maxLength` 2, so no string is accepted; swap them or \
         correct one of them",
    );
    // Beside a `$ref` too, where the bounds would only be words.
    refused(
        &json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/N", "minimum": 3, "maximum": 2}},
            "required": ["p"],
            "$defs": {"N": {"type": "integer"}}
        }),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        "`minimum` 3 and `maximum` 2 leave no number between them, so no value is accepted; swap \
         the bounds or correct one of them",
    );
    assert_eq!(
        violations(&finished(
            json!({"type": "integer", "minimum": 5, "maximum": 1})
        )),
        at("#/properties/p/minimum", StrictRule::Unsatisfiable)
    );
    assert_eq!(
        violations(&finished(
            json!({"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 1})
        )),
        at("#/properties/p/minItems", StrictRule::Unsatisfiable)
    );
    // Equal inclusive bounds leave one value.
    compile(&with_property(
        json!({"type": "integer", "minimum": 2, "maximum": 2}),
    ));
}

#[test]
fn format_or_pattern_on_an_integer_is_refused() {
    refused(
        &with_property(json!({"type": "integer", "format": "date"})),
        "#/properties/p/format",
        StrictRule::WrongType,
        "`format` \"date\" applies to strings, and this schema's type is \"integer\"; remove \
         `format` or make the type `\"string\"`",
    );
    refused(
        &with_property(json!({"type": "integer", "pattern": "^[0-9]+$"})),
        "#/properties/p/pattern",
        StrictRule::WrongType,
        "`pattern` applies to strings, and this schema's type is \"integer\"; remove `pattern` or \
         make the type `\"string\"`",
    );
    assert_eq!(
        violations(&finished(json!({"type": "integer", "format": "uuid"}))),
        at("#/properties/p/format", StrictRule::WrongType)
    );
    assert_eq!(
        violations(&finished(json!({"type": "integer", "pattern": "^1$"}))),
        at("#/properties/p/pattern", StrictRule::WrongType)
    );
    // schemars' integer formats still become a sentence.
    assert_eq!(
        compile(&with_property(
            json!({"type": "integer", "format": "int32"})
        ))["properties"]["p"],
        json!({
            "description": "A whole number from -2147483648 to 2147483647.",
            "type": "integer"
        })
    );
}

#[test]
fn enum_and_const_values_of_another_type_are_refused() {
    refused(
        &with_property(json!({"type": "string", "enum": [1, 2]})),
        "#/properties/p/enum/0",
        StrictRule::WrongType,
        "1 does not fit `\"type\": \"string\"`, so this value can never be sent; change the \
         value or the `type`",
    );
    // Optional: before, it became `{"type": ["string", "null"], "enum": [1, 2, null]}`.
    refused(
        &json!({"type": "object", "properties": {"p": {"type": "string", "enum": ["a", 2]}}}),
        "#/properties/p/enum/1",
        StrictRule::WrongType,
        "2 does not fit `\"type\": \"string\"`, so this value can never be sent; change the \
         value or the `type`",
    );
    refused(
        &with_property(json!({"type": "integer", "const": "7"})),
        "#/properties/p/const",
        StrictRule::WrongType,
        "\"7\" does not fit `\"type\": \"integer\"`, so this value can never be sent; change the \
         value or the `type`",
    );
    // An integer is a number, and 2.0 is an integer.
    compile(&with_property(json!({"type": "number", "enum": [1, 2.5]})));
    compile(&with_property(json!({"type": "integer", "enum": [2.0]})));
    assert_eq!(
        violations(&finished(json!({"type": "string", "enum": [1, 2]}))),
        vec![("#/properties/p/enum/0".to_owned(), StrictRule::WrongType),]
    );
}

#[test]
fn enum_and_const_of_objects_or_arrays_are_refused_typed_or_not() {
    let message = "an `enum` or `const` of objects or arrays cannot be expressed in strict mode; \
                   use string or number values";
    for (schema, path) in [
        (
            json!({"type": "object", "properties": {}, "enum": [{}]}),
            "#/properties/p/enum/0",
        ),
        (json!({"enum": [{"a": 1}]}), "#/properties/p/enum/0"),
        (
            json!({"type": "array", "items": {"type": "integer"}, "const": [1]}),
            "#/properties/p/const",
        ),
        (json!({"const": [1]}), "#/properties/p/const"),
        (
            json!({"type": "string", "enum": ["a", ["b"]]}),
            "#/properties/p/enum/1",
        ),
    ] {
        refused(
            &with_property(schema),
            path,
            StrictRule::UnsupportedKeyword,
            message,
        );
    }
    assert_eq!(
        violations(&finished(
            json!({"type": "array", "items": {"type": "integer"}, "const": [1]})
        )),
        at("#/properties/p/const", StrictRule::UnsupportedKeyword)
    );
}

// ---------------------------------------------------------------------------
// It refused schemas it could compile exactly.
// ---------------------------------------------------------------------------

#[test]
fn all_of_compatible_objects_are_merged() {
    // OpenAPI inheritance: a `$ref` to the base and the subtype's own part.
    let input = json!({
        "type": "object",
        "properties": {
            "dog": {
                "description": "The dog.",
                "allOf": [
                    {"$ref": "#/components/schemas/Pet"},
                    {
                        "type": "object",
                        "properties": {"breed": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
                        "required": ["breed"]
                    }
                ]
            }
        },
        "required": ["dog"],
        "components": {
            "schemas": {
                "Pet": {
                    "description": "A pet.",
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
                    "required": ["name"]
                }
            }
        }
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {
                "dog": {
                    "description": "The dog.",
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "age": {"type": ["integer", "null"], "minimum": 0},
                        "breed": {"type": "string"}
                    },
                    "required": ["name", "age", "breed"],
                    "additionalProperties": false
                }
            },
            "required": ["dog"],
            "additionalProperties": false,
            "$defs": {
                "Pet": {
                    "description": "A pet.",
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "age": {"type": ["integer", "null"], "minimum": 0}
                    },
                    "required": ["name", "age"],
                    "additionalProperties": false
                }
            }
        })
    );
}

#[test]
fn all_of_that_conflicts_is_refused_at_the_conflict() {
    refused(
        &with_property(json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"a": {"type": "integer"}}}
        ]})),
        "#/properties/p/allOf/1/properties/a",
        StrictRule::AllOf,
        "property `a` has a different schema here than in another `allOf` schema; give it one \
         schema",
    );
    refused(
        &with_property(json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
            {"type": "object", "properties": {"b": {"type": "string"}}}
        ]})),
        "#/properties/p/allOf/1/additionalProperties",
        StrictRule::AllOf,
        "an `allOf` schema closed with `additionalProperties: false` does not list property `b` \
         of another, so `b` could never be sent; remove `additionalProperties` from the parts and \
         close the whole",
    );
    refused(
        &with_property(json!({"allOf": [{"type": "string"}, {"type": "integer"}]})),
        "#/properties/p/allOf/1/type",
        StrictRule::AllOf,
        "`type` here differs from the `type` of another `allOf` schema; write one schema",
    );
}

#[test]
fn all_of_with_refs_and_bounds_takes_the_tighter_bound() {
    let input = json!({
        "type": "object",
        "properties": {"n": {"allOf": [{"$ref": "#/$defs/Small"}, {"type": "integer", "minimum": 2}]}},
        "required": ["n"],
        "$defs": {"Small": {"type": "number", "minimum": 0, "maximum": 10}}
    });
    assert_eq!(
        compile(&input)["properties"]["n"],
        json!({"type": "integer", "minimum": 2, "maximum": 10})
    );
}

#[test]
fn redundant_keywords_beside_any_of_are_dropped() {
    let input = with_property(json!({
        "type": "object",
        "properties": {},
        "required": [],
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"$ref": "#"}
        ]
    }));
    assert_eq!(
        compile(&input)["properties"]["p"],
        json!({
            "anyOf": [
                {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "required": ["a"],
                    "additionalProperties": false
                },
                {"$ref": "#"}
            ]
        })
    );
    // `number` covers integers.
    assert_eq!(
        compile(&with_property(
            json!({"type": ["number", "string"], "anyOf": [{"type": "integer"}, {"type": "string"}]})
        ))["properties"]["p"],
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}]})
    );
    // A type a branch does not satisfy still says something: refused.
    refused(
        &with_property(json!({"type": "string", "anyOf": [{"type": "string"}, {"type": "null"}]})),
        "#/properties/p/type",
        StrictRule::UnionSiblings,
        "`type` beside `anyOf` cannot be expressed in strict mode; move it into each branch of \
         the union",
    );
}

#[test]
fn false_union_branches_are_dropped() {
    assert_eq!(
        compile(&with_property(
            json!({"anyOf": [false, {"type": "string"}, false, {"type": "integer"}]})
        ))["properties"]["p"],
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
    );
    refused(
        &with_property(json!({"oneOf": [false, false]})),
        "#/properties/p/oneOf",
        StrictRule::Malformed,
        "every branch of `oneOf` is `false`, so no value is accepted; remove the property or give \
         a branch a schema",
    );
}

#[test]
fn single_branch_unions_are_unwrapped() {
    assert_eq!(
        compile(
            &json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}]})
        ),
        json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": false
        })
    );
    // `false` branches aside, at the root too.
    assert_eq!(
        compile(
            &json!({"description": "Args.", "oneOf": [false, {"type": "object", "properties": {}}]})
        ),
        json!({
            "description": "Args.",
            "type": "object",
            "properties": {},
            "required": [],
            "additionalProperties": false
        })
    );
    assert_eq!(
        compile(&with_property(
            json!({"description": "A name.", "anyOf": [{"type": "string", "description": "Text."}]})
        ))["properties"]["p"],
        json!({"type": "string", "description": "A name."})
    );
    // A described `$ref` keeps its wrapper (strict mode has no `$ref` siblings).
    let described_ref = json!({
        "type": "object",
        "properties": {"p": {"description": "The S.", "anyOf": [{"$ref": "#/$defs/S"}]}},
        "required": ["p"],
        "$defs": {"S": {"type": "string"}}
    });
    assert_eq!(
        compile(&described_ref)["properties"]["p"],
        json!({"description": "The S.", "anyOf": [{"$ref": "#/$defs/S"}]})
    );
}

#[test]
fn refs_to_any_pointer_in_the_document_resolve() {
    let input = json!({
        "type": "object",
        "properties": {
            "pet": {"$ref": "#/components/schemas/Pet"},
            "copy": {"$ref": "#/properties/a"},
            "a": {"type": "string", "enum": ["x", "y"]},
            "branch": {"$ref": "#/$defs/U/oneOf/1"},
            "part": {"$ref": "#/$defs/M/allOf/0"},
            "spaced": {"$ref": "#/$defs/a%20b"},
            "escaped": {"$ref": "#/$defs/c~1d~0e"}
        },
        "required": ["pet", "copy", "a", "branch", "part", "spaced", "escaped"],
        "components": {"schemas": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
        "$defs": {
            "U": {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]},
            "M": {"allOf": [{"type": "boolean"}]},
            "a b": {"type": "string"},
            "c/d~e": {"type": "number"}
        }
    });
    let compiled = compile(&input);
    assert_eq!(
        compiled["properties"],
        json!({
            "pet": {"$ref": "#/$defs/Pet"},
            "copy": {"$ref": "#/$defs/a"},
            "a": {"type": "string", "enum": ["x", "y"]},
            "branch": {"$ref": "#/$defs/U_2"},
            "part": {"$ref": "#/$defs/M_2"},
            "spaced": {"$ref": "#/$defs/a%20b"},
            "escaped": {"$ref": "#/$defs/c~1d~0e"}
        })
    );
    assert_eq!(
        compiled["$defs"],
        json!({
            "U": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1}]},
            "M": {"type": "boolean"},
            "a b": {"type": "string"},
            "c/d~e": {"type": "number"},
            "Pet": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": false
            },
            "a": {"type": "string", "enum": ["x", "y"]},
            "U_2": {"type": "integer", "minimum": 1},
            "M_2": {"type": "boolean"}
        })
    );
    assert!(compiled.get("components").is_none());
    // An unknown root keyword that holds no target is still refused.
    refused(
        &json!({"type": "object", "properties": {}, "components": {}}),
        "#/components",
        StrictRule::UnsupportedKeyword,
        "unknown keyword `components`, which strict mode rejects; remove it, or say what it means \
         in `description`",
    );
    refused(
        &with_property(json!({"$ref": "#/$defs/a%2"})),
        "#/properties/p/$ref",
        StrictRule::UnresolvedRef,
        "`$ref` \"#/$defs/a%2\" is not a valid JSON pointer (bad percent-encoding); write `#/` \
         followed by keys separated by `/`, with `~0` for `~` and `~1` for `/`",
    );
}

#[test]
fn definitions_beside_defs_are_both_kept() {
    let input = json!({
        "type": "object",
        "properties": {
            "new": {"$ref": "#/$defs/A"},
            "old": {"$ref": "#/definitions/A"},
            "other": {"$ref": "#/definitions/B"}
        },
        "required": ["new", "old", "other"],
        "$defs": {"A": {"type": "string"}},
        "definitions": {"A": {"type": "integer"}, "B": {"type": "boolean"}}
    });
    let compiled = compile(&input);
    assert_eq!(
        compiled["properties"],
        json!({
            "new": {"$ref": "#/$defs/A"},
            "old": {"$ref": "#/$defs/A_2"},
            "other": {"$ref": "#/$defs/B"}
        })
    );
    assert_eq!(
        compiled["$defs"],
        json!({"A": {"type": "string"}, "A_2": {"type": "integer"}, "B": {"type": "boolean"}})
    );
}

#[test]
fn a_root_written_as_a_one_type_array_is_an_object() {
    assert_eq!(
        compile(&json!({"type": ["object"], "properties": {"a": {"type": "string"}}})),
        json!({
            "type": "object",
            "properties": {"a": {"type": ["string", "null"]}},
            "required": ["a"],
            "additionalProperties": false
        })
    );
}

#[test]
fn alias_chains_keep_the_description_of_a_middle_alias() {
    let input = json!({
        "$ref": "#/$defs/Outer",
        "$defs": {
            "Outer": {"$ref": "#/$defs/Middle"},
            "Middle": {"$ref": "#/$defs/Inner", "description": "The arguments."},
            "Inner": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
        }
    });
    let compiled = compile(&input);
    assert_eq!(compiled["description"], json!("The arguments."));
    assert_eq!(compiled["properties"], json!({"a": {"type": "integer"}}));
    assert_eq!(
        compiled["$defs"]["Middle"],
        json!({"description": "The arguments.", "anyOf": [{"$ref": "#/$defs/Inner"}]})
    );
    // Below the root, the alias keeps its description too.
    let nested = json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/Outer"}},
        "required": ["p"],
        "$defs": input["$defs"].clone()
    });
    assert_eq!(
        compile(&nested)["properties"]["p"],
        json!({"$ref": "#/$defs/Middle"})
    );
}

#[test]
fn a_tool_without_arguments_is_a_closed_empty_object() {
    let closed = json!({
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": false
    });
    assert_eq!(compile(&json!({})), closed);
    assert_eq!(compile(&json!({"type": "object"})), closed);
    assert_eq!(
        compile(
            &json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Ping"})
        ),
        closed
    );
    // Below the root, `{}` is still any value, and an object without
    // properties a map.
    refused(
        &with_property(json!({})),
        "#/properties/p",
        StrictRule::AnyValue,
        "this schema has no type and accepts any JSON value (`{}`, `true`, or \
         `serde_json::Value`), which strict mode cannot express; give it a type, or take the \
         value as a string that holds JSON",
    );
}

// ---------------------------------------------------------------------------
// Its cost was not linear, and deep inputs crashed.
// ---------------------------------------------------------------------------

/// Definitions that fan out: `D_i = anyOf[$ref D_{i+1}, {$ref D_{i+1}, description}]`.
pub fn fan_out(depth: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..depth {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"anyOf": [{"$ref": next}, {"$ref": next, "description": "again"}]}),
        );
    }
    defs.insert(format!("D{depth}"), json!({"type": "string"}));
    json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/D0"}}, "$defs": defs})
}

#[test]
fn fanned_out_references_are_analysed_once() {
    // Before: 15 s at depth 24, doubling per level, so depth 60 would not
    // finish. No timing is asserted; benches/schema.rs measures.
    let compiled = compile(&fan_out(60));
    assert_eq!(
        compiled["properties"]["p"],
        json!({"anyOf": [{"$ref": "#/$defs/D0"}, {"type": "null"}]})
    );
    assert_eq!(
        compiled["$defs"]["D0"],
        json!({"anyOf": [{"$ref": "#/$defs/D1"}, {"description": "again", "anyOf": [{"$ref": "#/$defs/D1"}]}]})
    );
}

/// The shapes that took minutes. No timing is asserted (see benches/README.md
/// for the time per input byte).
#[test]
fn wide_unions_and_many_definitions_take_linear_time() {
    // Before: 10,000 branches took 5 s, 40,000 80 s.
    let branches: Vec<Value> = (0..40_000)
        .map(|i| json!({"type": "string", "description": format!("b{i}")}))
        .collect();
    let compiled = compile(&with_property(json!({"anyOf": branches})));
    assert_eq!(
        compiled["properties"]["p"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        40_000
    );
    // Repeated branches are dropped by hash.
    let repeated: Vec<Value> = (0..40_000)
        .map(|i| json!({"type": "integer", "minimum": i % 3}))
        .collect();
    let compiled = compile(&with_property(json!({"anyOf": repeated})));
    assert_eq!(
        compiled["properties"]["p"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // Before: 40,000 definitions with 40,000 `$ref`s took 109 s.
    let mut defs = serde_json::Map::new();
    let mut properties = serde_json::Map::new();
    for i in 0..40_000 {
        defs.insert(format!("D{i}"), json!({"type": "integer"}));
        properties.insert(format!("p{i}"), json!({"$ref": format!("#/$defs/D{i}")}));
    }
    let error =
        to_strict_json_schema(&json!({"type": "object", "properties": properties, "$defs": defs}))
            .unwrap_err();
    assert_eq!(
        (error.path(), error.rule()),
        ("#", StrictRule::TooManyProperties)
    );
}

/// `levels` nested arrays around `inner`, built and later dropped without
/// recursion.
fn nested_arrays(levels: usize, inner: Value) -> Value {
    let mut value = inner;
    for _ in 0..levels {
        value = Value::Array(vec![value]);
    }
    value
}

/// Drops a deep value without recursion (serde_json's `Drop` recurses):
/// every container is emptied before it is dropped.
fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[test]
fn values_100000_deep_inside_keywords_are_refused_without_overflow() {
    for keyword in ["default", "examples", "const", "enum", "title", "x-extra"] {
        let mut input = with_property(json!({"type": "string"}));
        input["properties"]["p"][keyword] = nested_arrays(100_000, json!(1));
        let error = to_strict_json_schema(&input).unwrap_err();
        assert_eq!(error.rule(), StrictRule::TooDeep, "{keyword}");
        // The root, `properties` and `p` are three levels; `keyword` the fourth.
        let expected_path = format!("#/properties/p/{keyword}{}", "/0".repeat(256 - 3));
        assert_eq!(error.path(), expected_path, "{keyword}");
        assert_eq!(
            error.message(),
            "this value is nested more than 256 levels deep (objects and arrays); strict mode \
             allows 10 levels of schemas, so flatten the structure"
        );
        let checked = check_strict_schema(&input).unwrap_err();
        assert_eq!(checked.len(), 1);
        assert_eq!(checked[0].path(), expected_path);
        drop_deep(input["properties"]["p"][keyword].take());
    }
}

/// An object of the given members, without `json!` (which copies an
/// interpolated value by serializing it, recursively).
fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

#[test]
fn a_schema_2000_deep_is_refused_without_overflow() {
    let mut schema = json!({"type": "string"});
    for _ in 0..2_000 {
        schema = object(vec![
            ("type", json!("object")),
            ("properties", object(vec![("a", schema)])),
        ]);
    }
    let error = to_strict_json_schema(&schema).unwrap_err();
    assert_eq!(error.rule(), StrictRule::TooDeep);
    assert_eq!(error.path(), format!("#{}", "/properties/a".repeat(128)));
    assert_eq!(check_strict_schema(&schema).unwrap_err().len(), 1);
    let mut unions = json!({"type": "string"});
    for _ in 0..2_000 {
        unions = object(vec![(
            "anyOf",
            Value::Array(vec![unions, json!({"type": "null"})]),
        )]);
    }
    let unions = object(vec![
        ("type", json!("object")),
        ("properties", object(vec![("p", unions)])),
    ]);
    let error = to_strict_json_schema(&unions).unwrap_err();
    assert_eq!(error.rule(), StrictRule::TooDeep);
    assert_eq!(
        error.path(),
        format!("#/properties/p{}", "/anyOf/0".repeat(127))
    );
    drop_deep(schema);
    drop_deep(unions);
}

#[test]
fn percent_encoded_output_refs_resolve_in_a_standard_validator() {
    let input = json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/a b"}, "q": {"$ref": "#/$defs/100%"}},
        "required": ["p", "q"],
        "$defs": {"a b": {"type": "string"}, "100%": {"type": "integer"}}
    });
    let compiled = compile(&input);
    assert_eq!(
        compiled["properties"],
        json!({"p": {"$ref": "#/$defs/a%20b"}, "q": {"$ref": "#/$defs/100%25"}})
    );
    let validator = jsonschema::draft202012::new(&compiled).expect("a valid schema");
    assert!(validator.is_valid(&json!({"p": "x", "q": 1})));
    assert!(!validator.is_valid(&json!({"p": 1, "q": 1})));
    assert!(!validator.is_valid(&json!({"p": "x", "q": "1"})));
}

#[test]
fn all_of_through_refs_is_merged_once_per_definition_and_cycles_are_refused() {
    // `D_i = allOf[$ref D_{i+1}, $ref D_{i+1}, $ref D_{i+1}]`: merging
    // each inclusion again would take 3^20 steps.
    let mut defs = serde_json::Map::new();
    for i in 0..20 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"allOf": [{"$ref": next}, {"$ref": next}, {"$ref": next}]}),
        );
    }
    defs.insert(
        "D20".to_owned(),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
    );
    let input = json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/D0"}},
        "required": ["p"],
        "$defs": defs
    });
    let compiled = compile(&input);
    assert_eq!(compiled["$defs"]["D0"], compiled["$defs"]["D20"]);
    refused(
        &json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/A"}},
            "required": ["p"],
            "$defs": {
                "A": {"allOf": [{"$ref": "#/$defs/B"}, {"type": "object"}]},
                "B": {"allOf": [{"$ref": "#/$defs/A"}, {"type": "object"}]}
            }
        }),
        "#/$defs/A/allOf/0/$ref",
        StrictRule::AllOf,
        "this `$ref` leads back into the `allOf` that includes it, so the schema would contain \
         itself; combine the schemas by hand",
    );
}

#[test]
fn all_of_of_a_ref_and_annotations_stays_a_described_ref() {
    let input = json!({
        "type": "object",
        "properties": {"p": {"allOf": [{"$ref": "#/$defs/S"}, {"description": "The S.", "title": "S"}]}},
        "required": ["p"],
        "$defs": {"S": {"type": "string"}}
    });
    assert_eq!(
        compile(&input)["properties"]["p"],
        json!({"anyOf": [{"$ref": "#/$defs/S"}], "description": "The S."})
    );
}

#[test]
fn all_of_copies_that_multiply_are_refused_within_a_linear_budget() {
    // Each level's two properties copy the next level by `allOf`: the
    // merged schema would double per level (2^30 schemas).
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        let next = format!("#/$defs/D{}", i + 1);
        let copy = json!({"allOf": [{"$ref": next}, {"type": "object"}]});
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"a": copy, "b": copy}, "required": ["a", "b"]}),
        );
    }
    defs.insert(
        "D30".to_owned(),
        json!({"type": "object", "properties": {}}),
    );
    let error = to_strict_json_schema(&json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/D0"}},
        "required": ["p"],
        "$defs": defs
    }))
    .unwrap_err();
    assert_eq!(error.rule(), StrictRule::AllOf);
    assert_eq!(
        error.message(),
        "`allOf`s that copy definitions into one another expand this schema to more than 8 \
         schemas or values per input value; refer to shared parts with `$ref` properties instead \
         of merging them with `allOf`"
    );
}

#[test]
fn all_of_copies_of_a_large_enum_are_refused_within_a_linear_budget() {
    // One small schema per copy, but each copy clones a 5,000-value enum.
    let values: Vec<Value> = (0..5_000).map(|i| json!(format!("v{i}"))).collect();
    let copy =
        json!({"allOf": [{"$ref": "#/$defs/Big"}, {"description": "A copy."}, {"type": "string"}]});
    let properties: serde_json::Map<String, Value> =
        (0..200).map(|i| (format!("p{i}"), copy.clone())).collect();
    let error = to_strict_json_schema(&json!({
        "type": "object",
        "properties": properties,
        "$defs": {"Big": {"type": "string", "enum": values}}
    }))
    .unwrap_err();
    assert_eq!(error.rule(), StrictRule::AllOf);
    assert!(error.path().ends_with("/allOf/0/$ref"), "{}", error.path());
}
