//! Why two contract versions of one tool cannot be served side by side.

use std::fmt;

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
        }
    }
}
