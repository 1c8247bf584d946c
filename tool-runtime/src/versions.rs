//! Several versions of one tool served side by side: the pins that say
//! which major version of a tool a session's calls are made at, the
//! versions each tool name serves and which of them a call reaches, why a
//! pinned version cannot be offered, and the count of calls per version.
//!
//! A tool has one handler, registered with its newest version; each older
//! version is served through it (`Toolbox::serve_older`), its calls
//! upgraded into the newer type. A conversation sees one version of each
//! tool: the one its session pins ([`VersionPins`]), else the newest that
//! is not retired. A deprecated version is retired from the first instant
//! of its sunset day by the toolbox's clock, and stays retired when that
//! clock is set back: it is no longer offered, and its calls answer [`VERSION_RETIRED`](tool_core::ToolError::VERSION_RETIRED)
//! naming the version to use; a pin to a major that is not served answers
//! [`VERSION_NOT_SERVED`](tool_core::ToolError::VERSION_NOT_SERVED).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::SystemTime;

use tool_core::{Date, ErrorCategory, Recovery, ToolContract, ToolError, Version};

use crate::handler::ErasedTool;

/// Which major version of each tool a session's calls are made at, put
/// into the [`Session`](tool_core::Session) by the application: per
/// session, per client, per MCP peer (the session an `McpServer` builds
/// for it), or for a recorded conversation or an evaluation set that must
/// keep the version it was made with. A tool without a pin is offered and
/// called at its newest version that is not retired.
///
/// ```
/// use tool_contract::Session;
/// use tool_contract::runtime::VersionPins;
///
/// let pins = VersionPins::new().with("create_refund_draft", 1);
/// assert_eq!(pins.get("create_refund_draft"), Some(1));
/// assert_eq!(pins.get("get_order"), None);
/// let session = Session::new().with(pins);
/// # let _ = session;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VersionPins {
    majors: BTreeMap<String, u64>,
}

impl VersionPins {
    /// No pins: every tool at its newest version that is not retired.
    pub fn new() -> Self {
        VersionPins::default()
    }

    /// Pins `tool` to the major version `major` and returns the pins.
    #[must_use]
    pub fn with(mut self, tool: impl Into<String>, major: u64) -> Self {
        self.pin(tool, major);
        self
    }

    /// Pins `tool` to the major version `major` (replacing its pin).
    pub fn pin(&mut self, tool: impl Into<String>, major: u64) {
        self.majors.insert(tool.into(), major);
    }

    /// The major version `tool` is pinned to, if it is.
    pub fn get(&self, tool: &str) -> Option<u64> {
        self.majors.get(tool).copied()
    }

    /// Each pinned tool with its major version, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.majors
            .iter()
            .map(|(tool, major)| (tool.as_str(), *major))
    }

    /// The pins of exactly these contracts: each one's name at its major.
    pub fn of(contracts: &[&ToolContract]) -> Self {
        VersionPins {
            majors: contracts
                .iter()
                .map(|contract| (contract.name().to_owned(), contract.version().major))
                .collect(),
        }
    }
}

/// Why a tool cannot be offered or called at the version asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionError {
    /// The tool is pinned to a major version it is not served at
    /// (`VERSION_NOT_SERVED`).
    NotServed {
        /// The tool's name.
        tool: String,
        /// The major version pinned.
        requested: u64,
        /// The versions served, newest first.
        served: Vec<Version>,
    },
    /// The version asked for is deprecated and its sunset has passed
    /// (`VERSION_RETIRED`).
    Retired {
        /// The tool's name.
        tool: String,
        /// The retired version.
        version: Version,
        /// The day it was retired.
        sunset: Date,
        /// The newest version still served, to use instead; `None` when
        /// every version of the tool is retired.
        instead: Option<Version>,
    },
}

impl VersionError {
    /// The stable code: [`ToolError::VERSION_NOT_SERVED`] or
    /// [`ToolError::VERSION_RETIRED`].
    pub fn code(&self) -> &'static str {
        match self {
            VersionError::NotServed { .. } => ToolError::VERSION_NOT_SERVED,
            VersionError::Retired { .. } => ToolError::VERSION_RETIRED,
        }
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        match self {
            VersionError::NotServed { tool, .. } | VersionError::Retired { tool, .. } => tool,
        }
    }

    /// What happened and which version to use, as the model reads it.
    pub fn message(&self) -> String {
        match self {
            VersionError::NotServed {
                tool,
                requested,
                served,
            } => {
                let served: Vec<String> = served.iter().map(Version::to_string).collect();
                format!(
                    "The tool \"{tool}\" is not served at major version {requested}; it is served at {}.",
                    listed(&served)
                )
            }
            VersionError::Retired {
                tool,
                version,
                sunset,
                instead: Some(instead),
            } => format!(
                "Version {version} of the tool \"{tool}\" was retired on {sunset}; nothing was run. Use version {instead} of it."
            ),
            VersionError::Retired {
                tool,
                version,
                sunset,
                instead: None,
            } => format!(
                "Version {version} of the tool \"{tool}\" was retired on {sunset}; nothing was run, and no version of it is served any more."
            ),
        }
    }

    /// The error a call at this version is answered with: the
    /// [code](Self::code) and [message](Self::message), category
    /// `not_found`, recovery `none` (the model cannot choose another
    /// version; the application's pin must change).
    pub fn to_tool_error(&self) -> ToolError {
        ToolError::new(self.code(), ErrorCategory::NotFound, self.message())
            .with_recovery(Recovery::None)
    }
}

/// `a`, `a and b`, `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => "no version".to_owned(),
        [only] => only.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

impl std::error::Error for VersionError {}

/// How many calls one served version of a tool got since the toolbox was
/// built: every call that reached the version (whatever its outcome,
/// refusals included, a retired version's refused calls too), so a team
/// sees who still calls an older version before it removes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallCount {
    /// The tool's name.
    pub tool: &'static str,
    /// The version served.
    pub version: Version,
    /// How many calls it got.
    pub calls: u64,
}

/// One served version of a tool, the count of its calls, and whether the
/// toolbox has seen it retired.
pub(crate) struct Served {
    pub(crate) tool: Box<dyn ErasedTool>,
    calls: AtomicU64,
    /// Set once the toolbox's clock has read a time on or after the
    /// version's sunset: a clock set back afterwards (an NTP step, a test,
    /// a replay) does not serve it again, since its callers were told it
    /// was retired.
    retired: AtomicBool,
}

impl Served {
    pub(crate) fn new(tool: Box<dyn ErasedTool>) -> Self {
        Served {
            tool,
            calls: AtomicU64::new(0),
            retired: AtomicBool::new(false),
        }
    }

    /// Whether this version is retired at `now` (`None`: the clock was not
    /// read, no version of the tool being deprecated), or was seen retired
    /// before.
    fn is_retired(&self, now: Option<SystemTime>) -> bool {
        if self.retired.load(Ordering::Acquire) {
            return true;
        }
        let retired = match (self.contract().deprecation(), now) {
            (Some(deprecation), Some(now)) => deprecation.is_retired_at(now),
            _ => false,
        };
        if retired {
            self.retired.store(true, Ordering::Release);
        }
        retired
    }

    pub(crate) fn contract(&self) -> &'static ToolContract {
        self.tool.contract()
    }

    /// Counts one call of this version.
    pub(crate) fn count(&self) {
        self.calls.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }
}

/// The versions one tool name serves, newest first: the first is the one
/// whose handler is registered, the others are served through it.
pub(crate) struct Versions {
    served: Vec<Served>,
}

/// Which served version a call or an offer reaches.
pub(crate) enum Resolution<'a> {
    /// The version, served.
    Served(&'a Served),
    /// The version asked for, retired: its calls are refused.
    Retired(&'a Served, VersionError),
    /// A pin to a major the tool is not served at.
    NotServed(VersionError),
    /// No tool has the name.
    Unknown,
}

impl<'a> Resolution<'a> {
    /// The served version reached, retired or not.
    pub(crate) fn served(&self) -> Option<&'a Served> {
        match self {
            Resolution::Served(served) | Resolution::Retired(served, _) => Some(served),
            Resolution::NotServed(_) | Resolution::Unknown => None,
        }
    }

    /// The contract of the version reached, retired or not.
    pub(crate) fn contract(&self) -> Option<&'static ToolContract> {
        self.served().map(Served::contract)
    }
}

impl Versions {
    /// The versions of a tool whose handler is `tool`'s.
    pub(crate) fn new(tool: Box<dyn ErasedTool>) -> Self {
        Versions {
            served: vec![Served::new(tool)],
        }
    }

    /// The version whose handler is registered.
    pub(crate) fn newest(&self) -> &Served {
        &self.served[0]
    }

    /// Every version, newest first.
    pub(crate) fn all(&self) -> &[Served] {
        &self.served
    }

    /// The version of this major, if it is served.
    pub(crate) fn at_major(&self, major: u64) -> Option<&Served> {
        self.served
            .iter()
            .find(|served| served.contract().version().major == major)
    }

    /// Adds an older version, keeping the newest first.
    pub(crate) fn insert_older(&mut self, tool: Box<dyn ErasedTool>) {
        self.served.push(Served::new(tool));
        self.served
            .sort_by_key(|served| std::cmp::Reverse(served.contract().version()));
    }

    /// The version a call pinned to `pin` (or not pinned) reaches at the
    /// time `now` gives; the clock is read only when a version of the tool
    /// is deprecated.
    pub(crate) fn resolve(
        &self,
        pin: Option<u64>,
        now: impl FnOnce() -> SystemTime,
    ) -> Resolution<'_> {
        let deprecated = self
            .served
            .iter()
            .any(|served| served.contract().deprecation().is_some());
        let now = deprecated.then(now);
        let retired = |served: &Served| served.is_retired(now);
        let current = self.served.iter().find(|served| !retired(served));
        let retirement = |served: &'_ Served| {
            let contract = served.contract();
            VersionError::Retired {
                tool: contract.name().to_owned(),
                version: contract.version(),
                // Only a deprecated version is retired, so it has a sunset.
                sunset: contract
                    .deprecation()
                    .map_or(Date::__new(1970, 1, 1), |d| d.sunset()),
                instead: current.map(|c| c.contract().version()),
            }
        };
        match pin {
            Some(major) => match self.at_major(major) {
                Some(served) if retired(served) => Resolution::Retired(served, retirement(served)),
                Some(served) => Resolution::Served(served),
                None => Resolution::NotServed(VersionError::NotServed {
                    tool: self.newest().contract().name().to_owned(),
                    requested: major,
                    served: self
                        .served
                        .iter()
                        .map(|served| served.contract().version())
                        .collect(),
                }),
            },
            None => match current {
                Some(served) => Resolution::Served(served),
                None => Resolution::Retired(self.newest(), retirement(self.newest())),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_are_kept_by_tool_name() {
        let mut pins = VersionPins::new().with("a_b", 1).with("c_d", 3);
        pins.pin("a_b", 2);
        assert_eq!(pins.iter().collect::<Vec<_>>(), [("a_b", 2), ("c_d", 3)]);
        assert_eq!(pins.get("x_y"), None);
    }

    #[test]
    fn version_errors_name_the_versions() {
        let not_served = VersionError::NotServed {
            tool: "create_refund_draft".into(),
            requested: 3,
            served: vec![Version::new(2, 1, 0), Version::new(1, 4, 2)],
        };
        assert_eq!(
            not_served.to_string(),
            "VERSION_NOT_SERVED: The tool \"create_refund_draft\" is not served at major version 3; it is served at 2.1.0 and 1.4.2."
        );
        let retired = VersionError::Retired {
            tool: "create_refund_draft".into(),
            version: Version::new(1, 4, 2),
            sunset: Date::__new(2026, 9, 30),
            instead: None,
        };
        assert_eq!(retired.code(), "VERSION_RETIRED");
        assert_eq!(retired.tool(), "create_refund_draft");
        assert_eq!(
            retired.to_tool_error().model_text(),
            "Error [VERSION_RETIRED]: Version 1.4.2 of the tool \"create_refund_draft\" was retired on 2026-09-30; nothing was run, and no version of it is served any more."
        );
        assert_eq!(listed(&["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
