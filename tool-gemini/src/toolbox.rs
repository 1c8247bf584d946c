//! A `generateContent` response's function calls answered by the runtime's
//! `Toolbox` (cargo feature `runtime`).

use std::future::Future;

use serde_json::Value;
use tool_core::Session;
use tool_runtime::{AbortHandle, CallResult, Toolbox};

use crate::calls::{
    GeminiCall, GeminiCalls, ResponseError, function_response, function_responses_content,
    generate_content_calls, not_run,
};

/// The calls of one model turn with their results, and the user turn that
/// answers them.
#[derive(Debug)]
pub struct GeminiRound {
    /// The model, as the response named it.
    pub model: String,
    /// The model's turn as it came, to append to the history first
    /// (unchanged, for Gemini 3's thought signatures); `None` without a
    /// candidate.
    pub model_content: Option<Value>,
    /// Each call with its result, in call order.
    pub results: Vec<(GeminiCall, CallResult)>,
    /// The user turn with every `functionResponse`, to append after the
    /// model's turn; `None` when there were no calls or the run must stop.
    pub user_content: Option<Value>,
    /// True when an outcome was fatal: nothing is answered and the run must
    /// not go on.
    pub stop: bool,
}

impl GeminiRound {
    /// True when the model answered without calling a function.
    pub fn is_final_answer(&self) -> bool {
        self.results.is_empty()
    }
}

/// Answers a Gemini response's function calls with a [`Toolbox`]:
/// `toolbox.answer_generate_content(&response, &session).await?`.
///
/// The calls are one turn ([`Toolbox::call_turn`]) with everything the
/// toolbox applies: unknown tools and invalid arguments answered for the
/// model, approvals, idempotent replays, time limits, audit records. The
/// calls of a candidate that did not finish with `STOP`
/// ([`GeminiCalls::may_run`]) are not run: each is answered
/// [`not_run`](crate::not_run) (`CALL_NOT_RUN`), with its audit record.
///
/// ```
/// use serde_json::json;
/// use tool_contract::gemini::GeminiToolboxExt;
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
/// let response = json!({"modelVersion": "gemini-2.5-flash", "candidates": [{"content": {"role": "model",
///     "parts": [{"functionCall": {"id": "fc-1", "name": "get_store_hours", "args": {"store": "BER-1"}}}]},
///     "finishReason": "STOP"}]});
/// let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let round = runtime.block_on(toolbox.answer_generate_content(&response, &Session::new()))?;
/// assert_eq!(round.user_content, Some(json!({"role": "user", "parts": [{"functionResponse": {
///     "id": "fc-1", "name": "get_store_hours",
///     "response": {"output": "BER-1 opens Mon-Sat 9:00-20:00."}}}]})));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait GeminiToolboxExt: sealed::Sealed {
    /// Runs the function calls of a `generateContent` response.
    fn answer_generate_content(
        &self,
        response: &Value,
        session: &Session,
    ) -> impl Future<Output = Result<GeminiRound, ResponseError>> + Send;

    /// Runs calls already read from a response as one turn that `abort`
    /// can cancel; calls that may not run ([`GeminiCalls::may_run`]) are
    /// answered `CALL_NOT_RUN` without running.
    fn answer_gemini_calls(
        &self,
        calls: GeminiCalls,
        session: &Session,
        abort: &AbortHandle,
    ) -> impl Future<Output = GeminiRound> + Send;
}

impl GeminiToolboxExt for Toolbox {
    async fn answer_generate_content(
        &self,
        response: &Value,
        session: &Session,
    ) -> Result<GeminiRound, ResponseError> {
        let calls = generate_content_calls(response)?;
        Ok(self
            .answer_gemini_calls(calls, session, &AbortHandle::new())
            .await)
    }

    async fn answer_gemini_calls(
        &self,
        calls: GeminiCalls,
        session: &Session,
        abort: &AbortHandle,
    ) -> GeminiRound {
        let tool_calls = calls.tool_calls();
        let outcomes = if calls.may_run() {
            self.call_turn(&tool_calls, session, abort).await
        } else {
            let refusal = not_run(calls.finish_reason.as_deref());
            self.answer_turn_without_running(&tool_calls, session, &refusal)
                .await
        };
        let results: Vec<(GeminiCall, CallResult)> =
            calls.calls.into_iter().zip(outcomes).collect();
        let stop = results.iter().any(|(_, result)| result.output.is_fatal());
        let parts: Vec<Value> = results
            .iter()
            .filter_map(|(call, result)| function_response(call, &result.output))
            .collect();
        let user_content = (!stop && !parts.is_empty()).then(|| function_responses_content(parts));
        GeminiRound {
            model: calls.model,
            model_content: calls.content,
            results,
            user_content,
            stop,
        }
    }
}

mod sealed {
    /// Keeps [`GeminiToolboxExt`](super::GeminiToolboxExt) for
    /// [`Toolbox`](super::Toolbox), so methods can be added to it.
    pub trait Sealed {}

    impl Sealed for super::Toolbox {}
}
