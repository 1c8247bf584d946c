//! The async runtime of tool-contract (the facade's `runtime` feature): a [`Toolbox`] of tools
//! with their handlers that parses each call, enforces its contract's
//! policy (approval, idempotency, timeout), runs it, and returns the
//! [`ToolOutput`] together with the model result and the audit record.
//!
//! Calls run on the caller's task, on a Tokio runtime with its time driver
//! enabled (`tokio::time` timers bound every call). Async handlers must not
//! block the thread; register a handler that blocks with
//! [`Toolbox::register_blocking`], which runs it on Tokio's blocking pool so
//! the other calls of a turn go on and its time limit holds. An async
//! handler that blocks anyway and returns after its time limit is reported
//! as `TIMEOUT`, never as a success.
//!
//! Register each tool with an async handler that takes the parsed call and
//! a [`CallContext`] and returns `Result<T::Output, E>` with
//! `E: Into<ToolError>`; the facade crate's `examples/conversation.rs` runs
//! a whole conversation.
//!
//! One tool may serve several versions side by side: its newest
//! version's handler serves the older ones through conversions
//! ([`Toolbox::serve_older`]), a session's [`VersionPins`] say which
//! version its conversation sees, a deprecated version is retired at its
//! sunset, and [`Toolbox::call_counts`] counts the calls per version.
//!
//! Any provider's response is answered the same way, through its adapter's
//! `tool_core::provider::Provider`: [`Toolbox::answer`] (a whole response)
//! and [`Toolbox::answer_calls`] (calls read or streamed). [`agent::Agent`]
//! is the one agent loop, generic over the provider's
//! `tool_core::provider::Conversation` and the `tool_transport::Transport`.
//!
//! [`ToolError`]: tool_core::ToolError
//! [`ToolOutput`]: tool_core::ToolOutput

#![deny(missing_docs)]

mod abort;
pub mod agent;
mod announce;
mod answer;
pub mod approval;
pub mod audit;
pub mod audit_sink;
mod call_result;
mod claim_guard;
mod handler;
pub mod idempotency;
mod messages;
pub mod model_result;
mod offer;
mod pipeline;
mod principal;
pub mod recipients;
mod startup;
mod store_fault;
mod toolbox;
pub mod versions;

pub use abort::AbortHandle;
pub use call_result::CallResult;
pub use handler::CallContext;
pub use startup::StartupError;
pub use store_fault::StoreFault;
pub use tool_core::ToolCall;
pub use toolbox::Toolbox;
pub use versions::{CallCount, VersionError, VersionPins};
