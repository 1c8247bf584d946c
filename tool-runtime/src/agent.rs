//! The one agent loop, for any provider: send the tools and the user's
//! message through a [`Transport`], answer the model's calls through a
//! [`Toolbox`], send the outcomes back, until the model answers, a call is
//! fatal, or the request limit of the turn is reached. What is the
//! provider's own (the request JSON, how the conversation is carried, how
//! a response ends a turn) is its [`Conversation`].

use std::collections::HashSet;
use std::fmt;

use serde_json::Value;
use tool_core::provider::{Conversation, Provider, Reading, Round};
use tool_core::{ChoiceMode, Exposure, Narrowing, ResponseError, Session};
use tool_transport::{Transport, TransportError};

use crate::approval::ApprovalRequest;
use crate::versions::{VersionError, VersionPins};
use crate::{AbortHandle, CallResult, Toolbox};

pub use tool_core::provider::TurnEnd;

/// The call type of a conversation's provider.
type CallOf<C> = <<C as Conversation>::Provider as Provider>::Call;

/// Why the loop could not go on.
#[non_exhaustive]
pub enum AgentError<C: Conversation> {
    /// The toolbox's tools cannot be offered to the provider.
    Tools(C::ToolSetError),
    /// A pinned version cannot be offered: not served, or retired
    /// ([`VersionError::code`]).
    Versions(VersionError),
    /// The settings' extra request keys set a key the loop writes itself.
    ReservedKey(String),
    /// A [`Narrowing`] names a tool the conversation does not offer (the
    /// name), or requires a call with no tools (an empty name).
    Narrowing(String),
    /// The request got no response.
    Transport(TransportError),
    /// The response does not have the documented shape (or is an error
    /// body, or repeats a call id answered before); no call of it runs,
    /// and the conversation cannot go on.
    Response(ResponseError),
    /// An earlier turn ended with a fatal outcome or a broken response;
    /// nothing more may be sent in this conversation.
    Stopped,
    /// [`Agent::resume`] with nothing to send: the last turn ended without
    /// calls to answer or a paused turn to continue.
    NothingToSend,
}

impl<C: Conversation> fmt::Debug for AgentError<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Tools(error) => f.debug_tuple("Tools").field(error).finish(),
            AgentError::Versions(error) => f.debug_tuple("Versions").field(error).finish(),
            AgentError::ReservedKey(key) => f.debug_tuple("ReservedKey").field(key).finish(),
            AgentError::Narrowing(name) => f.debug_tuple("Narrowing").field(name).finish(),
            AgentError::Transport(error) => f.debug_tuple("Transport").field(error).finish(),
            AgentError::Response(error) => f.debug_tuple("Response").field(error).finish(),
            AgentError::Stopped => f.write_str("Stopped"),
            AgentError::NothingToSend => f.write_str("NothingToSend"),
        }
    }
}

impl<C: Conversation> fmt::Display for AgentError<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::Tools(error) => write!(f, "the tools cannot be offered: {error}"),
            AgentError::Versions(error) => {
                write!(f, "the pinned versions cannot be offered: {error}")
            }
            AgentError::ReservedKey(key) => write!(
                f,
                "`{key}` is the loop's to set (it writes {}, and reads whole responses, never a \
                 stream); leave it out of the extra request keys",
                C::WRITES
            ),
            AgentError::Narrowing(name) if name.is_empty() => {
                f.write_str("a turn that must call a tool needs at least one tool to call")
            }
            AgentError::Narrowing(name) => write!(
                f,
                "`{name}` is not offered in this conversation, so a turn cannot be narrowed to it"
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

impl<C: Conversation> std::error::Error for AgentError<C> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AgentError::Tools(error) => Some(error),
            AgentError::Versions(error) => Some(error),
            AgentError::Transport(error) => Some(error),
            AgentError::Response(error) => Some(error),
            _ => None,
        }
    }
}

impl<C: Conversation> From<TransportError> for AgentError<C> {
    fn from(error: TransportError) -> Self {
        AgentError::Transport(error)
    }
}

/// One response of the model and what the loop did with it.
pub struct Step<C: Conversation> {
    /// The response as the API gave it.
    pub response: Value,
    /// Why the response ended, as the provider says it (Anthropic's
    /// `stop_reason`, Gemini's `finishReason`, the Responses API's
    /// `status`); empty when it says nothing.
    pub stop_reason: String,
    /// The kind of each part of the response the loop did not act on, in
    /// order: reasoning and thinking, built-in or server tools' calls, and
    /// kinds it does not know, which are never an error.
    pub skipped: Vec<String>,
    /// The text of the response; empty when there is none.
    pub text: String,
    /// The tools the request offered the model (all the conversation's,
    /// or those of the [`Narrowing`] it carried): a call of any other was
    /// refused `TOOL_NOT_OFFERED`.
    pub offered: Exposure,
    /// The calls answered by the toolbox, with what was sent back.
    pub round: Round<C::Provider, CallResult>,
    /// The calls of a response that did not finish (see
    /// [`TurnEnd::Incomplete`]): never run, since they may be cut off;
    /// each is answered `CALL_NOT_RUN` in the next request, so the
    /// conversation stays one the API accepts. Their results (with audit
    /// records, outcome `not_started`) are in `round`.
    pub not_run: Vec<CallOf<C>>,
}

impl<C: Conversation> fmt::Debug for Step<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Step")
            .field("response", &self.response)
            .field("stop_reason", &self.stop_reason)
            .field("skipped", &self.skipped)
            .field("text", &self.text)
            .field("offered", &self.offered)
            .field("round", &self.round)
            .field("not_run", &self.not_run)
            .finish()
    }
}

/// One user turn: each response of the model, in order, and how it ended.
pub struct Turn<C: Conversation> {
    /// The responses of the turn and the calls answered in each.
    pub steps: Vec<Step<C>>,
    /// How the turn ended.
    pub end: TurnEnd,
}

impl<C: Conversation> fmt::Debug for Turn<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("steps", &self.steps)
            .field("end", &self.end)
            .finish()
    }
}

impl<C: Conversation> Turn<C> {
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

/// A conversation with a model, its tool calls answered by a [`Toolbox`],
/// each request sent through a [`Transport`] (HTTP for a live model, a
/// recording for tests); `C` is the provider's [`Conversation`] (OpenAI's
/// Responses API, Anthropic's Messages API, Gemini's `generateContent`).
///
/// Every request carries the toolbox's tools, one version of each: the
/// versions are fixed when the conversation starts (the newest, or those
/// [`pinned`](Self::pinned)), and every call of the conversation runs at
/// them. A response's calls run as
/// one turn of the toolbox (approvals, idempotent replays, time limits,
/// audit records); a response that repeats a call id answered earlier in
/// the conversation is refused before anything of it runs (the call would
/// run a second time); the calls of a response that did not finish are
/// answered `CALL_NOT_RUN`, never run.
pub struct Agent<'t, C: Conversation, T> {
    toolbox: &'t Toolbox,
    transport: T,
    conversation: C,
    /// The version of each tool offered, which every call runs at.
    versions: VersionPins,
    /// The tools every request defines.
    offered: Exposure,
    /// The turn's narrowed tool choice, until [`widen`](Self::widen).
    narrowing: Option<Narrowing>,
    abort: AbortHandle,
    /// The call ids of every response read so far: a later response that
    /// repeats one is refused (its call would run a second time).
    call_ids: HashSet<String>,
    /// The steps of a turn that a transport error interrupted; the turn
    /// [`resume`](Self::resume) gives holds them first.
    unfinished: Vec<Step<C>>,
    stopped: bool,
}

impl<'t, C: Conversation, T: Transport> Agent<'t, C, T> {
    /// A conversation offering `toolbox`'s tools, each at its newest
    /// version that is not retired; fails when the tools cannot be offered
    /// or the settings' extra keys set a key the loop writes.
    pub fn new(
        toolbox: &'t Toolbox,
        transport: T,
        settings: C::Settings,
    ) -> Result<Self, AgentError<C>> {
        Self::pinned(toolbox, transport, settings, &VersionPins::new())
    }

    /// A conversation offering `toolbox`'s tools at the versions `pins`
    /// name (the others at their newest that is not retired): a
    /// conversation recorded or evaluated at a version keeps it. The
    /// versions are fixed here; every call of the conversation runs at
    /// them, whatever [`VersionPins`] the session given to
    /// [`send`](Self::send) holds. A pin to a version that is not served
    /// or is retired is [`AgentError::Versions`].
    pub fn pinned(
        toolbox: &'t Toolbox,
        transport: T,
        settings: C::Settings,
        pins: &VersionPins,
    ) -> Result<Self, AgentError<C>> {
        let extra = C::extra(&settings);
        if let Some(key) = C::LOOP_KEYS.iter().find(|key| extra.contains_key(**key)) {
            return Err(AgentError::ReservedKey((*key).to_owned()));
        }
        let contracts = toolbox
            .contracts_for(&Session::new().with(pins.clone()))
            .map_err(AgentError::Versions)?;
        let conversation = C::start(settings, &contracts).map_err(AgentError::Tools)?;
        Ok(Agent {
            toolbox,
            transport,
            conversation,
            versions: VersionPins::of(&contracts),
            offered: Exposure::of(&contracts),
            narrowing: None,
            abort: AbortHandle::new(),
            call_ids: HashSet::new(),
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

    /// The tool definitions every request carries.
    pub fn tools(&self) -> &[Value] {
        self.conversation.tools()
    }

    /// The version of each tool the conversation offers and runs its
    /// calls at.
    pub fn versions(&self) -> &VersionPins {
        &self.versions
    }

    /// Narrows the following requests to `narrowing`'s tools (until
    /// [`widen`](Self::widen) or another `narrow`): each request carries
    /// the same definitions, and the provider's tool choice says which may
    /// be called ([`Conversation::narrow`]), so the prompt cache holds. A
    /// call of any other tool is refused `TOOL_NOT_OFFERED`, naming the
    /// narrowed tools; a call of one of them still meets every policy
    /// (approvals, injection, idempotency). Narrowing to a tool the
    /// conversation does not offer, or requiring a call with no tools, is
    /// [`AgentError::Narrowing`].
    pub fn narrow(&mut self, narrowing: Narrowing) -> Result<(), AgentError<C>> {
        if narrowing.mode() == ChoiceMode::Required && narrowing.tools().is_empty() {
            return Err(AgentError::Narrowing(String::new()));
        }
        if let Some(name) = narrowing
            .tools()
            .iter()
            .find(|name| !self.offered.offers(name))
        {
            return Err(AgentError::Narrowing(name.clone()));
        }
        self.narrowing = Some(narrowing);
        Ok(())
    }

    /// Ends a [`narrow`](Self::narrow): the following requests offer every
    /// tool again.
    pub fn widen(&mut self) {
        self.narrowing = None;
    }

    /// The tools the next request offers the model: the narrowed ones, or
    /// all the conversation defines.
    pub fn exposure(&self) -> Exposure {
        match &self.narrowing {
            Some(narrowing) => narrowing.exposure(),
            None => self.offered.clone(),
        }
    }

    /// The transport, e.g. to see that a replay is done.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// The provider's side of the conversation: what it keeps between
    /// requests (e.g. the messages sent so far) and its tool set.
    pub fn conversation(&self) -> &C {
        &self.conversation
    }

    /// Sends the user's `message` and runs the turn: each response's calls
    /// answered through the toolbox with `session`, until the model
    /// answers, a call is fatal, or the request limit is reached.
    ///
    /// Outputs still waiting (a turn that reached its request limit, or
    /// calls not run) go first, the message after them. A
    /// [`TransportError`] keeps what was not sent and the steps the turn
    /// made so far, so [`resume`](Self::resume) can try again and give the
    /// whole turn.
    pub async fn send(
        &mut self,
        message: &str,
        session: &Session,
    ) -> Result<Turn<C>, AgentError<C>> {
        if self.stopped {
            return Err(AgentError::Stopped);
        }
        self.conversation.push_user(message);
        self.run(session).await
    }

    /// Sends what is waiting (the outputs of a turn that reached its
    /// request limit, a paused turn, or a request that got no response)
    /// and runs the turn on from there.
    pub async fn resume(&mut self, session: &Session) -> Result<Turn<C>, AgentError<C>> {
        if self.stopped {
            return Err(AgentError::Stopped);
        }
        if !self.conversation.has_pending() {
            return Err(AgentError::NothingToSend);
        }
        self.run(session).await
    }

    async fn run(&mut self, session: &Session) -> Result<Turn<C>, AgentError<C>> {
        let mut steps = std::mem::take(&mut self.unfinished);
        for _ in 0..self.conversation.max_requests().max(1) {
            let request = self.request();
            let path = self.conversation.path();
            let response = match self.transport.send(&path, &request).await {
                Ok(response) => response,
                Err(error) => {
                    self.unfinished = steps;
                    return Err(AgentError::Transport(error));
                }
            };
            // The API has the request: what it added is in the conversation.
            self.conversation.sent();
            let step = match self.read(response, session).await {
                Ok(step) => step,
                Err(error) => {
                    self.stopped = true;
                    return Err(AgentError::Response(error));
                }
            };
            let end = if step.round.stop {
                self.stopped = true;
                Some(TurnEnd::Stopped)
            } else {
                self.conversation
                    .end(&step.response, &step.stop_reason, &step.text, &step.round)
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

    /// The next request, as the conversation writes it.
    fn request(&self) -> Value {
        let mut request = self.conversation.request();
        if let Some(narrowing) = &self.narrowing {
            C::narrow(&mut request, narrowing);
        }
        request
    }

    /// Reads a response, runs its calls (or answers them not run) and
    /// keeps what the next request needs.
    async fn read(&mut self, response: Value, session: &Session) -> Result<Step<C>, ResponseError> {
        let provider = self.conversation.provider();
        let calls = provider.calls(&response)?;
        let list = <C::Provider as Provider>::list(&calls);
        let id = <C::Provider as Provider>::provider_id;
        if let Some((position, id)) = list.iter().enumerate().find_map(|(position, call)| {
            id(call)
                .filter(|id| self.call_ids.contains(*id))
                .map(|id| (position, id))
        }) {
            return Err(self.conversation.repeated_call(&response, position, id));
        }
        self.call_ids
            .extend(list.iter().filter_map(|call| id(call).map(str::to_owned)));
        let refusal = provider.not_run(&response, &calls);
        let not_run = if refusal.is_some() {
            list.to_vec()
        } else {
            Vec::new()
        };
        let reading = self.conversation.read(&response, &calls)?;
        // The calls run at the versions the conversation offers, and only
        // the tools the request offered may run.
        let offered = self.exposure();
        let session = session
            .clone()
            .with(self.versions.clone())
            .with(offered.clone());
        let round = self
            .toolbox
            .answer_round::<C::Provider>(calls, refusal, &session, &self.abort.child())
            .await;
        self.conversation.answered(&response, &reading, &round);
        let Reading {
            stop_reason,
            skipped,
            text,
        } = reading;
        Ok(Step {
            response,
            stop_reason,
            skipped,
            text,
            offered,
            round,
            not_run,
        })
    }
}
