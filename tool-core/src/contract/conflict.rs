//! Why two contract versions of one tool cannot be served side by side.

use std::fmt;

use super::policy::Effect;
use super::version::Version;

/// Why a version of a tool was refused beside the ones already served
/// under its name (see the runtime's `Toolbox::serve_older`): one tool
/// has one handler, older versions reach it through a conversion, and a
/// major version names one contract.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionConflict {
    /// A second handler for a name that already has one: two versions of
    /// one name without a conversion between them (or the same tool
    /// registered twice).
    AlreadyRegistered {
        /// The version whose handler is registered.
        registered: Version,
        /// The version offered with a handler of its own.
        offered: Version,
    },
    /// Two contracts of one name with one major version: callers could
    /// not tell which one a pin to the major means.
    SameMajor {
        /// The version already served.
        served: Version,
        /// The version offered.
        offered: Version,
    },
    /// An older version whose major is not below the version whose
    /// handler serves it.
    NotOlder {
        /// The version of the handler.
        handler: Version,
        /// The version offered as older.
        offered: Version,
    },
    /// An older version offered before the newer version's handler was
    /// registered.
    NoHandler {
        /// The newer version named, whose handler is missing.
        newer: Version,
    },
    /// An older version whose name is not the newer version's.
    OtherName {
        /// The newer version's name.
        newer: &'static str,
    },
    /// An older version offered through a newer version that is served
    /// but is not the one whose handler is registered (or is another type
    /// of that version): older versions are served through the handler,
    /// the newest version's.
    OtherHandler {
        /// The newer version named.
        newer: Version,
        /// The version whose handler is registered.
        handler: Version,
    },
    /// An older version that promises less than the handler's version in
    /// one of the guards a call gets from its own version's contract: its
    /// calls would run the handler without a guard the handler's contract
    /// asks for.
    WeakerGuard {
        /// The version of the handler.
        handler: Version,
        /// The older version offered.
        offered: Version,
        /// Which guard is weaker.
        guard: VersionGuard,
    },
}

/// A guard a call gets from the contract of the version it is made at,
/// which an older version served through a newer one's handler must not
/// have weaker than the handler's contract (see
/// [`VersionConflict::WeakerGuard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionGuard {
    /// The older version declares a smaller effect (`read` below `write`
    /// below `destructive`): a destructive call runs alone in its turn, a
    /// write is announced to the audit sink before it runs and a stopped
    /// one is recorded as of unknown outcome, a read is neither.
    Effect {
        /// The effect of the handler's version.
        handler: Effect,
        /// The effect of the older version.
        offered: Effect,
    },
    /// The handler's version requires approval, the older one does not.
    Approval,
    /// The handler's version is open-world, the older one is not: what the
    /// handler returns is external content, and an open-world write's
    /// destinations are checked against the recipient policy.
    OpenWorld,
}

/// An effect as the contract attribute spells it.
fn effect_name(effect: Effect) -> &'static str {
    match effect {
        Effect::Read => "read",
        Effect::Write => "write",
        Effect::Destructive => "destructive",
    }
}

impl VersionConflict {
    /// What is wrong with serving a version of `tool`, and what to write
    /// instead.
    pub(crate) fn describe(&self, tool: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VersionConflict::AlreadyRegistered {
                registered,
                offered,
            } if registered.major == offered.major => write!(
                f,
                "a tool named `{tool}` is already registered ({registered}); each tool needs its own name, and one major version has one contract"
            ),
            VersionConflict::AlreadyRegistered {
                registered,
                offered,
            } => write!(
                f,
                "a tool named `{tool}` is already registered at {registered}; to serve {offered} beside it, register the handler of the newest version only and serve the older one with `Toolbox::serve_older::<Old, New>()`, which upgrades its calls with `TryFrom<Old> for New` (one tool has one handler)"
            ),
            VersionConflict::SameMajor { served, offered } => write!(
                f,
                "`{tool}` is served at {served} already, and {offered} has the same major version: one major names one contract, so a pin to major {} would be ambiguous; serve one of them, or give the other its own major",
                served.major
            ),
            VersionConflict::NotOlder { handler, offered } => write!(
                f,
                "`{tool}` {offered} is served as an older version of {handler}, but its major is not below {}; register the handler of the newest version and serve the older ones",
                handler.major
            ),
            VersionConflict::NoHandler { newer } => write!(
                f,
                "`{tool}` is served as an older version of {newer}, whose handler is not registered; register the handler of {newer} first"
            ),
            VersionConflict::OtherName { newer } => write!(
                f,
                "`{tool}` is served as an older version of `{newer}`; the versions of one tool share its name"
            ),
            VersionConflict::OtherHandler { newer, handler } => write!(
                f,
                "`{tool}` is served as an older version of {newer}, but the handler of `{tool}` is {handler}'s (one tool has one handler, its newest version's); serve it through that one: `Toolbox::serve_older::<Old, New>()` with `New` the type of {handler} and `TryFrom<Old> for New`"
            ),
            VersionConflict::WeakerGuard {
                handler,
                offered,
                guard,
            } => {
                let (handler_says, why, needed) = match guard {
                    VersionGuard::Effect {
                        handler: handler_effect,
                        offered: offered_effect,
                    } => (
                        format!(
                            "whose effect is {}, while {offered} says {}",
                            effect_name(*handler_effect),
                            effect_name(*offered_effect)
                        ),
                        format!(
                            "run that handler with the guards of a {} (a destructive call runs alone in its turn, a write's audit is announced before it runs)",
                            effect_name(*offered_effect)
                        ),
                        format!("its effect is {} too", effect_name(*handler_effect)),
                    ),
                    VersionGuard::Approval => (
                        format!("which requires approval, while {offered} does not"),
                        "run that handler unapproved".to_owned(),
                        "it requires approval too".to_owned(),
                    ),
                    VersionGuard::OpenWorld => (
                        format!("which is open-world, while {offered} is not"),
                        "have what that handler returns marked as the application's own content, and its destinations unchecked".to_owned(),
                        "it is open-world too".to_owned(),
                    ),
                };
                write!(
                    f,
                    "`{tool}` {offered} would be served through the handler of {handler}, {handler_says}: its calls would {why}. A call is guarded as the contract of its own version says, so an older version may not promise less than its handler's (effect, approval, open world); serve it only once {needed}, or not beside {handler}"
                )
            }
        }
    }
}
