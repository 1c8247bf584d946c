//! Gemini adapter of tool-contract: writes a tool's input schema as a
//! Gemini `FunctionDeclaration`, reads the function calls of a
//! `generateContent` response, and writes the `functionResponse` parts that
//! answer them.
//!
//! - [`to_gemini_schema`] compiles a tool's provider-neutral input schema
//!   into either of Gemini's dialects ([`Dialect`]):
//!   `parametersJsonSchema` (the default) or the OpenAPI-subset
//!   `parameters` for older models. Every node is typed; what Gemini does
//!   not take as a keyword (string lengths and patterns, formats other than
//!   `date-time`, exclusive bounds, `multipleOf`, `uniqueItems`, enums of
//!   other types than strings, consts) is stated in the description in
//!   the words the docs and the OpenAI adapter use, and still enforced by
//!   the tool's parser; what cannot be stated is refused with a
//!   [`GeminiSchemaError`] (JSON pointer, [`GeminiRule`], what to do).
//! - [`function_declaration`], [`function_declaration_for`] and
//!   [`tools_for_gemini`] write declarations and a request's `tools`; a tool
//!   without arguments leaves its schema out. [`FunctionCalling`] writes
//!   `toolConfig`.
//! - [`generate_content_calls`] reads a response's `functionCall` parts as
//!   `ToolCall`s (`args` may be missing: `{}`); [`function_response`]
//!   answers one with `{"output": ...}` or `{"error": ...}`. Calls run only
//!   when their candidate finished with `STOP`; any other `finishReason`,
//!   or none, answers them [`not_run`] (`CALL_NOT_RUN`).
//! - With the cargo feature `runtime`, `GeminiToolboxExt` answers a whole
//!   response through the runtime's `Toolbox` in one call.
//!
//! The rules and the provider errors they prevent: the google-genai
//! `FunctionDeclaration` and `Schema` types, the googleapis
//! `generativelanguage/v1beta` protos, and the refusals users met
//! (docs/providers-dialects.md section 2).
#![deny(missing_docs)]

mod calls;
mod compile;
mod defs;
mod error;
mod notes;
#[cfg(feature = "runtime")]
mod toolbox;
mod wire;

pub use calls::{
    GeminiCall, GeminiCalls, PROVIDER, ResponseError, function_response,
    function_responses_content, generate_content_calls, not_run,
};
pub use compile::{Dialect, to_gemini_schema};
pub use error::{GeminiRule, GeminiSchemaError};
#[cfg(feature = "runtime")]
pub use toolbox::{GeminiRound, GeminiToolboxExt};
pub use wire::{
    FunctionCalling, ToolSetError, function_declaration, function_declaration_for, tools_for_gemini,
};
