//! What the provider adapters' schema compilers share: the JSON pointer
//! they report a schema's place with, the error that names the place, the
//! provider's rule that refuses it and what to write instead, and the
//! sentences that state in a description the keywords a dialect cannot
//! keep; and what their tool sets share: why a set cannot be offered
//! ([`ToolSetError`]), over a provider's per-request limits
//! ([`BudgetError`]) among the reasons.

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

pub use crate::budget::{BudgetError, OverBudget, RequestLimit};
use crate::contract::bound_from_json;
use crate::words::describe::read_keyword;
use crate::words::{Words, followed_by};

/// Why a schema cannot be written in a provider's dialect: the JSON
/// pointer (`#/properties/filters/additionalProperties`), the rule it
/// breaks (each adapter has its own rule enum, e.g. tool-openai's
/// `StrictRule`) and a message: what is wrong and, after `;`, what to
/// write instead.
///
/// ```
/// use tool_core::dialect::DialectError;
///
/// let error = DialectError::new("#/properties/a", "open_object", "a map; take a list instead");
/// assert_eq!(error.to_string(), "#/properties/a: a map; take a list instead");
/// assert_eq!(error.rule(), "open_object");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DialectError<R> {
    path: String,
    rule: R,
    message: String,
}

impl<R: Copy> DialectError<R> {
    /// An error at `path` (a JSON pointer such as `#/properties/a`).
    pub fn new(path: impl Into<String>, rule: R, message: impl Into<String>) -> Self {
        DialectError {
            path: path.into(),
            rule,
            message: message.into(),
        }
    }

    /// The JSON pointer of the offending keyword or schema, e.g.
    /// `#/properties/filters/additionalProperties`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The provider's rule it breaks.
    pub fn rule(&self) -> R {
        self.rule
    }

    /// What is wrong and, after `;`, what to write instead.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl<R> fmt::Display for DialectError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl<R: fmt::Debug> std::error::Error for DialectError<R> {}

/// A JSON pointer into a schema under construction, `#` for the root.
///
/// ```
/// use tool_core::dialect::Pointer;
///
/// let at = Pointer::root().key("properties").key("a/b").index(0);
/// assert_eq!(at.as_str(), "#/properties/a~1b/0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer(String);

impl Pointer {
    /// The root, `#`.
    pub fn root() -> Self {
        Pointer("#".to_owned())
    }

    /// The pointer one key further down, with `~` and `/` escaped.
    pub fn key(&self, key: &str) -> Self {
        let escaped = key.replace('~', "~0").replace('/', "~1");
        Pointer(format!("{}/{escaped}", self.0))
    }

    /// The pointer one array index further down.
    pub fn index(&self, index: usize) -> Self {
        Pointer(format!("{}/{index}", self.0))
    }

    /// The pointer a local `$ref` names (`#/$defs/Money`), as written.
    pub fn of_ref(reference: &str) -> Self {
        Pointer(reference.to_owned())
    }

    /// The pointer as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// An error at this place.
    pub fn error<R: Copy>(&self, rule: R, message: impl Into<String>) -> DialectError<R> {
        DialectError::new(self.0.clone(), rule, message)
    }
}

/// The keywords of one schema that a dialect cannot keep, stated in plain
/// words in its description ("At least 1 character."): the words of
/// [`Words`], the ones the docs and the derive's rustdoc use. `R` is the
/// adapter's rule enum; `malformed` is its rule for a keyword whose value
/// is not what the keyword takes.
///
/// ```
/// use serde_json::json;
/// use tool_core::dialect::{Notes, Pointer};
///
/// let mut schema = json!({"type": "string", "description": "The SKU"});
/// let min_length = json!(1);
/// let mut notes = Notes::new("malformed");
/// notes.add("minLength", &min_length, &Pointer::root())?;
/// notes.attach(schema.as_object_mut().unwrap());
/// assert_eq!(schema["description"], "The SKU. At least 1 character.");
/// # Ok::<(), tool_core::dialect::DialectError<&str>>(())
/// ```
#[derive(Debug)]
pub struct Notes<'a, R> {
    words: Words<'a>,
    malformed: R,
}

impl<'a, R: Copy> Notes<'a, R> {
    /// No sentences yet; a malformed keyword is refused with `malformed`.
    pub fn new(malformed: R) -> Self {
        Notes {
            words: Words::default(),
            malformed,
        }
    }

    /// Records `key: value` if the words state it; `path` is the keyword's
    /// pointer, for errors.
    pub fn add(
        &mut self,
        key: &str,
        value: &'a Value,
        path: &Pointer,
    ) -> Result<(), DialectError<R>> {
        match read_keyword(key, value, &mut self.words) {
            Ok(_) => Ok(()),
            Err(expected) => Err(path.error(
                self.malformed,
                format!("expected {}, got {value}", expected.what()),
            )),
        }
    }

    /// The bounds `schema` keeps as keywords (`minimum` or
    /// `exclusiveMinimum`, `maximum` or `exclusiveMaximum`): not said again,
    /// but an integer `format` (`uint32`, ...) within them says nothing more.
    pub fn bounds_kept(&mut self, schema: &Map<String, Value>) {
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

    /// The sentences recorded so far.
    pub fn sentences(&self) -> Vec<String> {
        self.words.sentences()
    }

    /// Appends the sentences to the schema's description, or gives it one
    /// (as its first keyword) when it has none.
    pub fn attach(&self, schema: &mut Map<String, Value>) {
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
        let mut notes = Notes::new("malformed");
        for (key, value) in pairs {
            notes.add(key, value, &Pointer::root().key(key)).unwrap();
        }
        notes.sentences()
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
        let mut notes = Notes::new("malformed");
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
        let mut notes = Notes::new("malformed");
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
            let mut notes = Notes::new("malformed");
            notes.add("format", &format, &Pointer::root()).unwrap();
            notes.bounds_kept(kept.as_object().unwrap());
            notes.sentences()
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
        let mut notes = Notes::new("malformed");
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

/// A provider's words for why a tool set cannot be offered, and the limits
/// it holds a request to: implemented by each adapter's rule enum (the `R`
/// of its [`DialectError`]s), so one [`ToolSetError`] serves every provider.
pub trait ToolSetRules: Copy + fmt::Debug + Send + Sync + 'static {
    /// The provider's per-request limits, which a [`BudgetError`] names;
    /// [`std::convert::Infallible`] for a provider without such limits.
    type Limit: RequestLimit;

    /// Why the provider refuses the tool name `name`, and what it takes.
    fn invalid_name(name: &str) -> String;

    /// Why two tools named `name` cannot be offered together.
    fn duplicate_name(name: &str) -> String;

    /// Why the tool `tool` cannot be offered with its schema.
    fn schema(tool: &str, error: &DialectError<Self>) -> String;
}

/// Why a set of tools cannot be offered to a provider together; `R` is
/// the provider's rule enum ([`ToolSetRules`]), which words the message
/// and names the limits of the budget error.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ToolSetError<R: ToolSetRules> {
    /// A name the provider does not accept.
    InvalidName {
        /// The name.
        name: &'static str,
    },
    /// Two tools have the same name, so the model's calls would be
    /// ambiguous.
    DuplicateName {
        /// The name both tools have.
        name: &'static str,
    },
    /// A tool's schema cannot be written in the provider's dialect.
    Schema {
        /// The tool's name.
        tool: &'static str,
        /// Why.
        error: DialectError<R>,
    },
    /// Together the tools are over one or more of the provider's
    /// per-request limits, though each fits alone.
    Budget(BudgetError<R::Limit>),
}

impl<R: ToolSetRules> fmt::Display for ToolSetError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolSetError::InvalidName { name } => f.write_str(&R::invalid_name(name)),
            ToolSetError::DuplicateName { name } => f.write_str(&R::duplicate_name(name)),
            ToolSetError::Schema { tool, error } => f.write_str(&R::schema(tool, error)),
            ToolSetError::Budget(error) => error.fmt(f),
        }
    }
}

impl<R: ToolSetRules> std::error::Error for ToolSetError<R> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ToolSetError::Schema { error, .. } => Some(error),
            ToolSetError::Budget(error) => Some(error),
            _ => None,
        }
    }
}
