//! Whole tool calls from a streamed Responses API response
//! (`"stream": true`): `function_call` output items, their argument deltas,
//! and the events that close them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};
use tool_core::ToolCall;
use tool_core::outcome::stream_limits::Refusal;

use crate::calls::{Api, ResponseCalls};
use crate::stream::{
    Event, MAX_STREAMED_CALLS, StreamError, StreamErrorKind, api_error, append, hold, too_large,
    too_many_calls, whole_arguments,
};

/// Assembles the function calls of a streamed Responses API response, event
/// by event.
///
/// Feed each event (the JSON of one `data:` line) to [`push`](Self::push).
/// A call opens with `response.output_item.added` (a `function_call` item
/// with `call_id` and `name`), grows with
/// `response.function_call_arguments.delta`, and is closed at
/// `response.output_item.done`, with the arguments of the finished item
/// (which are the whole text). No call is given out before
/// `response.completed`: a response may still end `response.incomplete`
/// or `response.failed` after its calls closed, and the whole-response
/// reader answers the calls of such a response `CALL_NOT_RUN`; so `push`
/// gives every call at `response.completed`, ready to dispatch, and
/// [`finish`](Self::finish) gives them again with the model, as the
/// [`ResponseCalls`] that `Toolbox::answer_calls::<Api>` runs as one turn.
///
/// A stream that ends before `response.completed`, a `response.incomplete`
/// or `response.failed` event, an `error` event, a `response.completed`
/// whose response did not complete (its `status`, or a `function_call`
/// item's, as [`unfinished`](crate::unfinished) reads it: the paths agree),
/// or a call still open at the end is an error: no half call is ever given out; so is a response
/// past the bounds every provider's assembler shares
/// ([`stream_limits`](crate::stream_limits)), a delta after its call's
/// `response.function_call_arguments.done`, and an output index opened
/// again after its call was done. Other events (text,
/// reasoning, built-in tools) are skipped.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::ResponsesStream;
///
/// let mut stream = ResponsesStream::new();
/// for event in [
///     json!({"type": "response.created", "response": {"id": "resp_1", "model": "gpt-4.1", "output": []}}),
///     json!({"type": "response.output_item.added", "output_index": 0, "item": {
///         "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_inventory",
///         "arguments": "", "status": "in_progress"}}),
///     json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"sku\": \"SKU-1\"}"}),
///     json!({"type": "response.output_item.done", "output_index": 0, "item": {
///         "type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_inventory",
///         "arguments": "{\"sku\": \"SKU-1\"}", "status": "completed"}}),
/// ] {
///     assert!(stream.push(&event)?.is_empty());
/// }
/// let whole = stream.push(&json!({"type": "response.completed", "response": {"id": "resp_1", "model": "gpt-4.1"}}))?;
/// assert_eq!(whole[0].call_id, "call_1");
/// assert_eq!(stream.finish()?.calls, whole);
/// # Ok::<(), tool_contract::openai::StreamError>(())
/// ```
#[derive(Debug, Default)]
pub struct ResponsesStream {
    events: usize,
    model: Option<String>,
    completed: bool,
    /// Open calls by `output_index`.
    open: BTreeMap<usize, Partial>,
    /// The output indexes of calls done (at most [`MAX_STREAMED_CALLS`]):
    /// none is opened again.
    closed: BTreeSet<usize>,
    done: Vec<ToolCall>,
    /// Bytes of ids, names and arguments held, over all calls.
    held: usize,
    /// The error that refused the stream: every later push, and `finish`,
    /// give it again.
    refused: Refusal<StreamError>,
}

#[derive(Debug)]
struct Partial {
    item_id: Option<String>,
    call_id: String,
    name: String,
    arguments: String,
    /// `response.function_call_arguments.done` gave the whole text.
    arguments_done: bool,
}

impl ResponsesStream {
    /// The `function_call` items of `response.completed`'s `output` that
    /// no `response.output_item.done` gave (a compatible server may send
    /// the whole output only there): checked as a done item is, and given
    /// by [`finish`](Self::finish). Items already done are not read again.
    fn adopt_completed_calls(
        &mut self,
        reader: &Event,
        map: &Map<String, Value>,
    ) -> Result<(), StreamError> {
        let output = match map.get("response").and_then(|r| r.get("output")) {
            Some(Value::Array(output)) => output,
            _ => return Ok(()),
        };
        let streamed = self.done.len();
        let mut listed: Vec<&str> = Vec::new();
        for (index, item) in output.iter().enumerate() {
            let at = format!("$.response.output[{index}]");
            let item = reader.object(item, &at)?;
            if item.get("type").and_then(Value::as_str) != Some("function_call") {
                continue;
            }
            let call_id = reader.string(item, "call_id", &at)?;
            let name = reader.string(item, "name", &at)?;
            let arguments = reader.string(item, "arguments", &at)?;
            if listed.contains(&call_id) {
                return Err(reader.error(
                    format!("{at}.call_id"),
                    format!(
                        "a second call with the id `{call_id}`; two calls with one id cannot be \
                         told apart, so no call is given out"
                    ),
                ));
            }
            listed.push(call_id);
            // The call as it was streamed, repeated in the whole output.
            match self.done[..streamed]
                .iter()
                .find(|done| done.call_id == call_id)
            {
                Some(done) if done.name == name && done.arguments == arguments => continue,
                Some(_) => {
                    return Err(reader.error(
                        format!("{at}.call_id"),
                        format!(
                            "call `{call_id}` in the completed response is not the call streamed \
                             with that id; two calls with one id cannot be told apart"
                        ),
                    ));
                }
                None => {}
            }
            if let Some(status) = reader.opt_string(item, "status", &at)?
                && status != "completed"
            {
                return Err(reader.truncated(
                    format!("{at}.status"),
                    format!("call `{call_id}` is done with status `{status}`; it is not whole"),
                    self.withheld(Some(call_id)),
                ));
            }
            if !whole_arguments(arguments) {
                return Err(reader.truncated(
                    format!("{at}.arguments"),
                    format!(
                        "call `{call_id}` is done with arguments that are not whole JSON; they \
                         were cut off, so no call is given out"
                    ),
                    self.withheld(Some(call_id)),
                ));
            }
            if self.done.len() >= MAX_STREAMED_CALLS {
                return Err(too_many_calls(reader, at));
            }
            hold(
                reader,
                &at,
                &mut self.held,
                call_id.len() + name.len() + arguments.len(),
            )?;
            self.done.push(ToolCall::new(call_id, name, arguments));
        }
        Ok(())
    }

    /// An assembler before the first event.
    pub fn new() -> Self {
        Self::default()
    }

    /// The ids of the calls a refused response keeps from being given out
    /// (none is given before `response.completed`): those done, in order of
    /// completion, then those open, by output index, then `also` (the call
    /// being refused) if it is neither.
    fn withheld(&self, also: Option<&str>) -> Vec<String> {
        let mut ids: Vec<String> = self
            .done
            .iter()
            .map(|call| call.call_id.clone())
            .chain(self.open.values().map(|call| call.call_id.clone()))
            .collect();
        if let Some(id) = also
            && !ids.iter().any(|known| known == id)
        {
            ids.push(id.to_owned());
        }
        ids
    }

    /// Takes in one event; at `response.completed`, gives every call of the
    /// response, in order of completion (the calls are whole only once the
    /// response is), else nothing.
    ///
    /// Once a push is refused, the stream is: every later push, and
    /// [`finish`](Self::finish), give that error again (what is left of a
    /// refused stream is not the response the model sent).
    pub fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        self.refused.check()?;
        let pushed = self.take(event);
        self.refused.keep(pushed)
    }

    fn take(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let reader = Event {
            number: self.events,
        };
        self.events += 1;
        let map = reader.object(event, "$")?;
        if self.completed {
            return Err(reader.error("$", "an event after `response.completed`"));
        }
        let kind = reader.string(map, "type", "$")?;
        match kind {
            "error" => {
                let message = reader
                    .opt_string(map, "message", "$")?
                    .unwrap_or("(no message)");
                Err(reader.failed(
                    StreamErrorKind::Api,
                    "$",
                    format!("the API sent an error: {message}"),
                ))
            }
            "response.created" | "response.in_progress" => {
                self.take_model(&reader, map)?;
                Ok(Vec::new())
            }
            "response.completed" => {
                self.take_model(&reader, map)?;
                // The whole-response reader answers the calls of a response
                // that did not complete (its status, or a call's) not run;
                // the stream gives none of them either.
                if let Some(response) = map.get("response")
                    && let Some(reason) = crate::calls::unfinished(response)
                {
                    return Err(reader.truncated(
                        "$.response",
                        format!(
                            "`response.completed` carries a response that did not complete \
                             ({}); no call is given out",
                            tool_core::words::echo(&reason)
                        ),
                        self.withheld(None),
                    ));
                }
                if let Some((_, call)) = self.open.iter().next() {
                    return Err(reader.truncated(
                        "$",
                        format!(
                            "the response completed with call `{}` still open",
                            call.call_id
                        ),
                        self.withheld(None),
                    ));
                }
                self.adopt_completed_calls(&reader, map)?;
                self.completed = true;
                Ok(self.done.clone())
            }
            "response.incomplete" | "response.failed" => {
                let response = map.get("response").and_then(Value::as_object);
                let why = response
                    .and_then(|r| {
                        r.get("incomplete_details")
                            .and_then(|d| d.get("reason"))
                            .or_else(|| r.get("error").and_then(|e| e.get("message")))
                    })
                    .and_then(Value::as_str)
                    .unwrap_or("no reason given");
                let message =
                    format!("the response ended as `{kind}` ({why}); no call is given out");
                // A failed response is the API's error; an incomplete one
                // was cut off.
                Err(if kind == "response.failed" {
                    reader.failed(StreamErrorKind::Api, "$.type", message)
                } else {
                    reader.truncated("$.type", message, self.withheld(None))
                })
            }
            "response.output_item.added" => {
                self.open_item(&reader, map)?;
                Ok(Vec::new())
            }
            "response.function_call_arguments.delta" => {
                let index = reader.index(map, "output_index", "$")?;
                let Some(call) = self.open.get_mut(&index) else {
                    return Err(reader.error(
                        "$.output_index",
                        format!("arguments for output {index}, which is no open function call"),
                    ));
                };
                check_item_id(&reader, map, call)?;
                let delta = reader.string(map, "delta", "$")?;
                if call.arguments_done {
                    return Err(reader.error(
                        "$.delta",
                        format!(
                            "arguments for call `{}` after its \
                             `response.function_call_arguments.done`",
                            call.call_id
                        ),
                    ));
                }
                append(
                    &reader,
                    "$.delta",
                    &mut call.arguments,
                    &mut self.held,
                    delta,
                )?;
                Ok(Vec::new())
            }
            "response.function_call_arguments.done" => {
                let index = reader.index(map, "output_index", "$")?;
                let Some(call) = self.open.get_mut(&index) else {
                    return Err(reader.error(
                        "$.output_index",
                        format!("arguments for output {index}, which is no open function call"),
                    ));
                };
                check_item_id(&reader, map, call)?;
                // The whole text: it replaces what the deltas added up to.
                let arguments = reader.string(map, "arguments", "$")?;
                self.held -= call.arguments.len();
                call.arguments.clear();
                call.arguments_done = true;
                append(
                    &reader,
                    "$.arguments",
                    &mut call.arguments,
                    &mut self.held,
                    arguments,
                )?;
                Ok(Vec::new())
            }
            "response.output_item.done" => {
                self.close_item(&reader, map)?;
                Ok(Vec::new())
            }
            _ => {
                api_error(&reader, map)?;
                Ok(Vec::new())
            }
        }
    }

    fn take_model(&mut self, reader: &Event, map: &Map<String, Value>) -> Result<(), StreamError> {
        let Some(response) = map.get("response") else {
            return Ok(());
        };
        let response = reader.object(response, "$.response")?;
        if let Some(model) = reader.opt_string(response, "model", "$.response")? {
            self.model.get_or_insert_with(|| model.to_owned());
        }
        Ok(())
    }

    fn open_item(&mut self, reader: &Event, map: &Map<String, Value>) -> Result<(), StreamError> {
        let index = reader.index(map, "output_index", "$")?;
        let item = reader.object(map.get("item").unwrap_or(&Value::Null), "$.item")?;
        if reader.string(item, "type", "$.item")? != "function_call" {
            return Ok(());
        }
        if self.open.contains_key(&index) || self.closed.contains(&index) {
            return Err(reader.error("$.output_index", format!("output {index} is opened twice")));
        }
        if self.open.len() + self.done.len() >= MAX_STREAMED_CALLS {
            return Err(too_many_calls(reader, "$.item"));
        }
        let item_id = reader.opt_string(item, "id", "$.item")?.map(str::to_owned);
        let call_id = reader.string(item, "call_id", "$.item")?.to_owned();
        // The ids are held as long as the call is: counted as its name and
        // arguments are.
        hold(
            reader,
            "$.item.call_id",
            &mut self.held,
            item_id.as_ref().map_or(0, String::len) + call_id.len(),
        )?;
        let mut name = String::new();
        let given_name = reader.string(item, "name", "$.item")?;
        append(reader, "$.item.name", &mut name, &mut self.held, given_name)?;
        let mut arguments = String::new();
        let initial = reader
            .opt_string(item, "arguments", "$.item")?
            .unwrap_or("");
        append(
            reader,
            "$.item.arguments",
            &mut arguments,
            &mut self.held,
            initial,
        )?;
        self.open.insert(
            index,
            Partial {
                item_id,
                call_id,
                name,
                arguments,
                arguments_done: false,
            },
        );
        Ok(())
    }

    fn close_item(&mut self, reader: &Event, map: &Map<String, Value>) -> Result<(), StreamError> {
        let index = reader.index(map, "output_index", "$")?;
        let item = reader.object(map.get("item").unwrap_or(&Value::Null), "$.item")?;
        if reader.string(item, "type", "$.item")? != "function_call" {
            return Ok(());
        }
        let Some(open) = self.open.remove(&index) else {
            return Err(reader.error(
                "$.output_index",
                format!("output {index} is done but was never added"),
            ));
        };
        let call_id = reader.string(item, "call_id", "$.item")?;
        if call_id != open.call_id {
            return Err(reader.error(
                "$.item.call_id",
                format!(
                    "output {index} opened as call `{}`, done as `{call_id}`",
                    open.call_id
                ),
            ));
        }
        if let Some(status) = reader.opt_string(item, "status", "$.item")?
            && status != "completed"
        {
            return Err(reader.truncated(
                "$.item.status",
                format!("call `{call_id}` is done with status `{status}`; it is not whole"),
                self.withheld(Some(call_id)),
            ));
        }
        let name = reader
            .opt_string(item, "name", "$.item")?
            .unwrap_or(&open.name);
        // The finished item's name and arguments are the whole text: they
        // replace what was held for the open call.
        self.held -= open.name.len() + open.arguments.len();
        let arguments = match reader.opt_string(item, "arguments", "$.item")? {
            Some(arguments) => arguments.to_owned(),
            None => open.arguments,
        };
        if arguments.len() > crate::MAX_STREAMED_ARGUMENT_BYTES {
            return Err(too_large(reader, "$.item.arguments"));
        }
        hold(
            reader,
            "$.item.arguments",
            &mut self.held,
            name.len() + arguments.len(),
        )?;
        if self.done.iter().any(|done| done.call_id == call_id) {
            return Err(reader.error(
                "$.item.call_id",
                format!(
                    "call `{call_id}` is done a second time; two calls with one id cannot be \
                     told apart, so no call is given out"
                ),
            ));
        }
        if !whole_arguments(&arguments) {
            return Err(reader.truncated(
                "$.item.arguments",
                format!(
                    "call `{call_id}` is done with arguments that are not whole JSON; they were \
                     cut off, so no call is given out"
                ),
                self.withheld(Some(call_id)),
            ));
        }
        self.closed.insert(index);
        self.done.push(ToolCall::new(call_id, name, arguments));
        Ok(())
    }

    /// The end of the stream: gives every call, in order of completion, with
    /// the model. An error unless `response.completed` came.
    pub fn finish(self) -> Result<ResponseCalls, StreamError> {
        self.refused.check()?;
        if !self.completed {
            let open: Vec<&str> = self.open.values().map(|c| c.call_id.as_str()).collect();
            let pending = if open.is_empty() {
                String::new()
            } else {
                format!(" with call(s) {} still open", open.join(", "))
            };
            return Err(StreamError::at_end(
                StreamErrorKind::Truncated,
                format!(
                    "the stream ended before `response.completed`{pending}; it was cut off, so \
                     no call is given out"
                ),
            )
            .with_open_calls(self.withheld(None)));
        }
        let model = self.model.ok_or_else(|| {
            StreamError::at_end(StreamErrorKind::Malformed, "no event named the `model`")
        })?;
        Ok(ResponseCalls::new(Api::Responses, model, self.done))
    }
}

/// A delta's `item_id`, when given, is the open item's.
fn check_item_id(
    reader: &Event,
    map: &Map<String, Value>,
    call: &Partial,
) -> Result<(), StreamError> {
    match (reader.opt_string(map, "item_id", "$")?, &call.item_id) {
        (Some(given), Some(known)) if given != known => Err(reader.error(
            "$.item_id",
            format!("item `{given}` at the output index of item `{known}`"),
        )),
        _ => Ok(()),
    }
}

/// The stream's side of the provider contract: the calls it assembles are
/// answered as a whole response's are (`Toolbox::answer_calls::<Api>`).
impl tool_core::provider::Assembler for ResponsesStream {
    type Provider = crate::calls::Api;
    type Error = StreamError;

    fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        ResponsesStream::push(self, event)
    }

    fn finish(self) -> Result<ResponseCalls, StreamError> {
        ResponsesStream::finish(self)
    }
}
