//! The lock file (`tools.lock.json`): each tool's version, fingerprint and
//! a snapshot of its contract, and the check that a changed contract got a
//! big enough version bump.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::change::{Bump, Change};
use crate::diff::diff;
use crate::entry::LockedTool;
use tool_core::{ContractError, ToolContract, Version};

/// The environment variable that makes [`check_contracts_locked`] (and
/// `assert_contracts_locked!`) rewrite the lock file instead of failing:
/// `TOOL_CONTRACT_UPDATE_LOCK=1 cargo test`.
pub const UPDATE_LOCK_ENV: &str = "TOOL_CONTRACT_UPDATE_LOCK";

/// The value of `"format"` in a lock file.
pub const LOCK_FORMAT: &str = "tool-contract-lock/1";

/// Whether a lock check only compares or also records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockMode {
    /// Fail on any difference between the contracts and the lock file.
    Check,
    /// Write the lock file when every difference is versioned well enough.
    Update,
}

impl LockMode {
    /// [`Update`](Self::Update) when [`UPDATE_LOCK_ENV`] is set to anything
    /// but an empty string or `0`, else [`Check`](Self::Check).
    pub fn from_env() -> Self {
        match std::env::var_os(UPDATE_LOCK_ENV) {
            Some(value) if !value.is_empty() && value != "0" => LockMode::Update,
            _ => LockMode::Check,
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LockFile {
    format: String,
    tools: BTreeMap<String, LockedTool>,
}

/// The contents of a lock file: one [`LockedTool`] per served version.
///
/// Its key is the tool's name for the newest major version of each name,
/// and `name@MAJOR` for each older major version served beside it
/// (`create_refund_draft` for 2.1.0, `create_refund_draft@1` for 1.4.0):
/// a single-version tool keeps its name as its key, and each version is
/// checked against its own entry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContractLock {
    tools: BTreeMap<String, LockedTool>,
}

impl ContractLock {
    /// An empty lock.
    pub fn new() -> Self {
        ContractLock::default()
    }

    /// A lock recording `contracts` as they are now (several major
    /// versions of one name each get their [key](ContractLock)).
    pub fn from_contracts(contracts: &[&ToolContract]) -> Result<Self, LockError> {
        let tools = keyed(contracts)?
            .into_iter()
            .map(|(key, c)| (key, LockedTool::from_contract(c)))
            .collect();
        Ok(ContractLock { tools })
    }

    /// Reads a lock file's text. Fails with [`LockError::Malformed`] when it
    /// is not JSON of the lock format, or when an entry's fingerprint does not
    /// match what it records (an edit by hand or a bad merge).
    pub fn parse(text: &str) -> Result<Self, LockError> {
        let malformed = |message: String| LockError::Malformed {
            path: None,
            message,
        };
        let file: LockFile = serde_json::from_str(text).map_err(|e| malformed(e.to_string()))?;
        if file.format != LOCK_FORMAT {
            return Err(malformed(format!(
                "unsupported format {:?}; expected {LOCK_FORMAT:?}",
                file.format
            )));
        }
        for (key, tool) in &file.tools {
            let (name, major) = split_key(key);
            if let Some(major) = major
                && major != Some(tool.version.major)
            {
                return Err(malformed(format!(
                    "the entry `{key}` records version {}; an entry `name@MAJOR` records a version of that major",
                    tool.version
                )));
            }
            if tool.computed_fingerprint(name) != tool.fingerprint {
                return Err(malformed(format!(
                    "the fingerprint of `{key}` does not match the contract it records"
                )));
            }
        }
        Ok(ContractLock { tools: file.tools })
    }

    /// The lock file's text: pretty JSON with a trailing newline, tools
    /// sorted by name.
    pub fn to_json_string(&self) -> String {
        let file = LockFile {
            format: LOCK_FORMAT.to_owned(),
            tools: self.tools.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The recorded versions by [key](ContractLock): the tool's name, or
    /// `name@MAJOR` for an older major version served beside the newest.
    pub fn tools(&self) -> &BTreeMap<String, LockedTool> {
        &self.tools
    }

    /// How `contracts` differ from the lock: versions that are new, gone
    /// or changed, each checked against the entry of its own
    /// [key](ContractLock), or, for a version whose entry moves from the
    /// tool's name to `name@MAJOR` (a newer major added beside it), against
    /// the entry it moves from. Empty when they match.
    pub fn drift(&self, contracts: &[&ToolContract]) -> Result<Vec<LockDiff>, LockError> {
        let keyed = keyed(contracts)?;
        let mut drifts = Vec::new();
        for (key, contract) in &keyed {
            let name = contract.name();
            let current = LockedTool::from_contract(contract);
            match self.tools.get(key) {
                // A version whose entry is moving to its `name@MAJOR` key (a
                // newer major is added beside it) is checked against what
                // the entry under the name recorded for it.
                None => match self.moved_from(key, contract) {
                    Some(locked) if locked.fingerprint != current.fingerprint => {
                        drifts.push(LockDiff::Changed {
                            name: name.to_owned(),
                            locked: locked.version,
                            current: current.version,
                            changes: diff(locked, &current),
                        });
                    }
                    _ => drifts.push(LockDiff::New {
                        name: name.to_owned(),
                        version: current.version,
                    }),
                },
                Some(locked) if locked.fingerprint == current.fingerprint => {}
                Some(locked) => drifts.push(LockDiff::Changed {
                    name: name.to_owned(),
                    locked: locked.version,
                    current: current.version,
                    changes: diff(locked, &current),
                }),
            }
        }
        let keys: BTreeSet<&str> = keyed.iter().map(|(key, _)| key.as_str()).collect();
        for (key, locked) in &self.tools {
            if !keys.contains(key.as_str()) {
                drifts.push(LockDiff::Gone {
                    name: split_key(key).0.to_owned(),
                    version: locked.version,
                });
            }
        }
        Ok(drifts)
    }

    /// For a contract keyed `name@MAJOR` that the lock does not have yet:
    /// the entry under its plain name, when that one records the same
    /// major (the contract was the newest version until a newer major
    /// came beside it).
    fn moved_from(&self, key: &str, contract: &ToolContract) -> Option<&LockedTool> {
        if key == contract.name() {
            return None;
        }
        self.tools
            .get(contract.name())
            .filter(|locked| locked.version.major == contract.version().major)
    }
}

/// Each contract with its key in the lock file: its name for the newest
/// major version of the name among `contracts`, `name@MAJOR` for the
/// others. Two contracts of one name and one major are refused.
fn keyed<'a>(contracts: &[&'a ToolContract]) -> Result<Vec<(String, &'a ToolContract)>, LockError> {
    let mut seen = BTreeSet::new();
    for contract in contracts {
        if !seen.insert((contract.name(), contract.version().major)) {
            return Err(LockError::DuplicateTool {
                name: contract.name().to_owned(),
            });
        }
    }
    Ok(contracts
        .iter()
        .map(|contract| {
            let newest = contracts
                .iter()
                .filter(|other| other.name() == contract.name())
                .all(|other| other.version().major <= contract.version().major);
            let key = if newest {
                contract.name().to_owned()
            } else {
                format!("{}@{}", contract.name(), contract.version().major)
            };
            (key, *contract)
        })
        .collect())
}

/// A key's tool name, and for `name@MAJOR` the major (`Some(None)` when it
/// is not a number).
fn split_key(key: &str) -> (&str, Option<Option<u64>>) {
    match key.split_once('@') {
        Some((name, major)) => (name, Some(major.parse().ok())),
        None => (key, None),
    }
}

/// How one tool differs from its lock entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LockDiff {
    /// The tool is not in the lock file yet.
    New {
        /// The tool name.
        name: String,
        /// Its version.
        version: Version,
    },
    /// The lock file has a tool that is not among the contracts checked.
    Gone {
        /// The tool name.
        name: String,
        /// The version the lock records.
        version: Version,
    },
    /// The contract differs from what the lock records.
    Changed {
        /// The tool name.
        name: String,
        /// The version the lock records.
        locked: Version,
        /// The contract's version now.
        current: Version,
        /// What changed; empty when only the version did.
        changes: Vec<Change>,
    },
}

impl LockDiff {
    /// The tool's name.
    pub fn name(&self) -> &str {
        match self {
            LockDiff::New { name, .. }
            | LockDiff::Gone { name, .. }
            | LockDiff::Changed { name, .. } => name,
        }
    }

    /// The smallest bump the changes need; `None` when nothing but the
    /// version changed (or the tool is new or gone).
    pub fn required_bump(&self) -> Option<Bump> {
        match self {
            LockDiff::Changed { changes, .. } => changes.iter().map(|c| c.bump).max(),
            _ => None,
        }
    }

    /// Whether updating the lock may record this drift: a new or gone tool,
    /// a change whose version grew at least by [`required_bump`](Self::required_bump),
    /// or a version bumped with no contract change (for a change in
    /// behaviour the contract cannot show). A version never goes down.
    pub fn is_versioned(&self) -> bool {
        match self {
            LockDiff::Changed {
                locked, current, ..
            } => match self.required_bump() {
                Some(bump) => *current >= bump.apply(*locked),
                None => current >= locked,
            },
            LockDiff::New { .. } | LockDiff::Gone { .. } => true,
        }
    }
}

impl fmt::Display for LockDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockDiff::New { name, version } => {
                write!(
                    f,
                    "`{name}` {version} is new: the lock file does not have it"
                )
            }
            LockDiff::Gone { name, version } => write!(
                f,
                "`{name}` {version} is in the lock file but not among the tools checked"
            ),
            LockDiff::Changed {
                name,
                locked,
                current,
                changes,
            } => {
                match self.required_bump() {
                    None if current > locked => write!(
                        f,
                        "`{name}` {locked} -> {current} with no change to the contract"
                    )?,
                    None if current == locked => {
                        write!(f, "`{name}` {locked}: the lock entry is out of date")?
                    }
                    None => write!(
                        f,
                        "`{name}` {locked} -> {current}: a version may not go down"
                    )?,
                    Some(bump) => {
                        let needed = bump.apply(*locked);
                        if self.is_versioned() {
                            write!(f, "`{name}` {locked} -> {current} ({bump} bump needed):")?;
                        } else if current == locked {
                            write!(
                                f,
                                "`{name}` {locked} changed without a version bump; it needs at least {needed} ({bump}):"
                            )?;
                        } else {
                            write!(
                                f,
                                "`{name}` {locked} -> {current} is not enough; it needs at least {needed} ({bump}):"
                            )?;
                        }
                    }
                }
                for change in changes {
                    write!(f, "\n  - {change}")?;
                }
                Ok(())
            }
        }
    }
}

/// Why a lock check failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum LockError {
    /// The lock file could not be read or written.
    Io {
        /// The lock file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// There is no lock file and the mode is [`LockMode::Check`].
    Missing {
        /// The lock file.
        path: PathBuf,
    },
    /// The lock file is not a valid lock file.
    Malformed {
        /// The lock file, when read from one.
        path: Option<PathBuf>,
        /// What is wrong with it.
        message: String,
    },
    /// Two of the contracts checked have the same name and the same major
    /// version.
    DuplicateTool {
        /// The name.
        name: String,
    },
    /// The contracts differ from the lock file.
    LockDiff {
        /// The lock file.
        path: PathBuf,
        /// The mode of the check: in [`LockMode::Update`], only the drifts
        /// that are not versioned well enough, and nothing was written.
        mode: LockMode,
        /// How each tool differs.
        drifts: Vec<LockDiff>,
    },
    /// A contract breaks a rule inside a nested type
    /// ([`ToolContract::check_rules`]); nothing was compared or written.
    BrokenRule(ContractError),
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Io { path, source } => {
                write!(
                    f,
                    "cannot access the lock file {}: {source}",
                    path.display()
                )
            }
            LockError::Missing { path } => write!(
                f,
                "the lock file {} does not exist; run with {UPDATE_LOCK_ENV}=1 to create it",
                path.display()
            ),
            LockError::Malformed { path, message } => {
                match path {
                    Some(path) => write!(f, "{} is not a valid lock file: ", path.display())?,
                    None => f.write_str("not a valid lock file: ")?,
                }
                write!(
                    f,
                    "{message}; fix it, or delete it and run with {UPDATE_LOCK_ENV}=1 to record the contracts as they are"
                )
            }
            LockError::DuplicateTool { name } => {
                write!(f, "two of the contracts checked are named `{name}`")
            }
            LockError::BrokenRule(error) => error.fmt(f),
            LockError::LockDiff { path, mode, drifts } => {
                match mode {
                    LockMode::Check => write!(
                        f,
                        "the tool contracts differ from the lock file {}:",
                        path.display()
                    )?,
                    LockMode::Update => write!(
                        f,
                        "the lock file {} was not updated, since a changed contract needs a bigger version bump:",
                        path.display()
                    )?,
                }
                for drift in drifts {
                    write!(f, "\n- {drift}")?;
                }
                if drifts.iter().all(LockDiff::is_versioned) {
                    write!(f, "\nrun with {UPDATE_LOCK_ENV}=1 to update the lock file")
                } else {
                    write!(
                        f,
                        "\nbump the versions named above, then run with {UPDATE_LOCK_ENV}=1 to update the lock file"
                    )
                }
            }
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LockError::Io { source, .. } => Some(source),
            LockError::BrokenRule(error) => Some(error),
            _ => None,
        }
    }
}

/// Checks `contracts` against the lock file at `path`.
///
/// Each contract is first judged by the contract rules at every depth: a
/// nested type that breaks one is [`LockError::BrokenRule`].
///
/// In [`LockMode::Check`] any difference is an error that names, per tool,
/// what changed and the version it needs: a new tool, a tool no longer
/// checked, a changed contract (even with a big enough bump, so the lock
/// moves in the same commit as the version), a version bumped alone. A
/// missing lock file is an error too.
///
/// In [`LockMode::Update`] the lock file is rewritten (or created) from the
/// contracts when every difference is [versioned](LockDiff::is_versioned);
/// otherwise nothing is written and the error lists the changes that need a
/// bigger bump. Returns what was recorded, empty when the lock was current.
///
/// Bumps follow the contract's rules: removing, renaming or retyping a field,
/// making it required, changing a unit, an effect or an approval, or removing
/// an enum value needs a major bump; adding an optional field or an enum
/// value a minor one; a description change a patch.
pub fn check_contracts_locked(
    path: impl AsRef<Path>,
    contracts: &[&ToolContract],
    mode: LockMode,
) -> Result<Vec<LockDiff>, LockError> {
    for contract in contracts {
        contract.check_rules().map_err(LockError::BrokenRule)?;
    }
    let path = path.as_ref();
    let lock = match std::fs::read_to_string(path) {
        Ok(text) => ContractLock::parse(&text).map_err(|error| match error {
            LockError::Malformed { message, .. } => LockError::Malformed {
                path: Some(path.to_owned()),
                message,
            },
            other => other,
        })?,
        Err(error) if error.kind() == io::ErrorKind::NotFound => match mode {
            LockMode::Check => {
                return Err(LockError::Missing {
                    path: path.to_owned(),
                });
            }
            LockMode::Update => ContractLock::new(),
        },
        Err(source) => {
            return Err(LockError::Io {
                path: path.to_owned(),
                source,
            });
        }
    };
    let drifts = lock.drift(contracts)?;
    if drifts.is_empty() {
        return Ok(drifts);
    }
    if mode == LockMode::Check {
        return Err(LockError::LockDiff {
            path: path.to_owned(),
            mode,
            drifts,
        });
    }
    let refused: Vec<LockDiff> = drifts
        .iter()
        .filter(|d| !d.is_versioned())
        .cloned()
        .collect();
    if !refused.is_empty() {
        return Err(LockError::LockDiff {
            path: path.to_owned(),
            mode,
            drifts: refused,
        });
    }
    let text = ContractLock::from_contracts(contracts)?.to_json_string();
    std::fs::write(path, text).map_err(|source| LockError::Io {
        path: path.to_owned(),
        source,
    })?;
    Ok(drifts)
}
