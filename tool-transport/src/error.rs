//! What can go wrong between sending a request and reading its response.

use std::fmt;

/// Why a [`Transport`](crate::Transport) gave no response.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportError {
    /// The provider answered with an error status; `message` is the
    /// provider's own (`error.message` of a JSON error body) or the body
    /// as text.
    Status {
        /// The HTTP status, e.g. 400.
        status: u16,
        /// What the provider said.
        message: String,
    },
    /// No answer: the connection failed, timed out or broke off.
    Network {
        /// What the HTTP client said.
        message: String,
    },
    /// A header of the request has a name or value HTTP does not allow
    /// (the value, perhaps an API key, is not shown).
    Header {
        /// The header's name, as given.
        name: String,
    },
    /// The provider answered, but the body is not a JSON document (or is
    /// longer than the transport reads).
    Body {
        /// What the JSON parser said.
        message: String,
    },
    /// A replayed request is not the one recorded: the first place where
    /// they differ, with the value recorded there and the value sent.
    Mismatch {
        /// Which request of the replay, counting from 0.
        exchange: usize,
        /// Where they differ: `path` for the endpoint, else a JSON path
        /// into the request such as `$.input[1].call_id`.
        at: String,
        /// The recorded value there (JSON text, shortened), or `absent`.
        expected: String,
        /// The value sent there (JSON text, shortened), or `absent`.
        found: String,
    },
    /// The loop sent more requests than were recorded.
    Exhausted {
        /// How many requests were recorded (and answered).
        recorded: usize,
    },
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Status { status, message } => {
                write!(f, "the provider answered {status}: {message}")
            }
            TransportError::Network { message } => {
                write!(f, "the request got no answer: {message}")
            }
            TransportError::Header { name } => write!(
                f,
                "the header `{name}` has a name or value HTTP does not allow (the value is not \
                 shown)"
            ),
            TransportError::Body { message } => {
                write!(f, "the provider's answer is not JSON: {message}")
            }
            TransportError::Mismatch {
                exchange,
                at,
                expected,
                found,
            } => write!(
                f,
                "request {exchange} differs from the recording at {at}: recorded {expected}, \
                 sent {found}"
            ),
            TransportError::Exhausted { recorded } => write!(
                f,
                "the loop sent a request after the {recorded} recorded ones; nothing is left to \
                 replay"
            ),
        }
    }
}

impl std::error::Error for TransportError {}
