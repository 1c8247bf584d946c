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
//! - [`GenerateContent`] is the provider contract
//!   (`tool_core::provider::Provider`): with the cargo feature `runtime`
//!   the runtime's `Toolbox` answers a whole response in one call
//!   (`toolbox.answer(&GenerateContent, &response, &session).await`), and
//!   `agent::GeminiAgent` runs the runtime's one agent loop over
//!   `generateContent` ([`agent::Contents`] is its conversation).
//!
//! The rules and the provider errors they prevent: the google-genai
//! `FunctionDeclaration` and `Schema` types, the googleapis
//! `generativelanguage/v1beta` protos, and the refusals users met
//! (docs/providers-dialects.md section 2).
#![deny(missing_docs)]

mod calls;
mod compile;
#[cfg(feature = "runtime")]
mod conversation;
mod defs;
mod error;
mod notes;
mod round;
mod wire;

pub use calls::{
    GeminiCall, GeminiCalls, PROVIDER, ResponseError, function_response,
    function_responses_content, generate_content_calls, not_run,
};
pub use compile::{Dialect, to_gemini_schema};
pub use error::{GeminiRule, GeminiSchemaError};
pub use round::{Answer, GeminiRound, GenerateContent};
pub use wire::{
    FunctionCalling, ToolSetError, function_declaration, function_declaration_for, tools_for_gemini,
};

/// The agent loop over `generateContent` (cargo feature `runtime`): the
/// runtime's one loop (`tool_runtime::agent::Agent`) with this API's
/// conversation ([`Contents`](agent::Contents)): send the declarations and
/// the user's message, answer the model's `functionCall` parts through a
/// `Toolbox`, send the `functionResponse` parts back, until the model
/// answers or the request limit of the turn is reached.
///
/// How each `finishReason` ends the turn: `STOP` with calls runs them and
/// sends the responses; `STOP` without calls is the answer
/// (`TurnEnd::Answer`); `SAFETY`, `RECITATION`, `BLOCKLIST`,
/// `PROHIBITED_CONTENT`, `SPII` and `IMAGE_SAFETY` are `TurnEnd::Refused`;
/// any other reason (`MAX_TOKENS`, `MALFORMED_FUNCTION_CALL`, ...) or none
/// is `TurnEnd::Incomplete`, its calls answered `CALL_NOT_RUN`, never run.
#[cfg(feature = "runtime")]
pub mod agent {
    pub use crate::conversation::{API_BASE_URL, AgentSettings, Contents, generate_content_path};
    pub use tool_runtime::agent::TurnEnd;

    /// A conversation with a Gemini model over `generateContent`, its
    /// function calls answered by a `Toolbox`, each request sent through a
    /// `tool_transport::Transport` (HTTP for a live model, a recording for
    /// tests).
    pub type GeminiAgent<'t, T> = tool_runtime::agent::Agent<'t, Contents, T>;

    /// Why the loop could not go on.
    pub type AgentError = tool_runtime::agent::AgentError<Contents>;

    /// One response of the model and what the loop did with it.
    pub type Step = tool_runtime::agent::Step<Contents>;

    /// One user turn: each response of the model, in order, and how it
    /// ended.
    pub type Turn = tool_runtime::agent::Turn<Contents>;
}
