//! What the provider adapters' schema compilers share: the JSON pointer
//! they report a schema's place with, and the error that names the place,
//! the provider's rule that refuses it and what to write instead.

use std::fmt;

use serde::Serialize;

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
