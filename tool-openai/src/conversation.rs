//! The Responses API's side of the agent loop: the request JSON, how the
//! conversation is carried from request to request (`previous_response_id`
//! or resending it), and how a response ends a turn. The loop itself is
//! tool-runtime's `Agent`; `agent::ResponsesAgent` names it for this API.

use serde_json::{Map, Value, json};
use tool_core::provider::{Conversation, Reading, Round, TurnEnd};
use tool_core::{Narrowing, ResponseError, ToolContract, ToolOutput};

use crate::calls::{Api, ResponseCalls, unfinished};
use crate::wire::{ToolSetError, allowed_tools, tools_for_responses};

/// The Responses API's endpoint, relative to the base URL
/// (`https://api.openai.com/v1`): `POST /v1/responses`.
pub const RESPONSES_PATH: &str = "responses";

/// The request keys [`AgentSettings::extra`] may not set: those the loop
/// writes itself, and `stream` (the loop reads whole responses).
const LOOP_KEYS: &[&str] = &[
    "model",
    "instructions",
    "previous_response_id",
    "input",
    "tools",
    "stream",
];

/// How the next request carries the conversation so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Continuation {
    /// `previous_response_id` names the last response and `input` holds
    /// only what is new: the `function_call_output` items, then a new user
    /// message. The API keeps the conversation, which needs `store` (the
    /// API's default).
    PreviousResponseId,
    /// Every request sends the whole conversation in `input`: each user
    /// message, and after it the model's `reasoning`, `message` and
    /// `function_call` items as the response gave them, each
    /// `function_call` before its `function_call_output`. Other items
    /// (built-in tools' calls, item types the loop does not know) are not
    /// sent back. Works with `"store": false`.
    Resend,
}

/// What the loop writes into every request besides the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSettings {
    /// The model, e.g. `gpt-4.1`.
    pub model: String,
    /// The system instructions (`instructions`), if any.
    pub instructions: Option<String>,
    /// How the conversation is carried from request to request.
    pub continuation: Continuation,
    /// The most requests one user turn (or one
    /// `resume`) may make; when the model still
    /// calls tools after that many, the turn ends with
    /// `TurnEnd::RequestLimit`. 0 counts as 1.
    pub max_requests: usize,
    /// Further request keys written as given, e.g. `"store": false`,
    /// `"parallel_tool_calls": true`, `"reasoning": {"effort": "low"}`.
    /// The keys the loop writes itself (`model`, `instructions`,
    /// `previous_response_id`, `input`, `tools`) and `stream` are refused.
    pub extra: Map<String, Value>,
}

impl AgentSettings {
    /// `model`, continued by `previous_response_id`, at most 8 requests a
    /// turn, no instructions, nothing extra.
    pub fn new(model: impl Into<String>) -> Self {
        AgentSettings {
            model: model.into(),
            instructions: None,
            continuation: Continuation::PreviousResponseId,
            max_requests: 8,
            extra: Map::new(),
        }
    }
}

/// The Responses API's conversation as the agent loop carries it.
#[derive(Debug)]
pub struct Responses {
    settings: AgentSettings,
    tools: Vec<Value>,
    previous_response_id: Option<String>,
    /// What was sent and received so far ([`Continuation::Resend`]).
    history: Vec<Value>,
    /// What the next request adds to the conversation.
    pending: Vec<Value>,
    /// What the request in flight added.
    sent: Vec<Value>,
    /// The response's id and the output items sent back with
    /// [`Continuation::Resend`], between reading a response and keeping it.
    read: Option<(Option<String>, Vec<Value>)>,
}

impl Responses {
    /// The settings every request is written with.
    pub fn settings(&self) -> &AgentSettings {
        &self.settings
    }
}

impl Conversation for Responses {
    type Provider = Api;
    type Settings = AgentSettings;
    type ToolSetError = ToolSetError;

    const LOOP_KEYS: &'static [&'static str] = LOOP_KEYS;
    const WRITES: &'static str = "model, instructions, previous_response_id, input and tools";

    fn extra(settings: &AgentSettings) -> &Map<String, Value> {
        &settings.extra
    }

    fn start(
        settings: AgentSettings,
        contracts: &[&'static ToolContract],
    ) -> Result<Self, ToolSetError> {
        Ok(Responses {
            tools: tools_for_responses(contracts)?,
            settings,
            previous_response_id: None,
            history: Vec::new(),
            pending: Vec::new(),
            sent: Vec::new(),
            read: None,
        })
    }

    fn provider(&self) -> &Api {
        &Api::Responses
    }

    fn tools(&self) -> &[Value] {
        &self.tools
    }

    fn max_requests(&self) -> usize {
        self.settings.max_requests
    }

    fn path(&self) -> String {
        RESPONSES_PATH.to_owned()
    }

    fn push_user(&mut self, text: &str) {
        self.pending.push(json!({"role": "user", "content": text}));
    }

    fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    fn request(&self) -> Value {
        let mut request = Map::new();
        request.insert("model".to_owned(), json!(self.settings.model));
        if let Some(instructions) = &self.settings.instructions {
            request.insert("instructions".to_owned(), json!(instructions));
        }
        let input = match self.settings.continuation {
            Continuation::PreviousResponseId => {
                if let Some(id) = &self.previous_response_id {
                    request.insert("previous_response_id".to_owned(), json!(id));
                }
                self.pending.clone()
            }
            Continuation::Resend => {
                let mut input = self.history.clone();
                input.extend(self.pending.iter().cloned());
                input
            }
        };
        request.insert("input".to_owned(), Value::Array(input));
        request.insert("tools".to_owned(), Value::Array(self.tools.clone()));
        for (key, value) in &self.settings.extra {
            request.insert(key.clone(), value.clone());
        }
        Value::Object(request)
    }

    fn narrow(request: &mut Value, narrowing: &Narrowing) {
        request["tool_choice"] = allowed_tools(Api::Responses, narrowing);
    }

    fn sent(&mut self) {
        self.sent = std::mem::take(&mut self.pending);
    }

    fn repeated_call(&self, response: &Value, position: usize, id: &str) -> ResponseError {
        let index = output_index_of(response, id).unwrap_or(position);
        ResponseError::new(
            format!("$.output[{index}].call_id"),
            format!(
                "the call id `{id}` was answered in an earlier response of this conversation; \
                 running it would run that call a second time, so nothing of this response runs"
            ),
        )
    }

    fn read(&mut self, response: &Value, _calls: &ResponseCalls) -> Result<Reading, ResponseError> {
        let id = response
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned);
        // Only `previous_response_id` needs the response's id.
        if id.is_none() && self.settings.continuation == Continuation::PreviousResponseId {
            return Err(ResponseError::new("$.id", "missing, or not a string"));
        }
        let output = response["output"].as_array().map_or(&[][..], Vec::as_slice);
        let mut skipped = Vec::new();
        let mut texts = Vec::new();
        let mut resent = Vec::new();
        for item in output {
            let kind = item["type"].as_str().unwrap_or_default();
            match kind {
                "function_call" => resent.push(item.clone()),
                "message" => {
                    let text = message_text(item);
                    if !text.is_empty() {
                        texts.push(text);
                    }
                    resent.push(item.clone());
                }
                "reasoning" => {
                    skipped.push(kind.to_owned());
                    resent.push(item.clone());
                }
                _ => skipped.push(kind.to_owned()),
            }
        }
        self.read = Some((id, resent));
        Ok(Reading {
            stop_reason: response["status"].as_str().unwrap_or_default().to_owned(),
            skipped,
            text: texts.join("\n\n"),
        })
    }

    fn answered<R: AsRef<ToolOutput>>(
        &mut self,
        _response: &Value,
        _reading: &Reading,
        round: &Round<Api, R>,
    ) {
        // The outputs answer the calls in the next request; those of a
        // response that did not complete answer `CALL_NOT_RUN`.
        if !round.stop {
            self.pending.extend(round.answer.items.iter().cloned());
        }
        let (id, resent) = self.read.take().unwrap_or_default();
        match self.settings.continuation {
            Continuation::PreviousResponseId => self.previous_response_id = id,
            Continuation::Resend => {
                self.history.append(&mut self.sent);
                self.history.extend(resent);
            }
        }
    }

    fn end<R>(
        &self,
        response: &Value,
        _stop_reason: &str,
        text: &str,
        round: &Round<Api, R>,
    ) -> Option<TurnEnd> {
        if let Some(reason) = unfinished(response) {
            Some(TurnEnd::Incomplete(reason))
        } else if round.is_final_answer() {
            Some(TurnEnd::Answer(text.to_owned()))
        } else {
            None
        }
    }
}

/// The index in `output` of the `function_call` item with `call_id`.
fn output_index_of(response: &Value, call_id: &str) -> Option<usize> {
    response["output"].as_array()?.iter().position(|item| {
        item["type"] == "function_call" && item["call_id"].as_str() == Some(call_id)
    })
}

/// The `output_text` parts of a message item, joined.
fn message_text(item: &Value) -> String {
    let parts = item["content"].as_array().map_or(&[][..], Vec::as_slice);
    parts
        .iter()
        .filter(|part| part["type"] == "output_text")
        .filter_map(|part| part["text"].as_str())
        .collect()
}
