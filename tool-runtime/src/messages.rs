//! What the runtime tells the model when it refuses or stops a call.

use std::borrow::Cow;
use std::time::Duration;

use tool_core::ToolError;
use tool_core::words::echo;
use tool_core::{Effect, ErrorCategory, Idempotency, Recovery, ToolContract};

/// `text` cut to `max` characters.
pub(super) fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((end, _)) => Cow::Owned(text[..end].to_owned()),
        None => Cow::Borrowed(text),
    }
}

pub(super) fn unknown_tool<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> ToolError {
    ToolError::unknown_tool(name, known)
}

pub(super) fn approval_required(used: bool) -> ToolError {
    let message = if used {
        "The approval for this call was already used; an approval covers one call. Ask the user to approve it again, then repeat the call."
    } else {
        "This call needs the user's approval before it runs. Ask the user to approve it, then make the same call again with the same arguments."
    };
    ToolError::new(
        ToolError::APPROVAL_REQUIRED,
        ErrorCategory::Approval,
        message,
    )
    .with_recovery(Recovery::RequestApproval)
}

pub(super) fn timeout(contract: &ToolContract, limit: Duration) -> ToolError {
    let ms = limit.as_millis();
    let (message, recovery) = match (contract.effect(), contract.idempotency()) {
        (Effect::Read, _) => (
            format!(
                "The call did not finish within {ms} ms and was stopped; nothing was changed. Try again, or ask for less."
            ),
            Recovery::Retry,
        ),
        (_, Idempotency::Keyed { field }) => (
            format!(
                "The call did not finish within {ms} ms and was stopped; it may or may not have taken effect. Ask the user to check before trying again; this {field} will not run a second time."
            ),
            Recovery::AskUser,
        ),
        _ => (
            format!(
                "The call did not finish within {ms} ms and was stopped; it may or may not have taken effect. Ask the user to check before trying again."
            ),
            Recovery::AskUser,
        ),
    };
    ToolError::new(ToolError::TIMEOUT, ErrorCategory::Timeout, message).with_recovery(recovery)
}

/// ABORTED before the call started (`None`) or while it ran.
pub(super) fn aborted(running: Option<&ToolContract>) -> ToolError {
    let message = match running.map(ToolContract::effect) {
        None => "The call was cancelled before it started; nothing was changed.",
        Some(Effect::Read) => "The call was cancelled before it finished; nothing was changed.",
        Some(_) => {
            "The call was cancelled before it finished; it may or may not have taken effect."
        }
    };
    ToolError::new(ToolError::ABORTED, ErrorCategory::Aborted, message)
}

/// The recorded end of a keyed call whose future was dropped while it ran.
pub(super) fn dropped() -> ToolError {
    ToolError::new(
        ToolError::ABORTED,
        ErrorCategory::Aborted,
        "The call was dropped before it reported its end; it may or may not have taken effect.",
    )
}

pub(super) fn key_reused(field: &str, key: &str) -> ToolError {
    ToolError::new(
        ToolError::IDEMPOTENCY_KEY_REUSED,
        ErrorCategory::Conflict,
        format!(
            "The {field} {} was already used for a call with other arguments. Use a new {field} for a new request, or repeat the earlier call exactly.",
            echo(key)
        ),
    )
    .with_recovery(Recovery::FixArguments)
}

/// A keyed call whose key is the empty string: one key for every request.
pub(super) fn empty_key(field: &str) -> ToolError {
    ToolError::invalid_arguments(format!(
        "{}: the {field} must not be empty; send a new unique value for each request and repeat it only to retry that request",
        tool_core::parse::field_path(field)
    ))
}

pub(super) fn in_progress(field: &str) -> ToolError {
    ToolError::new(
        ToolError::CALL_IN_PROGRESS,
        ErrorCategory::Conflict,
        format!(
            "A call with this {field} is still running. Wait for its result before trying again."
        ),
    )
    .with_recovery(Recovery::RetryLater)
}

/// A keyed call whose earlier run under the same key never reported its
/// end: it may or may not have taken effect.
pub(super) fn outcome_unknown(field: &str) -> ToolError {
    ToolError::new(
        ToolError::OUTCOME_UNKNOWN,
        ErrorCategory::Conflict,
        format!(
            "An earlier call with this {field} started but never reported its end; it may or may not have taken effect. Ask the user to check before making the request again with a new {field}."
        ),
    )
    .with_recovery(Recovery::AskUser)
}

/// A keyed call whose key's earlier run was stopped while it ran (timeout,
/// abort, panic): it may have taken effect, so the key does not run again.
pub(super) fn stopped_earlier(field: &str) -> ToolError {
    ToolError::new(
        ToolError::OUTCOME_UNKNOWN,
        ErrorCategory::Conflict,
        format!(
            "An earlier call with this {field} was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new {field}."
        ),
    )
    .with_recovery(Recovery::AskUser)
}

/// A call of a turn not run because an earlier call of the turn ended
/// fatal, which stops the run.
pub(super) fn not_run_after_fatal() -> ToolError {
    ToolError::new(
        ToolError::CALL_NOT_RUN,
        ErrorCategory::Aborted,
        "The call did not run: an earlier call of this turn failed in a way that stops the run; nothing was changed.",
    )
}

/// A call refused because a store that guards it did not answer.
pub(super) fn store_unavailable() -> ToolError {
    ToolError::new(
        ToolError::POLICY_STORE_UNAVAILABLE,
        ErrorCategory::Upstream,
        "The call was not run because a service it depends on did not answer; nothing was changed. Try again in a moment.",
    )
    .with_recovery(Recovery::RetryLater)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cut_by_characters_and_quoted_as_json() {
        assert_eq!(cut("ab", 5), "ab");
        assert_eq!(cut("äöü", 2), "äö");
    }

    #[test]
    fn unknown_tool_lists_the_known_names() {
        assert_eq!(
            unknown_tool("get_stock", ["a_b", "c_d"].into_iter()).model_text(),
            r#"Error [UNKNOWN_TOOL]: There is no tool named "get_stock". Use one of: a_b, c_d."#
        );
        assert_eq!(
            unknown_tool("x", std::iter::empty()).model_text(),
            r#"Error [UNKNOWN_TOOL]: There is no tool named "x"; no tools are available."#
        );
    }
}
