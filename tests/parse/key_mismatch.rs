//! The generated key match and the contract come from one derive; a key
//! the match gives an index the contract lacks (a parser and a contract
//! built apart) is the application's error, named with its fix. Driven
//! here through the runtime half the derive calls, with a key match that
//! disagrees with the contract.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use tool_contract::__private::{ParseState, next_key, parse_map};
use tool_contract::{Session, Tool};

/// Note a parcel's weight.
#[derive(Debug, Tool)]
pub struct NoteWeight {
    /// Grams, as the scale shows them.
    pub grams: u32,
}

/// Reads keys with a match that gives "ghost" field 7, which the contract
/// of `NoteWeight` (one field) does not have.
#[derive(Clone, Copy)]
struct Keys<'s>(&'s ParseState);

impl<'de> Visitor<'de> for Keys<'_> {
    type Value = Vec<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the arguments")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<usize>, A::Error> {
        let mut seen = Vec::new();
        while let Some(index) = next_key(&mut map, self.0, |key| match key {
            "grams" => Some(0),
            "ghost" => Some(7),
            _ => None,
        })? {
            seen.push(index);
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(seen)
    }
}

fn keys(arguments: &str) -> Result<Vec<usize>, (String, String, String)> {
    let state = ParseState::new(NoteWeight::contract());
    parse_map(arguments, &Session::new(), &state, Keys(&state)).map_err(|e| {
        (
            e.code().to_owned(),
            e.path().to_owned(),
            e.message().to_owned(),
        )
    })
}

#[test]
fn a_key_matched_to_a_field_the_contract_lacks_is_a_contract_error() {
    assert_eq!(keys(r#"{"grams": 5}"#), Ok(vec![0]));
    assert_eq!(
        keys(r#"{"grams": 5, "ghost": 1}"#),
        Err((
            "INVALID_CONTRACT".to_owned(),
            "$".to_owned(),
            "the parser of tool `note_weight` matched a key to field 7, which its contract does not have; the derive and the contract disagree: build the tool with one version of tool-contract".to_owned(),
        ))
    );
    assert_eq!(
        keys(r#"{"gram": 5}"#),
        Err((
            "INVALID_ARGUMENTS".to_owned(),
            "$.gram".to_owned(),
            "unknown field \"gram\"; expected one of \"grams\" (did you mean \"grams\"?)"
                .to_owned(),
        ))
    );
}
