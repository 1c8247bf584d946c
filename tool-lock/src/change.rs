//! A change between two versions of a contract, and the version bump it needs.

use std::fmt;

use serde_json::Value;
use tool_core::Version;
use tool_core::words::code;

/// How much a contract's version must grow for a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bump {
    /// Nothing a caller relies on changed: a reworded description.
    Patch,
    /// The contract grew compatibly: an optional field or an enum value added.
    Minor,
    /// A caller can break: a field removed, retyped or made required, a
    /// unit, effect or approval changed, an enum value removed.
    Major,
}

impl Bump {
    /// The lowest version after `version` that this bump allows:
    /// `Major` on 2.3.1 gives 3.0.0, `Minor` 2.4.0, `Patch` 2.3.2.
    pub fn apply(self, version: Version) -> Version {
        match self {
            Bump::Major => Version::new(version.major.saturating_add(1), 0, 0),
            Bump::Minor => Version::new(version.major, version.minor.saturating_add(1), 0),
            Bump::Patch => Version::new(
                version.major,
                version.minor,
                version.patch.saturating_add(1),
            ),
        }
    }

    /// `"major"`, `"minor"` or `"patch"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kind of a [`Change`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A field (or output field) appeared.
    FieldAdded,
    /// A field disappeared.
    FieldRemoved,
    /// A field disappeared and one of the same type appeared (best effort).
    FieldRenamed,
    /// An optional field became required.
    MadeRequired,
    /// A required field became optional.
    MadeOptional,
    /// A value now accepts `null`.
    MadeNullable,
    /// A value no longer accepts `null`.
    MadeNonNullable,
    /// A value's type changed.
    TypeChanged,
    /// A field's unit changed.
    UnitChanged,
    /// An enum gained a value.
    EnumValueAdded,
    /// An enum lost a value.
    EnumValueRemoved,
    /// A constraint now allows fewer values.
    ConstraintTightened,
    /// A constraint now allows more values.
    ConstraintLoosened,
    /// The effect changed.
    EffectChanged,
    /// Whether a call needs approval changed.
    ApprovalChanged,
    /// Another part of the policy changed: idempotency, timeout, data
    /// class, open world.
    PolicyChanged,
    /// A description, title or other annotation changed.
    DescriptionChanged,
    /// The version was marked deprecated, no longer is, or got another
    /// sunset or note.
    DeprecationChanged,
    /// A declared error code appeared.
    ErrorCodeAdded,
    /// A declared error code disappeared.
    ErrorCodeRemoved,
    /// A declared error code's meaning, category or recovery changed.
    ErrorCodeChanged,
    /// Any other change to a schema.
    SchemaChanged,
}

/// One difference between a contract and its lock entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What kind of change it is.
    pub kind: ChangeKind,
    /// The smallest version bump it needs.
    pub bump: Bump,
    /// The change in words, e.g. ``field `note` removed``.
    pub message: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.bump)
    }
}

/// Records one change.
pub(crate) fn push(changes: &mut Vec<Change>, kind: ChangeKind, bump: Bump, message: String) {
    changes.push(Change {
        kind,
        bump,
        message,
    });
}

/// The keys of two JSON objects: those of `old` in order, then new ones.
pub(crate) fn keys(old: &Value, new: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for value in [old, new] {
        if let Some(map) = value.as_object() {
            for key in map.keys() {
                if !out.contains(key) {
                    out.push(key.clone());
                }
            }
        }
    }
    out
}

/// A JSON value as change messages quote it: strings as code spans.
pub(crate) fn show(value: &Value) -> String {
    match value {
        Value::String(s) => code(s),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bumps_give_the_lowest_allowed_version() {
        let v = Version::new(2, 3, 1);
        assert_eq!(Bump::Major.apply(v), Version::new(3, 0, 0));
        assert_eq!(Bump::Minor.apply(v), Version::new(2, 4, 0));
        assert_eq!(Bump::Patch.apply(v), Version::new(2, 3, 2));
        assert!(Bump::Patch < Bump::Minor && Bump::Minor < Bump::Major);
    }
}
