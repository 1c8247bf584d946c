//! What the stream assemblers share: their error (tool-core's one
//! [`StreamError`], here with the kinds each failure is), their limits (the
//! per-call one here, the per-response ones all providers share from
//! `tool_core::outcome::stream_limits`), and the field readers for one
//! event.

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
/// an error the API sent, a response past its bounds, or a stream that
/// ended before its calls did. tool-core's one error of every provider's
/// stream assembler.
pub use tool_core::outcome::{StreamError, StreamErrorKind};

/// Field readers for one event, with its number for errors.
pub(crate) struct Event {
    pub(crate) number: usize,
}

impl Event {
    /// An error of `kind` at `path` in this event.
    pub(crate) fn failed(
        &self,
        kind: StreamErrorKind,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> StreamError {
        StreamError::at(kind, self.number, path, message)
    }

    /// An event of the wrong shape, or one that contradicts the events
    /// before it.
    pub(crate) fn error(&self, path: impl Into<String>, message: impl Into<String>) -> StreamError {
        self.failed(StreamErrorKind::Malformed, path, message)
    }

    /// A call cut off at this event: `open_calls` are the calls not given
    /// out.
    pub(crate) fn truncated(
        &self,
        path: impl Into<String>,
        message: impl Into<String>,
        open_calls: Vec<String>,
    ) -> StreamError {
        self.failed(StreamErrorKind::Truncated, path, message)
            .with_open_calls(open_calls)
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
        return Err(too_large(event, at));
    }
    hold(event, at, held, fragment.len())?;
    arguments.push_str(fragment);
    Ok(())
}

/// The error for a call whose arguments grow past
/// [`MAX_STREAMED_ARGUMENT_BYTES`], at `at`.
pub(crate) fn too_large(event: &Event, at: &str) -> StreamError {
    event.failed(
        StreamErrorKind::TooLarge,
        at,
        format!(
            "the call's arguments grow past {MAX_STREAMED_ARGUMENT_BYTES} bytes; the stream is \
             refused"
        ),
    )
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
        _ => Err(event.failed(
            StreamErrorKind::OverLimit,
            at,
            stream_limits::too_much_arguments(),
        )),
    }
}

/// The error for call number [`MAX_STREAMED_CALLS`] + 1, at `at`.
pub(crate) fn too_many_calls(event: &Event, at: impl Into<String>) -> StreamError {
    event.failed(
        StreamErrorKind::OverLimit,
        at,
        stream_limits::too_many_calls(),
    )
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
            Err(event.failed(
                StreamErrorKind::Api,
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
