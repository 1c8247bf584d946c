//! Attacks on the Anthropic strict compiler: schemas
//! it accepts whose output the API refuses, or whose rules it loses.

use serde_json::{Map, Value, json};
use tool_anthropic::{StrictRule, pattern_supported, to_strict_input_schema};

/// A Python named backreference, `(?P=name)`: pydantic writes patterns in
/// Python's `re` syntax, and the compiler says it takes schemas "of the
/// shape schemars and pydantic emit". Strict mode refuses backreferences
/// ("Not supported: backreferences"); the check once knew only `\1`-`\9`
/// and `\k<name>`, so the pattern was kept and the request refused.
#[test]
fn a_python_named_backreference_is_moved_into_the_description() {
    let pattern = r#"^(?P<quote>['"]).*(?P=quote)$"#;
    assert!(!pattern_supported(pattern), "{pattern} has a backreference");
    let schema = json!({
        "type": "object",
        "properties": {"quoted": {"type": "string", "pattern": pattern}},
        "required": ["quoted"]
    });
    let strict = to_strict_input_schema(&schema).unwrap();
    assert_eq!(
        strict["properties"]["quoted"],
        json!({
            "description": format!("Matches the regular expression `{pattern}`."),
            "type": "string"
        })
    );
}

/// The walk that refuses enum values differing only in case "anywhere the
/// parser could confuse them" once stopped without a word after 20,000
/// schemas, walking a definition once per use: a tool that reused one
/// definition widely got its later positions unchecked. Each place is now
/// walked once, and a schema too large to check is refused.
#[test]
fn a_case_collision_after_many_reused_definitions_is_still_refused() {
    // With a few uses the collision is refused (the control); with 200
    // uses of a 100-field definition the walk's budget runs out first.
    for uses in [2, 200] {
        let error = match to_strict_input_schema(&rows_then_payment(uses)) {
            Ok(_) => panic!("{uses} uses: accepted; \"Card\"/\"card\" was never checked"),
            Err(error) => error,
        };
        assert_eq!(error.rule(), StrictRule::EnumCase, "{uses} uses");
        assert_eq!(error.path(), "#/properties/payment/properties/kind");
    }
}

/// `uses` properties of one 100-field definition, then a union whose two
/// tagged branches differ only in the case of the tag.
fn rows_then_payment(uses: usize) -> Value {
    let mut fields = Map::new();
    for i in 0..100 {
        fields.insert(format!("f{i}"), json!({"type": "string"}));
    }
    let names: Vec<String> = fields.keys().cloned().collect();
    let mut properties = Map::new();
    for i in 0..uses {
        properties.insert(format!("p{i}"), json!({"$ref": "#/$defs/Row"}));
    }
    let branch = |kind: &str| {
        json!({"type": "object", "properties": {"kind": {"const": kind}}, "required": ["kind"],
            "additionalProperties": false})
    };
    properties.insert(
        "payment".to_owned(),
        json!({"anyOf": [branch("Card"), branch("card")]}),
    );
    let required: Vec<&String> = properties.keys().collect();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "$defs": {"Row": {"type": "object", "properties": fields, "required": names}}
    })
}

/// `examples` beside a `$ref` was dropped without a word, while the same
/// `examples` on the schema itself is stated in the description ("moved
/// into the description, with the text kept"); now both are.
#[test]
fn examples_beside_a_ref_are_kept_in_words_as_on_the_schema_itself() {
    let row = json!({"type": "object", "properties": {"sku": {"type": "string"}},
        "required": ["sku"]});
    let examples = json!([{"sku": "SKU-1042"}]);
    let mut inline = row.clone();
    inline["examples"] = examples.clone();
    let through_ref = json!({
        "type": "object",
        "properties": {"item": {"$ref": "#/$defs/Row", "examples": examples}},
        "required": ["item"],
        "$defs": {"Row": row}
    });
    let inlined = json!({
        "type": "object",
        "properties": {"item": inline},
        "required": ["item"]
    });
    let expected = to_strict_input_schema(&inlined).unwrap();
    let description: Value = expected["properties"]["item"]["description"].clone();
    assert!(
        description.as_str().is_some_and(|d| d.contains("SKU-1042")),
        "{expected}"
    );
    let got = to_strict_input_schema(&through_ref).unwrap();
    let got_item = match got["properties"]["item"].get("$ref") {
        Some(Value::String(r)) => got.pointer(&r[1..]).cloned().unwrap_or(Value::Null),
        _ => got["properties"]["item"].clone(),
    };
    assert_eq!(got_item["description"], description, "{got}");
}
