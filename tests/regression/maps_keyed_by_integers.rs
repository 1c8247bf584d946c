//! A map keyed by integers (`BTreeMap<u8, _>`), for which schemars writes
//! `patternProperties` (`"^\\d+$"`) and `additionalProperties: false`,
//! made every call of its tool `INVALID_CONTRACT`: the parser did not read
//! the keyword. It reads it now: each key's value is held to the schema of
//! the pattern it matches, and a key no pattern matches is refused as the
//! closed object says. Both readers give the same outcome.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::Tool;

use crate::readers::{Outcome, agreed};

fn refusal(path: &str, message: &str) -> Outcome {
    Err(("INVALID_ARGUMENTS".into(), path.into(), message.into()))
}

/// The shelf's slots.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Slots {
    /// The product in each slot, by slot number.
    pub by_slot: BTreeMap<u8, String>,
    /// Stock change by level (negative levels are the basement), each at most 9.
    pub by_level: Option<BTreeMap<i32, Count>>,
}

/// A small count.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Count {
    /// How many, at most 9.
    #[schemars(range(max = 9))]
    pub n: u8,
}

/// Restock the slots of one shelf.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct RestockShelf {
    /// The shelf's code, e.g. "S-1".
    pub shelf: String,
    /// What goes where.
    pub slots: Slots,
}

#[test]
fn a_map_keyed_by_integers_is_read_and_each_value_checked() {
    assert_eq!(
        agreed::<RestockShelf>(
            r#"{"shelf": "S-1", "slots": {"by_slot": {"1": "apples", "20": "pears"}, "by_level": {"-1": {"n": 3}}}}"#
        ),
        Ok("RestockShelf { shelf: \"S-1\", slots: Slots { by_slot: {1: \"apples\", 20: \"pears\"}, \
            by_level: Some({-1: Count { n: 3 }}) } }"
            .into())
    );
    // A value against its pattern's schema.
    assert_eq!(
        agreed::<RestockShelf>(r#"{"shelf": "S-1", "slots": {"by_slot": {"1": 5}}}"#),
        refusal(
            "$.slots.by_slot[\"1\"]",
            "expected a string, got the integer 5"
        )
    );
    assert_eq!(
        agreed::<RestockShelf>(
            r#"{"shelf": "S-1", "slots": {"by_slot": {}, "by_level": {"2": {"n": 10}}}}"#
        ),
        refusal(
            "$.slots.by_level[\"2\"].n",
            "expected a number of at most 9, got 10"
        )
    );
    // A key that is not a number: valid JSON, so not "invalid JSON".
    assert_eq!(
        agreed::<RestockShelf>(r#"{"shelf": "S-1", "slots": {"by_slot": {"one": "apples"}}}"#),
        refusal(
            "$.slots.by_slot.one",
            "expected the key to be a number written as a string, e.g. \"1\""
        )
    );
    // The same key twice.
    assert_eq!(
        agreed::<RestockShelf>(r#"{"shelf": "S-1", "slots": {"by_slot": {"1": "a", "1": "b"}}}"#),
        refusal(
            "$.slots.by_slot[\"1\"]",
            "field \"1\" is given more than once; give each field once"
        )
    );
}
