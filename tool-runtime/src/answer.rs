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
    /// A fatal outcome writes nothing and sets [`Round::stop`]: the run
    /// must not go on. A response of another shape is a [`ResponseError`]
    /// with the JSON path, and no call runs.
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
