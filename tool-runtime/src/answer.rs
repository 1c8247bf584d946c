//! One way from any provider's response to its answer: the calls read by
//! the provider's [`Provider`] contract, run as one turn of the
//! [`Toolbox`], the outcomes written back in the provider's shape.

use serde_json::Value;
use tool_core::provider::{Provider, Round};
use tool_core::{ResponseError, Session, ToolCall, ToolError};

use crate::{AbortHandle, CallResult, Toolbox};

impl Toolbox {
    /// Answers the tool calls of a provider's response in one call:
    /// `toolbox.answer(&Api::ChatCompletions, &response, &session).await?`
    /// (OpenAI), `toolbox.answer(&tool_set, ...)` (Anthropic),
    /// `toolbox.answer(&GenerateContent, ...)` (Gemini).
    ///
    /// The calls of the response are one turn and run through
    /// [`call_turn`](Self::call_turn), with everything the toolbox applies
    /// to a call: unknown tools and invalid arguments answered for the
    /// model, approvals, idempotent replays, time limits, audit records.
    /// The [`Round`] holds each call with its [`CallResult`], in call
    /// order, and what to send back. A response that did not finish (as
    /// [`Provider::not_run`] says) has its calls answered `CALL_NOT_RUN`
    /// without running, each with its audit record.
    ///
    /// The toolbox refuses a call of a tool the turn did not offer when
    /// the session says which it did: pass
    /// `session.clone().with(Exposure::of(&offered))` ([`Exposure`](tool_core::Exposure); or the
    /// [`Narrowing`](tool_core::Narrowing)'s exposure of a narrowed turn),
    /// and such a call answers `TOOL_NOT_OFFERED` naming the offered tools.
    /// The agent loop does this for every request.
    ///
    /// A fatal outcome writes nothing and sets [`Round::stop`]: the run
    /// must not go on. A response of another shape is a [`ResponseError`]
    /// with the JSON path, and no call runs.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_contract::openai::Api;
    /// use tool_contract::{CallContext, Session, Tool, ToolError, Toolbox};
    ///
    /// /// Look up the opening hours of one store, e.g. before promising a pickup.
    /// #[derive(Tool)]
    /// pub struct GetStoreHours {
    ///     /// Store code as printed on the receipt, e.g. "BER-1".
    ///     pub store: String,
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(|call: GetStoreHours, _cx: CallContext| async move {
    ///     Ok::<_, ToolError>(format!("{} opens Mon-Sat 9:00-20:00.", call.store))
    /// });
    ///
    /// // The model's turn, as the Chat Completions API returned it.
    /// let response = json!({
    ///     "model": "gpt-4.1-2025-04-14",
    ///     "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    ///         "role": "assistant", "content": null,
    ///         "tool_calls": [{"id": "call_1", "type": "function", "function":
    ///             {"name": "get_store_hours", "arguments": "{\"store\":\"BER-1\"}"}}]}}]
    /// });
    ///
    /// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
    /// let round = runtime.block_on(toolbox.answer(&Api::ChatCompletions, &response, &Session::new()))?;
    /// assert_eq!(
    ///     round.answer.items,
    ///     [json!({"role": "tool", "tool_call_id": "call_1", "content": "BER-1 opens Mon-Sat 9:00-20:00."})]
    /// );
    /// assert!(!round.stop && !round.is_final_answer());
    /// let audit: Vec<&str> = round.audit_records().map(|record| record.tool.as_str()).collect();
    /// assert_eq!(audit, ["get_store_hours"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn answer<P: Provider + Sync>(
        &self,
        provider: &P,
        response: &Value,
        session: &Session,
    ) -> Result<Round<P, CallResult>, ResponseError> {
        let calls = provider.calls(response)?;
        let refusal = provider.not_run(response, &calls);
        Ok(self
            .answer_round::<P>(calls, refusal, session, &AbortHandle::new())
            .await)
    }

    /// Runs calls already read from a response (or assembled from a
    /// stream) as one turn that `abort` can cancel: a cancelled call
    /// answers `ABORTED` (pass a [`child`](AbortHandle::child) of a run's
    /// handle to cancel one turn). Calls whose stop reason says they may
    /// not run ([`Provider::refusal`]) are answered `CALL_NOT_RUN`.
    pub async fn answer_calls<P: Provider>(
        &self,
        calls: P::Calls,
        session: &Session,
        abort: &AbortHandle,
    ) -> Round<P, CallResult> {
        let refusal = P::refusal(&calls);
        self.answer_round::<P>(calls, refusal, session, abort).await
    }

    /// Runs `calls` (or, with a `refusal`, answers each with it without
    /// running) and builds the round.
    pub(crate) async fn answer_round<P: Provider>(
        &self,
        calls: P::Calls,
        refusal: Option<ToolError>,
        session: &Session,
        abort: &AbortHandle,
    ) -> Round<P, CallResult> {
        let list: Vec<P::Call> = P::list(&calls).to_vec();
        let tool_calls: Vec<ToolCall> = list.iter().map(|call| call.as_ref().clone()).collect();
        let outcomes = match &refusal {
            Some(error) => {
                self.answer_turn_without_running(&tool_calls, session, error)
                    .await
            }
            None => self.call_turn(&tool_calls, session, abort).await,
        };
        let results = list.into_iter().zip(outcomes).collect();
        // The version that handled the call, as its audit record names it.
        Round::new(calls, results, Vec::new(), &|_, result: &CallResult| {
            result.audit.contract_version
        })
    }
}
