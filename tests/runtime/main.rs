//! The runtime's promises (`Toolbox`): each way a call ends, timeouts and
//! aborts, approvals and idempotency, concurrency within a turn, the
//! recipient policy, start-up checks, store hooks and the span of each
//! call, against a hostile model and a careless handler alike.
//!
//! Modules:
//! - `outcomes`: each way a call can end.
//! - `timeouts`: timeouts and aborts.
//! - `approvals`: approvals and idempotency.
//! - `concurrency`: several calls of one model turn.
//! - `integrity`: a hostile model and a careless handler.
//! - `recipients`: the recipient policy of a session.
//! - `startup`: what a toolbox checks at start-up.
//! - `stores`: the store hooks without a database.
//! - `spans`: the `tool_call` span of each call.
//! - `versions`: two versions of one tool served side by side.

#[path = "../runtime_support/mod.rs"]
mod runtime_support;
#[path = "../../examples/tools/mod.rs"]
mod tools;
#[path = "../versions_support/mod.rs"]
mod versions_support;

pub mod approvals;
pub mod concurrency;
pub mod integrity;
pub mod outcomes;
pub mod recipients;
pub mod spans;
pub mod startup;
pub mod stores;
pub mod timeouts;
pub mod versions;
