//! Anthropic adapter of tool-contract: compiles a tool's input schema into
//! what the Messages API's strict tool use accepts, checks a request's tool
//! set against Anthropic's per-request budgets, reads `tool_use` blocks
//! (whole or streamed) as the runtime's calls, and writes `tool_result`
//! blocks back.
//!
//! - [`to_strict_input_schema`] compiles a JSON Schema into the strict
//!   subset, moving what it cannot express into the description (the
//!   parser still enforces it) or saying why it cannot ([`StrictRule`]);
//!   [`tool`] writes one `{name, description, input_schema, strict}`
//!   definition.
//! - [`ToolSet`] builds a request's tools and checks, before any request,
//!   the limits across all strict tools ([`MAX_STRICT_TOOLS`],
//!   [`MAX_OPTIONAL_PARAMETERS`], [`MAX_UNION_PARAMETERS`]), choosing per
//!   `Option` field between absent and required-and-nullable so the set
//!   fits, or naming the fields over budget ([`BudgetError`]).
//! - [`tool_use_calls`] and [`ToolSet::calls`] read a response's calls;
//!   [`StreamAssembler`] assembles them from `input_json_delta` events;
//!   [`tool_result`], [`results_message`] and [`answer_tool_use`] answer
//!   them, all results in one user message before any text;
//!   [`ToolChoice`] writes `tool_choice`.
//! - With the cargo feature `runtime`, `ToolboxExt` answers a response
//!   through the runtime's `Toolbox`, and `agent::MessagesAgent` runs the
//!   whole loop over the Messages API: requests through a
//!   `tool_transport::Transport` (a recorded replay, or HTTP with the
//!   feature `live`), each `tool_use` answered by the toolbox, the
//!   conversation resent with every request.
//!
//! The rules and where they come from: Anthropic's structured-outputs guide
//! ("JSON Schema limitations", "Schema complexity limits") and the tool-use
//! guide ("Handle tool calls").
#![deny(missing_docs)]

#[cfg(feature = "runtime")]
pub mod agent;
mod budget;
mod calls;
mod compile;
mod error;
mod keywords;
mod nullable;
mod round;
mod stream;
#[cfg(feature = "runtime")]
mod toolbox;
mod values;
mod wire;

pub use budget::{
    BudgetError, Limit, MAX_OPTIONAL_PARAMETERS, MAX_STRICT_TOOLS, MAX_UNION_PARAMETERS, Usage,
};
pub use calls::{PROVIDER, ResponseCalls, ResponseError, tool_use_calls};
pub use compile::{MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, to_strict_input_schema};
pub use error::{StrictRule, StrictSchemaError};
pub use keywords::{MAX_PATTERN_REPETITION, SUPPORTED_FORMATS, pattern_supported};
pub use round::{ToolRound, answer_calls, answer_tool_use, not_run, results_message, tool_result};
pub use stream::{StreamAssembler, StreamError};
/// The bounds every provider's stream assembler holds a streamed response
/// to, and the words of their errors (one module for all providers).
pub use tool_core::outcome::stream_limits;
#[cfg(feature = "runtime")]
pub use toolbox::ToolboxExt;
pub use wire::{ToolChoice, ToolSet, ToolSetError, tool, tool_for, tool_non_strict};
