//! Whole tool calls from a streamed Chat Completions response
//! (`"stream": true`): the `choices[].delta.tool_calls[]` fragments of each
//! chunk, joined by their `index`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use tool_core::ToolCall;
use tool_core::outcome::stream_limits::Refusal;

use crate::calls::{Api, ResponseCalls};
use tool_core::outcome::stream_limits;

use crate::stream::{
    Event, MAX_STREAMED_CALLS, StreamError, StreamErrorKind, api_error, append, hold,
    too_many_calls, whole_arguments,
};

/// Assembles the tool calls of a streamed Chat Completions response, chunk
/// by chunk.
///
/// Feed each chunk (the JSON of one `data:` line, without the final
/// `[DONE]`) to [`push`](Self::push). A choice's calls are whole when the
/// choice's `finish_reason` arrives: `push` gives them then, in `index`
/// order, ready to dispatch. [`finish`](Self::finish) checks that the
/// stream ended properly and gives all calls with the model, as the
/// [`ResponseCalls`] that `Toolbox::answer_calls::<Api>` runs as one turn.
///
/// Fragments of several parallel calls may interleave in any order; the
/// first fragment of a call carries its `id` and name, later ones only
/// `index` and a piece of `arguments`. A stream that stops before
/// `finish_reason`, or whose choice with calls finishes for `length` or
/// `content_filter`, is an error: no half call is ever given out. So is a
/// response past the bounds every provider's assembler shares
/// ([`stream_limits`](crate::stream_limits)): more calls, bytes of ids, names
/// and arguments over all calls, or choices than one response may have.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::ChatCompletionsStream;
///
/// let mut stream = ChatCompletionsStream::new();
/// let first = json!({"model": "gpt-4.1", "choices": [{"index": 0, "delta": {"tool_calls": [
///     {"index": 0, "id": "call_1", "type": "function",
///      "function": {"name": "get_inventory", "arguments": "{\"sku\":"}}]}}]});
/// assert!(stream.push(&first)?.is_empty());
/// let rest = json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///     {"index": 0, "function": {"arguments": " \"SKU-1\"}"}}]}}]});
/// stream.push(&rest)?;
/// let whole = stream.push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))?;
/// assert_eq!(whole[0].arguments, r#"{"sku": "SKU-1"}"#);
/// let calls = stream.finish()?;
/// assert_eq!(calls.model, "gpt-4.1");
/// # Ok::<(), tool_contract::openai::StreamError>(())
/// ```
#[derive(Debug, Default)]
pub struct ChatCompletionsStream {
    events: usize,
    model: Option<String>,
    /// Every choice seen, by index, with its finish reason once it came
    /// (quoted and cut, as an error echoes it: 4,096 choices hold little).
    choices: BTreeMap<usize, Option<String>>,
    /// The one choice with tool calls.
    calling_choice: Option<usize>,
    /// Its calls by `index`.
    partial: BTreeMap<usize, Partial>,
    /// Its calls once whole.
    done: Vec<ToolCall>,
    /// The call the last fragment went to.
    last_index: Option<usize>,
    /// Bytes of ids, names and arguments held, over all calls.
    held: usize,
    /// The error that refused the stream: every later push, and `finish`,
    /// give it again.
    refused: Refusal<StreamError>,
}

#[derive(Debug, Default)]
struct Partial {
    id: Option<String>,
    /// Whether the first `type` given was `function` (the text is not
    /// kept).
    function: Option<bool>,
    name: String,
    arguments: String,
}

impl ChatCompletionsStream {
    /// An assembler before the first chunk.
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes in one chunk; gives the calls it makes whole (those of a choice
    /// whose `finish_reason` is in this chunk), else nothing.
    ///
    /// Once a push is refused, the stream is: every later push, and
    /// [`finish`](Self::finish), give that error again (what is left of a
    /// refused stream is not the response the model sent).
    pub fn push(&mut self, chunk: &Value) -> Result<Vec<ToolCall>, StreamError> {
        self.refused.check()?;
        let pushed = self.take(chunk);
        self.refused.keep(pushed)
    }

    fn take(&mut self, chunk: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let event = Event {
            number: self.events,
        };
        self.events += 1;
        let chunk = event.object(chunk, "$")?;
        api_error(&event, chunk)?;
        if let Some(model) = event.opt_string(chunk, "model", "$")? {
            self.model.get_or_insert_with(|| model.to_owned());
        }
        let choices = match chunk.get("choices") {
            // The last chunk with `stream_options.include_usage` has `[]`.
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(choices)) => choices,
            Some(other) => {
                return Err(event.error(
                    "$.choices",
                    format!("expected an array, got {}", crate::stream::kind(other)),
                ));
            }
        };
        let mut whole = Vec::new();
        for (i, choice) in choices.iter().enumerate() {
            let at = format!("$.choices[{i}]");
            let choice = event.object(choice, &at)?;
            let index = event.index(choice, "index", &at)?;
            if !self.choices.contains_key(&index) && self.choices.len() >= stream_limits::MAX_PARTS
            {
                return Err(event.failed(
                    StreamErrorKind::OverLimit,
                    format!("{at}.index"),
                    stream_limits::too_many_parts("choices"),
                ));
            }
            let finished = self.choices.entry(index).or_default();
            if let Some(reason) = finished {
                return Err(event.error(
                    &at,
                    format!("choice {index} goes on after it finished ({reason})"),
                ));
            }
            if let Some(delta) = choice.get("delta").filter(|d| !d.is_null()) {
                let delta = event.object(delta, &format!("{at}.delta"))?;
                self.take_delta(&event, index, delta, &format!("{at}.delta"))?;
            }
            if let Some(reason) = event.opt_string(choice, "finish_reason", &at)? {
                self.choices
                    .insert(index, Some(tool_core::words::echo(reason)));
                if self.calling_choice == Some(index) {
                    whole = self.complete(&event, reason, &at)?;
                }
            }
        }
        Ok(whole)
    }

    fn take_delta(
        &mut self,
        event: &Event,
        choice: usize,
        delta: &Map<String, Value>,
        at: &str,
    ) -> Result<(), StreamError> {
        let tool_calls = match delta.get("tool_calls") {
            None | Some(Value::Null) => return Ok(()),
            Some(Value::Array(tool_calls)) => tool_calls,
            Some(other) => {
                return Err(event.error(
                    format!("{at}.tool_calls"),
                    format!("expected an array, got {}", crate::stream::kind(other)),
                ));
            }
        };
        if tool_calls.is_empty() {
            return Ok(());
        }
        match self.calling_choice {
            None => self.calling_choice = Some(choice),
            Some(first) if first == choice => {}
            Some(first) => {
                return Err(event.error(
                    format!("{at}.tool_calls"),
                    format!(
                        "choices {first} and {choice} both have tool calls; they are \
                         alternatives and only one can be answered, so request `n: 1` when \
                         offering tools"
                    ),
                ));
            }
        }
        for (j, fragment) in tool_calls.iter().enumerate() {
            let at = format!("{at}.tool_calls[{j}]");
            let fragment = event.object(fragment, &at)?;
            let index = self.call_index(event, fragment, &at)?;
            // The calls given out count as well as those still partial.
            if !self.partial.contains_key(&index)
                && self.partial.len() + self.done.len() >= MAX_STREAMED_CALLS
            {
                return Err(too_many_calls(event, format!("{at}.index")));
            }
            self.last_index = Some(index);
            let call = self.partial.entry(index).or_default();
            if let Some(id) = event.opt_string(fragment, "id", &at)? {
                match &call.id {
                    Some(known) if known != id => {
                        return Err(event.error(
                            format!("{at}.id"),
                            format!("call {index} already has the id `{known}`, not `{id}`"),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        // Ids are held as long as names and arguments are.
                        hold(event, &format!("{at}.id"), &mut self.held, id.len())?;
                        call.id = Some(id.to_owned());
                    }
                }
            }
            if let Some(kind) = event.opt_string(fragment, "type", &at)? {
                call.function.get_or_insert(kind == "function");
            }
            if let Some(function) = fragment.get("function").filter(|f| !f.is_null()) {
                let at = format!("{at}.function");
                let function = event.object(function, &at)?;
                // Names arrive whole in the first fragment from OpenAI; some
                // compatible servers send them in pieces.
                if let Some(name) = event.opt_string(function, "name", &at)? {
                    append(
                        event,
                        &format!("{at}.name"),
                        &mut call.name,
                        &mut self.held,
                        name,
                    )?;
                }
                if let Some(arguments) = event.opt_string(function, "arguments", &at)? {
                    append(
                        event,
                        &format!("{at}.arguments"),
                        &mut call.arguments,
                        &mut self.held,
                        arguments,
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The call a fragment belongs to: its `index`; without one (some
    /// compatible servers leave it out), the call with the fragment's `id`,
    /// a new call for a new `id`, or else the call the last fragment went to.
    fn call_index(
        &self,
        event: &Event,
        fragment: &Map<String, Value>,
        at: &str,
    ) -> Result<usize, StreamError> {
        if fragment.contains_key("index") {
            return event.index(fragment, "index", at);
        }
        if let Some(id) = event.opt_string(fragment, "id", at)? {
            let known = self
                .partial
                .iter()
                .find(|(_, call)| call.id.as_deref() == Some(id))
                .map(|(index, _)| *index);
            let next = self
                .partial
                .keys()
                .next_back()
                .map_or(0, |last| last.saturating_add(1));
            return Ok(known.unwrap_or(next));
        }
        self.last_index.ok_or_else(|| {
            event.error(
                format!("{at}.index"),
                "missing, and there is no call to add this fragment to",
            )
        })
    }

    /// The calling choice finished for `reason`: its calls are whole, or the
    /// stream is refused.
    fn complete(
        &mut self,
        event: &Event,
        reason: &str,
        at: &str,
    ) -> Result<Vec<ToolCall>, StreamError> {
        let pending = self.pending_ids();
        if matches!(reason, "length" | "content_filter") {
            return Err(event.truncated(
                format!("{at}.finish_reason"),
                format!(
                    "the choice with tool calls finished for `{reason}`, so its last call may be \
                     cut off; no call is given out"
                ),
                pending,
            ));
        }
        let mut whole = Vec::new();
        for (index, call) in std::mem::take(&mut self.partial) {
            if call.function == Some(false) {
                continue;
            }
            let Some(id) = call.id else {
                return Err(event.error(at, format!("call {index} finished without an `id`")));
            };
            if call.name.is_empty() {
                return Err(
                    event.error(at, format!("call {index} (`{id}`) finished without a name"))
                );
            }
            if self
                .done
                .iter()
                .chain(&whole)
                .any(|done| done.call_id == id)
            {
                return Err(event.error(
                    at,
                    format!(
                        "call {index} has the id `{id}` of another call; two calls with one id \
                         cannot be told apart, so no call is given out"
                    ),
                ));
            }
            if !whole_arguments(&call.arguments) {
                return Err(event.truncated(
                    at,
                    format!(
                        "call {index} (`{id}`) finished with arguments that are not whole JSON; \
                         they were cut off, so no call is given out"
                    ),
                    pending,
                ));
            }
            whole.push(ToolCall::new(id, call.name, call.arguments));
        }
        self.done.extend(whole.iter().cloned());
        Ok(whole)
    }

    /// The ids of the calling choice's calls not yet given out, in `index`
    /// order (a call whose `id` has not come yet is left out).
    fn pending_ids(&self) -> Vec<String> {
        self.partial
            .values()
            .filter(|call| call.function != Some(false))
            .filter_map(|call| call.id.clone())
            .collect()
    }

    /// The end of the stream: gives every call, in order, with the model.
    /// An error when no chunk came, when a choice has not finished, or when
    /// no chunk named the model.
    pub fn finish(self) -> Result<ResponseCalls, StreamError> {
        self.refused.check()?;
        if self.events == 0 {
            return Err(StreamError::at_end(
                StreamErrorKind::Truncated,
                "the stream ended before its first chunk",
            ));
        }
        if let Some((index, _)) = self.choices.iter().find(|(_, reason)| reason.is_none()) {
            let (pending, open_calls) = if self.calling_choice == Some(*index) {
                (
                    format!(" with {} tool call(s) not yet whole", self.partial.len()),
                    self.pending_ids(),
                )
            } else {
                (String::new(), Vec::new())
            };
            return Err(StreamError::at_end(
                StreamErrorKind::Truncated,
                format!(
                    "the stream ended before choice {index} finished{pending}; it was cut off, \
                     so no call is given out"
                ),
            )
            .with_open_calls(open_calls));
        }
        if self.choices.is_empty() {
            return Err(StreamError::at_end(
                StreamErrorKind::Truncated,
                "the stream ended without any choice",
            ));
        }
        let model = self.model.ok_or_else(|| {
            StreamError::at_end(StreamErrorKind::Malformed, "no chunk named the `model`")
        })?;
        Ok(ResponseCalls::new(Api::ChatCompletions, model, self.done))
    }
}

/// The stream's side of the provider contract: the calls it assembles are
/// answered as a whole response's are (`Toolbox::answer_calls::<Api>`).
impl tool_core::provider::Assembler for ChatCompletionsStream {
    type Provider = crate::calls::Api;
    type Error = StreamError;

    fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        ChatCompletionsStream::push(self, event)
    }

    fn finish(self) -> Result<ResponseCalls, StreamError> {
        ChatCompletionsStream::finish(self)
    }
}
