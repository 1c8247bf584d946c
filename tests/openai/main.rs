//! The OpenAI adapter (Chat Completions and Responses): tool definitions
//! and strict schemas, per-request limits, calls in and outputs back,
//! answers through a `Toolbox`, streamed calls and the agent loop replayed.
//!
//! Modules:
//! - `wire`: golden definitions of both wire formats.
//! - `budget`: per-request limits over a tool set.
//! - `derived_schemas`: the strict compiler on schemars-derived schemas.
//! - `schema_corpus`: the schemars part of the strict-schema corpus.
//! - `strict_schema_properties`: property tests of the strict-schema compiler.
//! - `round_trip`: recorded calls parsed, outputs written.
//! - `toolbox`: recorded responses answered by a `Toolbox`.
//! - `streaming`: streamed calls assembled and answered as one turn.
//! - `agent_loop`: the Responses agent loop replayed.
//! - `exposure`: narrowed turns and calls of tools a turn did not offer.
//! - `versions`: a conversation at each of two versions of one tool, replayed.

#[path = "../../examples/agent/shop.rs"]
mod shop;
mod support;
#[path = "../../examples/tools/mod.rs"]
mod tools;
#[path = "../versions_support/mod.rs"]
mod versions_support;

pub mod agent_loop;
pub mod budget;
pub mod derived_schemas;
pub mod exposure;
pub mod round_trip;
pub mod schema_corpus;
pub mod streaming;
pub mod strict_schema_properties;
pub mod toolbox;
pub mod versions;
pub mod wire;
