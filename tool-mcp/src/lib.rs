//! MCP adapter of tool-contract: serves a [`Toolbox`](tool_runtime::Toolbox)'s
//! derived tools over the Model Context Protocol through rmcp, the
//! official Rust SDK, with a [`ServerHandler`](rmcp::ServerHandler)
//! written by hand.
//!
//! - [`McpServer`] answers `initialize` / `server/discover` with the
//!   application's own name and version, `tools/list` with the contracts in
//!   MCP's dialect, and `tools/call` through the toolbox (approvals,
//!   idempotent replays, time limits, audit records), in the session the
//!   application builds per connection or per request;
//! - [`serve_stdio`] runs it on stdin/stdout, [`serve`] on any byte stream;
//! - [`mcp_tool`], [`input_schema`], [`output_schema`] and [`annotations`]
//!   write the definitions, [`call_tool_result`] the answers, for code that
//!   drives rmcp itself.
//!
//! # The MCP dialect of a contract
//!
//! - `inputSchema`: root `type: "object"`, `additionalProperties: false` on
//!   every object, optional fields absent from `required` with their plain
//!   type (no `["T", "null"]`, no `nullable`), local `$ref`s inlined and
//!   `$defs` kept only for types that contain themselves; a tool without
//!   arguments is `{"type": "object", "additionalProperties": false}`.
//! - `title`: `#[tool(title = "...")]`, else the name in words
//!   ([`display_title`]).
//! - `annotations`: all four hints, from the policy ([`annotations`]);
//!   approval, version and data class in `_meta` under
//!   [`META_PREFIX`], and a deprecated version's sunset and note
//!   ([`META_DEPRECATED`]).
//! - versions: a tool served at several versions is listed at one, the
//!   one the peer's session pins (`VersionPins`) or else its newest that
//!   is not retired, and called at that one.
//! - `outputSchema`: only for a tool that declares `output = ...`; wrapped
//!   as `{"value": ...}` when it is not an object and the peer is on a
//!   revision before 2026-07-28, which require an object, and on any
//!   revision when the output may be `null` ([`wraps`]).
//!
//! # Answers
//!
//! A success carries the model text as a text block and, when the tool
//! declares an output, the output as `structuredContent` (what the official
//! TypeScript and Python clients require), checked against the tool's
//! `outputSchema` first: an output that does not meet it (a NaN, a
//! `Serialize` impl at odds with its schema) answers `INTERNAL`, the reason
//! in the audit record. Every error the model can act on, invalid
//! arguments included, is `isError: true` with the runtime's model text
//! (`Error [CODE]: message`). A success whose text was cut at the toolbox's
//! `with_max_content_bytes` is never sent in a fuller form than its cut
//! text (as with every provider): `_meta` says it was cut
//! ([`META_TRUNCATED`]), a string output's `structuredContent` is the same
//! cut string, and any other declared output answers [`RESULT_TOO_LARGE`]
//! (`isError: true`; the tool ran, the model should ask for less). Only an unknown tool (`-32602`), a malformed
//! request and a fatal outcome (`-32603`, the reason in the audit record)
//! are JSON-RPC errors.
//!
//! # The transport
//!
//! [`serve`] reads one JSON-RPC message a line itself rather than through
//! rmcp's transport: a `tools/call`'s `arguments` reach the contract's
//! parser as written (an integer beyond 64 bits exactly, a key given twice
//! refused, a lone surrogate escape an argument error), where rmcp's
//! `serde_json` map would round, keep the last, or drop the request; a
//! line that is not JSON is answered with a parse error (`-32700`), one
//! that is no protocol message (a request whose id is `null`, a key given
//! twice in any object of the message) with an invalid request
//! (`-32600`), a request reusing the id of one not yet answered with
//! `-32600` ("in use") while the first keeps its answer. Reading and
//! writing run in tasks of their own: rmcp may drop a `receive` at any
//! point without losing a line, and no two answers interleave. A server
//! run on another rmcp transport gets rmcp's map and rmcp's id handling.
#![deny(missing_docs)]

mod definition;
mod output;
mod result;
mod schema;
mod serve;
mod server;
mod transport;

pub use definition::{
    META_APPROVAL, META_DATA_CLASS, META_DEPRECATED, META_ERROR, META_PREFIX, META_TRUNCATED,
    META_VERSION, annotations, display_title, mcp_tool, requires_object_output,
};
pub use output::{VALUE_KEY, output_schema, wraps};
pub use result::{FATAL_MESSAGE, RESULT_TOO_LARGE, call_tool_result};
pub use schema::input_schema;
pub use serve::{ServeError, serve, serve_stdio};
pub use server::McpServer;

/// rmcp, the MCP SDK this crate serves through, for its model types and
/// transports.
pub use rmcp;
