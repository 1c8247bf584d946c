//! An attack on `compile.rs` `reference()`: a `$ref`
//! with a use-site `description` names an alias (a definition that is
//! itself a `$ref`); the alias is followed by `reference` calling itself
//! directly, never through `node`, so neither `MAX_SCHEMA_DEPTH` nor
//! `MAX_SCHEMA_NODES` is checked on the way: a long chain of aliases
//! recurses once per alias (and scans the whole `$ref` stack at each, so
//! the work is quadratic) until the stack overflows, which aborts the
//! process. Kept alone in this file: the overflow takes the test binary
//! with it.

use serde_json::{Map, Value, json};
use tool_anthropic::{StrictRule, to_strict_input_schema};

fn alias_chain(length: usize) -> Value {
    let mut defs = Map::new();
    for n in 0..length {
        defs.insert(
            format!("A{n}"),
            json!({"$ref": format!("#/$defs/A{}", n + 1)}),
        );
    }
    defs.insert(format!("A{length}"), json!({"type": "string"}));
    json!({"type": "object", "properties": {
        "x": {"$ref": "#/$defs/A0", "description": "A name, e.g. \"Ada\"."}
    }, "required": ["x"], "$defs": defs})
}

/// A chain of 200,000 aliases behind an annotated `$ref`: refused as too
/// deep (as the same chain without the use-site description is, through
/// `node`'s depth check), not a stack overflow.
#[test]
fn a_long_alias_chain_behind_an_annotated_ref_is_refused_not_overflowed() {
    // The control: without the description, `node` refuses it.
    let mut bare = alias_chain(200);
    bare["properties"]["x"] = json!({"$ref": "#/$defs/A0"});
    let error = to_strict_input_schema(&bare).unwrap_err();
    assert_eq!(error.rule(), StrictRule::TooLarge, "{error}");

    let schema = alias_chain(200_000);
    let error = to_strict_input_schema(&schema).unwrap_err();
    assert_eq!(error.rule(), StrictRule::TooLarge, "{error}");
}
