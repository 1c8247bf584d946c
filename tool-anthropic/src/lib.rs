//! Anthropic adapter of tool-contract: compiles a tool's input schema into
//! what the Messages API's strict tool use accepts, checks a request's tool
//! set against Anthropic's per-request budgets, reads `tool_use` blocks
//! (whole or streamed) as the runtime's calls, and writes `tool_result`
//! blocks back.
//!
//! - [`to_strict_input_schema`] compiles a JSON Schema into the strict
//!   subset, moving what it cannot express into the description (the
//!   parser still enforces it) or saying why it cannot ([`StrictRule`]);
//!   [`tool`] writes one `{name, description, input_schema, strict}`
//!   definition.
//! - [`ToolSet`] builds a request's tools and checks, before any request,
//!   the limits across all strict tools ([`MAX_STRICT_TOOLS`],
//!   [`MAX_OPTIONAL_PARAMETERS`], [`MAX_UNION_PARAMETERS`]), choosing per
//!   `Option` field between absent and required-and-nullable so the set
//!   fits, or naming the fields over budget (tool-core's one
//!   [`BudgetError`], of [`Limit`]s).
//! - [`tool_use_calls`] and [`ToolSet::calls`] read a response's calls;
//!   [`StreamAssembler`] assembles them from `input_json_delta` events (a
//!   stream it refuses is tool-core's one [`StreamError`]);
//!   [`tool_result`], [`results_message`] and [`answer_tool_use`] answer
//!   them, all results in one user message before any text;
//!   [`ToolChoice`] writes `tool_choice`.
//! - [`ToolSet`] is the provider contract (`tool_core::provider::Provider`):
//!   with the cargo feature `runtime` the runtime's `Toolbox` answers a
//!   response in one call (`toolbox.answer(&tool_set, &response,
//!   &session)`), and `agent::MessagesAgent` runs the runtime's one loop
//!   over the Messages API ([`agent::Messages`] is its conversation):
//!   requests through a
//!   `tool_transport::Transport` (a recorded replay, or HTTP with the
//!   feature `live`), each `tool_use` answered by the toolbox, the
//!   conversation resent with every request.
//!
//! The rules and where they come from: Anthropic's structured-outputs guide
//! ("JSON Schema limitations", "Schema complexity limits") and the tool-use
//! guide ("Handle tool calls").
#![deny(missing_docs)]

mod budget;
mod calls;
mod compile;
#[cfg(feature = "runtime")]
mod conversation;
mod error;
mod keywords;
mod nullable;
mod round;
mod stream;
mod values;
mod wire;

pub use budget::{
    BudgetError, Limit, MAX_OPTIONAL_PARAMETERS, MAX_STRICT_TOOLS, MAX_UNION_PARAMETERS,
    NullablePlan, OverBudget, Usage,
};
pub use calls::{PROVIDER, ResponseCalls, ResponseError, tool_use_calls};
pub use compile::{MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES, to_strict_input_schema};
pub use error::{StrictRule, StrictSchemaError};
pub use keywords::{MAX_PATTERN_REPETITION, SUPPORTED_FORMATS, pattern_supported};
pub use round::{ToolRound, answer_calls, answer_tool_use, not_run, results_message, tool_result};
pub use stream::{StreamAssembler, StreamError, StreamErrorKind};
/// The bounds every provider's stream assembler holds a streamed response
/// to, and the words of their errors (one module for all providers).
pub use tool_core::outcome::stream_limits;
pub use wire::{
    INPUT_EXAMPLES_BETA, ToolChoice, ToolSet, ToolSetError, tool, tool_for, tool_non_strict,
};

/// The agent loop over the Messages API (cargo feature `runtime`): the
/// runtime's one loop (`tool_runtime::agent::Agent`) with this API's
/// conversation ([`Messages`](agent::Messages)): send the tools and the
/// user's message, answer the model's `tool_use` blocks through a
/// `Toolbox`, send the `tool_result` blocks back, until the model ends its
/// turn or the request limit of the turn is reached.
#[cfg(feature = "runtime")]
pub mod agent {
    #[cfg(feature = "live")]
    pub use crate::conversation::http_transport;
    pub use crate::conversation::{
        API_BASE_URL, API_VERSION, AgentSettings, CALL_NOT_RUN, MESSAGES_PATH, Messages,
    };
    pub use tool_runtime::agent::TurnEnd;

    /// A conversation with a model over the Messages API, its tool calls
    /// answered by a [`Toolbox`](tool_runtime::Toolbox), each request sent
    /// through a [`Transport`](tool_transport::Transport)
    /// (HTTP for a live model, a recording for tests).
    ///
    /// Every request carries the toolbox's tools as a [`ToolSet`](crate::ToolSet) of strict
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
    /// [`Step::not_run`](tool_runtime::agent::Step::not_run), and the next user message answers it with an
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
    pub type MessagesAgent<'t, T> = tool_runtime::agent::Agent<'t, Messages, T>;

    /// Why the loop could not go on.
    pub type AgentError = tool_runtime::agent::AgentError<Messages>;

    /// One response of the model and what the loop did with it.
    pub type Step = tool_runtime::agent::Step<Messages>;

    /// One user turn: each response of the model, in order, and how it
    /// ended.
    pub type Turn = tool_runtime::agent::Turn<Messages>;
}
