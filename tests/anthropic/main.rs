//! The Anthropic Messages adapter: tool definitions, per-request limits of
//! strict tools, answers through a `Toolbox` and the agent loop replayed.
//!
//! Modules:
//! - `wire`: golden definitions; recursion refused.
//! - `budgets`: the strict-tool limits of one request.
//! - `toolbox`: a Messages response answered by a `Toolbox`.
//! - `agent_loop`: the Messages agent loop replayed.
//! - `exposure`: narrowed turns and calls of tools a turn did not offer.

#[path = "../../examples/agent/shop.rs"]
mod shop;
mod support;
#[path = "../../examples/tools/mod.rs"]
mod tools;

pub mod agent_loop;
pub mod budgets;
pub mod exposure;
pub mod toolbox;
pub mod wire;
