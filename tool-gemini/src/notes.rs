//! What Gemini does not take as keywords, stated in the description in
//! tool-core's words ("At least 1 character.", the wording of the docs and
//! of the OpenAI adapter), plus the enum and const values Gemini cannot
//! carry as keywords.

use serde_json::{Map, Value};
use tool_core::contract::bound_from_json;
use tool_core::words::describe::read_keyword;
use tool_core::words::{Words, followed_by};

use crate::error::{GeminiRule, GeminiSchemaError};

/// The sentences of one schema that go into its description.
#[derive(Debug, Default)]
pub(crate) struct Notes<'a> {
    words: Words<'a>,
    /// `One of: ...` / `Always ...`, after the words.
    values: Option<String>,
}

impl<'a> Notes<'a> {
    /// Records `key: value` in words; `false` when the words do not state
    /// this keyword.
    pub(crate) fn add(
        &mut self,
        key: &str,
        value: &'a Value,
        path: &str,
    ) -> Result<bool, GeminiSchemaError> {
        read_keyword(key, value, &mut self.words).map_err(|expected| {
            GeminiSchemaError::new(
                path,
                GeminiRule::Malformed,
                format!("expected {}, got {value}", expected.what()),
            )
        })
    }

    /// The bounds kept as keywords (`minimum`, `maximum`): an integer
    /// `format` within them says nothing more.
    pub(crate) fn bounds_kept(&mut self, schema: &Map<String, Value>) {
        let bound = |key: &str| match schema.get(key)? {
            Value::Number(n) => Some(bound_from_json(n)),
            _ => None,
        };
        self.words.bounds_apart(bound("minimum"), bound("maximum"));
    }

    /// Enum values Gemini cannot list as an `enum` (numbers, booleans,
    /// mixed): `One of: 1, 2, 3.`
    pub(crate) fn one_of(&mut self, values: &[Value]) {
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        self.values = Some(format!("One of: {}.", listed.join(", ")));
    }

    /// A const Gemini cannot write as a one-value string enum: `Always 7.`
    pub(crate) fn always(&mut self, value: &Value) {
        self.values = Some(format!("Always {value}."));
    }

    /// Appends the sentences to `description`.
    pub(crate) fn attach(&self, description: Option<String>) -> Option<String> {
        let mut notes = self.words.text();
        if let Some(values) = &self.values {
            notes = followed_by(&notes, values);
        }
        match description {
            Some(text) => Some(followed_by(&text, &notes)),
            None if notes.is_empty() => None,
            None => Some(notes),
        }
    }
}
