//! Why a schema cannot be sent to OpenAI in strict mode.

use std::fmt;

use serde::Serialize;

/// The strict-mode rule that a schema breaks.
///
/// The compiler ([`to_strict_json_schema`](crate::to_strict_json_schema))
/// reports the rules it cannot satisfy by rewriting; the checker
/// ([`check_strict_schema`](crate::check_strict_schema)) reports every rule
/// a finished schema breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StrictRule {
    /// The root is not a plain object schema (`anyOf`, nullable, another type).
    RootNotObject,
    /// A schema without a type accepts any JSON value (`{}`, `true`, an array
    /// without `items`).
    AnyValue,
    /// An object that accepts keys it does not list: a map
    /// (`additionalProperties` true or a schema, an object without
    /// `properties`), or an object not closed with `additionalProperties: false`.
    OpenObject,
    /// A property that `required` does not list, or a `required` entry that
    /// names no property.
    NotRequired,
    /// A keyword strict mode rejects and that cannot be rewritten
    /// (`not`, `if`, `dependentRequired`, `patternProperties`, ...).
    UnsupportedKeyword,
    /// A `format` strict mode does not support.
    UnsupportedFormat,
    /// A tuple: `prefixItems`, or `items` given as an array.
    Tuple,
    /// An `allOf` that is not one schema, or whose schema conflicts with its
    /// parent.
    AllOf,
    /// An `anyOf` (or `oneOf`) with keywords beside it other than `description`.
    UnionSiblings,
    /// A `$ref` with keywords beside it.
    RefSiblings,
    /// A `$ref` that is not local, does not resolve, or only leads to itself.
    UnresolvedRef,
    /// A value that is not a valid schema (a keyword of the wrong type, an
    /// empty `enum`, `false`).
    Malformed,
    /// More than 5000 object properties in total.
    TooManyProperties,
    /// A schema nested more than 10 levels deep.
    TooDeep,
    /// More than 1000 enum values in total.
    TooManyEnumValues,
    /// More than 120,000 characters of property names, definition names,
    /// enum values and const values.
    TooManyCharacters,
    /// One string enum of more than 250 values with more than 15,000
    /// characters.
    EnumTooLong,
    /// A `pattern` that is not a regular expression (`"("`).
    InvalidPattern,
    /// A `pattern` with a construct OpenAI's regex engine refuses
    /// (lookahead, lookbehind, backreferences, atomic groups). The compiler
    /// moves such a pattern into the description; the checker reports it.
    UnsupportedPattern,
    /// Bounds no value can meet: `minimum` above `maximum`, `minItems`
    /// above `maxItems`, `minLength` above `maxLength`.
    Unsatisfiable,
    /// A keyword or value that does not fit the schema's type: an `enum` or
    /// `const` value of another type, `pattern` or a string `format` on a
    /// schema that admits no strings.
    WrongType,
}

impl StrictRule {
    /// The rule's snake_case name, e.g. `open_object`.
    pub fn as_str(self) -> &'static str {
        match self {
            StrictRule::RootNotObject => "root_not_object",
            StrictRule::AnyValue => "any_value",
            StrictRule::OpenObject => "open_object",
            StrictRule::NotRequired => "not_required",
            StrictRule::UnsupportedKeyword => "unsupported_keyword",
            StrictRule::UnsupportedFormat => "unsupported_format",
            StrictRule::Tuple => "tuple",
            StrictRule::AllOf => "all_of",
            StrictRule::UnionSiblings => "union_siblings",
            StrictRule::RefSiblings => "ref_siblings",
            StrictRule::UnresolvedRef => "unresolved_ref",
            StrictRule::Malformed => "malformed",
            StrictRule::TooManyProperties => "too_many_properties",
            StrictRule::TooDeep => "too_deep",
            StrictRule::TooManyEnumValues => "too_many_enum_values",
            StrictRule::TooManyCharacters => "too_many_characters",
            StrictRule::EnumTooLong => "enum_too_long",
            StrictRule::InvalidPattern => "invalid_pattern",
            StrictRule::UnsupportedPattern => "unsupported_pattern",
            StrictRule::Unsatisfiable => "unsatisfiable",
            StrictRule::WrongType => "wrong_type",
        }
    }
}

impl fmt::Display for StrictRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a schema cannot be expressed in OpenAI's strict mode: where, which
/// rule, and what to write instead.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::{StrictRule, to_strict_json_schema};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"filters": {"type": "object", "additionalProperties": {"type": "string"}}},
///     "required": ["filters"]
/// });
/// let error = to_strict_json_schema(&schema).unwrap_err();
/// assert_eq!(error.path(), "#/properties/filters/additionalProperties");
/// assert_eq!(error.rule(), StrictRule::OpenObject);
/// ```
pub type StrictSchemaError = tool_core::dialect::DialectError<StrictRule>;

/// One broken rule that [`check_strict_schema`](crate::check_strict_schema)
/// finds: the same path, rule and message as a compile error.
pub type StrictViolation = StrictSchemaError;

pub(crate) use tool_core::dialect::Pointer;

/// The sentences a description states for keywords strict mode cannot keep.
pub(crate) type Notes<'a> = tool_core::dialect::Notes<'a, StrictRule>;
