//! The Messages API's side of the agent loop: the request JSON, the
//! conversation resent with every request, and how each `stop_reason` ends
//! a turn. The loop itself is tool-runtime's `Agent`; `agent::MessagesAgent`
//! names it for this API.
//!
//! The Messages API keeps no conversation: every request carries all of
//! it. After each user message comes the assistant's `content` exactly as
//! the response gave it (text, `thinking` and `redacted_thinking` blocks
//! with their signatures, `tool_use` blocks, server tools' blocks and block
//! types this loop does not know, all unchanged), then one user message
//! whose content holds a `tool_result` block for every `tool_use`, in
//! their order, before any text.

use serde_json::{Map, Value, json};
use tool_core::provider::{Conversation, Reading, Round, TurnEnd};
use tool_core::{Narrowing, ResponseError, ToolContract, ToolError, ToolOutput};

use crate::calls::{ResponseCalls, kind};
use crate::round::results_message;
use crate::wire::{ToolChoice, ToolSet, ToolSetError};

/// The Messages API's endpoint, relative to the base URL
/// ([`API_BASE_URL`]): `POST /v1/messages`.
pub const MESSAGES_PATH: &str = "messages";

/// The base URL of Anthropic's API.
pub const API_BASE_URL: &str = "https://api.anthropic.com/v1";

/// The `anthropic-version` header every request must carry.
pub const API_VERSION: &str = "2023-06-01";

/// The code of the `tool_result` that answers a `tool_use` block the loop
/// did not run, because the response stopped for another reason than
/// `tool_use` (see `Step::not_run`).
pub const CALL_NOT_RUN: &str = ToolError::CALL_NOT_RUN;

/// The request keys [`AgentSettings::extra`] may not set: those the loop
/// writes itself, and `stream` (the loop reads whole responses).
const LOOP_KEYS: &[&str] = &[
    "model",
    "max_tokens",
    "system",
    "messages",
    "tools",
    "tool_choice",
    "stream",
];

/// What the loop writes into every request besides the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSettings {
    /// The model, e.g. `claude-sonnet-4-5`.
    pub model: String,
    /// The most tokens one response may have (`max_tokens`, which the API
    /// requires; at least 1, and more than a thinking budget).
    pub max_tokens: u32,
    /// The system prompt (`system`), if any.
    pub system: Option<String>,
    /// The most requests one user turn (or one
    /// `resume`) may make; when the model still
    /// calls tools (or its turn is paused) after that many, the turn ends
    /// with `TurnEnd::RequestLimit`. 0 counts as 1.
    pub max_requests: usize,
    /// How the model may use the tools (`tool_choice`); `None` leaves the
    /// key out (the API's default, `auto`).
    pub tool_choice: Option<ToolChoice>,
    /// Further request keys written as given, e.g. `"temperature": 0`,
    /// `"thinking": {"type": "enabled", "budget_tokens": 1024}`,
    /// `"metadata": {"user_id": "..."}`. The keys the loop writes itself
    /// (`model`, `max_tokens`, `system`, `messages`, `tools`,
    /// `tool_choice`) and `stream` are refused.
    pub extra: Map<String, Value>,
}

impl AgentSettings {
    /// `model`, at most 1024 tokens a response and 8 requests a turn, no
    /// system prompt, no `tool_choice`, nothing extra.
    pub fn new(model: impl Into<String>) -> Self {
        AgentSettings {
            model: model.into(),
            max_tokens: 1024,
            system: None,
            max_requests: 8,
            tool_choice: None,
            extra: Map::new(),
        }
    }
}

/// The Messages API's conversation as the agent loop carries it.
#[derive(Debug)]
pub struct Messages {
    settings: AgentSettings,
    tool_set: ToolSet,
    tools: Vec<Value>,
    /// The messages the API has answered: user and assistant, in order.
    history: Vec<Value>,
    /// The `tool_result` blocks the next user message starts with.
    results: Vec<Value>,
    /// The user's texts the next user message holds, after the results.
    texts: Vec<String>,
    /// The last response paused its turn (`pause_turn`): the next request
    /// continues it.
    paused: bool,
}

impl Messages {
    /// The tool set: its budgets' usage and the `Option` fields made
    /// required and nullable to fit them.
    pub fn tool_set(&self) -> &ToolSet {
        &self.tool_set
    }

    /// The messages the API has answered so far, as the next request
    /// resends them.
    pub fn messages(&self) -> &[Value] {
        &self.history
    }

    /// The user message the next request adds: the waiting `tool_result`
    /// blocks first, then the user's text; a lone text as a string.
    fn user_message(&self) -> Option<Value> {
        match (self.results.is_empty(), self.texts.as_slice()) {
            (true, []) => None,
            (true, [text]) => Some(json!({"role": "user", "content": text})),
            _ => {
                let (first, rest) = match self.texts.split_first() {
                    Some((first, rest)) => (Some(first.as_str()), rest),
                    None => (None, &[][..]),
                };
                let mut message = results_message(self.results.clone(), first);
                if let Some(content) = message["content"].as_array_mut() {
                    content.extend(
                        rest.iter()
                            .map(|text| json!({"type": "text", "text": text})),
                    );
                }
                Some(message)
            }
        }
    }
}

impl Conversation for Messages {
    type Provider = ToolSet;
    type Settings = AgentSettings;
    type ToolSetError = ToolSetError;

    const LOOP_KEYS: &'static [&'static str] = LOOP_KEYS;
    const WRITES: &'static str = "model, max_tokens, system, messages, tools and tool_choice";

    fn extra(settings: &AgentSettings) -> &Map<String, Value> {
        &settings.extra
    }

    fn start(
        settings: AgentSettings,
        contracts: &[&'static ToolContract],
    ) -> Result<Self, ToolSetError> {
        let tool_set = ToolSet::new(contracts)?;
        let tools = tool_set.definitions();
        Ok(Messages {
            settings,
            tool_set,
            tools,
            history: Vec::new(),
            results: Vec::new(),
            texts: Vec::new(),
            paused: false,
        })
    }

    fn provider(&self) -> &ToolSet {
        &self.tool_set
    }

    fn tools(&self) -> &[Value] {
        &self.tools
    }

    fn max_requests(&self) -> usize {
        self.settings.max_requests
    }

    fn path(&self) -> String {
        MESSAGES_PATH.to_owned()
    }

    fn push_user(&mut self, text: &str) {
        self.texts.push(text.to_owned());
    }

    fn has_pending(&self) -> bool {
        !(self.results.is_empty() && self.texts.is_empty() && !self.paused)
    }

    fn request(&self) -> Value {
        let mut request = Map::new();
        request.insert("model".to_owned(), json!(self.settings.model));
        request.insert("max_tokens".to_owned(), json!(self.settings.max_tokens));
        if let Some(system) = &self.settings.system {
            request.insert("system".to_owned(), json!(system));
        }
        let mut messages = self.history.clone();
        messages.extend(self.user_message());
        request.insert("messages".to_owned(), Value::Array(messages));
        request.insert("tools".to_owned(), Value::Array(self.tools.clone()));
        if let Some(choice) = &self.settings.tool_choice {
            request.insert("tool_choice".to_owned(), choice.to_json());
        }
        for (key, value) in &self.settings.extra {
            request.insert(key.clone(), value.clone());
        }
        Value::Object(request)
    }

    fn narrow(request: &mut Value, narrowing: &Narrowing) {
        let disable = request["tool_choice"]["disable_parallel_tool_use"] == true;
        request["tool_choice"] = ToolChoice::narrowed(narrowing, disable).to_json();
    }

    fn sent(&mut self) {
        let message = self.user_message();
        self.history.extend(message);
        self.results.clear();
        self.texts.clear();
        self.paused = false;
    }

    fn repeated_call(&self, response: &Value, _position: usize, id: &str) -> ResponseError {
        let index = response["content"]
            .as_array()
            .and_then(|content| {
                content.iter().position(|block| {
                    block["type"] == "tool_use" && block["id"].as_str() == Some(id)
                })
            })
            .unwrap_or_default();
        ResponseError::new(
            format!("$.content[{index}].id"),
            format!(
                "the tool_use id `{id}` was answered in an earlier response of this \
                 conversation; the API needs every id once, and running it would run that call \
                 a second time, so nothing of this response runs"
            ),
        )
    }

    fn read(&mut self, response: &Value, _calls: &ResponseCalls) -> Result<Reading, ResponseError> {
        let stop_reason = match response.get("stop_reason") {
            Some(Value::String(reason)) => reason.clone(),
            Some(other) => {
                return Err(ResponseError::new(
                    "$.stop_reason",
                    format!("expected a string, got {}", kind(other)),
                ));
            }
            None => return Err(ResponseError::new("$", "missing `stop_reason`")),
        };
        // `calls` checked that `content` is an array of objects.
        let content = response["content"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        let mut skipped = Vec::new();
        let mut text = String::new();
        for (index, block) in content.iter().enumerate() {
            match block.get("type") {
                // `calls` read them, and refused two with one id.
                Some(Value::String(block_type)) if block_type == "tool_use" => {}
                Some(Value::String(block_type)) if block_type == "text" => {
                    match block.get("text") {
                        Some(Value::String(part)) => text.push_str(part),
                        Some(other) => {
                            return Err(ResponseError::new(
                                format!("$.content[{index}].text"),
                                format!("expected a string, got {}", kind(other)),
                            ));
                        }
                        None => {
                            return Err(ResponseError::new(
                                format!("$.content[{index}]"),
                                "missing `text`",
                            ));
                        }
                    }
                }
                Some(Value::String(block_type)) => skipped.push(block_type.clone()),
                Some(other) => {
                    return Err(ResponseError::new(
                        format!("$.content[{index}].type"),
                        format!("expected a string, got {}", kind(other)),
                    ));
                }
                None => {
                    return Err(ResponseError::new(
                        format!("$.content[{index}]"),
                        "missing `type`",
                    ));
                }
            }
        }
        Ok(Reading {
            stop_reason,
            skipped,
            text,
        })
    }

    fn answered<R: AsRef<ToolOutput>>(
        &mut self,
        response: &Value,
        reading: &Reading,
        round: &Round<ToolSet, R>,
    ) {
        let content = response["content"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        // An assistant message with no blocks is not sent back (the API
        // refuses empty content).
        if !content.is_empty() {
            self.history
                .push(json!({"role": "assistant", "content": content}));
        }
        if let Some(message) = &round.answer {
            let blocks = message["content"].as_array().map_or(&[][..], Vec::as_slice);
            self.results.extend(blocks.iter().cloned());
        }
        self.paused = reading.stop_reason == "pause_turn";
    }

    fn end<R>(
        &self,
        _response: &Value,
        stop_reason: &str,
        text: &str,
        round: &Round<ToolSet, R>,
    ) -> Option<TurnEnd> {
        match stop_reason {
            "tool_use" if !round.is_final_answer() => None,
            "pause_turn" => None,
            "end_turn" | "stop_sequence" => Some(TurnEnd::Answer(text.to_owned())),
            "refusal" => Some(TurnEnd::Refused(text.to_owned())),
            other => Some(TurnEnd::Incomplete(other.to_owned())),
        }
    }
}

/// An [`HttpTransport`](tool_transport::HttpTransport) for the Messages
/// API at `base_url` (e.g. [`API_BASE_URL`]): every request carries
/// `x-api-key: {api_key}` and `anthropic-version: 2023-06-01`
/// ([`API_VERSION`]); the transport sends the body as JSON with
/// `content-type: application/json` itself (cargo feature `live`).
///
/// ```
/// let transport = tool_contract::anthropic::agent::http_transport(
///     tool_contract::anthropic::agent::API_BASE_URL,
///     "sk-ant-...",
/// );
/// assert_eq!(transport.url("messages"), "https://api.anthropic.com/v1/messages");
/// // The key is never shown.
/// let shown = format!("{transport:?}");
/// assert!(shown.contains(r#"headers: ["x-api-key", "anthropic-version"]"#), "{shown}");
/// assert!(!shown.contains("sk-ant"));
/// ```
#[cfg(feature = "live")]
pub fn http_transport(base_url: impl Into<String>, api_key: &str) -> tool_transport::HttpTransport {
    tool_transport::HttpTransport::new(base_url)
        .header("x-api-key", api_key)
        .header("anthropic-version", API_VERSION)
}
