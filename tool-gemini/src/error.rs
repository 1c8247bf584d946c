//! Why a schema cannot be sent to Gemini in the chosen dialect.

use std::fmt;

/// The Gemini rule that a schema breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GeminiRule {
    /// The root is not a plain object schema.
    RootNotObject,
    /// A schema with no type that accepts any value (`{}`, `true`, an array
    /// without `items`): Gemini needs every node typed.
    Untyped,
    /// A definition that refers back to itself: refused for `parameters`;
    /// for `parametersJsonSchema`, refused when the cycle runs only through
    /// required properties.
    Recursion,
    /// A `$ref` that is not local or does not resolve.
    UnresolvedRef,
    /// A keyword Gemini rejects and that cannot be rewritten or stated in
    /// the description (`not`, `if`, `patternProperties`, ...).
    UnsupportedKeyword,
    /// An `allOf` of more than one schema, or whose schema conflicts with
    /// the keywords beside it.
    AllOf,
    /// A map (`additionalProperties` true or a schema) where the dialect
    /// cannot express it.
    OpenObject,
    /// An object without properties inside `parameters` ("should be
    /// non-empty for OBJECT type").
    EmptyObject,
    /// A property name outside `[A-Za-z_][A-Za-z0-9_]{0,63}`.
    PropertyName,
    /// A tuple: `prefixItems`, or `items` given as an array.
    Tuple,
    /// A value that is not a valid schema (a keyword of the wrong type, a
    /// `required` entry that names no property).
    Malformed,
    /// A schema nested deeper than the compiler follows, or one that grows
    /// too large when its definitions are inlined.
    TooLarge,
}

impl GeminiRule {
    /// The rule's snake_case name, e.g. `untyped`.
    pub fn as_str(self) -> &'static str {
        match self {
            GeminiRule::RootNotObject => "root_not_object",
            GeminiRule::Untyped => "untyped",
            GeminiRule::Recursion => "recursion",
            GeminiRule::UnresolvedRef => "unresolved_ref",
            GeminiRule::UnsupportedKeyword => "unsupported_keyword",
            GeminiRule::AllOf => "all_of",
            GeminiRule::OpenObject => "open_object",
            GeminiRule::EmptyObject => "empty_object",
            GeminiRule::PropertyName => "property_name",
            GeminiRule::Tuple => "tuple",
            GeminiRule::Malformed => "malformed",
            GeminiRule::TooLarge => "too_large",
        }
    }
}

impl fmt::Display for GeminiRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A schema Gemini cannot take: where (a JSON pointer into the input
/// schema, `#/properties/order-ref`), which rule, and what to do; the
/// error every adapter's schema compiler gives, with Gemini's rules.
///
/// ```
/// use serde_json::json;
/// use tool_contract::gemini::{Dialect, GeminiRule, to_gemini_schema};
///
/// let error = to_gemini_schema(&json!({"type": "object", "properties": {"any": {}}}), Dialect::OpenApiParameters)
///     .unwrap_err();
/// assert_eq!(error.path(), "#/properties/any");
/// assert_eq!(error.rule(), GeminiRule::Untyped);
/// ```
pub type GeminiSchemaError = tool_core::dialect::DialectError<GeminiRule>;

/// A JSON pointer under construction: `#`, then `/key` per step, with `~`
/// and `/` escaped.
pub(crate) fn child(path: &str, key: &str) -> String {
    let escaped = key.replace('~', "~0").replace('/', "~1");
    format!("{path}/{escaped}")
}

/// How many schema levels the compiler follows (inlined definitions count).
pub(crate) const MAX_LEVELS: usize = 64;

/// A schema nested deeper than [`MAX_LEVELS`].
pub(crate) fn too_deep(path: &str) -> GeminiSchemaError {
    GeminiSchemaError::new(
        path,
        GeminiRule::TooLarge,
        format!(
            "the schema is nested more than {MAX_LEVELS} levels deep (inlined definitions \
             count); flatten it"
        ),
    )
}
