//! The agent loop over the Messages API (cargo feature `runtime`): send
//! the tools and the user's message, answer the model's `tool_use` blocks
//! through a `Toolbox`, send the `tool_result` blocks back, until the model
//! ends its turn or the request limit of the turn is reached.
//!
//! The Messages API keeps no conversation: every request carries all of
//! it. After each user message comes the assistant's `content` exactly as
//! the response gave it (text, `thinking` and `redacted_thinking` blocks
//! with their signatures, `tool_use` blocks, server tools' blocks and block
//! types this loop does not know, all unchanged), then one user message
//! whose content holds a `tool_result` block for every `tool_use`, in
//! their order, before any text.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value, json};
use tool_core::{Session, ToolCall, ToolError};
use tool_runtime::approval::ApprovalRequest;
use tool_runtime::{AbortHandle, CallResult, Toolbox};
use tool_transport::{Transport, TransportError};

use crate::calls::{ResponseError, kind};
use crate::round::{ToolRound, results_message};
use crate::toolbox::ToolboxExt;
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
/// `tool_use` (see [`Step::not_run`]).
pub const CALL_NOT_RUN: &str = ToolError::CALL_NOT_RUN;

/// The request keys [`AgentSettings::extra`] may not set: those the loop
/// writes itself, and `stream` (the loop reads whole responses).
const LOOP_KEYS: [&str; 7] = [
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
    /// [`resume`](MessagesAgent::resume)) may make; when the model still
    /// calls tools (or its turn is paused) after that many, the turn ends
    /// with [`TurnEnd::RequestLimit`]. 0 counts as 1.
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

/// Why the loop could not go on.
#[derive(Debug)]
#[non_exhaustive]
pub enum AgentError {
    /// The toolbox's tools cannot be offered as strict Anthropic tools
    /// (a schema strict mode cannot express, a name, a per-request budget).
    Tools(ToolSetError),
    /// [`AgentSettings::extra`] sets a key the loop writes itself, or
    /// `stream`.
    ReservedKey(String),
    /// The request got no response.
    Transport(TransportError),
    /// The response does not have the documented shape (a `stop_reason`,
    /// a `content` array of typed blocks, `tool_use` ids unique), or is an
    /// error body (`{"type": "error", ...}`); no call of it runs, and the
    /// conversation cannot go on.
    Response(ResponseError),
    /// An earlier turn ended with a fatal outcome or a broken response;
    /// nothing more may be sent in this conversation.
    Stopped,
    /// [`MessagesAgent::resume`] with nothing to send: the last turn
    /// ended without calls to answer or a paused turn to continue.
    NothingToSend,
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Tools(error) => write!(f, "the tools cannot be offered: {error}"),
            AgentError::ReservedKey(key) => write!(
                f,
                "`{key}` is the loop's to set (it writes model, max_tokens, system, messages, \
                 tools and tool_choice, and reads whole responses, never a stream); leave it out \
                 of the extra request keys"
            ),
            AgentError::Transport(error) => error.fmt(f),
            AgentError::Response(error) => write!(f, "the response cannot be read: {error}"),
            AgentError::Stopped => f.write_str(
                "the conversation stopped (a fatal tool outcome or a broken response); start a \
                 new one",
            ),
            AgentError::NothingToSend => {
                f.write_str("nothing to send: the model ended its turn; send a user message")
            }
        }
    }
}

impl std::error::Error for AgentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AgentError::Tools(error) => Some(error),
            AgentError::Transport(error) => Some(error),
            AgentError::Response(error) => Some(error),
            _ => None,
        }
    }
}

impl From<TransportError> for AgentError {
    fn from(error: TransportError) -> Self {
        AgentError::Transport(error)
    }
}

/// One response of the model and what the loop did with it.
#[derive(Debug)]
pub struct Step {
    /// The response as the API gave it.
    pub response: Value,
    /// Why the model stopped (`stop_reason`): `tool_use`, `end_turn`,
    /// `stop_sequence`, `max_tokens`, `pause_turn`, `refusal`, or a reason
    /// this loop does not know.
    pub stop_reason: String,
    /// The `type` of each content block the loop did not act on, in order:
    /// `thinking`, `redacted_thinking`, server tools' blocks such as
    /// `server_tool_use`, and block types it does not know, which are never
    /// an error. All of them go back to the API unchanged.
    pub skipped: Vec<String>,
    /// The text of the response's `text` blocks, joined as they are (the
    /// API splits one text into blocks, e.g. around citations); empty when
    /// there is none.
    pub text: String,
    /// The `tool_use` blocks answered by the toolbox (only when the
    /// response stopped with `tool_use`), with the user message of
    /// `tool_result` blocks sent back.
    pub round: ToolRound<CallResult>,
    /// The `tool_use` blocks of a response that stopped for another reason
    /// than `tool_use` (`max_tokens` cut one off, `refusal`, ...): never
    /// run, since their input may be incomplete. Each is answered with an
    /// `is_error` `tool_result` ([`CALL_NOT_RUN`]) in the next user
    /// message, as the API requires a result for every `tool_use`; its
    /// result (with an audit record, outcome `not_started`) is in `round`.
    pub not_run: Vec<ToolCall>,
}

/// How a user turn ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The model ended its turn (`end_turn`, or `stop_sequence`): its text.
    Answer(String),
    /// The model declined (`refusal`): what text there is.
    Refused(String),
    /// The response was cut off or stopped for another reason: the
    /// `stop_reason` (`max_tokens`, `model_context_window_exceeded`, a
    /// reason this loop does not know, or `tool_use` without a `tool_use`
    /// block). What text there is, is in the step.
    Incomplete(String),
    /// The model still called tools (or its turn was paused, `pause_turn`)
    /// after [`AgentSettings::max_requests`] requests. The results are
    /// kept: [`MessagesAgent::resume`] sends them (or continues the paused
    /// turn), and so does the next [`MessagesAgent::send`], before its
    /// message.
    RequestLimit,
    /// A call ended fatally (see `ToolRound::stop`); the conversation is
    /// over.
    Stopped,
}

/// One user turn: each response of the model, in order, and how it ended.
#[derive(Debug)]
pub struct Turn {
    /// The responses of the turn and the calls answered in each.
    pub steps: Vec<Step>,
    /// How the turn ended.
    pub end: TurnEnd,
}

impl Turn {
    /// The model's answer, when the turn ended with one.
    pub fn answer(&self) -> Option<&str> {
        match &self.end {
            TurnEnd::Answer(text) => Some(text),
            _ => None,
        }
    }

    /// The approval requests of the turn's calls refused with
    /// `APPROVAL_REQUIRED`, in order: what to show the user. The loop never
    /// approves; once the user does (the grant goes into the session's
    /// `Approvals`), the model's repeated call runs.
    pub fn approval_requests(&self) -> impl Iterator<Item = &ApprovalRequest> {
        self.steps
            .iter()
            .flat_map(|step| step.round.approval_requests())
    }
}

/// A conversation with a model over the Messages API, its tool calls
/// answered by a [`Toolbox`], each request sent through a [`Transport`]
/// (HTTP for a live model, a recording for tests).
///
/// Every request carries the toolbox's tools as a [`ToolSet`] of strict
/// definitions, checked against Anthropic's per-request budgets before the
/// first request; calls are read through the set, so enum values of strict
/// tools match ignoring case.
///
/// The API keeps no conversation, so each request resends all of it: each
/// user message, after it the assistant's `content` exactly as the
/// response gave it (every block, known or not, unchanged: thinking blocks
/// must go back with their signatures), and after a response that stopped
/// with `tool_use` one user message with a `tool_result` block for each
/// `tool_use`, in order, before any text. How each `stop_reason` ends the
/// turn:
///
/// | `stop_reason` | the loop |
/// | --- | --- |
/// | `tool_use` | runs the calls as one turn of the toolbox (approvals, idempotent replays, time limits, audit records) and sends the results |
/// | `end_turn`, `stop_sequence` | [`TurnEnd::Answer`] with the text |
/// | `pause_turn` | sends the conversation again, ending with the paused content, so the model goes on (one more request of the turn) |
/// | `refusal` | [`TurnEnd::Refused`] with the text |
/// | `max_tokens`, any other | [`TurnEnd::Incomplete`] with the reason |
///
/// A `tool_use` block of a response that stopped for any reason other than
/// `tool_use` is not run (its input may be cut off): it is in
/// [`Step::not_run`], and the next user message answers it with an
/// `is_error` `tool_result` ([`CALL_NOT_RUN`]). An assistant message with
/// no blocks is not sent back (the API refuses empty content).
///
/// ```
/// use serde_json::json;
/// use tool_contract::anthropic::ToolSet;
/// use tool_contract::anthropic::agent::{AgentSettings, MESSAGES_PATH, MessagesAgent};
/// use tool_contract::transport::{Exchange, Replay};
/// use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};
///
/// /// Look up the opening hours of one store.
/// #[derive(Tool)]
/// pub struct GetStoreHours {
///     /// Store code as printed on the receipt, e.g. "BER-1".
///     pub store: String,
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(|call: GetStoreHours, _cx: CallContext| async move {
///     Ok::<_, ToolError>(format!("{} opens at 9:00.", call.store))
/// });
/// let tools = ToolSet::new(&[GetStoreHours::contract()])?.definitions();
/// assert_eq!(tools[0]["strict"], true);
///
/// // What the model answered, and the requests the loop must send.
/// let question = json!({"role": "user", "content": "When does BER-1 open?"});
/// let calls = json!({"role": "assistant", "content": [
///     {"type": "text", "text": "Let me look."},
///     {"type": "tool_use", "id": "toolu_01", "name": "get_store_hours", "input": {"store": "BER-1"}}
/// ]});
/// let results = json!({"role": "user", "content": [
///     {"type": "tool_result", "tool_use_id": "toolu_01", "content": "BER-1 opens at 9:00.", "is_error": false}
/// ]});
/// let mut replay = Replay::new(vec![
///     Exchange::new(
///         MESSAGES_PATH,
///         json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [question], "tools": tools}),
///         json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
///             "content": calls["content"], "stop_reason": "tool_use"}),
///     ),
///     Exchange::new(
///         MESSAGES_PATH,
///         json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
///             "messages": [question, calls, results], "tools": tools}),
///         json!({"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
///             "content": [{"type": "text", "text": "It opens at 9:00."}], "stop_reason": "end_turn"}),
///     ),
/// ]);
///
/// let settings = AgentSettings::new("claude-sonnet-4-5");
/// let mut agent = MessagesAgent::new(&toolbox, &mut replay, settings)?;
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let turn = runtime.block_on(agent.send("When does BER-1 open?", &Session::new()))?;
/// assert_eq!(turn.answer(), Some("It opens at 9:00."));
/// assert_eq!(turn.steps.len(), 2);
/// drop(agent);
/// assert!(replay.is_done());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct MessagesAgent<'t, T> {
    toolbox: &'t Toolbox,
    transport: T,
    settings: AgentSettings,
    tool_set: ToolSet,
    tools: Vec<Value>,
    abort: AbortHandle,
    /// The messages the API has answered: user and assistant, in order.
    history: Vec<Value>,
    /// The `tool_result` blocks the next user message starts with.
    results: Vec<Value>,
    /// The `tool_use` ids of every response read so far: a later response
    /// that repeats one is refused (the API needs each id once, and its
    /// call would run a second time).
    tool_use_ids: HashSet<String>,
    /// The user's texts the next user message holds, after the results.
    texts: Vec<String>,
    /// The last response paused its turn (`pause_turn`): the next request
    /// continues it.
    paused: bool,
    /// The steps of a turn that a transport error interrupted; the turn
    /// [`resume`](Self::resume) gives holds them first.
    unfinished: Vec<Step>,
    stopped: bool,
}

impl<'t, T: Transport> MessagesAgent<'t, T> {
    /// A conversation offering `toolbox`'s tools; fails when the tools
    /// cannot be strict together (a schema, a name, a per-request budget)
    /// or `settings.extra` sets a key the loop writes.
    pub fn new(
        toolbox: &'t Toolbox,
        transport: T,
        settings: AgentSettings,
    ) -> Result<Self, AgentError> {
        if let Some(key) = LOOP_KEYS
            .iter()
            .find(|key| settings.extra.contains_key(**key))
        {
            return Err(AgentError::ReservedKey((*key).to_owned()));
        }
        let contracts: Vec<_> = toolbox.contracts().collect();
        let tool_set = ToolSet::new(&contracts).map_err(AgentError::Tools)?;
        let tools = tool_set.definitions();
        Ok(MessagesAgent {
            toolbox,
            transport,
            settings,
            tool_set,
            tools,
            abort: AbortHandle::new(),
            history: Vec::new(),
            results: Vec::new(),
            tool_use_ids: HashSet::new(),
            texts: Vec::new(),
            paused: false,
            unfinished: Vec::new(),
            stopped: false,
        })
    }

    /// Runs the calls of every turn under `abort`: aborting it cancels the
    /// calls running (they answer `ABORTED`).
    pub fn with_abort(mut self, abort: AbortHandle) -> Self {
        self.abort = abort;
        self
    }

    /// The strict tool definitions every request carries.
    pub fn tools(&self) -> &[Value] {
        &self.tools
    }

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

    /// The transport, e.g. to see that a replay is done.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// Sends the user's `message` and runs the turn: each response's calls
    /// answered through the toolbox with `session`, until the model ends
    /// its turn, a call is fatal, or the request limit is reached.
    ///
    /// Results still waiting (a turn that reached its request limit, or
    /// calls not run) go first in the same user message, the text after
    /// them. A [`TransportError`] keeps what was not sent and the steps
    /// the turn made so far, so [`resume`](Self::resume) can try again and
    /// give the whole turn.
    pub async fn send(&mut self, message: &str, session: &Session) -> Result<Turn, AgentError> {
        if self.stopped {
            return Err(AgentError::Stopped);
        }
        self.texts.push(message.to_owned());
        self.run(session).await
    }

    /// Sends what is waiting (the results of a turn that reached its
    /// request limit, a paused turn, or a request that got no response) and
    /// runs the turn on from there.
    pub async fn resume(&mut self, session: &Session) -> Result<Turn, AgentError> {
        if self.stopped {
            return Err(AgentError::Stopped);
        }
        if self.results.is_empty() && self.texts.is_empty() && !self.paused {
            return Err(AgentError::NothingToSend);
        }
        self.run(session).await
    }

    async fn run(&mut self, session: &Session) -> Result<Turn, AgentError> {
        let mut steps = std::mem::take(&mut self.unfinished);
        for _ in 0..self.settings.max_requests.max(1) {
            let message = self.user_message();
            let request = self.request(message.as_ref());
            let response = match self.transport.send(MESSAGES_PATH, &request).await {
                Ok(response) => response,
                Err(error) => {
                    self.unfinished = steps;
                    return Err(AgentError::Transport(error));
                }
            };
            // The API has the request: what it added is in the conversation.
            self.history.extend(message);
            self.results.clear();
            self.texts.clear();
            self.paused = false;
            let step = match self.read(response, session).await {
                Ok(step) => step,
                Err(error) => {
                    self.stopped = true;
                    return Err(AgentError::Response(error));
                }
            };
            let end = self.end(&step);
            steps.push(step);
            if let Some(end) = end {
                return Ok(Turn { steps, end });
            }
        }
        Ok(Turn {
            steps,
            end: TurnEnd::RequestLimit,
        })
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

    /// The next request: settings, the whole conversation, tools.
    fn request(&self, message: Option<&Value>) -> Value {
        let mut request = Map::new();
        request.insert("model".to_owned(), json!(self.settings.model));
        request.insert("max_tokens".to_owned(), json!(self.settings.max_tokens));
        if let Some(system) = &self.settings.system {
            request.insert("system".to_owned(), json!(system));
        }
        let mut messages = self.history.clone();
        messages.extend(message.cloned());
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

    /// Reads a response, runs its calls when it stopped with `tool_use`,
    /// and keeps what the next request needs.
    async fn read(&mut self, response: Value, session: &Session) -> Result<Step, ResponseError> {
        let calls = self.tool_set.calls(&response)?;
        if let Some(repeated) = calls
            .calls
            .iter()
            .find(|call| self.tool_use_ids.contains(&call.call_id))
        {
            let id = &repeated.call_id;
            let index = response["content"]
                .as_array()
                .and_then(|content| {
                    content.iter().position(|block| {
                        block["type"] == "tool_use" && block["id"].as_str() == Some(id)
                    })
                })
                .unwrap_or_default();
            return Err(ResponseError::new(
                format!("$.content[{index}].id"),
                format!(
                    "the tool_use id `{id}` was answered in an earlier response of this \
                     conversation; the API needs every id once, and running it would run that \
                     call a second time, so nothing of this response runs"
                ),
            ));
        }
        self.tool_use_ids
            .extend(calls.calls.iter().map(|call| call.call_id.clone()));
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
        // Calls of a response that stopped for another reason are answered
        // as not run (`CALL_NOT_RUN`, with their audit records).
        let not_run = if stop_reason == "tool_use" {
            Vec::new()
        } else {
            calls.calls.clone()
        };
        let round = self
            .toolbox
            .answer_anthropic_calls(calls, session, &self.abort.child())
            .await;
        if !content.is_empty() {
            self.history
                .push(json!({"role": "assistant", "content": content}));
        }
        if let Some(message) = &round.message {
            let blocks = message["content"].as_array().map_or(&[][..], Vec::as_slice);
            self.results.extend(blocks.iter().cloned());
        }
        self.paused = stop_reason == "pause_turn";
        Ok(Step {
            response,
            stop_reason,
            skipped,
            text,
            round,
            not_run,
        })
    }

    /// How the turn ends after `step`, or `None` when it goes on.
    fn end(&mut self, step: &Step) -> Option<TurnEnd> {
        if step.round.stop {
            self.stopped = true;
            return Some(TurnEnd::Stopped);
        }
        match step.stop_reason.as_str() {
            "tool_use" if !step.round.is_final_answer() => None,
            "pause_turn" => None,
            "end_turn" | "stop_sequence" => Some(TurnEnd::Answer(step.text.clone())),
            "refusal" => Some(TurnEnd::Refused(step.text.clone())),
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
