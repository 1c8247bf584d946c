//! How a tool call ends: one structured outcome for the runtime, plain text
//! for the model.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::contract::{DeclaredError, ErrorCategory, Recovery};
use crate::parse::{ArgumentError, ArgumentErrorKind};

/// The outcome of one tool call.
///
/// The runtime keeps all of it; the model sees only [`model_text`](Self::model_text):
/// the content for a success, `Error [CODE]: message` for an error the model
/// can act on, and nothing for a fatal error, which stops the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ToolOutput {
    /// The call did what it was asked.
    Success {
        /// What the model reads.
        content_text: String,
        /// A remark for the model after the content (e.g. "showing 20 of 312").
        notice: Option<String>,
        /// Whether `content_text` was cut short.
        truncated: bool,
        /// Structured result that stays with the runtime.
        details: Value,
    },
    /// A recoverable error, written into the conversation for the model.
    RespondToModel {
        /// What went wrong, in words safe to show the model.
        error: ToolError,
        /// Structured context that stays with the runtime.
        details: Value,
    },
    /// The run cannot go on: no tool output is written and the loop stops.
    Fatal {
        /// What went wrong.
        error: ToolError,
        /// Structured context that stays with the runtime.
        details: Value,
    },
}

impl ToolOutput {
    /// A success whose model text is `content_text`.
    pub fn success(content_text: impl Into<String>) -> Self {
        ToolOutput::Success {
            content_text: content_text.into(),
            notice: None,
            truncated: false,
            details: Value::Null,
        }
    }

    /// A recoverable error for the model.
    pub fn respond_to_model(error: ToolError) -> Self {
        ToolOutput::RespondToModel {
            error,
            details: Value::Null,
        }
    }

    /// An error that stops the run.
    pub fn fatal(error: ToolError) -> Self {
        ToolOutput::Fatal {
            error,
            details: Value::Null,
        }
    }

    /// The text the model sees: the content (and notice) of a success,
    /// `Error [CODE]: message` for a recoverable error, `None` when fatal.
    ///
    /// ```
    /// use tool_contract::{ToolError, ToolOutput};
    ///
    /// assert_eq!(ToolOutput::success("3 in stock").model_text().as_deref(), Some("3 in stock"));
    /// let error = ToolError::not_found("ORDER_NOT_FOUND", "No order A-1 for this customer.");
    /// assert_eq!(
    ///     ToolOutput::respond_to_model(error.clone()).model_text().as_deref(),
    ///     Some("Error [ORDER_NOT_FOUND]: No order A-1 for this customer.")
    /// );
    /// assert_eq!(ToolOutput::fatal(error).model_text(), None);
    /// ```
    pub fn model_text(&self) -> Option<String> {
        match self {
            ToolOutput::Success {
                content_text,
                notice: Some(notice),
                ..
            } => Some(format!("{content_text}\n\n{notice}")),
            ToolOutput::Success { content_text, .. } => Some(content_text.clone()),
            ToolOutput::RespondToModel { error, .. } => Some(error.model_text()),
            ToolOutput::Fatal { .. } => None,
        }
    }

    /// True for [`ToolOutput::Fatal`].
    pub fn is_fatal(&self) -> bool {
        matches!(self, ToolOutput::Fatal { .. })
    }

    /// Which of the three outcomes this is.
    pub fn kind(&self) -> OutputKind {
        match self {
            ToolOutput::Success { .. } => OutputKind::Success,
            ToolOutput::RespondToModel { .. } => OutputKind::RespondToModel,
            ToolOutput::Fatal { .. } => OutputKind::Fatal,
        }
    }

    /// The structured details that stay with the runtime.
    pub fn details(&self) -> &Value {
        match self {
            ToolOutput::Success { details, .. }
            | ToolOutput::RespondToModel { details, .. }
            | ToolOutput::Fatal { details, .. } => details,
        }
    }

    /// Replaces the details and returns the output.
    #[must_use]
    pub fn with_details(mut self, value: Value) -> Self {
        match &mut self {
            ToolOutput::Success { details, .. }
            | ToolOutput::RespondToModel { details, .. }
            | ToolOutput::Fatal { details, .. } => *details = value,
        }
        self
    }

    /// The error, unless the call succeeded.
    pub fn error(&self) -> Option<&ToolError> {
        match self {
            ToolOutput::Success { .. } => None,
            ToolOutput::RespondToModel { error, .. } | ToolOutput::Fatal { error, .. } => {
                Some(error)
            }
        }
    }
}

/// An output is its own outcome, so code generic over "something that holds
/// a [`ToolOutput`]" (an adapter's round of answers) takes a bare output as
/// well as a runtime's richer call result.
impl AsRef<ToolOutput> for ToolOutput {
    fn as_ref(&self) -> &ToolOutput {
        self
    }
}

/// Which of the three outcomes a [`ToolOutput`] is; serialized in
/// snake_case (`"success"`, `"respond_to_model"`, `"fatal"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputKind {
    /// [`ToolOutput::Success`].
    Success,
    /// [`ToolOutput::RespondToModel`].
    RespondToModel,
    /// [`ToolOutput::Fatal`].
    Fatal,
}

impl OutputKind {
    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputKind::Success => "success",
            OutputKind::RespondToModel => "respond_to_model",
            OutputKind::Fatal => "fatal",
        }
    }
}

/// An error a tool call ends with.
///
/// `code` is a stable `SCREAMING_SNAKE_CASE` string the model and the
/// application can branch on; `safe_message` is written for the model and
/// never carries an internal error's text or a secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolError {
    /// Stable code, e.g. `ORDER_NOT_FOUND`.
    pub code: Cow<'static, str>,
    /// What kind of failure it is.
    pub category: ErrorCategory,
    /// What happened and what to do, safe to show the model.
    pub safe_message: String,
    /// How to recover.
    pub recovery: Recovery,
    /// When retrying makes sense, how long to wait first.
    pub retry_after_ms: Option<u64>,
    /// The internal cause (an error and its chain of sources), for the
    /// audit record only: never serialized, never shown to the model.
    #[serde(skip)]
    pub cause: Option<String>,
}

impl ToolError {
    /// The model's arguments do not fit the tool's input contract.
    pub const INVALID_ARGUMENTS: &'static str = "INVALID_ARGUMENTS";
    /// A bug or an unexpected failure; the model is told no more.
    pub const INTERNAL: &'static str = "INTERNAL";
    /// The model called a tool that is not registered.
    pub const UNKNOWN_TOOL: &'static str = "UNKNOWN_TOOL";
    /// The model called a tool that is registered but was not offered in
    /// this turn (left out of the definitions, or outside the turn's
    /// narrowed tool choice).
    pub const TOOL_NOT_OFFERED: &'static str = "TOOL_NOT_OFFERED";
    /// The tool needs an approval bound to this call and none was given.
    pub const APPROVAL_REQUIRED: &'static str = "APPROVAL_REQUIRED";
    /// The call ran past its time limit and was stopped.
    pub const TIMEOUT: &'static str = "TIMEOUT";
    /// The call was cancelled.
    pub const ABORTED: &'static str = "ABORTED";
    /// A call with the same idempotency key is still running.
    pub const CALL_IN_PROGRESS: &'static str = "CALL_IN_PROGRESS";
    /// The idempotency key was used before for a call with other arguments.
    pub const IDEMPOTENCY_KEY_REUSED: &'static str = "IDEMPOTENCY_KEY_REUSED";
    /// A call with the same idempotency key started and never reported its
    /// end (its process stopped): whether it took effect is unknown.
    pub const OUTCOME_UNKNOWN: &'static str = "OUTCOME_UNKNOWN";
    /// Two calls of one turn have the same call id, so neither ran: a
    /// result could not be matched to its call.
    pub const DUPLICATE_CALL_ID: &'static str = "DUPLICATE_CALL_ID";
    /// An agent loop did not run the call: the response holding it did not
    /// end as a finished decision to call tools (cut off at a token limit,
    /// cancelled, failed), so its arguments may be incomplete.
    pub const CALL_NOT_RUN: &'static str = "CALL_NOT_RUN";
    /// The store that guards the call (idempotency, approvals, audit) did
    /// not answer, so the call was not run; it may be retried later.
    pub const POLICY_STORE_UNAVAILABLE: &'static str = "POLICY_STORE_UNAVAILABLE";
    /// The call was pinned to a major version of the tool that is not
    /// served (the message names the versions that are), so it was not run.
    pub const VERSION_NOT_SERVED: &'static str = "VERSION_NOT_SERVED";
    /// The call was made at a deprecated version of the tool whose sunset
    /// has passed, so it was not run; the message names the version to use.
    pub const VERSION_RETIRED: &'static str = "VERSION_RETIRED";

    /// An error with a recovery that fits its category.
    pub fn new(
        code: impl Into<Cow<'static, str>>,
        category: ErrorCategory,
        safe_message: impl Into<String>,
    ) -> Self {
        ToolError {
            code: code.into(),
            category,
            safe_message: safe_message.into(),
            recovery: default_recovery(category),
            retry_after_ms: None,
            cause: None,
        }
    }

    /// Keeps `cause` and its chain of sources (`"outer: inner: root"`) as
    /// the internal cause, which the runtime writes into the audit record
    /// and never shows the model.
    ///
    /// ```
    /// use tool_contract::ToolError;
    ///
    /// let io = std::io::Error::other("connection refused");
    /// let error = ToolError::internal().with_cause(&io);
    /// assert_eq!(error.cause.as_deref(), Some("connection refused"));
    /// assert!(!error.model_text().contains("refused"));
    /// ```
    #[must_use]
    pub fn with_cause(mut self, cause: &(dyn std::error::Error + 'static)) -> Self {
        self.cause = Some(error_chain(cause));
        self
    }

    /// Sets how to recover.
    #[must_use]
    pub fn with_recovery(mut self, recovery: Recovery) -> Self {
        self.recovery = recovery;
        self
    }

    /// Sets how long to wait before a retry.
    #[must_use]
    pub fn with_retry_after_ms(mut self, retry_after_ms: u64) -> Self {
        self.retry_after_ms = Some(retry_after_ms);
        self
    }

    /// `INVALID_ARGUMENTS`: the model can fix the call.
    pub fn invalid_arguments(safe_message: impl Into<String>) -> Self {
        ToolError::new(
            "INVALID_ARGUMENTS",
            ErrorCategory::InvalidArguments,
            safe_message,
        )
    }

    /// An error the tool declares, named by the constant `#[derive(Tool)]`
    /// writes for each code in `errors(...)`, so a misspelled code does not
    /// compile; the category and recovery are the declared ones (else
    /// `conflict` and its default recovery).
    ///
    /// ```
    /// use tool_contract::{Tool, ToolError};
    ///
    /// /// Look up an order of the signed-in customer.
    /// ///
    /// /// Use it when the customer asks about an order. Read-only.
    /// #[derive(Tool)]
    /// #[tool(errors(ORDER_NOT_FOUND(
    ///     meaning = "No order has this reference; ask the customer to check it.",
    ///     category = "not_found"
    /// )))]
    /// struct GetOrder {
    ///     /// Order reference as the app shows it, e.g. "A-10293".
    ///     order_ref: String,
    /// }
    ///
    /// let error = ToolError::declared(GetOrder::ORDER_NOT_FOUND, "No order A-1 for this customer.");
    /// assert_eq!(error.model_text(), "Error [ORDER_NOT_FOUND]: No order A-1 for this customer.");
    /// assert_eq!(error.category, tool_contract::contract::ErrorCategory::NotFound);
    /// ```
    pub fn declared(declared: DeclaredError, safe_message: impl Into<String>) -> Self {
        let mut error = ToolError::new(
            declared.code(),
            declared.category().unwrap_or(ErrorCategory::Conflict),
            safe_message,
        );
        if let Some(recovery) = declared.recovery() {
            error.recovery = recovery;
        }
        error
    }

    /// A conflict with the current state, with the tool's own code (e.g.
    /// `OUT_OF_STOCK`).
    pub fn conflict(code: impl Into<Cow<'static, str>>, safe_message: impl Into<String>) -> Self {
        ToolError::new(code, ErrorCategory::Conflict, safe_message)
    }

    /// A not-found error with the tool's own code.
    pub fn not_found(code: impl Into<Cow<'static, str>>, safe_message: impl Into<String>) -> Self {
        ToolError::new(code, ErrorCategory::NotFound, safe_message)
    }

    /// `DUPLICATE_CALL_ID`: another call of the same turn has this call's
    /// id, so neither runs (a result could not be matched to its call).
    ///
    /// ```
    /// use tool_contract::ToolError;
    ///
    /// assert_eq!(
    ///     ToolError::duplicate_call_id("c1").model_text(),
    ///     r#"Error [DUPLICATE_CALL_ID]: Another call in this turn has the call id "c1", so neither ran: their results could not be told apart. Make each call again, once."#
    /// );
    /// ```
    pub fn duplicate_call_id(call_id: &str) -> Self {
        let id = crate::words::humanize::echo(call_id);
        ToolError::new(
            ToolError::DUPLICATE_CALL_ID,
            ErrorCategory::InvalidArguments,
            format!(
                "Another call in this turn has the call id {id}, so neither ran: their results could not be told apart. Make each call again, once."
            ),
        )
    }

    /// `UNKNOWN_TOOL`: the model called a tool that is not offered; the
    /// message lists the ones that are.
    ///
    /// ```
    /// use tool_contract::ToolError;
    ///
    /// let error = ToolError::unknown_tool("get_stock", ["get_inventory", "reserve_inventory"]);
    /// assert_eq!(
    ///     error.model_text(),
    ///     r#"Error [UNKNOWN_TOOL]: There is no tool named "get_stock". Use one of: get_inventory, reserve_inventory."#
    /// );
    /// ```
    pub fn unknown_tool<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Self {
        let known: Vec<&str> = known.into_iter().collect();
        let name = crate::words::humanize::echo(name);
        let message = if known.is_empty() {
            format!("There is no tool named {name}; no tools are available.")
        } else {
            format!(
                "There is no tool named {name}. Use one of: {}.",
                known.join(", ")
            )
        };
        ToolError::new(
            ToolError::UNKNOWN_TOOL,
            ErrorCategory::InvalidArguments,
            message,
        )
    }

    /// `TOOL_NOT_OFFERED`: the model called a tool this turn did not offer
    /// (see [`Exposure`](crate::Exposure)); the message lists the ones it
    /// did. Exposure is not authorization: a call of an offered tool still
    /// meets every policy.
    ///
    /// ```
    /// use tool_contract::ToolError;
    ///
    /// let error = ToolError::tool_not_offered("reserve_inventory", ["get_inventory"]);
    /// assert_eq!(
    ///     error.model_text(),
    ///     r#"Error [TOOL_NOT_OFFERED]: The tool "reserve_inventory" is not offered in this turn. Use one of: get_inventory."#
    /// );
    /// ```
    pub fn tool_not_offered<'a>(name: &str, offered: impl IntoIterator<Item = &'a str>) -> Self {
        let offered: Vec<&str> = offered.into_iter().collect();
        let name = crate::words::humanize::echo(name);
        let message = if offered.is_empty() {
            format!(
                "The tool {name} is not offered in this turn; no tools are offered in this turn."
            )
        } else {
            format!(
                "The tool {name} is not offered in this turn. Use one of: {}.",
                offered.join(", ")
            )
        };
        ToolError::new(
            ToolError::TOOL_NOT_OFFERED,
            ErrorCategory::InvalidArguments,
            message,
        )
    }

    /// `INTERNAL`: a bug or an unexpected failure; the message says no more.
    pub fn internal() -> Self {
        ToolError::new(
            "INTERNAL",
            ErrorCategory::Internal,
            "The tool failed unexpectedly. The failure was recorded; do not retry this call.",
        )
    }

    /// The text the model sees: `Error [CODE]: message`.
    pub fn model_text(&self) -> String {
        format!("Error [{}]: {}", self.code, self.safe_message)
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.model_text())
    }
}

impl std::error::Error for ToolError {}

/// `error` and its sources, joined with `": "`.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    let mut depth = 0;
    while let Some(inner) = source {
        depth += 1;
        if depth > 32 {
            break;
        }
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

/// The error type of a handler that uses `?` on any error.
///
/// A [`ToolError`] (or an [`ArgumentError`]) passes through as it is, so a
/// declared code still reaches the model; any other
/// [`std::error::Error`] becomes `INTERNAL` for the model, with the error
/// and its chain of sources kept as the [cause](ToolError::cause) in the
/// audit record.
///
/// ```
/// use tool_contract::{HandlerError, ToolError};
///
/// fn load(path: &str) -> Result<String, HandlerError> {
///     let text = std::fs::read_to_string(path)?; // io::Error -> INTERNAL
///     if text.is_empty() {
///         return Err(ToolError::not_found("NOTE_NOT_FOUND", "There is no note.").into());
///     }
///     Ok(text)
/// }
///
/// let error = ToolError::from(load("/no/such/file").unwrap_err());
/// assert_eq!(error.code, "INTERNAL");
/// assert!(error.cause.is_some());
/// ```
pub struct HandlerError(ToolError);

impl HandlerError {
    /// The tool error this becomes.
    pub fn into_tool_error(self) -> ToolError {
        self.0
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for HandlerError {
    fn from(error: E) -> Self {
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(error);
        let boxed = match boxed.downcast::<ToolError>() {
            Ok(tool) => return HandlerError(*tool),
            Err(other) => other,
        };
        match boxed.downcast::<ArgumentError>() {
            Ok(argument) => HandlerError(ToolError::from(*argument)),
            Err(other) => HandlerError(ToolError::internal().with_cause(other.as_ref())),
        }
    }
}

impl From<HandlerError> for ToolError {
    fn from(error: HandlerError) -> Self {
        error.0
    }
}

impl fmt::Debug for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("HandlerError").field(&self.0).finish()
    }
}

impl fmt::Display for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.cause {
            Some(cause) => write!(f, "{} ({cause})", self.0.model_text()),
            None => f.write_str(&self.0.model_text()),
        }
    }
}

fn default_recovery(category: ErrorCategory) -> Recovery {
    match category {
        ErrorCategory::InvalidArguments => Recovery::FixArguments,
        ErrorCategory::NotFound | ErrorCategory::Permission => Recovery::AskUser,
        ErrorCategory::Approval => Recovery::RequestApproval,
        ErrorCategory::Conflict | ErrorCategory::Timeout | ErrorCategory::Upstream => {
            Recovery::Retry
        }
        ErrorCategory::RateLimit => Recovery::RetryLater,
        ErrorCategory::Aborted | ErrorCategory::Internal => Recovery::None,
    }
}

impl From<ArgumentError> for ToolError {
    /// `INVALID_ARGUMENTS` with the parser's message for the model's
    /// mistakes; `INTERNAL` for the application's (a missing session value,
    /// a broken contract), whose details the model must not see.
    fn from(error: ArgumentError) -> Self {
        match error.kind() {
            ArgumentErrorKind::InvalidArguments => ToolError::invalid_arguments(error.to_string()),
            _ => {
                let mut internal = ToolError::internal();
                internal.cause = Some(format!("{}: {error}", error.code()));
                internal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn success_text_carries_the_notice() {
        let output = ToolOutput::Success {
            content_text: "20 orders".into(),
            notice: Some("Showing 20 of 312; narrow the search to see others.".into()),
            truncated: true,
            details: Value::Null,
        };
        assert_eq!(
            output.model_text().unwrap(),
            "20 orders\n\nShowing 20 of 312; narrow the search to see others."
        );
    }

    #[test]
    fn argument_errors_become_tool_errors() {
        let model = ToolError::from(ArgumentError::invalid(
            "$.qty",
            "expected an integer, got null",
        ));
        assert_eq!(
            model.model_text(),
            "Error [INVALID_ARGUMENTS]: $.qty: expected an integer, got null"
        );
        assert_eq!(model.recovery, Recovery::FixArguments);
        let app = ToolError::from(ArgumentError::new(
            ArgumentErrorKind::MissingSessionValue,
            "$.tenant",
            "the session holds no `TenantId`",
        ));
        assert_eq!(app.code, "INTERNAL");
        assert!(!app.safe_message.contains("TenantId"));
    }

    #[test]
    fn outputs_serialize_with_their_outcome() {
        let output = ToolOutput::respond_to_model(
            ToolError::new(
                "RATE_LIMITED",
                ErrorCategory::RateLimit,
                "Too many calls; wait a minute.",
            )
            .with_retry_after_ms(60_000),
        );
        assert_eq!(
            serde_json::to_value(&output).unwrap(),
            serde_json::json!({
                "outcome": "respond_to_model",
                "error": {
                    "code": "RATE_LIMITED",
                    "category": "rate_limit",
                    "safe_message": "Too many calls; wait a minute.",
                    "recovery": "retry_later",
                    "retry_after_ms": 60000
                },
                "details": null
            })
        );
    }
}
