//! OpenAI adapter of tool-contract: compiles a tool's provider-neutral input
//! schema into what OpenAI's strict mode accepts, writes tool definitions for
//! the Chat Completions and Responses APIs, and carries tool calls and their
//! outputs between the API's JSON and the runtime.
//!
//! - [`to_strict_json_schema`] compiles any JSON Schema of the shape schemars
//!   and pydantic emit, or says (with a JSON path, a [`StrictRule`] and a
//!   fix) why strict mode cannot express it; [`strict_schema`] does it once
//!   per tool; [`check_strict_schema`] asserts the strict rules on any schema.
//! - [`chat_completions_tool`], [`responses_tool`] and the tool sets
//!   [`tools_for_chat_completions`], [`tools_for_responses`] write
//!   definitions with `strict` always spelled out.
//! - [`chat_completions_calls`] and [`responses_calls`] read the tool calls
//!   of a response as the provider-neutral `ToolCall`s the runtime runs,
//!   with the API and model they came from ([`ResponseCalls`]);
//!   [`Api::output_item`] writes an outcome back as the API expects.
//! - [`Api`] is the provider contract (`tool_core::provider::Provider`) of
//!   both APIs: with the cargo feature `runtime` the runtime's `Toolbox`
//!   answers a whole response in one call
//!   (`toolbox.answer(&Api::ChatCompletions, &response, &session).await`), with
//!   its approvals, idempotent replays, time limits and audit records.
//!   With a dispatcher of one's own, [`answer_chat_completions`] and
//!   [`answer_responses`] hand each call to a synchronous closure. Either
//!   way the [`ToolRound`] holds the outcome of each call and the messages
//!   or items to send back; a fatal outcome writes nothing and stops the
//!   loop.
//! - With `runtime`, `agent` runs the runtime's one agent loop over the
//!   Responses API ([`agent::Responses`] is its conversation):
//!   `ResponsesAgent` sends the tools and the user's message through a
//!   transport (recorded replay, or HTTP with the cargo feature `live`),
//!   answers each response's calls with a `Toolbox` and sends the outputs
//!   back, by `previous_response_id` or by resending the items.
//! - [`ChatCompletionsStream`] and [`ResponsesStream`] assemble whole calls
//!   from a streamed response's deltas; a cut-off stream is a
//!   [`StreamError`] (tool-core's one error of every stream assembler, with
//!   its [`StreamErrorKind`]), never a half call.
//! - [`check_tool_set`] and [`check_budget`] hold a whole request's tools to
//!   OpenAI's limits (properties, nesting, enum values, characters) before
//!   the first request; the `tools_for_*` functions do it too. A set over
//!   them is tool-core's one [`BudgetError`], of [`BudgetLimit`]s.
//!
//! The rules and where they come from: OpenAI's Structured Outputs guide
//! ("Supported schemas") and function-calling guide ("Strict mode").
#![deny(missing_docs)]

mod budget;
mod cache;
mod calls;
mod check;
mod compile;
#[cfg(feature = "runtime")]
mod conversation;
mod depth;
mod error;
mod keywords;
mod merge;
mod refs;
mod round;
mod sound;
mod stream;
mod stream_chat;
mod stream_responses;
mod wire;

pub use budget::{BudgetError, BudgetLimit, OverBudget, SchemaUsage, check_budget, schema_usage};
pub use cache::{strict_schema, strict_schema_for};
pub use calls::{
    Api, CallRecord, PROVIDER, ResponseCalls, ResponseError, chat_completions_calls, not_run,
    responses_calls, unfinished,
};
pub use check::{
    LONG_ENUM_CHARACTERS, LONG_ENUM_VALUES, MAX_ENUM_VALUES, MAX_NESTING, MAX_PROPERTIES,
    MAX_TOTAL_CHARACTERS, check_strict_schema,
};
pub use compile::to_strict_json_schema;
pub use error::{StrictRule, StrictSchemaError, StrictViolation};
pub use round::{Answer, ToolRound, answer_chat_completions, answer_responses, answer_tool_calls};
pub use stream::{
    MAX_STREAMED_ARGUMENT_BYTES, MAX_STREAMED_CALLS, MAX_STREAMED_RESPONSE_ARGUMENT_BYTES,
    StreamError, StreamErrorKind,
};
pub use stream_chat::ChatCompletionsStream;
pub use stream_responses::ResponsesStream;
/// The bounds every provider's stream assembler holds a streamed response
/// to, and the words of their errors (one module for all providers).
pub use tool_core::outcome::stream_limits;
/// `UNKNOWN_TOOL` for a call of a tool that was not offered (one rule for
/// every provider).
pub use tool_core::provider::unknown_tool;
pub use wire::{
    ToolSetError, allowed_tools, chat_completions_tool, chat_completions_tool_for,
    chat_completions_tool_non_strict, check_tool_set, responses_tool, responses_tool_for,
    responses_tool_non_strict, tools_for_chat_completions, tools_for_responses,
};

/// The agent loop over the Responses API (cargo feature `runtime`): the
/// runtime's one loop (`tool_runtime::agent::Agent`) with this API's
/// conversation ([`Responses`](agent::Responses)): send the tools and the
/// user's message, answer the model's function calls through a `Toolbox`,
/// send the outputs back, until the model answers in text or the request
/// limit of the turn is reached.
#[cfg(feature = "runtime")]
pub mod agent {
    pub use crate::conversation::{AgentSettings, Continuation, RESPONSES_PATH, Responses};
    pub use tool_runtime::agent::TurnEnd;

    /// A conversation with a model over the Responses API, its tool calls
    /// answered by a [`Toolbox`](tool_runtime::Toolbox), each request sent
    /// through a [`Transport`](tool_transport::Transport)
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
    pub type ResponsesAgent<'t, T> = tool_runtime::agent::Agent<'t, Responses, T>;

    /// Why the loop could not go on.
    pub type AgentError = tool_runtime::agent::AgentError<Responses>;

    /// One response of the model and what the loop did with it.
    pub type Step = tool_runtime::agent::Step<Responses>;

    /// One user turn: each response of the model, in order, and how it
    /// ended.
    pub type Turn = tool_runtime::agent::Turn<Responses>;
}
