//! Transports of tool-contract's agent loop: how a request JSON reaches a
//! provider's endpoint and its response JSON comes back.
//!
//! The loop of a provider adapter (the OpenAI Responses loop in
//! `tool-openai`, an Anthropic Messages loop alike) builds each request as
//! `serde_json::Value`, hands it to a [`Transport`] with the endpoint's path
//! (`"responses"`, `"messages"`), and reads the response. Nothing here knows
//! a provider's rules: the path, the headers and the JSON are the adapter's.
//!
//! - [`Replay`] answers with recorded responses and checks that each
//!   request is the one recorded, exactly: the loop runs anywhere, with no
//!   network and no TLS, in plain `cargo test`.
//! - [`Recorder`] wraps any transport (the HTTP one, a scripted model) and
//!   keeps each exchange; [`Recorder::write_to`] writes the recording's
//!   files and [`Replay::from_dir`] (or [`Replay::from_files`]) reads them
//!   back, so a conversation recorded once replays in every test.
//! - `HttpTransport` (cargo feature `live`) posts the request to a base URL
//!   with reqwest over rustls; the base URL and the headers (an API key,
//!   a version header) are configurable, so it serves any provider and
//!   compatible servers.
#![deny(missing_docs)]

mod diff;
mod error;
#[cfg(feature = "live")]
mod http;
mod record;
mod replay;
mod transport;

pub use diff::first_difference;
pub use error::TransportError;
#[cfg(feature = "live")]
pub use http::HttpTransport;
pub use record::{REQUESTS_FILE, RESPONSES_FILE, Recorder, TOOLS_FILE, TOOLS_PLACEHOLDER};
pub use replay::{Exchange, Replay};
pub use transport::Transport;
