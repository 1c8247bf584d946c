//! The agent loop over the Responses API (cargo feature `runtime`): send
//! the tools and the user's message, answer the model's function calls
//! through a `Toolbox`, send the outputs back, until the model answers in
//! text or the request limit of the turn is reached.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value, json};
use tool_core::{Session, ToolCall};
use tool_runtime::approval::ApprovalRequest;
use tool_runtime::{AbortHandle, CallResult, Toolbox};
use tool_transport::{Transport, TransportError};

use crate::calls::{ResponseError, responses_calls, unfinished};
use crate::round::ToolRound;
use crate::toolbox::{ToolboxExt, answer_without_running};
use crate::wire::{ToolSetError, tools_for_responses};

/// The Responses API's endpoint, relative to the base URL
/// (`https://api.openai.com/v1`): `POST /v1/responses`.
pub const RESPONSES_PATH: &str = "responses";

/// The request keys [`AgentSettings::extra`] may not set: those the loop
/// writes itself, and `stream` (the loop reads whole responses).
const LOOP_KEYS: [&str; 6] = [
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
    /// [`resume`](ResponsesAgent::resume)) may make; when the model still
    /// calls tools after that many, the turn ends with
    /// [`TurnEnd::RequestLimit`]. 0 counts as 1.
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

/// Why the loop could not go on.
#[derive(Debug)]
#[non_exhaustive]
pub enum AgentError {
    /// The toolbox's tools cannot be offered as strict Responses tools.
    Tools(ToolSetError),
    /// [`AgentSettings::extra`] sets a key the loop writes itself, or
    /// `stream`.
    ReservedKey(String),
    /// The request got no response.
    Transport(TransportError),
    /// The response does not have the documented shape (or is an error
    /// body); the conversation cannot go on.
    Response(ResponseError),
    /// An earlier turn ended with a fatal outcome or a broken response;
    /// nothing more may be sent in this conversation.
    Stopped,
    /// [`ResponsesAgent::resume`] with nothing to send: the last turn
    /// ended with the model's answer.
    NothingToSend,
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Tools(error) => write!(f, "the tools cannot be offered: {error}"),
            AgentError::ReservedKey(key) => write!(
                f,
                "`{key}` is the loop's to set (it writes model, instructions, \
                 previous_response_id, input and tools, and reads whole responses, never a \
                 stream); leave it out of the extra request keys"
            ),
            AgentError::Transport(error) => error.fmt(f),
            AgentError::Response(error) => write!(f, "the response cannot be read: {error}"),
            AgentError::Stopped => f.write_str(
                "the conversation stopped (a fatal tool outcome or a broken response); start a \
                 new one",
            ),
            AgentError::NothingToSend => {
                f.write_str("nothing to send: the model already answered; send a user message")
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
    /// The `type` of each output item the loop did not act on, in order:
    /// `reasoning`, built-in tools' calls such as `web_search_call`, and
    /// item types it does not know, which are never an error.
    pub skipped: Vec<String>,
    /// The text of the response's assistant messages (`output_text`
    /// parts; messages apart by a blank line); empty when there is none.
    pub text: String,
    /// The function calls answered by the toolbox, with the
    /// `function_call_output` items sent back.
    pub round: ToolRound<CallResult>,
    /// The function calls of a response that did not complete (see
    /// [`TurnEnd::Incomplete`]): not run, each answered in the next request
    /// by a `function_call_output` with `Error [CALL_NOT_RUN]`, so the
    /// conversation stays one the API accepts.
    pub not_run: Vec<ToolCall>,
}

/// How a user turn ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The model answered without calling a tool: its text.
    Answer(String),
    /// The response did not complete: cut off (`"status": "incomplete"`,
    /// e.g. at `max_output_tokens`), with the reason the API gives
    /// (`incomplete_details.reason`); or stopped otherwise (`"status":
    /// "cancelled"`, `"failed"`, ...), with that status; or it completed
    /// with a `function_call` item that is not (`"status": "incomplete"` or
    /// `"in_progress"`), with `function_call {call_id} is {status}`
    /// ([`unfinished`]). Its function calls are not run
    /// ([`Step::not_run`]): the next request answers each with
    /// `Error [CALL_NOT_RUN]`. What text there is, is in the step.
    Incomplete(String),
    /// The model still called tools after [`AgentSettings::max_requests`]
    /// requests. Their outputs are kept: [`ResponsesAgent::resume`] sends
    /// them, and so does the next [`ResponsesAgent::send`], before its
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

/// A conversation with a model over the Responses API, its tool calls
/// answered by a [`Toolbox`], each request sent through a [`Transport`]
/// (HTTP for a live model, a recording for tests).
///
/// Every request carries the toolbox's tools as strict definitions
/// (`"strict": true` always written). A response's `function_call` items
/// run as one turn of the toolbox (approvals, idempotent replays, time
/// limits, audit records); other output items are skipped. The outputs go
/// back as `function_call_output` items, continued as
/// [`AgentSettings::continuation`] says.
///
/// ```
/// use serde_json::json;
/// use tool_contract::openai::agent::{AgentSettings, RESPONSES_PATH, ResponsesAgent};
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
/// let tools = tool_contract::openai::tools_for_responses(&[GetStoreHours::contract()])?;
/// assert_eq!(tools[0]["strict"], true);
///
/// // What the model answered, and the requests the loop must send.
/// let call = json!({"type": "function_call", "call_id": "call_1", "name": "get_store_hours",
///     "arguments": r#"{"store":"BER-1"}"#});
/// let mut replay = Replay::new(vec![
///     Exchange::new(
///         RESPONSES_PATH,
///         json!({"model": "gpt-5-mini", "input": [{"role": "user", "content": "When does BER-1 open?"}],
///             "tools": tools}),
///         json!({"id": "resp_1", "model": "gpt-5-mini", "output": [call]}),
///     ),
///     Exchange::new(
///         RESPONSES_PATH,
///         json!({"model": "gpt-5-mini", "previous_response_id": "resp_1",
///             "input": [{"type": "function_call_output", "call_id": "call_1", "output": "BER-1 opens at 9:00."}],
///             "tools": tools}),
///         json!({"id": "resp_2", "model": "gpt-5-mini", "output": [{"type": "message", "role": "assistant",
///             "content": [{"type": "output_text", "text": "It opens at 9:00."}]}]}),
///     ),
/// ]);
///
/// let mut agent = ResponsesAgent::new(&toolbox, &mut replay, AgentSettings::new("gpt-5-mini"))?;
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let turn = runtime.block_on(agent.send("When does BER-1 open?", &Session::new()))?;
/// assert_eq!(turn.answer(), Some("It opens at 9:00."));
/// assert_eq!(turn.steps.len(), 2);
/// drop(agent);
/// assert!(replay.is_done());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ResponsesAgent<'t, T> {
    toolbox: &'t Toolbox,
    transport: T,
    settings: AgentSettings,
    tools: Vec<Value>,
    abort: AbortHandle,
    previous_response_id: Option<String>,
    /// The call ids of every response read so far: a later response that
    /// repeats one is refused (its call would run a second time).
    call_ids: HashSet<String>,
    /// What was sent and received so far ([`Continuation::Resend`]).
    history: Vec<Value>,
    /// What the next request adds to the conversation.
    pending: Vec<Value>,
    /// The steps of a turn that a transport error interrupted; the turn
    /// [`resume`](Self::resume) gives holds them first.
    unfinished: Vec<Step>,
    stopped: bool,
}

impl<'t, T: Transport> ResponsesAgent<'t, T> {
    /// A conversation offering `toolbox`'s tools; fails when a tool cannot
    /// be strict or `settings.extra` sets a key the loop writes.
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
        let tools = tools_for_responses(&contracts).map_err(AgentError::Tools)?;
        Ok(ResponsesAgent {
            toolbox,
            transport,
            settings,
            tools,
            abort: AbortHandle::new(),
            previous_response_id: None,
            call_ids: HashSet::new(),
            history: Vec::new(),
            pending: Vec::new(),
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

    /// The transport, e.g. to see that a replay is done.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// Sends the user's `message` and runs the turn: each response's calls
    /// answered through the toolbox with `session`, until the model answers
    /// in text, a call is fatal, or the request limit is reached.
    ///
    /// A [`TransportError`] keeps what was not sent and the steps the turn
    /// made so far, so [`resume`](Self::resume) can try again and give the
    /// whole turn.
    pub async fn send(&mut self, message: &str, session: &Session) -> Result<Turn, AgentError> {
        if self.stopped {
            return Err(AgentError::Stopped);
        }
        self.pending
            .push(json!({"role": "user", "content": message}));
        self.run(session).await
    }

    /// Sends what is waiting (the outputs of a turn that reached its
    /// request limit, or a request that got no response) and runs the turn
    /// on from there.
    pub async fn resume(&mut self, session: &Session) -> Result<Turn, AgentError> {
        if self.stopped {
            return Err(AgentError::Stopped);
        }
        if self.pending.is_empty() {
            return Err(AgentError::NothingToSend);
        }
        self.run(session).await
    }

    async fn run(&mut self, session: &Session) -> Result<Turn, AgentError> {
        let mut steps = std::mem::take(&mut self.unfinished);
        for _ in 0..self.settings.max_requests.max(1) {
            let request = self.request();
            let response = match self.transport.send(RESPONSES_PATH, &request).await {
                Ok(response) => response,
                Err(error) => {
                    self.unfinished = steps;
                    return Err(AgentError::Transport(error));
                }
            };
            // The API has the request: what it added is in the conversation.
            let sent = std::mem::take(&mut self.pending);
            let step = match self.read(response, sent, session).await {
                Ok(step) => step,
                Err(error) => {
                    self.stopped = true;
                    return Err(AgentError::Response(error));
                }
            };
            let end = if step.round.stop {
                self.stopped = true;
                Some(TurnEnd::Stopped)
            } else if let Some(reason) = unfinished(&step.response) {
                Some(TurnEnd::Incomplete(reason))
            } else if step.round.is_final_answer() {
                Some(TurnEnd::Answer(step.text.clone()))
            } else {
                self.pending.extend(step.round.items.iter().cloned());
                None
            };
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

    /// The next request: settings, conversation, tools.
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

    /// Reads a response to a request that added `sent`, runs its calls and
    /// keeps what the next request needs.
    async fn read(
        &mut self,
        response: Value,
        sent: Vec<Value>,
        session: &Session,
    ) -> Result<Step, ResponseError> {
        let calls = responses_calls(&response)?;
        if let Some(repeated) = calls
            .calls
            .iter()
            .position(|call| self.call_ids.contains(&call.call_id))
        {
            let id = &calls.calls[repeated].call_id;
            let index = output_index_of(&response, id).unwrap_or(repeated);
            return Err(ResponseError::new(
                format!("$.output[{index}].call_id"),
                format!(
                    "the call id `{id}` was answered in an earlier response of this \
                     conversation; running it would run that call a second time, so nothing of \
                     this response runs"
                ),
            ));
        }
        self.call_ids
            .extend(calls.calls.iter().map(|call| call.call_id.clone()));
        // A response that did not complete (cut off at a token limit,
        // cancelled, failed, not finished): its calls are not the model's
        // finished decision and do not run; each is answered `CALL_NOT_RUN`
        // in the next request, and the turn ends as `Incomplete`.
        let unfinished = unfinished(&response);
        let not_run = if unfinished.is_some() {
            calls.calls.clone()
        } else {
            Vec::new()
        };
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
        let round = match &unfinished {
            Some(reason) => answer_without_running(self.toolbox, calls, session, reason).await,
            None => {
                self.toolbox
                    .answer_calls(calls, session, &self.abort.child())
                    .await
            }
        };
        if unfinished.is_some() {
            self.pending.extend(round.items.iter().cloned());
        }
        match self.settings.continuation {
            Continuation::PreviousResponseId => self.previous_response_id = id,
            Continuation::Resend => {
                self.history.extend(sent);
                self.history.extend(resent);
            }
        }
        Ok(Step {
            text: texts.join("\n\n"),
            response,
            skipped,
            round,
            not_run,
        })
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
