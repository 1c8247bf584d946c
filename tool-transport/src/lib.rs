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
//! - `HttpTransport` (cargo feature `live`) posts the request to a base URL
//!   with reqwest over rustls; the base URL and the headers (an API key,
//!   a version header) are configurable, so it serves any provider and
//!   compatible servers.
#![deny(missing_docs)]

mod diff;
mod error;
#[cfg(feature = "live")]
mod http;
mod replay;

use std::future::Future;

use serde_json::Value;

pub use diff::first_difference;
pub use error::TransportError;
#[cfg(feature = "live")]
pub use http::HttpTransport;
pub use replay::{Exchange, Replay};

/// Sends one request of an agent loop and gives the response: a JSON
/// document posted to `path` (relative to the provider's base URL, e.g.
/// `"responses"` for OpenAI's `POST /v1/responses`), a JSON document back.
///
/// A response the provider answered with an error status is a
/// [`TransportError::Status`], not a response: the loop never reads an
/// error body as a turn of the model.
pub trait Transport {
    /// Posts `request` to `path` and gives the response body.
    fn send(
        &mut self,
        path: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send;
}

impl<T: Transport + Send> Transport for &mut T {
    fn send(
        &mut self,
        path: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send {
        (**self).send(path, request)
    }
}
