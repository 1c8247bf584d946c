//! Keywords strict mode does not take, stated in plain words in the
//! schema's description ("At least 1 character."): tool-core's [`Words`],
//! the same sentences the OpenAI adapter and the docs write.

use serde_json::{Map, Value};
use tool_core::words::describe::read_keyword;
use tool_core::words::{Words, followed_by};

use crate::error::{Pointer, StrictRule, StrictSchemaError};

/// The keywords of one schema that go into its description.
#[derive(Debug, Default)]
pub(crate) struct Notes<'a> {
    words: Words<'a>,
}

impl<'a> Notes<'a> {
    /// Records `key: value`; `path` is the keyword's pointer, for errors.
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
