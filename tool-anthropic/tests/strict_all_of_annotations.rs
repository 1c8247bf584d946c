//! Attacks on `compile.rs` `all_of`: an entry that
//! only annotates is read as those annotations beside the `allOf`, so the
//! strict schema is the one its annotations written in place give.

use serde_json::{Value, json};
use tool_anthropic::to_strict_input_schema;

fn with_field(field: Value) -> Value {
    json!({"type": "object", "properties": {"x": field}, "required": ["x"]})
}

fn compiled(field: Value) -> Result<Value, String> {
    to_strict_input_schema(&with_field(field)).map_err(|error| error.to_string())
}

/// `deprecated` and `examples` are stated in the description when beside
/// the type; in an annotation-only `allOf` entry they were dropped.
#[test]
fn deprecated_and_examples_in_an_annotation_only_entry_are_stated() {
    let inline = compiled(json!({"type": "string", "description": "The x.",
        "deprecated": true, "examples": ["abc"]}))
    .unwrap();
    let entry = compiled(json!({"type": "string", "allOf": [
        {"description": "The x.", "deprecated": true, "examples": ["abc"]}
    ]}))
    .unwrap();
    assert_ne!(inline["properties"]["x"]["description"], json!("The x."));
    assert_eq!(entry, inline);
}

/// A `description` that is not a string is refused beside the type; in an
/// annotation-only entry it was copied into the strict schema as is.
#[test]
fn a_non_string_description_in_an_annotation_only_entry_is_judged_as_in_place() {
    let inline = compiled(json!({"type": "string", "description": 5}));
    let entry = compiled(json!({"type": "string", "allOf": [{"description": 5}]}));
    assert_eq!(entry, inline);
}
