//! The strict compiler under attack: `$ref` chains through
//! alias definitions, annotated references whose targets' keywords move
//! into the description, annotation-only schemas, and enum values that
//! differ only in letter case across `$ref`s, union branches and tagged
//! variants: each class closed, with the exact schema or error.

use serde_json::{Value, json};
use tool_anthropic::{StrictRule, to_strict_input_schema};

fn compile(schema: Value) -> Value {
    to_strict_input_schema(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

fn refused(schema: Value) -> (String, StrictRule, String) {
    let error = to_strict_input_schema(&schema).expect_err("expected a refusal");
    (
        error.path().to_owned(),
        error.rule(),
        error.message().to_owned(),
    )
}

const CASE_MESSAGE_TAIL: &str = " differ only in letter case; Anthropic does not guarantee the \
     casing of enum values in strict mode (\"Structured outputs don't guarantee the \
     capitalization of string `enum` and `const` values\"), so the parser, which matches them \
     ignoring case, could not tell them apart: rename one";

/// "`type` beside a root `$ref`" is refused by the API: a root `$ref` to an
/// alias of the object is inlined through the whole chain.
#[test]
fn a_root_ref_chain_is_inlined_to_the_object() {
    let schema = json!({
        "$ref": "#/$defs/Alias",
        "$defs": {
            "Alias": {"$ref": "#/$defs/Order"},
            "Order": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}
        }
    });
    assert_eq!(
        compile(schema),
        json!({
            "type": "object",
            "properties": {"sku": {"type": "string"}},
            "required": ["sku"],
            "additionalProperties": false
        })
    );
    // Three links, the middle one with a description of its own.
    let schema = json!({
        "$ref": "#/$defs/A",
        "$defs": {
            "A": {"$ref": "#/$defs/B"},
            "B": {"$ref": "#/$defs/C", "description": "An order."},
            "C": {"type": "object", "properties": {}}
        }
    });
    assert_eq!(
        compile(schema),
        json!({"type": "object", "description": "An order.", "properties": {}, "additionalProperties": false})
    );
}

#[test]
fn a_root_ref_cycle_of_aliases_is_recursion() {
    let schema = json!({
        "$ref": "#/$defs/A",
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}
    });
    let (path, rule, _) = refused(schema);
    assert_eq!(
        (path.as_str(), rule),
        ("#/$defs/B/$ref", StrictRule::Recursion)
    );
}

/// A described `$ref` takes its target's place with the use site's
/// description: the sentences of the target's moved keywords follow it.
#[test]
fn a_described_ref_keeps_the_moved_constraint_text() {
    let schema = json!({
        "type": "object",
        "properties": {
            "code": {"$ref": "#/$defs/Code", "description": "The voucher code."},
            "count": {"$ref": "#/$defs/Count", "description": "How many."}
        },
        "required": ["code", "count"],
        "$defs": {
            "Code": {"type": "string", "minLength": 4, "maxLength": 12, "description": "A code."},
            "Count": {"type": "integer", "minimum": 1, "maximum": 9}
        }
    });
    let compiled = compile(schema);
    assert_eq!(
        compiled["properties"]["code"],
        json!({"type": "string", "description": "The voucher code. Between 4 and 12 characters."})
    );
    assert_eq!(
        compiled["properties"]["count"],
        json!({"type": "integer", "description": "How many. From 1 to 9."})
    );
    assert!(compiled.get("$defs").is_none(), "{compiled}");
}

/// The same through an alias, and through `allOf` of one entry with a
/// description beside it (schemars 0.8's form).
#[test]
fn moved_text_survives_aliases_and_all_of() {
    let schema = json!({
        "type": "object",
        "properties": {
            "code": {"$ref": "#/$defs/Alias", "description": "The voucher code."},
            "count": {"allOf": [{"$ref": "#/$defs/Count"}], "description": "How many."},
            "inline": {"allOf": [{"type": "string", "maxLength": 3}], "description": "Short."}
        },
        "required": ["code", "count", "inline"],
        "$defs": {
            "Alias": {"$ref": "#/$defs/Code"},
            "Code": {"type": "string", "minLength": 4},
            "Count": {"type": "integer", "minimum": 1, "description": "A count."}
        }
    });
    let compiled = compile(schema);
    assert_eq!(
        compiled["properties"]["code"],
        json!({"type": "string", "description": "The voucher code. At least 4 characters."})
    );
    assert_eq!(
        compiled["properties"]["count"],
        json!({"type": "integer", "description": "How many. At least 1."})
    );
    assert_eq!(
        compiled["properties"]["inline"],
        json!({"type": "string", "description": "Short. At most 3 characters."})
    );
}

/// A schema that only annotates accepts any value: no strict form, at any
/// depth and behind a described `$ref`.
#[test]
fn an_annotation_only_schema_is_any_value() {
    let schema = json!({
        "type": "object",
        "properties": {"x": {"description": "Anything.", "title": "X"}},
        "required": ["x"]
    });
    let (path, rule, _) = refused(schema);
    assert_eq!(
        (path.as_str(), rule),
        ("#/properties/x", StrictRule::AnyValue)
    );
    let schema = json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/Any", "description": "Anything."}},
        "required": ["x"],
        "$defs": {"Any": {}}
    });
    let (path, rule, _) = refused(schema);
    assert_eq!((path.as_str(), rule), ("#/$defs/Any", StrictRule::AnyValue));
}

/// Values in different definitions, reached as branches of one union.
#[test]
fn case_only_values_across_ref_branches_are_refused() {
    let schema = json!({
        "type": "object",
        "properties": {"method": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}},
        "required": ["method"],
        "$defs": {
            "A": {"type": "string", "enum": ["Card", "cash"]},
            "B": {"type": "string", "const": "card"}
        }
    });
    let (path, rule, message) = refused(schema);
    assert_eq!(
        (path.as_str(), rule),
        ("#/properties/method", StrictRule::EnumCase)
    );
    assert_eq!(message, format!("\"Card\" and \"card\"{CASE_MESSAGE_TAIL}"));
}

/// Internally tagged variants whose tags differ only in case: the tag
/// property of each branch is one position.
#[test]
fn case_only_tags_of_tagged_variants_are_refused() {
    let schema = json!({
        "type": "object",
        "properties": {"payment": {"oneOf": [
            {"$ref": "#/$defs/ByCard"},
            {"type": "object", "properties": {"kind": {"const": "card"}, "iban": {"type": "string"}},
             "required": ["kind", "iban"]}
        ]}},
        "required": ["payment"],
        "$defs": {"ByCard": {"type": "object",
            "properties": {"kind": {"type": "string", "const": "Card"}, "pan": {"type": "string"}},
            "required": ["kind", "pan"]}}
    });
    let (path, rule, message) = refused(schema);
    assert_eq!(
        (path.as_str(), rule),
        ("#/properties/payment/properties/kind", StrictRule::EnumCase)
    );
    assert_eq!(message, format!("\"Card\" and \"card\"{CASE_MESSAGE_TAIL}"));
    // Distinct tags, and one value used by several branches as written, pass.
    let schema = json!({
        "type": "object",
        "properties": {"payment": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "card"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "card"}, "x": {"type": "string"}}, "required": ["kind", "x"]},
            {"type": "object", "properties": {"kind": {"const": "iban"}}, "required": ["kind"]}
        ]}},
        "required": ["payment"]
    });
    compile(schema);
}

/// Items of lists in different branches are one position too.
#[test]
fn case_only_values_of_items_across_branches_are_refused() {
    let schema = json!({
        "type": "object",
        "properties": {"tags": {"anyOf": [
            {"type": "array", "items": {"enum": ["Red"]}},
            {"type": "array", "items": {"$ref": "#/$defs/Lower"}}
        ]}},
        "required": ["tags"],
        "$defs": {"Lower": {"type": "string", "enum": ["red"]}}
    });
    let (path, rule, _) = refused(schema);
    assert_eq!(
        (path.as_str(), rule),
        ("#/properties/tags/items", StrictRule::EnumCase)
    );
}

/// A definition name with `/` or `~` is found through its escaped `$ref`.
#[test]
fn escaped_definition_names_resolve() {
    let schema = json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/a~1b~0c", "description": "X."}},
        "required": ["x"],
        "$defs": {"a/b~c": {"type": "string", "maxLength": 2}}
    });
    assert_eq!(
        compile(schema)["properties"]["x"],
        json!({"type": "string", "description": "X. At most 2 characters."})
    );
}

/// An `allOf` entry that only annotates a typed parent constrains nothing:
/// its description is kept where the parent has none.
#[test]
fn an_annotation_only_all_of_entry_beside_a_typed_parent() {
    let schema = json!({
        "type": "object",
        "properties": {"x": {"type": "string", "allOf": [{"description": "A name."}]}},
        "required": ["x"]
    });
    assert_eq!(
        compile(schema)["properties"]["x"],
        json!({"type": "string", "description": "A name."})
    );
}
