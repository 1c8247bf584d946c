//! The `Tool` trait that `#[derive(Tool)]` implements.

use serde_json::Value;

use super::session::Session;
use super::tool_contract::ToolContract;
use crate::parse::ArgumentError;

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
