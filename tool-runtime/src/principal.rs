//! What a keyed or approved call must name: its principal, by which
//! stored results and grants are scoped.

use tool_core::{Session, ToolContract};

use crate::audit::Subjects;

/// Checks that the session names who a keyed or approved call is for (an
/// empty `Subjects` names no one).
///
/// Stored results and grants are scoped by the session's [`Subjects`]; a
/// tool that takes injected (trusted) values acts for whoever they name,
/// so without `Subjects` two principals would share one scope. That is the
/// application's configuration error.
///
/// A store shared by several processes (`shared`) needs `Subjects` for
/// every keyed or approved call: without them every session of every
/// instance would share one scope.
pub(super) fn principal(
    contract: &ToolContract,
    session: &Session,
    what: &str,
    shared: bool,
) -> Result<(), String> {
    let injected: Vec<&str> = contract
        .fields()
        .iter()
        .filter(|field| field.injected())
        .map(|field| field.name())
        .collect();
    if shared && injected.is_empty() {
        return match session.get::<Subjects>() {
            Some(subjects) if !subjects.as_slice().is_empty() => Ok(()),
            _ => Err(format!(
                "the tool `{}` uses {what} kept in a shared store, but the session names no one (no `Subjects`, or an empty one) to scope them by; the application must add the principal's subjects with `Session::with`",
                contract.name()
            )),
        };
    }
    // An empty `Subjects` names no one: every session would share its scope.
    let missing = match session.get::<Subjects>() {
        _ if injected.is_empty() => return Ok(()),
        Some(subjects) if !subjects.as_slice().is_empty() => return Ok(()),
        Some(_) => "the session's `Subjects` names no one",
        None => "the session holds no `Subjects`",
    };
    Err(format!(
        "the tool `{}` uses {what} and takes injected values ({}), but {missing} to scope them by; the application must add the subjects those values name with `Session::with`",
        contract.name(),
        injected.join(", ")
    ))
}
