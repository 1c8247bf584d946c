//! Why a schema or a tool set cannot be sent to Anthropic with `strict: true`.

use std::fmt;

use serde::Serialize;

/// The strict-tool-use rule a schema breaks (Anthropic's structured-outputs
/// guide, "JSON Schema limitations").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StrictRule {
    /// The root is not an object schema.
    RootNotObject,
    /// A schema that refers to itself ("Recursive schemas" are not supported).
    Recursion,
    /// A `$ref` that is not local or does not resolve ("External `$ref`").
    UnresolvedRef,
    /// An object that accepts keys it does not list: `additionalProperties`
    /// other than `false`.
    OpenObject,
    /// An `enum` or `const` value that is an object or an array ("Complex
    /// types within enums").
    ComplexEnum,
    /// String `enum`/`const` values that differ only in letter case: the API
    /// does not guarantee the casing of the value the model writes.
    EnumCase,
    /// `{}` or `true` below the root: any JSON value.
    AnyValue,
    /// A keyword strict mode cannot express and that cannot be moved into
    /// the description (`not`, `if`, `patternProperties`, tuples, ...).
    UnsupportedKeyword,
    /// An `allOf` of more than one schema, or one that conflicts with its
    /// parent.
    AllOf,
    /// A value that is not a valid schema (a keyword of the wrong type).
    Malformed,
    /// A schema nested deeper, or grown larger by inlining, than the
    /// compiler accepts.
    TooLarge,
}

/// Why a schema cannot be written as an Anthropic strict `input_schema`: the
/// JSON pointer, the [`StrictRule`] and what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrictSchemaError {
    path: String,
    rule: StrictRule,
    message: String,
}

impl StrictSchemaError {
    /// An error at `path` (a JSON pointer such as `#/properties/a`).
    pub fn new(path: impl Into<String>, rule: StrictRule, message: impl Into<String>) -> Self {
        StrictSchemaError {
            path: path.into(),
            rule,
            message: message.into(),
        }
    }

    /// The JSON pointer of the offending keyword or schema.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The rule it breaks.
    pub fn rule(&self) -> StrictRule {
        self.rule
    }

    /// What is wrong and, after `;`, what to write instead.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StrictSchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for StrictSchemaError {}

/// A JSON pointer under construction, `#` for the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pointer(String);

impl Pointer {
    pub(crate) fn root() -> Self {
        Pointer("#".to_owned())
    }

    /// The pointer one key further down, with `~` and `/` escaped.
    pub(crate) fn key(&self, key: &str) -> Self {
        let escaped = key.replace('~', "~0").replace('/', "~1");
        Pointer(format!("{}/{escaped}", self.0))
    }

    pub(crate) fn index(&self, index: usize) -> Self {
        Pointer(format!("{}/{index}", self.0))
    }

    /// The pointer a local `$ref` names (`#/$defs/Money`).
    pub(crate) fn of_ref(reference: &str) -> Self {
        Pointer(reference.to_owned())
    }

    pub(crate) fn error(&self, rule: StrictRule, message: impl Into<String>) -> StrictSchemaError {
        StrictSchemaError::new(self.0.clone(), rule, message)
    }
}
