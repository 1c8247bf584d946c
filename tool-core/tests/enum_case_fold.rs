//! Attacks on the enum-case fold
//! (`tool-core/src/parse/fold.rs`): a string is folded only when no schema
//! at its place takes it as written and exactly one allowed value matches
//! it ignoring case; every other byte stays as written; `None` when the
//! text is not JSON.

use serde_json::{Value, json};
use tool_core::parse::fold_enum_case;

/// A branch whose `const` is a whole object takes that object as written:
/// its members are not to be folded for another branch's enum. Folding
/// here turns a call valid as written into one no branch accepts.
#[test]
fn a_const_object_branch_takes_its_members_as_written() {
    let schema = json!({"type": "object", "properties": {"q": {"anyOf": [
        {"const": {"mode": "fast", "n": 1}},
        {"type": "object", "properties": {
            "mode": {"enum": ["FAST"]},
            "n": {"type": "string"}
        }, "required": ["mode", "n"]}
    ]}}});
    let text = r#"{"q":{"mode":"fast","n":1}}"#;
    // Valid as written (the first branch, exactly).
    let written: Value = serde_json::from_str(text).unwrap();
    assert_eq!(written["q"], json!({"mode": "fast", "n": 1}));
    assert_eq!(fold_enum_case(&schema, text), None);
}

/// The same through `enum` (a list of whole objects).
#[test]
fn an_enum_of_objects_branch_takes_its_members_as_written() {
    let schema = json!({"type": "object", "properties": {"q": {"anyOf": [
        {"enum": [{"mode": "fast"}, {"mode": "slow"}]},
        {"type": "object", "properties": {"mode": {"enum": ["FAST"]}}, "additionalProperties": false}
    ]}}});
    assert_eq!(fold_enum_case(&schema, r#"{"q":{"mode":"slow"}}"#), None);
    assert_eq!(fold_enum_case(&schema, r#"{"q":{"mode":"fast"}}"#), None);
}

/// A branch whose `const` is a whole array takes its items as written.
#[test]
fn a_const_array_branch_takes_its_items_as_written() {
    let schema = json!({"type": "object", "properties": {"t": {"anyOf": [
        {"const": ["a", 1]},
        {"type": "array", "items": {"enum": ["A"]}}
    ]}}});
    assert_eq!(fold_enum_case(&schema, r#"{"t":["a",1]}"#), None);
}

/// `allOf` composes: a member the base declares as an enum is that enum
/// whatever the holder's own `properties` say of other members; "circle"
/// is valid for no reading of the schema, "Circle" is the one match.
#[test]
fn a_holder_with_all_of_and_its_own_properties_folds_the_base_members() {
    let schema = json!({
        "type": "object",
        "allOf": [{"$ref": "#/$defs/Base"}],
        "properties": {"note": {"type": "string"}},
        "$defs": {"Base": {"type": "object", "properties": {
            "kind": {"enum": ["Circle", "Square"]}
        }, "required": ["kind"]}}
    });
    assert_eq!(
        fold_enum_case(&schema, r#"{"kind":"circle","note":"x"}"#).as_deref(),
        Some(r#"{"kind":"Circle","note":"x"}"#)
    );
}

/// Two `allOf` parts: the base's enum member is folded even though the
/// extension says nothing of it.
#[test]
fn all_of_parts_are_not_alternatives() {
    let schema = json!({
        "allOf": [
            {"$ref": "#/$defs/Base"},
            {"type": "object", "properties": {"note": {"type": "string"}}}
        ],
        "$defs": {"Base": {"type": "object", "properties": {
            "kind": {"enum": ["Circle", "Square"]}
        }}}
    });
    assert_eq!(
        fold_enum_case(&schema, r#"{"kind":"SQUARE"}"#).as_deref(),
        Some(r#"{"kind":"Square"}"#)
    );
}

/// A holder with `allOf` and its own `enum`: only the enum's values are
/// valid, so the one case-insensitive match is folded.
#[test]
fn an_enum_beside_all_of_is_folded() {
    let schema = json!({"type": "object", "properties": {
        "x": {"allOf": [{"type": "string"}], "enum": ["Alpha", "Beta"]}
    }});
    assert_eq!(
        fold_enum_case(&schema, r#"{"x":"alpha"}"#).as_deref(),
        Some(r#"{"x":"Alpha"}"#)
    );
}

/// The scanner reads every number and literal serde_json reads.
#[test]
fn the_scanner_accepts_what_serde_json_accepts() {
    let schema = json!({"type": "object", "properties": {"s": {"enum": ["fast"]}}});
    for tail in [
        "-0",
        "0",
        "0.0",
        "1E5",
        "1e-0",
        "-1.25E+10",
        "[]",
        "{}",
        "\"\\/\\b\\f\\n\\r\\t\\u00e9\"",
        "[ true , false , null ]",
        "\"\u{7f}\u{e9}\"",
    ] {
        let text = format!(r#"{{"s":"FAST","n":{tail}}}"#);
        assert!(serde_json::from_str::<Value>(&text).is_ok(), "{text}");
        assert_eq!(
            fold_enum_case(&schema, &text),
            Some(format!(r#"{{"s":"fast","n":{tail}}}"#)),
            "{text}"
        );
    }
    for bad in [
        "+1",
        ".5",
        "1.e5",
        "0x1",
        "NaN",
        "\"\\x\"",
        "\"\t\"",
        "[1,]",
        "{\"a\":1,}",
        "nul",
    ] {
        let text = format!(r#"{{"s":"FAST","n":{bad}}}"#);
        assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
        assert_eq!(fold_enum_case(&schema, &text), None, "{text}");
    }
}

/// A `$ref` fragment is percent-encoded (RFC 6901 section 6): `Free%20Text`
/// names the definition `Free Text`, a free string that takes "a" as
/// written. The fold resolves the pointer without decoding it, reads the
/// branch as dangling and folds "a" to the other branch's "A".
#[test]
fn a_percent_encoded_ref_to_a_free_string_takes_the_text_as_written() {
    let schema = json!({"type": "object", "properties": {"x": {"anyOf": [
        {"enum": ["A"]},
        {"$ref": "#/$defs/Free%20Text"}
    ]}}, "$defs": {"Free Text": {"type": "string"}}});
    assert_eq!(fold_enum_case(&schema, r#"{"x":"a"}"#), None);
}
