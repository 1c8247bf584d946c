//! Attacks on the strict compiler's promises: each test
//! is an input that once left the compiler unsatisfiable, not a fixed
//! point, or with its meaning changed, and now gets the exact output or
//! the exact refusal.

mod common;

use serde_json::{Value, json};
use tool_openai::{StrictRule, check_strict_schema};

use common::{compile, refused};

/// An object schema whose one property `p` is `schema`, required.
fn with_property(schema: Value) -> Value {
    json!({"type": "object", "properties": {"p": schema}, "required": ["p"]})
}

/// The (path, rule) of each violation the checker reports.
fn violations(schema: &Value) -> Vec<(String, StrictRule)> {
    match check_strict_schema(schema) {
        Ok(()) => Vec::new(),
        Err(found) => found
            .iter()
            .map(|v| (v.path().to_owned(), v.rule()))
            .collect(),
    }
}

const NO_SCHEMA: &str = "definition `A` only refers to itself through `$ref`s and `anyOf`s and \
                         never reaches a schema, so no value matches it; give one of these \
                         definitions a type";

/// `A: {"anyOf": [{"$ref": A}]}` unwrapped to `A: {"$ref": A}` left the
/// compiler (not a fixed point: compiling it again was refused), and an
/// alias loop with a description in the middle left it as
/// `A: {"description", "anyOf": [{"$ref": A}]}`; neither matches any value.
#[test]
fn definitions_that_only_reach_themselves_are_refused() {
    let property = json!({"$ref": "#/$defs/A"});
    let mut single = with_property(property.clone());
    single["$defs"] = json!({"A": {"anyOf": [{"$ref": "#/$defs/A"}]}});
    refused(
        &single,
        "#/properties/p/$ref",
        StrictRule::UnresolvedRef,
        "`$ref` \"#/$defs/A\" only leads to itself (A -> A); give one of these definitions a \
         schema",
    );

    let mut described = with_property(property.clone());
    described["$defs"] = json!({
        "A": {"$ref": "#/$defs/B", "description": "An A."},
        "B": {"$ref": "#/$defs/A"}
    });
    refused(
        &described,
        "#/$defs/A",
        StrictRule::Unsatisfiable,
        NO_SCHEMA,
    );

    let mut through_union = with_property(property.clone());
    through_union["$defs"] = json!({
        "A": {"anyOf": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/A"}]},
        "B": {"anyOf": [{"$ref": "#/$defs/A"}, false]}
    });
    refused(
        &through_union,
        "#/$defs/A",
        StrictRule::Unsatisfiable,
        NO_SCHEMA,
    );

    // A branch with a schema of its own grounds the recursion.
    let mut grounded = with_property(property);
    grounded["$defs"] = json!({
        "A": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "string"}]},
        "B": {"anyOf": [{"$ref": "#/$defs/A"}]}
    });
    assert_eq!(
        compile(&grounded)["$defs"],
        json!({
            "A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]},
            "B": {"$ref": "#/$defs/A"}
        })
    );
    // A union of one `$ref` is an alias like a bare `$ref`: references to
    // it collapse, so compiling the output again gives it back.
    let mut alias = with_property(json!({"$ref": "#/$defs/B"}));
    alias["$defs"] = json!({
        "A": {"type": "string"},
        "B": {"oneOf": [{"$ref": "#/$defs/A"}, false, {"$ref": "#/$defs/A"}]}
    });
    assert_eq!(
        compile(&alias),
        json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/A"}},
            "required": ["p"],
            "additionalProperties": false,
            "$defs": {"A": {"type": "string"}, "B": {"$ref": "#/$defs/A"}}
        })
    );

    // The checker catches the loops too.
    let checked = json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/A"}},
        "required": ["p"],
        "additionalProperties": false,
        "$defs": {
            "A": {"$ref": "#/$defs/A"},
            "B": {"description": "x", "anyOf": [{"$ref": "#/$defs/C"}]},
            "C": {"$ref": "#/$defs/B"},
            "D": {"anyOf": [{"$ref": "#/$defs/D"}, {"$ref": "#"}]}
        }
    });
    assert_eq!(
        violations(&checked),
        [
            ("#/$defs/A".to_owned(), StrictRule::Unsatisfiable),
            ("#/$defs/B".to_owned(), StrictRule::Unsatisfiable),
            ("#/$defs/C".to_owned(), StrictRule::Unsatisfiable),
        ]
    );
}

/// `"type": "integer"` with bounds that hold no integer, or a number with
/// an integer `multipleOf` and no multiple between its bounds, passed
/// through: the model could send nothing.
#[test]
fn number_bounds_without_an_admitted_value_are_refused() {
    let no_integer = "the bounds of this schema leave no integer between them, so no value is \
                      accepted; widen the bounds or change `type` or `multipleOf`";
    refused(
        &with_property(json!({"type": "integer", "minimum": 1.2, "maximum": 1.8})),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        no_integer,
    );
    refused(
        &with_property(json!({"type": "integer", "exclusiveMinimum": 1, "exclusiveMaximum": 2})),
        "#/properties/p/exclusiveMinimum",
        StrictRule::Unsatisfiable,
        no_integer,
    );
    refused(
        &with_property(
            json!({"type": "integer", "minimum": 0.1, "maximum": 0.2, "multipleOf": 0.3}),
        ),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        no_integer,
    );
    refused(
        &with_property(json!({"type": "number", "multipleOf": 10, "minimum": 1, "maximum": 9})),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        "the bounds of this schema leave no multiple of 10 between them, so no value is \
         accepted; widen the bounds or change `type` or `multipleOf`",
    );
    // Through `allOf` merging too.
    refused(
        &with_property(json!({"allOf": [{"type": "integer", "minimum": 1.5}, {"maximum": 1.9}]})),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        no_integer,
    );
    // Satisfiable neighbours compile unchanged.
    for schema in [
        json!({"type": "integer", "minimum": 1.2, "maximum": 2}),
        json!({"type": "integer", "exclusiveMinimum": 1, "exclusiveMaximum": 3}),
        json!({"type": "number", "minimum": 1.2, "maximum": 1.8}),
        json!({"type": ["integer", "null"], "minimum": 1.2, "maximum": 1.8}),
        json!({"type": "number", "multipleOf": 10, "minimum": 1, "maximum": 10}),
        json!({"type": "integer", "multipleOf": 0.5, "minimum": -0.5, "maximum": 0.5}),
    ] {
        assert_eq!(
            compile(&with_property(schema.clone()))["properties"]["p"],
            schema
        );
    }
    // And the checker.
    let finished = json!({
        "type": "object",
        "properties": {"p": {"type": "integer", "minimum": 1.2, "maximum": 1.8}},
        "required": ["p"],
        "additionalProperties": false
    });
    assert_eq!(
        violations(&finished),
        [(
            "#/properties/p/minimum".to_owned(),
            StrictRule::Unsatisfiable
        )]
    );
}

/// An `enum`/`const` value outside the bounds beside it could never be
/// sent (and a string bound moved into the description let the model send
/// a value the parser then refuses).
#[test]
fn enum_values_outside_their_bounds_are_refused() {
    refused(
        &with_property(json!({"type": "integer", "enum": [5], "maximum": 3})),
        "#/properties/p/enum/0",
        StrictRule::Unsatisfiable,
        "5 is outside the `maximum` beside it, so this value can never be sent; change the value \
         or `maximum`",
    );
    refused(
        &with_property(json!({"enum": ["abc"], "maxLength": 1})),
        "#/properties/p/enum/0",
        StrictRule::Unsatisfiable,
        "\"abc\" is outside the `maxLength` beside it, so this value can never be sent; change \
         the value or `maxLength`",
    );
    refused(
        &with_property(json!({"const": 7, "multipleOf": 2})),
        "#/properties/p/const",
        StrictRule::Unsatisfiable,
        "7 is outside the `multipleOf` beside it, so this value can never be sent; change the \
         value or `multipleOf`",
    );
    refused(
        &with_property(json!({"const": 2.5, "exclusiveMinimum": 2.5})),
        "#/properties/p/const",
        StrictRule::Unsatisfiable,
        "2.5 is outside the `exclusiveMinimum` beside it, so this value can never be sent; \
         change the value or `exclusiveMinimum`",
    );
    assert_eq!(
        compile(&with_property(
            json!({"enum": [2, 4], "minimum": 2, "maximum": 4, "multipleOf": 2})
        ))["properties"]["p"],
        json!({"type": "integer", "enum": [2, 4], "minimum": 2, "maximum": 4, "multipleOf": 2})
    );
    let finished = json!({
        "type": "object",
        "properties": {"p": {"type": "integer", "enum": [1, 5], "maximum": 3}},
        "required": ["p"],
        "additionalProperties": false
    });
    assert_eq!(
        violations(&finished),
        [(
            "#/properties/p/enum/1".to_owned(),
            StrictRule::Unsatisfiable
        )]
    );
}

/// Bounds were compared as `f64`: `minimum` 2^53 + 1 against `maximum`
/// 2^53 as a float passed as satisfiable, and `allOf` merging kept the
/// looser of two minimums that round to the same float, so the compiled
/// schema accepted 2^53, which the input refuses.
#[test]
fn integer_and_float_bounds_compare_exactly() {
    refused(
        &with_property(json!({
            "type": "integer",
            "minimum": 9_007_199_254_740_993_u64,
            "maximum": 9_007_199_254_740_992.0
        })),
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        "`minimum` 9007199254740993 and `maximum` 9007199254740992.0 leave no number between \
         them, so no value is accepted; swap the bounds or correct one of them",
    );
    let input = with_property(json!({"allOf": [
        {"type": "integer", "minimum": 9_007_199_254_740_992_u64},
        {"minimum": 9_007_199_254_740_993_u64}
    ]}));
    let compiled = compile(&input);
    assert_eq!(
        compiled["properties"]["p"],
        json!({"type": "integer", "minimum": 9_007_199_254_740_993_u64})
    );
    let before = jsonschema::draft202012::new(&input).expect("a valid schema");
    let after = jsonschema::draft202012::new(&compiled).expect("a valid schema");
    for p in [9_007_199_254_740_992_u64, 9_007_199_254_740_993] {
        let value = json!({"p": p});
        assert_eq!(before.is_valid(&value), after.is_valid(&value), "{value}");
    }
}

/// A union whose branches name one definition in two spellings (through an
/// alias, or percent-encoded) compiles to a bare `$ref`: an alias the
/// output's other `$ref`s still named, which a second compile collapsed
/// (not a fixed point). Every `$ref` now names the end of its alias chain.
#[test]
fn references_to_output_aliases_collapse() {
    for spelling in [
        json!({"$ref": "#/$defs/A2"}),
        json!({"$ref": "#/%24defs/A"}),
    ] {
        let input = json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/B"}, "q": {"type": "array", "items": {"$ref": "#/$defs/B"}}},
            "required": ["p", "q"],
            "$defs": {
                "A": {"type": "string"},
                "A2": {"$ref": "#/$defs/A"},
                "B": {"anyOf": [{"$ref": "#/$defs/A"}, spelling]}
            }
        });
        assert_eq!(
            compile(&input),
            json!({
                "type": "object",
                "properties": {
                    "p": {"$ref": "#/$defs/A"},
                    "q": {"type": "array", "items": {"$ref": "#/$defs/A"}}
                },
                "required": ["p", "q"],
                "additionalProperties": false,
                "$defs": {
                    "A": {"type": "string"},
                    "A2": {"$ref": "#/$defs/A"},
                    "B": {"$ref": "#/$defs/A"}
                }
            })
        );
    }
}

/// Bounds beside a `$ref` or a union move into the description, so an
/// integer definition with `minimum` 1.2 and `maximum` 1.8 beside its
/// `$ref` left the compiler accepting every integer where the input
/// accepts none.
#[test]
fn bounds_beside_refs_and_unions_that_leave_no_value_are_refused() {
    let no_integer = "the bounds of this schema leave no integer between them, so no value is \
                      accepted; widen the bounds or change `type` or `multipleOf`";
    let mut beside_ref =
        with_property(json!({"$ref": "#/$defs/I", "minimum": 1.2, "maximum": 1.8}));
    beside_ref["$defs"] = json!({"I": {"type": "integer"}});
    refused(
        &beside_ref,
        "#/properties/p/minimum",
        StrictRule::Unsatisfiable,
        no_integer,
    );
    refused(
        &with_property(json!({
            "anyOf": [{"type": "integer"}, {"type": "integer", "multipleOf": 2}],
            "exclusiveMinimum": 1,
            "exclusiveMaximum": 2
        })),
        "#/properties/p/exclusiveMinimum",
        StrictRule::Unsatisfiable,
        no_integer,
    );
    // A union that admits another type keeps a value.
    let compiled = compile(&with_property(json!({
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "minimum": 1.2,
        "maximum": 1.8
    })));
    assert_eq!(
        compiled["properties"]["p"],
        json!({
            "description": "From 1.2 to 1.8.",
            "anyOf": [{"type": "integer"}, {"type": "string"}]
        })
    );
}

/// `{"const": "a", "pattern": "^b$"}` accepts no value: the `pattern` is
/// judged like the other bounds beside string values, read as the parser
/// reads it (ECMA-262 classes), and checked by the checker too.
#[test]
fn enum_values_their_pattern_rules_out_are_refused() {
    refused(
        &with_property(json!({"type": "string", "const": "a", "pattern": "^b$"})),
        "#/properties/p/const",
        StrictRule::Unsatisfiable,
        "\"a\" is outside the `pattern` beside it, so this value can never be sent; change the \
         value or `pattern`",
    );
    refused(
        &with_property(json!({"enum": ["SKU-1", "sku 2"], "pattern": "^\\S+$"})),
        "#/properties/p/enum/1",
        StrictRule::Unsatisfiable,
        "\"sku 2\" is outside the `pattern` beside it, so this value can never be sent; change \
         the value or `pattern`",
    );
    assert_eq!(
        compile(&with_property(
            json!({"type": "string", "enum": ["SKU-1", "SKU-22"], "pattern": "^SKU-\\d+$"})
        ))["properties"]["p"],
        json!({"type": "string", "enum": ["SKU-1", "SKU-22"], "pattern": "^SKU-\\d+$"})
    );
    let finished = json!({
        "type": "object",
        "properties": {"p": {"type": "string", "enum": ["a"], "pattern": "^b$"}},
        "required": ["p"],
        "additionalProperties": false
    });
    assert_eq!(
        violations(&finished),
        [(
            "#/properties/p/enum/0".to_owned(),
            StrictRule::Unsatisfiable
        )]
    );
}
