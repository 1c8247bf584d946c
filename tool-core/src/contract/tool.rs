//! The `Tool` trait that `#[derive(Tool)]` implements.

use serde_json::{Map, Value};

use super::session::Session;
use super::tool_contract::ToolContract;
use crate::parse::{ArgumentError, EnumCase, arguments_text, fold_enum_case, object_text};

/// A tool an LLM agent may call, declared as a Rust struct.
///
/// Implement it with `#[derive(Tool)]` (see the `tool-contract` crate): the
/// derive writes the contract, the cached input schema and a parser that
/// reads the model's JSON straight into the struct.
pub trait Tool: Sized {
    /// What a successful call returns: the type named in `output = ...`, or
    /// `String` (plain text) when none is declared.
    type Output: serde::Serialize;

    /// The tool's contract, built once for the life of the process.
    fn contract() -> &'static ToolContract;

    /// Provider-neutral JSON Schema (2020-12) of the model-supplied arguments,
    /// built on first use and cached.
    fn input_schema() -> &'static Value {
        Self::contract().input_schema()
    }

    /// Parses the model's JSON arguments; injected fields come from `session`.
    ///
    /// `null` and an absent key both give `None` for an `Option<T>` field and
    /// the default for a `#[tool(default)]` field. Unknown, duplicate,
    /// mistyped and out-of-range values are rejected with an
    /// [`ArgumentError`] that names the JSON path and what was expected.
    fn from_arguments(arguments: &str, session: &Session) -> Result<Self, ArgumentError>;

    /// Parses arguments that arrive as a JSON value rather than text
    /// (Anthropic `tool_use.input`, Gemini `functionCall.args`, MCP
    /// `arguments`), with exactly the errors, paths and checks of
    /// [`from_arguments`](Tool::from_arguments): the value is written as
    /// compact JSON text and read by the same parser. Key order never
    /// matters, and `null` and an absent key are the same for an `Option`.
    /// A value that is not an object is refused at `$` as its text would be
    /// ("expected the arguments as a JSON object, got an array").
    ///
    /// A `Value` holds each key of an object once: when the text it was
    /// read from had a key twice, the reader kept one of them (serde_json
    /// keeps the last), and this cannot see that. Where the arguments'
    /// text is at hand (a streamed call's joined deltas), parse the text
    /// with [`from_arguments`](Tool::from_arguments), which refuses a
    /// repeated key.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_contract::{Session, Tool};
    ///
    /// /// Look up the opening hours of one store.
    /// #[derive(Debug, Tool)]
    /// pub struct GetStoreHours {
    ///     /// Store code as printed on the receipt, e.g. "BER-1".
    ///     pub store: String,
    ///     /// The day to look at; null for today.
    ///     pub day: Option<String>,
    /// }
    ///
    /// let call = GetStoreHours::from_value(&json!({"day": null, "store": "BER-1"}), &Session::new())?;
    /// assert_eq!((call.store.as_str(), call.day), ("BER-1", None));
    /// let error = GetStoreHours::from_value(&json!(["BER-1"]), &Session::new()).unwrap_err();
    /// assert_eq!(error.path(), "$");
    /// # Ok::<(), tool_contract::ArgumentError>(())
    /// ```
    fn from_value(arguments: &Value, session: &Session) -> Result<Self, ArgumentError> {
        Self::from_arguments(&arguments_text(arguments), session)
    }

    /// [`from_value`](Tool::from_value) for arguments already known to be
    /// an object.
    fn from_object(
        arguments: &Map<String, Value>,
        session: &Session,
    ) -> Result<Self, ArgumentError> {
        Self::from_arguments(&object_text(arguments), session)
    }

    /// [`from_arguments`](Tool::from_arguments) with string `enum` and
    /// `const` values matched as `enum_case` says: with
    /// [`EnumCase::Insensitive`], a value that matches exactly one allowed
    /// value ignoring letter case (and none exactly) is read as that value;
    /// every other error is the one `from_arguments` gives.
    fn from_arguments_with(
        arguments: &str,
        session: &Session,
        enum_case: EnumCase,
    ) -> Result<Self, ArgumentError> {
        match enum_case {
            EnumCase::Exact => Self::from_arguments(arguments, session),
            // Too long to read: the parser refuses it without reading it.
            EnumCase::Insensitive if arguments.len() > session.max_argument_bytes() => {
                Self::from_arguments(arguments, session)
            }
            EnumCase::Insensitive => match fold_enum_case(Self::input_schema(), arguments) {
                Some(folded) => Self::from_arguments(&folded, session),
                None => Self::from_arguments(arguments, session),
            },
        }
    }

    /// The value of the `#[tool(idempotency_key)]` field, if the tool has one
    /// and it is set.
    fn idempotency_key(&self) -> Option<String> {
        None
    }
}

/// A field type that can serve as a tool's idempotency key.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot serve as an idempotency key",
    label = "not a string or integer",
    note = "mark a `String`, an integer or an `Option` of them with `#[tool(idempotency_key)]`"
)]
pub trait AsIdempotencyKey {
    /// The key as text, or `None` when an optional key is absent.
    fn key_text(&self) -> Option<String>;
}

impl AsIdempotencyKey for String {
    fn key_text(&self) -> Option<String> {
        Some(self.clone())
    }
}

impl AsIdempotencyKey for str {
    fn key_text(&self) -> Option<String> {
        Some(self.to_owned())
    }
}

macro_rules! int_key {
    ($($t:ty)*) => {$(
        impl AsIdempotencyKey for $t {
            fn key_text(&self) -> Option<String> {
                Some(self.to_string())
            }
        }
    )*};
}
int_key!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);

impl<T: AsIdempotencyKey> AsIdempotencyKey for Option<T> {
    fn key_text(&self) -> Option<String> {
        self.as_ref().and_then(AsIdempotencyKey::key_text)
    }
}
