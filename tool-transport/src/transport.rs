//! The trait every transport implements.

use std::future::Future;

use serde_json::Value;

use crate::error::TransportError;

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
