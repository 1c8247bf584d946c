//! What the stream assemblers share: their error, their limits (the
//! per-call one here, the per-response ones all providers share from
//! `tool_core::outcome::stream_limits`), and the field readers for one
//! event.

use std::fmt;

use serde_json::{Map, Value};
use tool_core::outcome::stream_limits;

/// The most argument text one streamed call may add up to (16 MiB); a
/// stream that sends more is refused rather than held in memory. The
/// parser's own limit (`Session::max_argument_bytes`, 1 MiB by default)
/// still applies to what is assembled.
pub const MAX_STREAMED_ARGUMENT_BYTES: usize = 16 << 20;

/// The most function calls one streamed response may open: the bound all
/// providers' assemblers share ([`stream_limits::MAX_CALLS`]).
pub const MAX_STREAMED_CALLS: usize = stream_limits::MAX_CALLS;

/// The most bytes of arguments, ids and names all calls of one streamed
/// response may add up to ([`stream_limits::MAX_ARGUMENT_BYTES`], shared by
/// all providers' assemblers).
pub const MAX_STREAMED_RESPONSE_ARGUMENT_BYTES: usize = stream_limits::MAX_ARGUMENT_BYTES;

/// A stream that cannot give whole tool calls: an event of the wrong shape,
/// an error the API sent, or a stream that ended before its calls did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError {
    event: Option<usize>,
    path: String,
    message: String,
}

impl StreamError {
    pub(crate) fn at(event: usize, path: impl Into<String>, message: impl Into<String>) -> Self {
        StreamError {
            event: Some(event),
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn at_end(message: impl Into<String>) -> Self {
        StreamError {
            event: None,
            path: "$".to_owned(),
            message: message.into(),
        }
    }

    /// The 0-based number of the event (chunk) that is wrong; `None` when
    /// the stream as a whole is (it ended too early).
    pub fn event(&self) -> Option<usize> {
        self.event
    }

    /// Where in that event, e.g. `$.choices[0].delta.tool_calls[0].index`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.event {
            Some(event) => write!(f, "event {event}, {}: {}", self.path, self.message),
            None => write!(f, "end of stream: {}", self.message),
        }
    }
}

impl std::error::Error for StreamError {}

/// Field readers for one event, with its number for errors.
pub(crate) struct Event {
    pub(crate) number: usize,
}

impl Event {
    pub(crate) fn error(&self, path: impl Into<String>, message: impl Into<String>) -> StreamError {
        StreamError::at(self.number, path, message)
    }

    pub(crate) fn object<'v>(
        &self,
        value: &'v Value,
        at: &str,
    ) -> Result<&'v Map<String, Value>, StreamError> {
        value
            .as_object()
            .ok_or_else(|| self.error(at, format!("expected an object, got {}", kind(value))))
    }

    /// An optional string: absent and `null` are `None`.
    pub(crate) fn opt_string<'v>(
        &self,
        map: &'v Map<String, Value>,
        key: &str,
        at: &str,
    ) -> Result<Option<&'v str>, StreamError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(self.error(
                format!("{at}.{key}"),
                format!("expected a string, got {}", kind(other)),
            )),
        }
    }

    pub(crate) fn string<'v>(
        &self,
        map: &'v Map<String, Value>,
        key: &str,
        at: &str,
    ) -> Result<&'v str, StreamError> {
        self.opt_string(map, key, at)?
            .ok_or_else(|| self.error(format!("{at}.{key}"), "missing"))
    }

    /// A non-negative integer that fits a `usize`.
    pub(crate) fn index(
        &self,
        map: &Map<String, Value>,
        key: &str,
        at: &str,
    ) -> Result<usize, StreamError> {
        match map.get(key) {
            None => Err(self.error(format!("{at}.{key}"), "missing")),
            Some(value) => value
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| {
                    self.error(
                        format!("{at}.{key}"),
                        format!("expected a non-negative integer, got {value}"),
                    )
                }),
        }
    }
}

/// Appends a fragment to a call's argument text (or name), within
/// [`MAX_STREAMED_ARGUMENT_BYTES`] for the call and
/// [`MAX_STREAMED_RESPONSE_ARGUMENT_BYTES`] for the response, whose running
/// total `held` counts it.
pub(crate) fn append(
    event: &Event,
    at: &str,
    arguments: &mut String,
    held: &mut usize,
    fragment: &str,
) -> Result<(), StreamError> {
    if arguments.len().saturating_add(fragment.len()) > MAX_STREAMED_ARGUMENT_BYTES {
        return Err(event.error(
            at,
            format!(
                "the call's arguments grow past {MAX_STREAMED_ARGUMENT_BYTES} bytes; the stream \
                 is refused"
            ),
        ));
    }
    hold(event, at, held, fragment.len())?;
    arguments.push_str(fragment);
    Ok(())
}

/// Counts `bytes` more of the response's arguments into `held`, within
/// [`MAX_STREAMED_RESPONSE_ARGUMENT_BYTES`]; past it, the stream is refused
/// and nothing is counted.
pub(crate) fn hold(
    event: &Event,
    at: &str,
    held: &mut usize,
    bytes: usize,
) -> Result<(), StreamError> {
    match held.checked_add(bytes) {
        Some(total) if total <= MAX_STREAMED_RESPONSE_ARGUMENT_BYTES => {
            *held = total;
            Ok(())
        }
        _ => Err(event.error(at, stream_limits::too_much_arguments())),
    }
}

/// The error for call number [`MAX_STREAMED_CALLS`] + 1, at `at`.
pub(crate) fn too_many_calls(event: &Event, at: impl Into<String>) -> StreamError {
    event.error(at, stream_limits::too_many_calls())
}

/// An error body (`{"error": {"message": ...}}`) as the event.
pub(crate) fn api_error(event: &Event, map: &Map<String, Value>) -> Result<(), StreamError> {
    match map.get("error") {
        None | Some(Value::Null) => Ok(()),
        Some(error) => {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| error.to_string(), str::to_owned);
            Err(event.error(
                "$.error",
                format!("the API answered with an error: {message}"),
            ))
        }
    }
}

pub(crate) use tool_core::outcome::json_kind as kind;

/// Whether a call's streamed arguments are whole: one complete JSON value
/// (or nothing, which a tool without arguments may get). Arguments cut off
/// mid-stream (`{"city": "Par`) are not, whatever the stream said of its
/// end; strict mode only ever writes whole JSON.
pub(crate) fn whole_arguments(arguments: &str) -> bool {
    arguments.trim().is_empty() || serde_json::from_str::<serde::de::IgnoredAny>(arguments).is_ok()
}
