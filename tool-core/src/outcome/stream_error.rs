//! Why a stream assembler gave no (more) calls: one error for every
//! provider's assembler, with what kind of failure it is, the event and
//! the place in it, what is wrong, and the calls it kept from being given
//! out.

use std::fmt;

/// What kind of failure a [`StreamError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StreamErrorKind {
    /// The stream, or a call in it, did not end as a whole response of
    /// calls: it stopped early, a call's arguments were cut off (a
    /// `max_tokens` or `length` stop), or the response ended other than
    /// as a turn of calls. [`StreamError::open_calls`] names the calls
    /// not given out.
    Truncated,
    /// The API sent an error (an `error` event or body, a failed
    /// response): its message is in [`StreamError::message`].
    Api,
    /// An event that does not have the shape the API documents, or that
    /// contradicts the events before it (a second call with one id, a
    /// delta for a block that did not start, ...).
    Malformed,
    /// The response goes past a bound every provider's assembler holds a
    /// streamed response to ([`stream_limits`](super::stream_limits)):
    /// more calls, parts, argument bytes or text than one response may
    /// have. What is past the bound is refused, never kept.
    OverLimit,
    /// One call's streamed arguments grew past the assembler's limit for
    /// a call.
    TooLarge,
}

/// A stream that cannot give whole tool calls: what kind of failure
/// ([`kind`](Self::kind)), at which event ([`event`](Self::event), `None`
/// for the end of the stream) and where in it ([`path`](Self::path)), what
/// is wrong ([`message`](Self::message)), and for a cut-off stream the
/// calls it kept from being given out ([`open_calls`](Self::open_calls)).
///
/// Shown as `event N, PATH: MESSAGE` (or `end of stream: MESSAGE`), then
/// `; unfinished tool calls: [ID, ...]` when it names calls.
///
/// ```
/// use tool_core::outcome::{StreamError, StreamErrorKind};
///
/// let error = StreamError::at(StreamErrorKind::Malformed, 3, "$.index", "content block 0 started twice");
/// assert_eq!(error.to_string(), "event 3, $.index: content block 0 started twice");
/// let cut = StreamError::at_end(StreamErrorKind::Truncated, "no message_stop")
///     .with_open_calls(vec!["toolu_01".to_owned()]);
/// assert_eq!(cut.to_string(), "end of stream: no message_stop; unfinished tool calls: [toolu_01]");
/// assert_eq!((cut.kind(), cut.event(), cut.path()), (StreamErrorKind::Truncated, None, "$"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamError {
    kind: StreamErrorKind,
    event: Option<usize>,
    path: String,
    message: String,
    open_calls: Vec<String>,
}

impl StreamError {
    /// An error at event number `event` (0-based, counting every event
    /// pushed), at `path` in it (`$.choices[0].index`; `$` for the event as
    /// a whole).
    pub fn at(
        kind: StreamErrorKind,
        event: usize,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        StreamError {
            kind,
            event: Some(event),
            path: path.into(),
            message: message.into(),
            open_calls: Vec::new(),
        }
    }

    /// An error of the stream as a whole, found at its end (it ended too
    /// early, say); its path is `$`.
    pub fn at_end(kind: StreamErrorKind, message: impl Into<String>) -> Self {
        StreamError {
            kind,
            event: None,
            path: "$".to_owned(),
            message: message.into(),
            open_calls: Vec::new(),
        }
    }

    /// The error naming `ids` as the calls it keeps from being given out.
    #[must_use]
    pub fn with_open_calls(mut self, ids: Vec<String>) -> Self {
        self.open_calls = ids;
        self
    }

    /// What kind of failure it is.
    pub fn kind(&self) -> StreamErrorKind {
        self.kind
    }

    /// The 0-based number of the event (chunk) that is wrong; `None` when
    /// the stream as a whole is (it ended too early).
    pub fn event(&self) -> Option<usize> {
        self.event
    }

    /// Where in that event, e.g. `$.choices[0].delta.tool_calls[0].index`;
    /// `$` for the event as a whole, or the stream at its end.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong, in the adapter's words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// For [`StreamErrorKind::Truncated`]: the ids of the calls the stream
    /// opened that it did not give out as whole calls (not finished, or
    /// finished in a response that did not end as a turn of calls), in the
    /// order they were opened or finished. None of them may be dispatched,
    /// not even in part. Empty for the other kinds, and when no call was
    /// open.
    pub fn open_calls(&self) -> &[String] {
        &self.open_calls
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.event {
            Some(event) => write!(f, "event {event}, {}: {}", self.path, self.message)?,
            None => write!(f, "end of stream: {}", self.message)?,
        }
        if !self.open_calls.is_empty() {
            write!(
                f,
                "; unfinished tool calls: [{}]",
                self.open_calls.join(", ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for StreamError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_shows_its_place_and_message() {
        let cases = [
            (
                StreamError::at(
                    StreamErrorKind::Truncated,
                    5,
                    "$",
                    "the input of tool_use block 0 (f) is not a whole JSON object",
                )
                .with_open_calls(vec!["toolu_1".to_owned()]),
                "event 5, $: the input of tool_use block 0 (f) is not a whole JSON object; \
                 unfinished tool calls: [toolu_1]",
            ),
            (
                StreamError::at_end(StreamErrorKind::Truncated, "no message_stop")
                    .with_open_calls(vec!["a".to_owned(), "b".to_owned()]),
                "end of stream: no message_stop; unfinished tool calls: [a, b]",
            ),
            (
                StreamError::at_end(
                    StreamErrorKind::Truncated,
                    "the stream ended before its first chunk",
                ),
                "end of stream: the stream ended before its first chunk",
            ),
            (
                StreamError::at(
                    StreamErrorKind::Api,
                    1,
                    "$.error",
                    "the API sent an error event: Overloaded",
                ),
                "event 1, $.error: the API sent an error event: Overloaded",
            ),
            (
                StreamError::at(
                    StreamErrorKind::Malformed,
                    0,
                    "$.choices",
                    "expected an array, got an object",
                ),
                "event 0, $.choices: expected an array, got an object",
            ),
            (
                StreamError::at(
                    StreamErrorKind::OverLimit,
                    1025,
                    "$.content_block",
                    crate::outcome::stream_limits::too_many_calls(),
                ),
                "event 1025, $.content_block: more than 1024 calls in one response; the stream \
                 is refused",
            ),
            (
                StreamError::at(
                    StreamErrorKind::TooLarge,
                    2,
                    "$.delta.partial_json",
                    "the arguments of tool call t are longer than 16 bytes",
                ),
                "event 2, $.delta.partial_json: the arguments of tool call t are longer than 16 \
                 bytes",
            ),
        ];
        for (error, shown) in cases {
            assert_eq!(error.to_string(), shown, "{error:?}");
        }
    }

    #[test]
    fn the_parts_are_what_was_given() {
        let error = StreamError::at(StreamErrorKind::Malformed, 7, "$.index", "missing");
        assert_eq!(
            (
                error.kind(),
                error.event(),
                error.path(),
                error.message(),
                error.open_calls()
            ),
            (
                StreamErrorKind::Malformed,
                Some(7),
                "$.index",
                "missing",
                &[] as &[String]
            )
        );
        let end = StreamError::at_end(StreamErrorKind::Truncated, "cut")
            .with_open_calls(vec!["c".to_owned()]);
        assert_eq!(
            (end.kind(), end.event(), end.path(), end.message()),
            (StreamErrorKind::Truncated, None, "$", "cut")
        );
        assert_eq!(end.open_calls(), ["c"]);
        assert_ne!(end, StreamError::at_end(StreamErrorKind::Truncated, "cut"));
    }
}
