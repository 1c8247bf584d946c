//! OpenAI adapter of tool-contract: compiles a tool's provider-neutral input
//! schema into what OpenAI's strict mode accepts, writes tool definitions for
//! the Chat Completions and Responses APIs, and carries tool calls and their
//! outputs between the API's JSON and the runtime.
//!
//! - [`to_strict_json_schema`] compiles any JSON Schema of the shape schemars
//!   and pydantic emit, or says (with a JSON path, a [`StrictRule`] and a
//!   fix) why strict mode cannot express it; [`strict_schema`] does it once
//!   per tool; [`check_strict_schema`] asserts the strict rules on any schema.
//! - [`chat_completions_tool`], [`responses_tool`] and the tool sets
//!   [`tools_for_chat_completions`], [`tools_for_responses`] write
//!   definitions with `strict` always spelled out.
//! - [`chat_completions_calls`] and [`responses_calls`] read the tool calls
//!   of a response as the provider-neutral `ToolCall`s the runtime runs,
//!   with the API and model they came from ([`ResponseCalls`]);
//!   [`Api::output_item`] writes an outcome back as the API expects.
//! - With the cargo feature `runtime`, `ToolboxExt` answers a whole response
//!   through the runtime's `Toolbox` in one call
//!   (`toolbox.answer_chat_completions(&response, &session).await`), with
//!   its approvals, idempotent replays, time limits and audit records.
//!   With a dispatcher of one's own, [`answer_chat_completions`] and
//!   [`answer_responses`] hand each call to a synchronous closure. Either
//!   way the [`ToolRound`] holds the outcome of each call and the messages
//!   or items to send back; a fatal outcome writes nothing and stops the
//!   loop.
//! - With `runtime`, `agent` runs the whole loop over the Responses API:
//!   `ResponsesAgent` sends the tools and the user's message through a
//!   transport (recorded replay, or HTTP with the cargo feature `live`),
//!   answers each response's calls with a `Toolbox` and sends the outputs
//!   back, by `previous_response_id` or by resending the items.
//! - [`ChatCompletionsStream`] and [`ResponsesStream`] assemble whole calls
//!   from a streamed response's deltas; a cut-off stream is a
//!   [`StreamError`], never a half call.
//! - [`check_tool_set`] and [`check_budget`] hold a whole request's tools to
//!   OpenAI's limits (properties, nesting, enum values, characters) before
//!   the first request; the `tools_for_*` functions do it too.
//!
//! The rules and where they come from: OpenAI's Structured Outputs guide
//! ("Supported schemas") and function-calling guide ("Strict mode").
#![deny(missing_docs)]

#[cfg(feature = "runtime")]
pub mod agent;
mod budget;
mod cache;
mod calls;
mod check;
mod compile;
mod depth;
mod error;
mod keywords;
mod merge;
mod refs;
mod round;
mod sound;
mod stream;
mod stream_chat;
mod stream_responses;
#[cfg(feature = "runtime")]
mod toolbox;
mod wire;

pub use budget::{BudgetError, BudgetLimit, OverBudget, SchemaUsage, check_budget, schema_usage};
pub use cache::{strict_schema, strict_schema_for};
pub use calls::{
    Api, CallRecord, PROVIDER, ResponseCalls, ResponseError, chat_completions_calls, not_run,
    responses_calls, unfinished,
};
pub use check::{
    LONG_ENUM_CHARACTERS, LONG_ENUM_VALUES, MAX_ENUM_VALUES, MAX_NESTING, MAX_PROPERTIES,
    MAX_TOTAL_CHARACTERS, check_strict_schema,
};
pub use compile::to_strict_json_schema;
pub use error::{StrictRule, StrictSchemaError, StrictViolation};
pub use round::{
    ToolRound, answer_chat_completions, answer_responses, answer_tool_calls, unknown_tool,
};
pub use stream::{
    MAX_STREAMED_ARGUMENT_BYTES, MAX_STREAMED_CALLS, MAX_STREAMED_RESPONSE_ARGUMENT_BYTES,
    StreamError,
};
pub use stream_chat::ChatCompletionsStream;
pub use stream_responses::ResponsesStream;
/// The bounds every provider's stream assembler holds a streamed response
/// to, and the words of their errors (one module for all providers).
pub use tool_core::outcome::stream_limits;
#[cfg(feature = "runtime")]
pub use toolbox::ToolboxExt;
pub use wire::{
    ToolSetError, chat_completions_tool, chat_completions_tool_for,
    chat_completions_tool_non_strict, check_tool_set, responses_tool, responses_tool_for,
    responses_tool_non_strict, tools_for_chat_completions, tools_for_responses,
};
