//! The contract version.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A `MAJOR.MINOR.PATCH` contract version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Incremented when a change can break a caller: a field removed or
    /// retyped, a unit, meaning or effect changed.
    pub major: u64,
    /// Incremented when the contract grows compatibly: an optional field or an
    /// enum value added.
    pub minor: u64,
    /// Incremented for changes that do not alter the wire contract, such as a
    /// reworded description.
    pub patch: u64,
}

impl Version {
    /// A version from its three parts.
    pub const fn new(major: u64, minor: u64, patch: u64) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `MAJOR.MINOR.PATCH` (three unsigned integers without leading zeros).
    pub fn parse(text: &str) -> Option<Version> {
        let (major, minor, patch) = tool_words::parse_version(text)?;
        Some(Version::new(major, minor, patch))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

impl Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Version::parse(&text).ok_or_else(|| {
            serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(&text),
                &"a version MAJOR.MINOR.PATCH",
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn version_parse_accepts_semver_triples_only() {
        assert_eq!(Version::parse("2.10.0"), Some(Version::new(2, 10, 0)));
        assert_eq!(Version::parse("0.0.0"), Some(Version::new(0, 0, 0)));
        for bad in [
            "", "1", "1.2", "1.2.3.4", "01.2.3", "1.-2.3", "1.2.x", "1..3", " 1.2.3",
        ] {
            assert_eq!(Version::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn version_serializes_as_string() {
        let v = Version::new(1, 4, 2);
        assert_eq!(serde_json::to_value(v).unwrap(), Value::from("1.4.2"));
        let back: Version = serde_json::from_str("\"1.4.2\"").unwrap();
        assert_eq!(back, v);
        let err = serde_json::from_str::<Version>("\"1.4\"").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value: string \"1.4\", expected a version MAJOR.MINOR.PATCH"
        );
    }
}
