//! The HTTP transport (cargo feature `live`): reqwest over rustls.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};

use serde_json::Value;

use crate::error::TransportError;
use crate::transport::Transport;

/// The longest provider error message kept, in characters.
const KEPT: usize = 2_000;

/// The largest answer read by default: 32 MiB.
const MAX_BODY_BYTES: usize = 32 << 20;

/// A [`Transport`] that posts each request to `{base_url}/{path}` over
/// HTTPS (reqwest with rustls) and reads the JSON answer.
///
/// The base URL and headers are the caller's: for OpenAI,
/// `HttpTransport::new("https://api.openai.com/v1").bearer(key)`; for a
/// compatible server, its own base URL; for Anthropic,
/// `.header("x-api-key", key).header("anthropic-version", "2023-06-01")`.
/// A status other than 2xx is [`TransportError::Status`] with the
/// provider's `error.message`.
///
/// Its `Debug` shows the header names, never their values (an API key).
#[derive(Clone)]
pub struct HttpTransport {
    client: reqwest::Client,
    base_url: String,
    headers: Vec<(String, String)>,
    timeout: Duration,
    max_body_bytes: usize,
}

impl HttpTransport {
    /// Posts to endpoints under `base_url` (a trailing `/` is fine), with
    /// a time limit of 120 seconds per request and answers of at most
    /// 32 MiB.
    pub fn new(base_url: impl Into<String>) -> Self {
        HttpTransport {
            client: reqwest::Client::new(),
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            headers: Vec::new(),
            timeout: Duration::from_secs(120),
            max_body_bytes: MAX_BODY_BYTES,
        }
    }

    /// Adds `Authorization: Bearer {token}` to every request.
    pub fn bearer(self, token: &str) -> Self {
        self.header("authorization", &format!("Bearer {token}"))
    }

    /// Adds a header to every request. A name or value HTTP does not allow
    /// makes every request fail with [`TransportError::Header`] naming the
    /// header (never showing its value).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The time limit of one request, from sending to the whole answer.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The largest answer read, in bytes; a longer one is a
    /// [`TransportError::Body`] (read no further).
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
        self
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}/{}", self.base_url, path.trim_start_matches('/'))
    }

    async fn post(&self, path: &str, request: &Value) -> Result<Value, TransportError> {
        let mut builder = self
            .client
            .post(self.url(path))
            .timeout(self.timeout)
            .json(request);
        for (name, value) in &self.headers {
            let invalid = || TransportError::Header { name: name.clone() };
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid())?;
            let value = HeaderValue::from_str(value).map_err(|_| invalid())?;
            builder = builder.header(header, value);
        }
        let mut response = builder.send().await.map_err(network)?;
        let status = response.status();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(network)? {
            if body.len() + chunk.len() > self.max_body_bytes {
                return Err(TransportError::Body {
                    message: format!(
                        "the answer is longer than {} bytes; raise `max_body_bytes` if it is \
                         expected",
                        self.max_body_bytes
                    ),
                });
            }
            body.extend_from_slice(&chunk);
        }
        if !status.is_success() {
            return Err(TransportError::Status {
                status: status.as_u16(),
                message: error_message(&body),
            });
        }
        serde_json::from_slice(&body).map_err(|error| TransportError::Body {
            message: error.to_string(),
        })
    }
}

impl fmt::Debug for HttpTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("HttpTransport")
            .field("base_url", &self.base_url)
            .field("headers", &headers)
            .field("timeout", &self.timeout)
            .field("max_body_bytes", &self.max_body_bytes)
            .finish_non_exhaustive()
    }
}

impl Transport for HttpTransport {
    fn send(
        &mut self,
        path: &str,
        request: &Value,
    ) -> impl Future<Output = Result<Value, TransportError>> + Send {
        let this = self.clone();
        let path = path.to_owned();
        let request = request.clone();
        async move { this.post(&path, &request).await }
    }
}

fn network(error: reqwest::Error) -> TransportError {
    TransportError::Network {
        message: error.to_string(),
    }
}

/// `error.message` of a JSON error body (OpenAI's and Anthropic's shape),
/// else the body as text; at most [`KEPT`] characters.
fn error_message(body: &[u8]) -> String {
    let text = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|value| value["error"]["message"].as_str().map(str::to_owned))
        .unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    match text.char_indices().nth(KEPT) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}
