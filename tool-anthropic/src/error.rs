//! Why a schema or a tool set cannot be sent to Anthropic with `strict: true`.

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
pub type StrictSchemaError = tool_core::dialect::DialectError<StrictRule>;

pub(crate) use tool_core::dialect::Pointer;

/// The sentences a description states for keywords strict mode cannot keep.
pub(crate) type Notes<'a> = tool_core::dialect::Notes<'a, StrictRule>;
