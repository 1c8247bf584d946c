//! Keywords that strict mode does not take, stated in plain words in the
//! schema's description ("At least 1 character."): the words of tool-core's
//! [`Words`], the ones the docs and the derive's rustdoc use.

use serde_json::{Map, Value};
use tool_core::contract::bound_from_json;
use tool_core::words::describe::read_keyword;
use tool_core::words::{Words, followed_by};

use crate::error::{Pointer, StrictRule, StrictSchemaError};

/// The keywords of one schema that go into its description.
#[derive(Debug, Default)]
pub(crate) struct Notes<'a> {
    words: Words<'a>,
}

impl<'a> Notes<'a> {
    /// Records `key: value` if the words state it; `path` is the keyword's
    /// pointer, for errors.
    pub(crate) fn add(
        &mut self,
        key: &str,
        value: &'a Value,
        path: &Pointer,
    ) -> Result<(), StrictSchemaError> {
        match read_keyword(key, value, &mut self.words) {
            Ok(_) => Ok(()),
            Err(expected) => Err(path.error(
                StrictRule::Malformed,
                format!("expected {}, got {value}", expected.what()),
            )),
        }
    }

    /// The bounds `schema` keeps as keywords (`minimum` or
    /// `exclusiveMinimum`, `maximum` or `exclusiveMaximum`): not said again,
    /// but an integer `format` (`uint32`, ...) within them says nothing more.
    pub(crate) fn bounds_kept(&mut self, schema: &Map<String, Value>) {
        let bound = |keys: [&str; 2]| {
            keys.iter().find_map(|key| match schema.get(*key)? {
                Value::Number(n) => Some(bound_from_json(n)),
                _ => None,
            })
        };
        self.words.bounds_apart(
            bound(["minimum", "exclusiveMinimum"]),
            bound(["maximum", "exclusiveMaximum"]),
        );
    }

    /// Appends the sentences to the schema's description, or gives it one
    /// (as its first keyword) when it has none.
    pub(crate) fn attach(&self, schema: &mut Map<String, Value>) {
        let notes = self.words.text();
        if notes.is_empty() {
            return;
        }
        match schema.get_mut("description") {
            Some(Value::String(description)) => *description = followed_by(description, &notes),
            _ => {
                let rest = std::mem::take(schema);
                schema.insert("description".to_owned(), Value::String(notes));
                schema.extend(rest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn notes(pairs: &[(&str, Value)]) -> Vec<String> {
        let mut notes = Notes::default();
        for (key, value) in pairs {
            notes.add(key, value, &Pointer::root().key(key)).unwrap();
        }
        notes.words.sentences()
    }

    #[test]
    fn lengths_read_as_one_sentence() {
        assert_eq!(notes(&[("minLength", json!(1))]), ["At least 1 character."]);
        assert_eq!(
            notes(&[("maxLength", json!(64))]),
            ["At most 64 characters."]
        );
        assert_eq!(
            notes(&[("minLength", json!(1)), ("maxLength", json!(64))]),
            ["Between 1 and 64 characters."]
        );
        assert_eq!(
            notes(&[("minLength", json!(3)), ("maxLength", json!(3))]),
            ["Exactly 3 characters."]
        );
        assert!(notes(&[("minLength", json!(0))]).is_empty());
    }

    #[test]
    fn integer_formats_state_their_range() {
        assert_eq!(
            notes(&[("format", json!("uint32"))]),
            ["A whole number from 0 to 4294967295."]
        );
        assert_eq!(
            notes(&[("format", json!("int64"))]),
            ["A whole number from -9223372036854775808 to 9223372036854775807."]
        );
        assert_eq!(
            notes(&[("format", json!("uint128"))]),
            ["A whole number from 0 to 340282366920938463463374607431768211455."]
        );
        assert!(notes(&[("format", json!("double"))]).is_empty());
        assert_eq!(notes(&[("format", json!("color"))]), ["Format: color."]);
    }

    #[test]
    fn notes_follow_the_description() {
        let mut schema = json!({"type": "string", "description": "The SKU"});
        let (min_length, examples) = (json!(1), json!(["SKU-1", "SKU-2"]));
        let mut notes = Notes::default();
        notes
            .add("minLength", &min_length, &Pointer::root())
            .unwrap();
        notes.add("examples", &examples, &Pointer::root()).unwrap();
        notes.attach(schema.as_object_mut().unwrap());
        assert_eq!(
            schema,
            json!({
                "type": "string",
                "description": "The SKU. At least 1 character. Examples: \"SKU-1\", \"SKU-2\"."
            })
        );
        let mut bare = json!({"type": "array"});
        let unique = json!(true);
        let mut notes = Notes::default();
        notes.add("uniqueItems", &unique, &Pointer::root()).unwrap();
        notes.attach(bare.as_object_mut().unwrap());
        assert_eq!(
            serde_json::to_string(&bare).unwrap(),
            r#"{"description":"No duplicate items.","type":"array"}"#
        );
    }

    #[test]
    fn integer_formats_within_the_bounds_say_nothing_more() {
        let with_bounds = |format: &str, kept: Value| {
            let format = json!(format);
            let mut notes = Notes::default();
            notes.add("format", &format, &Pointer::root()).unwrap();
            notes.bounds_kept(kept.as_object().unwrap());
            notes.words.sentences()
        };
        assert!(with_bounds("uint32", json!({"minimum": 1, "maximum": 1000})).is_empty());
        assert!(with_bounds("int8", json!({"minimum": -128, "maximum": 127})).is_empty());
        assert!(
            with_bounds(
                "uint8",
                json!({"exclusiveMinimum": 0, "exclusiveMaximum": 9.5})
            )
            .is_empty()
        );
        assert_eq!(
            with_bounds("int8", json!({"minimum": -129, "maximum": 0})),
            ["A whole number from -128 to 127."]
        );
        assert_eq!(
            with_bounds("uint32", json!({"minimum": 0})),
            ["A whole number from 0 to 4294967295."]
        );
        assert_eq!(
            with_bounds("uri", json!({"minimum": 0, "maximum": 1})),
            ["An absolute URI such as \"https://example.com/path\"."]
        );
    }

    #[test]
    fn malformed_values_are_errors() {
        let mut notes = Notes::default();
        let value = json!(-1);
        let error = notes
            .add("minLength", &value, &Pointer::root().key("minLength"))
            .unwrap_err();
        assert_eq!(error.path(), "#/minLength");
        assert_eq!(error.message(), "expected a non-negative integer, got -1");
        let value = json!("yes");
        let error = notes
            .add("uniqueItems", &value, &Pointer::root().key("uniqueItems"))
            .unwrap_err();
        assert_eq!(error.message(), "expected `true` or `false`, got \"yes\"");
    }
}
