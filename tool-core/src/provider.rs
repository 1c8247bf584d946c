//! The contract every provider adapter implements: how a response's tool
//! calls are read, when they may not run, and how their outcomes are
//! written back ([`Provider`]); how a conversation with the provider's API
//! is carried from request to request and how a response ends a turn
//! ([`Conversation`]); and the one [`Round`] that answering a response
//! gives, whatever the provider.
//!
//! The runtime's `Toolbox::answer` and its agent loop are written once
//! against these traits; an adapter keeps only what is its provider's own
//! (wire shapes, stop reasons, request JSON).

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value, json};

use crate::{Narrowing, ResponseError, ToolCall, ToolContract, ToolError, ToolOutput, Version};

/// How one provider's responses are read and answered.
///
/// A value of the type is what reads a response: a unit (OpenAI's `Api`,
/// Gemini's `GenerateContent`) or one that carries the offered tools
/// (Anthropic's `ToolSet`, which matches enum values of strict tools
/// ignoring case).
pub trait Provider {
    /// One call as the provider gives it: the runtime's [`ToolCall`], or one
    /// that keeps the provider's own id beside it.
    type Call: AsRef<ToolCall> + Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// The calls of one response, with what answering them needs (the
    /// model, the API, the stop reason, the model's turn).
    type Calls: Send + 'static;
    /// What answering a response writes back for the next request.
    type Answer: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;

    /// The calls of `response`, in order, or why it cannot be read (a JSON
    /// path and what is wrong); no call runs then.
    fn calls(&self, response: &Value) -> Result<Self::Calls, ResponseError>;

    /// The error answering every call of `response` when they may not run
    /// (the response did not finish: each is answered `CALL_NOT_RUN`);
    /// `None` when they may. By default what [`Provider::refusal`] says of
    /// the calls.
    fn not_run(&self, response: &Value, calls: &Self::Calls) -> Option<ToolError> {
        let _ = response;
        Self::refusal(calls)
    }

    /// The error answering every call of `calls` when what they carry of
    /// their response (a stop reason) says they may not run.
    fn refusal(calls: &Self::Calls) -> Option<ToolError>;

    /// The model that made the calls, as the response names it.
    fn model(calls: &Self::Calls) -> &str;

    /// The calls, in order.
    fn list(calls: &Self::Calls) -> &[Self::Call];

    /// The id the provider gave `call`, which the agent loop holds unique
    /// across a conversation (a repeated one would run its call twice);
    /// `None` when the provider gave none and the runtime's id was made up
    /// for the one response. By default the call's `call_id`.
    fn provider_id(call: &Self::Call) -> Option<&str> {
        Some(&call.as_ref().call_id)
    }

    /// What to send back for `results` (each call with its outcome, in call
    /// order; `stop` when one was fatal). `version` gives the contract
    /// version that handled a call, for the providers that record it.
    fn answer<R: AsRef<ToolOutput>>(
        calls: Self::Calls,
        results: &[(Self::Call, R)],
        stop: bool,
        version: &dyn Fn(&ToolCall, &R) -> Option<Version>,
    ) -> Self::Answer;
}

/// What answering one response's tool calls gives, for any [`Provider`]:
/// the outcome of each call, what to send back, and whether the loop must
/// stop.
///
/// `R` is what each call ended with: a [`ToolOutput`] when a closure
/// answered the calls, or the runtime's `CallResult` (the output with its
/// model result, audit record and approval request) when a `Toolbox` did.
pub struct Round<P: Provider, R = ToolOutput> {
    /// The model that made the calls, as the response names it.
    pub model: String,
    /// Each call that was answered, with its outcome, in call order.
    pub results: Vec<(P::Call, R)>,
    /// Calls that were not run because an earlier call was fatal.
    pub unanswered: Vec<P::Call>,
    /// True when a call ended fatally: no output was written for it, and
    /// nothing more should be sent to the model.
    pub stop: bool,
    /// What to send back, in the provider's shape (OpenAI's items,
    /// Anthropic's user message of `tool_result` blocks, Gemini's user
    /// content of `functionResponse` parts).
    pub answer: P::Answer,
}

impl<P: Provider, R> Round<P, R> {
    /// True when the response had no tool calls: the model answered and
    /// the loop is over.
    pub fn is_final_answer(&self) -> bool {
        self.results.is_empty() && self.unanswered.is_empty()
    }
}

impl<P: Provider, R: AsRef<ToolOutput>> Round<P, R> {
    /// The round of `results` (and the calls left `unanswered` after a
    /// fatal one) for `calls`; `version` gives the contract version of each
    /// call for the records.
    pub fn new(
        calls: P::Calls,
        results: Vec<(P::Call, R)>,
        unanswered: Vec<P::Call>,
        version: &dyn Fn(&ToolCall, &R) -> Option<Version>,
    ) -> Self {
        let model = P::model(&calls).to_owned();
        let stop = !unanswered.is_empty() || results.iter().any(|(_, r)| r.as_ref().is_fatal());
        let answer = P::answer(calls, &results, stop, version);
        Round {
            model,
            results,
            unanswered,
            stop,
            answer,
        }
    }

    /// The round for calls that were run elsewhere, for instance
    /// concurrently by a dispatcher of one's own: each outcome of `results`
    /// is written in the order given, in the provider's shape, and `stop`
    /// is set when any is fatal. `calls` are the response's calls (only
    /// what they say of the response is used: the model, the API);
    /// `contracts` (the offered tools) give the contract versions of the
    /// records. Answer unknown tools with [`unknown_tool`] before running.
    pub fn from_results(
        calls: P::Calls,
        results: Vec<(P::Call, R)>,
        contracts: &[&'static ToolContract],
    ) -> Self {
        Round::new(calls, results, Vec::new(), &|call: &ToolCall, _: &R| {
            call.contract_in(contracts).map(ToolContract::version)
        })
    }

    /// Answers every call of `calls` with a synchronous closure. `contracts`
    /// are the tools that were offered: a call of another tool is answered
    /// with `UNKNOWN_TOOL` ([`unknown_tool`]) without calling `run`; calls
    /// that share an id are answered `DUPLICATE_CALL_ID` and none of them
    /// runs; calls after a fatal outcome are not run. When `refusal` is
    /// given (the response did not finish), every call is answered with it,
    /// a known tool or not, and none runs.
    pub fn answer_with(
        calls: P::Calls,
        refusal: Option<ToolError>,
        contracts: &[&'static ToolContract],
        mut run: impl FnMut(&ToolCall) -> R,
    ) -> Self
    where
        R: From<ToolOutput>,
    {
        let version =
            |call: &ToolCall, _: &R| call.contract_in(contracts).map(ToolContract::version);
        let list = P::list(&calls).to_vec();
        if let Some(error) = refusal {
            let results = list
                .into_iter()
                .map(|call| (call, R::from(ToolOutput::respond_to_model(error.clone()))))
                .collect();
            return Round::new(calls, results, Vec::new(), &version);
        }
        let mut ids: HashMap<&str, usize> = HashMap::new();
        for call in P::list(&calls) {
            *ids.entry(call.as_ref().call_id.as_str()).or_default() += 1;
        }
        let shared: Vec<bool> = P::list(&calls)
            .iter()
            .map(|call| ids[call.as_ref().call_id.as_str()] > 1)
            .collect();
        let mut results = Vec::with_capacity(list.len());
        let mut list = list.into_iter();
        for (call, shared) in list.by_ref().zip(shared) {
            // Calls that share an id cannot be told apart by their results:
            // none of them runs (as `Toolbox::call_turn` answers them).
            let tool_call = call.as_ref();
            let output = match tool_call.contract_in(contracts) {
                _ if shared => R::from(ToolOutput::respond_to_model(ToolError::duplicate_call_id(
                    &tool_call.call_id,
                ))),
                Some(_) => run(tool_call),
                None => R::from(unknown_tool(&tool_call.name, contracts)),
            };
            let fatal = output.as_ref().is_fatal();
            results.push((call, output));
            if fatal {
                break;
            }
        }
        Round::new(calls, results, list.collect(), &version)
    }

    /// The first call that ended fatally, with its outcome: the reason the
    /// round says [`stop`](Self::stop).
    pub fn fatal(&self) -> Option<&(P::Call, R)> {
        self.results
            .iter()
            .find(|(_, outcome)| outcome.as_ref().is_fatal())
    }
}

/// An outcome that carries an approval request and an audit record (the
/// runtime's `CallResult`), so a [`Round`] of them can list both.
pub trait Audited {
    /// The approval request type.
    type Approval;
    /// The audit record type.
    type Audit;
    /// The approval request of a call refused with `APPROVAL_REQUIRED`.
    fn approval_request(&self) -> Option<&Self::Approval>;
    /// The call's audit record.
    fn audit(&self) -> &Self::Audit;
}

impl<P: Provider, R: Audited> Round<P, R> {
    /// The approval requests of the calls refused with `APPROVAL_REQUIRED`,
    /// in call order: what to show the user. Once the user approves (the
    /// grant goes into the session's `Approvals`), the same call runs.
    pub fn approval_requests(&self) -> impl Iterator<Item = &R::Approval> {
        self.results
            .iter()
            .filter_map(|(_, result)| result.approval_request())
    }

    /// The audit record of every call, in call order: what the application
    /// keeps, never sent to the model.
    pub fn audit_records(&self) -> impl Iterator<Item = &R::Audit> {
        self.results.iter().map(|(_, result)| result.audit())
    }
}

impl<P: Provider, R: Clone> Clone for Round<P, R> {
    fn clone(&self) -> Self {
        Round {
            model: self.model.clone(),
            results: self.results.clone(),
            unanswered: self.unanswered.clone(),
            stop: self.stop,
            answer: self.answer.clone(),
        }
    }
}

impl<P: Provider, R: fmt::Debug> fmt::Debug for Round<P, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Round")
            .field("model", &self.model)
            .field("results", &self.results)
            .field("unanswered", &self.unanswered)
            .field("stop", &self.stop)
            .field("answer", &self.answer)
            .finish()
    }
}

impl<P: Provider, R: PartialEq> PartialEq for Round<P, R> {
    fn eq(&self, other: &Self) -> bool {
        self.model == other.model
            && self.results == other.results
            && self.unanswered == other.unanswered
            && self.stop == other.stop
            && self.answer == other.answer
    }
}

/// `UNKNOWN_TOOL`: the model called a tool that was not offered (the same
/// error the runtime's `Toolbox` answers), with the name and the offered
/// tools in the details.
pub fn unknown_tool(name: &str, contracts: &[&'static ToolContract]) -> ToolOutput {
    let known: Vec<&str> = contracts.iter().map(|c| c.name()).collect();
    ToolOutput::RespondToModel {
        error: ToolError::unknown_tool(name, known.iter().copied()),
        details: json!({"tool": name, "known_tools": known}),
    }
}

/// How a user turn of the agent loop ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnEnd {
    /// The model answered without calling a tool: its text.
    Answer(String),
    /// The model declined (Anthropic's `refusal`, Gemini's `SAFETY` and
    /// the other blocking finish reasons): what text there is.
    Refused(String),
    /// The response did not complete: cut off at a token limit, stopped
    /// for another reason, or with a call not finished; the reason as the
    /// provider gives it. Its calls are not run: the next request answers
    /// each with `Error [CALL_NOT_RUN]`. What text there is, is in the
    /// step.
    Incomplete(String),
    /// The model still called tools after the request limit of the turn.
    /// Their outputs are kept: `resume` sends them, and so does the next
    /// `send`, before its message.
    RequestLimit,
    /// A call ended fatally (see [`Round::stop`]); the conversation is
    /// over.
    Stopped,
}

/// What the agent loop reads of a response besides its calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// Why the response ended, as the provider says it (Anthropic's
    /// `stop_reason`, Gemini's `finishReason`, the Responses API's
    /// `status`); empty when it says nothing.
    pub stop_reason: String,
    /// The kind of each part of the response the loop did not act on, in
    /// order (reasoning, thinking, server tools' blocks, kinds it does not
    /// know, which are never an error).
    pub skipped: Vec<String>,
    /// The text of the response; empty when there is none.
    pub text: String,
}

/// A conversation with one provider's API, as the agent loop carries it:
/// what the next request holds, what a response adds, and how a response
/// ends the turn. The loop (tool-runtime's `Agent`) sends the requests,
/// refuses a call id answered before, runs the calls and decides when a
/// turn is over with these answers.
pub trait Conversation: Sized + Send {
    /// What reads and answers the responses.
    type Provider: Provider + Send + Sync;
    /// What the application sets: the model, the request limit of a turn,
    /// further request keys, ...
    type Settings;
    /// Why the tools cannot be offered.
    type ToolSetError: std::error::Error + Send + Sync + 'static;

    /// The request keys the loop writes itself; settings may not set them.
    const LOOP_KEYS: &'static [&'static str];
    /// Those keys in words, for the error that refuses one (`model,
    /// instructions, previous_response_id, input and tools`).
    const WRITES: &'static str;

    /// The further request keys of `settings`, checked against
    /// [`LOOP_KEYS`](Self::LOOP_KEYS) before the conversation starts.
    fn extra(settings: &Self::Settings) -> &Map<String, Value>;

    /// A conversation offering `contracts`, or why they cannot be offered.
    fn start(
        settings: Self::Settings,
        contracts: &[&'static ToolContract],
    ) -> Result<Self, Self::ToolSetError>;

    /// What reads the responses.
    fn provider(&self) -> &Self::Provider;

    /// The tool definitions every request carries.
    fn tools(&self) -> &[Value];

    /// The most requests one turn may make (at least 1).
    fn max_requests(&self) -> usize;

    /// The endpoint of the next request, relative to the base URL.
    fn path(&self) -> String;

    /// Adds the user's message to what the next request sends.
    fn push_user(&mut self, text: &str);

    /// True when there is something to send without a new user message
    /// (outputs waiting, a paused turn, a request that got no response).
    fn has_pending(&self) -> bool;

    /// The next request.
    fn request(&self) -> Value;

    /// Writes `narrowing` into `request` (the provider's tool choice),
    /// leaving the tool definitions as they are so the prompt cache holds:
    /// OpenAI's `allowed_tools`, Anthropic's `tool_choice`, Gemini's
    /// `allowedFunctionNames`. The runtime refuses a call outside the
    /// narrowed set whatever the provider does with it.
    fn narrow(request: &mut Value, narrowing: &Narrowing);

    /// The API has the request: what it added is in the conversation.
    fn sent(&mut self);

    /// The error for a response whose call at `position` (of its calls)
    /// has the id `id` of a call answered earlier in the conversation.
    fn repeated_call(&self, response: &Value, position: usize, id: &str) -> ResponseError;

    /// Reads what the loop needs of `response` besides its calls, before
    /// any of them runs; an error stops the conversation.
    fn read(
        &mut self,
        response: &Value,
        calls: &<Self::Provider as Provider>::Calls,
    ) -> Result<Reading, ResponseError>;

    /// Keeps what the next request needs of `response` and of the round
    /// that answered it.
    fn answered<R: AsRef<ToolOutput>>(
        &mut self,
        response: &Value,
        reading: &Reading,
        round: &Round<Self::Provider, R>,
    );

    /// How the turn ends after a response that did not stop the
    /// conversation, or `None` when it goes on.
    /// `stop_reason` and `text` are what [`read`](Self::read) gave.
    fn end<R>(
        &self,
        response: &Value,
        stop_reason: &str,
        text: &str,
        round: &Round<Self::Provider, R>,
    ) -> Option<TurnEnd>;
}

/// Assembles the events of one streamed response into whole tool calls,
/// for any provider: each event's JSON (the `data:` of each server-sent
/// event) goes to [`push`](Assembler::push), which gives the calls it
/// finished; [`finish`](Assembler::finish) gives all calls of the
/// response once the stream said it ended as a turn of calls, or an error:
/// never a half call. The calls are the provider's [`Provider::Calls`], so
/// the runtime answers them as it answers a whole response.
pub trait Assembler {
    /// The provider whose calls the stream gives.
    type Provider: Provider;
    /// Why a stream gave no (more) calls.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Feeds one event; gives the calls it finished (whole JSON, final
    /// once [`finish`](Assembler::finish) confirms them).
    fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, Self::Error>;

    /// The calls of the whole response.
    fn finish(self) -> Result<<Self::Provider as Provider>::Calls, Self::Error>;
}
