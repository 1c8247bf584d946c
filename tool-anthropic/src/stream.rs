//! Whole tool calls from a streamed Messages API response: `tool_use`
//! blocks assembled from `content_block_start`, `input_json_delta`
//! (`partial_json`) and `content_block_stop` events.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use tool_core::ToolCall;
use tool_core::contract::DEFAULT_MAX_ARGUMENT_BYTES;
use tool_core::outcome::stream_limits;
use tool_core::outcome::stream_limits::Refusal;

use crate::calls::{ResponseCalls, kind, tool_use_calls};

/// Why a stream gave no (more) calls: tool-core's one error of every
/// provider's stream assembler. Its [`kind`](StreamError::kind) is
/// [`Truncated`](StreamErrorKind::Truncated) when the stream ended (or
/// [`StreamAssembler::finish`] was called) before `message_stop`, or a
/// `tool_use` block stopped with input that is not a whole JSON object
/// (`stop_reason: "max_tokens"` cuts arguments short): the calls it names
/// ([`open_calls`](StreamError::open_calls)) are not dispatched, not even in
/// part; [`Api`](StreamErrorKind::Api) for an `error` event;
/// [`Malformed`](StreamErrorKind::Malformed) for an event that does not have
/// the shape the API documents; [`OverLimit`](StreamErrorKind::OverLimit)
/// past a bound every provider's assembler holds a streamed response to
/// (`tool_core::outcome::stream_limits`); and
/// [`TooLarge`](StreamErrorKind::TooLarge) for a call whose streamed
/// arguments grew past the limit.
pub use tool_core::outcome::{StreamError, StreamErrorKind};

/// The number of the event being read, for its errors.
#[derive(Clone, Copy)]
struct At(usize);

impl At {
    fn error(self, kind: StreamErrorKind, path: &str, message: impl Into<String>) -> StreamError {
        StreamError::at(kind, self.0, path, message)
    }

    fn malformed(self, path: &str, message: impl Into<String>) -> StreamError {
        self.error(StreamErrorKind::Malformed, path, message)
    }

    fn over_limit(self, path: &str, message: impl Into<String>) -> StreamError {
        self.error(StreamErrorKind::OverLimit, path, message)
    }
}

enum Block {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        start_input: Option<Value>,
        json: String,
    },
    Other,
}

/// Assembles the events of one streamed response into whole tool calls.
///
/// Feed each event's JSON (the `data:` of each server-sent event) to
/// [`push`](Self::push); a `tool_use` block gives its call when its
/// `content_block_stop` arrives, with the `input_json_delta` pieces joined
/// into whole JSON. [`finish`](Self::finish) gives all calls once
/// `message_stop` was seen with `stop_reason: "tool_use"`, and a
/// [`StreamErrorKind::Truncated`] error otherwise: never a half call. A call given
/// by `push` is whole JSON but final only once `finish` confirms it (a
/// block cut by `max_tokens` before its first delta looks like a call
/// without arguments); dispatch from `finish` unless the tools' calls are
/// harmless to start early. A response past the bounds every provider's
/// assembler shares ([`stream_limits`](crate::stream_limits): calls, bytes
/// of ids, names and arguments over all calls, text kept, content blocks,
/// those a `message_start` carries included) is
/// [`StreamErrorKind::OverLimit`] at the event that goes past it.
///
/// ```
/// use serde_json::json;
/// use tool_contract::anthropic::StreamAssembler;
///
/// let mut stream = StreamAssembler::new();
/// for event in [
///     json!({"type": "message_start", "message": {"model": "claude-sonnet-4-5", "content": []}}),
///     json!({"type": "content_block_start", "index": 0,
///            "content_block": {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {}}}),
///     json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"store\": \"BE"}}),
///     json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "R-1\"}"}}),
///     json!({"type": "content_block_stop", "index": 0}),
///     json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
///     json!({"type": "message_stop"}),
/// ] {
///     stream.push(&event)?;
/// }
/// let calls = stream.finish()?;
/// assert_eq!(calls.calls[0].arguments, r#"{"store": "BER-1"}"#);
/// # Ok::<(), tool_contract::anthropic::StreamError>(())
/// ```
pub struct StreamAssembler {
    /// Events read so far: the number of the next one.
    events: usize,
    model: String,
    stop_reason: Option<String>,
    blocks: BTreeMap<u64, Block>,
    /// The blocks that got their `content_block_stop`: a delta or a second
    /// stop for one is malformed, never dropped.
    closed: BTreeSet<u64>,
    /// A `message_start` was read.
    started: bool,
    /// The text of a `message_start` that carried content.
    start_text: String,
    calls: Vec<ToolCall>,
    stopped: bool,
    max_argument_bytes: usize,
    /// `tool_use` blocks started (and calls of a `message_start`).
    opened_calls: usize,
    /// Content blocks a `message_start` carried: they count toward
    /// [`stream_limits::MAX_PARTS`] as started blocks do.
    start_blocks: usize,
    /// Bytes of arguments held, over all calls.
    held_arguments: usize,
    /// Bytes of text held, over all blocks.
    held_text: usize,
    /// The error that refused the stream: every later push, and `finish`,
    /// give it again.
    refused: Refusal<StreamError>,
}

impl Default for StreamAssembler {
    fn default() -> Self {
        StreamAssembler::new()
    }
}

impl StreamAssembler {
    /// An assembler for one response, with the session's default limit on
    /// a call's arguments.
    pub fn new() -> Self {
        StreamAssembler {
            events: 0,
            model: String::new(),
            stop_reason: None,
            blocks: BTreeMap::new(),
            closed: BTreeSet::new(),
            started: false,
            start_text: String::new(),
            calls: Vec::new(),
            stopped: false,
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
            opened_calls: 0,
            start_blocks: 0,
            held_arguments: 0,
            held_text: 0,
            refused: Refusal::default(),
        }
    }

    /// The assembler with another limit on one call's streamed arguments.
    #[must_use]
    pub fn with_max_argument_bytes(mut self, bytes: usize) -> Self {
        self.max_argument_bytes = bytes;
        self
    }

    /// Reads one event. Returns the call a `content_block_stop` finished,
    /// if any. `ping` and event types this version does not know are
    /// skipped.
    ///
    /// Once a push is refused, the stream is: every later push, and
    /// [`finish`](Self::finish), give that error again (what is left of a
    /// refused stream is not the message the model sent).
    pub fn push(&mut self, event: &Value) -> Result<Option<ToolCall>, StreamError> {
        self.refused.check()?;
        let pushed = self.take(event);
        self.refused.keep(pushed)
    }

    fn take(&mut self, event: &Value) -> Result<Option<ToolCall>, StreamError> {
        let at = At(self.events);
        self.events += 1;
        if self.stopped {
            return Err(at.malformed("$", "an event after `message_stop`"));
        }
        let Some(kind_name) = event.get("type").and_then(Value::as_str) else {
            return Err(at.malformed(
                "$",
                format!(
                    "expected an event object with a `type`, got {}",
                    kind(event)
                ),
            ));
        };
        match kind_name {
            "message_start" => {
                // The first event, once: a second (a proxy retrying) or a
                // late one would give its content's calls again.
                if self.started
                    || !self.blocks.is_empty()
                    || !self.calls.is_empty()
                    || self.stop_reason.is_some()
                {
                    return Err(at.malformed("$.type", "a message_start after the message started"));
                }
                self.started = true;
                if let Some(model) = event.pointer("/message/model").and_then(Value::as_str) {
                    model.clone_into(&mut self.model);
                }
                // A finished message replayed here carries its stop reason;
                // a `message_delta` after it still says the last word.
                if let Some(reason) = event
                    .pointer("/message/stop_reason")
                    .and_then(Value::as_str)
                {
                    self.stop_reason = Some(reason.to_owned());
                }
                // The API starts every message empty; a proxy replaying a
                // finished message may put its content here. Its tool_use
                // blocks are calls (given by `finish`), its text is text.
                if let Some(message) = event.get("message")
                    && message
                        .get("content")
                        .and_then(Value::as_array)
                        .is_some_and(|content| !content.is_empty())
                {
                    let blocks = message["content"].as_array().map_or(0, Vec::len);
                    if blocks > stream_limits::MAX_PARTS {
                        return Err(at.over_limit(
                            "$.message.content",
                            stream_limits::too_many_parts("content blocks"),
                        ));
                    }
                    let whole = tool_use_calls(message).map_err(|error| {
                        let path = error.path().strip_prefix('$').unwrap_or(error.path());
                        at.malformed(&format!("$.message{path}"), error.message())
                    })?;
                    if whole.calls.len() > stream_limits::MAX_CALLS {
                        return Err(
                            at.over_limit("$.message.content", stream_limits::too_many_calls())
                        );
                    }
                    for call in &whole.calls {
                        hold(
                            at,
                            "$.message.content",
                            &mut self.held_arguments,
                            call.call_id.len() + call.name.len() + call.arguments.len(),
                            stream_limits::MAX_ARGUMENT_BYTES,
                            stream_limits::too_much_arguments,
                        )?;
                    }
                    self.opened_calls = whole.calls.len();
                    self.start_blocks = blocks;
                    self.calls.extend(whole.calls);
                    for block in message["content"].as_array().into_iter().flatten() {
                        if block["type"] == "text" {
                            let text = block["text"].as_str().unwrap_or_default();
                            hold(
                                at,
                                "$.message.content",
                                &mut self.held_text,
                                text.len(),
                                stream_limits::MAX_TEXT_BYTES,
                                stream_limits::too_much_text,
                            )?;
                            self.start_text.push_str(text);
                        }
                    }
                }
                Ok(None)
            }
            "content_block_start" => {
                let index = index(at, event)?;
                if self.blocks.contains_key(&index) {
                    return Err(
                        at.malformed("$.index", format!("content block {index} started twice"))
                    );
                }
                let Some(block) = event.get("content_block") else {
                    return Err(at.malformed(
                        "$.content_block",
                        format!("content_block_start {index} without `content_block`"),
                    ));
                };
                if self.blocks.len() + self.start_blocks >= stream_limits::MAX_PARTS {
                    return Err(at.over_limit(
                        "$.content_block",
                        stream_limits::too_many_parts("content blocks"),
                    ));
                }
                let block = match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
                        hold(
                            at,
                            "$.content_block.text",
                            &mut self.held_text,
                            text.len(),
                            stream_limits::MAX_TEXT_BYTES,
                            stream_limits::too_much_text,
                        )?;
                        Block::Text(text.to_owned())
                    }
                    Some("tool_use") => {
                        if self.opened_calls >= stream_limits::MAX_CALLS {
                            return Err(
                                at.over_limit("$.content_block", stream_limits::too_many_calls())
                            );
                        }
                        let field = |key: &str| {
                            block
                                .get(key)
                                .and_then(Value::as_str)
                                .map(str::to_owned)
                                .ok_or_else(|| {
                                    at.malformed(
                                        &format!("$.content_block.{key}"),
                                        format!("tool_use block {index} without a string `{key}`"),
                                    )
                                })
                        };
                        let start_input = block
                            .get("input")
                            .filter(|i| i.as_object().is_some_and(|m| !m.is_empty()))
                            .cloned();
                        let id = field("id")?;
                        let open = self
                            .blocks
                            .values()
                            .any(|b| matches!(b, Block::ToolUse { id: open, .. } if *open == id));
                        if open || self.calls.iter().any(|call| call.call_id == id) {
                            return Err(at.malformed(
                                "$.content_block.id",
                                format!(
                                    "a second tool_use block with the id `{id}`; two calls with \
                                     one id cannot be told apart, so no call is given out"
                                ),
                            ));
                        }
                        let name = field("name")?;
                        let start_bytes = start_input.as_ref().map_or(0, |i| i.to_string().len());
                        hold(
                            at,
                            "$.content_block",
                            &mut self.held_arguments,
                            id.len() + name.len() + start_bytes,
                            stream_limits::MAX_ARGUMENT_BYTES,
                            stream_limits::too_much_arguments,
                        )?;
                        self.opened_calls += 1;
                        Block::ToolUse {
                            id,
                            name,
                            start_input,
                            json: String::new(),
                        }
                    }
                    _ => Block::Other,
                };
                self.blocks.insert(index, block);
                Ok(None)
            }
            "content_block_delta" => {
                let index = index(at, event)?;
                if self.closed.contains(&index) {
                    return Err(at.malformed(
                        "$.index",
                        format!("a delta for content block {index} after its content_block_stop"),
                    ));
                }
                let limit = self.max_argument_bytes;
                let (held_arguments, held_text) = (&mut self.held_arguments, &mut self.held_text);
                let Some(block) = self.blocks.get_mut(&index) else {
                    return Err(at.malformed(
                        "$.index",
                        format!("a delta for content block {index}, which did not start"),
                    ));
                };
                let delta = event.get("delta");
                match (
                    block,
                    delta.and_then(|d| d.get("type")).and_then(Value::as_str),
                ) {
                    (Block::Text(text), Some("text_delta")) => {
                        let piece = delta
                            .and_then(|d| d.get("text"))
                            .and_then(Value::as_str)
                            .unwrap_or("");
                        hold(
                            at,
                            "$.delta.text",
                            held_text,
                            piece.len(),
                            stream_limits::MAX_TEXT_BYTES,
                            stream_limits::too_much_text,
                        )?;
                        text.push_str(piece);
                    }
                    (Block::ToolUse { id, json, .. }, Some("input_json_delta")) => {
                        let Some(piece) = delta
                            .and_then(|d| d.get("partial_json"))
                            .and_then(Value::as_str)
                        else {
                            return Err(at.malformed(
                                "$.delta.partial_json",
                                format!("input_json_delta {index} without a string `partial_json`"),
                            ));
                        };
                        if json.len() + piece.len() > limit {
                            return Err(at.error(
                                StreamErrorKind::TooLarge,
                                "$.delta.partial_json",
                                format!(
                                    "the arguments of tool call {id} are longer than {limit} bytes"
                                ),
                            ));
                        }
                        hold(
                            at,
                            "$.delta.partial_json",
                            held_arguments,
                            piece.len(),
                            stream_limits::MAX_ARGUMENT_BYTES,
                            stream_limits::too_much_arguments,
                        )?;
                        json.push_str(piece);
                    }
                    // A call's arguments sent to a text block: a call
                    // mislabelled, which would be lost if skipped.
                    (Block::Text(_), Some("input_json_delta")) => {
                        return Err(at.malformed(
                            "$.delta.type",
                            format!("an input_json_delta for text block {index}"),
                        ));
                    }
                    (Block::ToolUse { .. }, other) => {
                        return Err(at.malformed(
                            "$.delta.type",
                            format!(
                                "a {} delta for tool_use block {index}",
                                other.unwrap_or("untyped")
                            ),
                        ));
                    }
                    // Thinking, signature and citation deltas, and deltas
                    // of block types this version does not know.
                    _ => {}
                }
                Ok(None)
            }
            "content_block_stop" => {
                let index = index(at, event)?;
                if self.blocks.contains_key(&index) && !self.closed.insert(index) {
                    return Err(
                        at.malformed("$.index", format!("content block {index} stopped twice"))
                    );
                }
                let Some(block) = self.blocks.get_mut(&index) else {
                    return Err(at.malformed(
                        "$.index",
                        format!("content block {index} stopped without starting"),
                    ));
                };
                let (id, name, start_input, json) = match block {
                    Block::ToolUse {
                        id,
                        name,
                        start_input,
                        json,
                    } => (id, name, start_input, json),
                    Block::Text(_) | Block::Other => return Ok(None),
                };
                let arguments = if json.trim().is_empty() {
                    start_input
                        .as_ref()
                        .map_or_else(|| "{}".to_owned(), Value::to_string)
                } else {
                    std::mem::take(json)
                };
                if !serde_json::from_str::<Value>(&arguments).is_ok_and(|v| v.is_object()) {
                    return Err(at
                        .error(
                            StreamErrorKind::Truncated,
                            "$",
                            format!(
                                "the input of tool_use block {index} ({name}) is not a whole \
                                 JSON object"
                            ),
                        )
                        .with_open_calls(vec![id.clone()]));
                }
                let call = ToolCall::new(id.clone(), name.clone(), arguments);
                self.blocks.insert(index, Block::Other);
                self.calls.push(call.clone());
                Ok(Some(call))
            }
            "message_delta" => {
                if let Some(reason) = event.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop_reason = Some(reason.to_owned());
                }
                Ok(None)
            }
            "message_stop" => {
                self.stopped = true;
                Ok(None)
            }
            "error" => {
                let message = event
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("no message");
                Err(at.error(
                    StreamErrorKind::Api,
                    "$.error",
                    format!("the API sent an error event: {message}"),
                ))
            }
            _ => Ok(None),
        }
    }

    /// The text of the response's text blocks so far, in block order.
    pub fn text(&self) -> String {
        let blocks = self.blocks.values().filter_map(|b| match b {
            Block::Text(text) => Some(text.as_str()),
            _ => None,
        });
        std::iter::once(self.start_text.as_str())
            .chain(blocks)
            .collect()
    }

    /// All calls of the response, in the order their blocks finished, once
    /// the stream ended with `message_stop`, every block stopped, and the
    /// response stopped with `stop_reason: "tool_use"`; with another stop
    /// reason (or none) its calls are [`StreamErrorKind::Truncated`], since
    /// `max_tokens` may have cut a block before its first delta.
    pub fn finish(self) -> Result<ResponseCalls, StreamError> {
        self.refused.finish()?;
        let open: Vec<String> = self
            .blocks
            .values()
            .filter_map(|b| match b {
                Block::ToolUse { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        // The API starts every message with `message_start`; a stream
        // without one is not a whole message.
        if !self.started && !self.calls.is_empty() {
            return Err(truncated("no message_start", self.calls));
        }
        if !open.is_empty() || !self.stopped {
            let reason = if self.stopped {
                "tool_use blocks without content_block_stop"
            } else {
                "no message_stop"
            };
            return Err(
                StreamError::at_end(StreamErrorKind::Truncated, reason).with_open_calls(open)
            );
        }
        // A call is whole only in a response that stopped to call tools:
        // `max_tokens` may close a `tool_use` block before its first delta,
        // leaving the `{}` of its start as if the model chose no arguments.
        if !self.calls.is_empty() && self.stop_reason.as_deref() != Some("tool_use") {
            let reason = match &self.stop_reason {
                Some(reason) => format!(
                    "the response stopped with `{reason}`, not `tool_use`: its tool_use blocks \
                     may be cut off"
                ),
                None => "the response gave no stop_reason".to_owned(),
            };
            return Err(truncated(reason, self.calls));
        }
        Ok(ResponseCalls {
            model: self.model,
            stop_reason: self.stop_reason,
            calls: self.calls,
        })
    }
}

/// The error at the end of a stream whose `calls` are not given out.
fn truncated(reason: impl Into<String>, calls: Vec<ToolCall>) -> StreamError {
    StreamError::at_end(StreamErrorKind::Truncated, reason)
        .with_open_calls(calls.into_iter().map(|call| call.call_id).collect())
}

/// Counts `bytes` more into `held`, within `limit`; past it, the stream is
/// refused with `message()` at `path` of the event `at`, and nothing is
/// counted.
fn hold(
    at: At,
    path: &str,
    held: &mut usize,
    bytes: usize,
    limit: usize,
    message: fn() -> String,
) -> Result<(), StreamError> {
    match held.checked_add(bytes) {
        Some(total) if total <= limit => {
            *held = total;
            Ok(())
        }
        _ => Err(at.over_limit(path, message())),
    }
}

fn index(at: At, event: &Value) -> Result<u64, StreamError> {
    event.get("index").and_then(Value::as_u64).ok_or_else(|| {
        at.malformed(
            "$.index",
            format!("a {} event without an integer `index`", event["type"]),
        )
    })
}

/// The stream's side of the provider contract: the calls it assembles are
/// answered as a whole response's are (`Toolbox::answer_calls::<ToolSet>`;
/// mark them with `ToolSet::mark` first to match enum values of strict
/// tools ignoring case).
impl tool_core::provider::Assembler for StreamAssembler {
    type Provider = crate::wire::ToolSet;
    type Error = StreamError;

    fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        StreamAssembler::push(self, event).map(|call| call.into_iter().collect())
    }

    fn finish(self) -> Result<ResponseCalls, StreamError> {
        StreamAssembler::finish(self)
    }
}
