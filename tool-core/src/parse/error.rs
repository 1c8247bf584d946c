//! The error a tool's argument parser returns.

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// Why a call's arguments could not be turned into the tool's struct.
///
/// Every error has a stable [`code`](Self::code), the JSON path of the value
/// at fault (`$` for the whole document, `$.items[2].sku` inside it) and a
/// message that says what was expected and what was given, so a model can
/// correct its call. Its `Display` is `"{path}: {message}"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentError {
    kind: ArgumentErrorKind,
    path: String,
    message: String,
}

/// `{"code": ..., "path": ..., "message": ...}`.
impl Serialize for ArgumentError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut error = serializer.serialize_struct("ArgumentError", 3)?;
        error.serialize_field("code", self.code())?;
        error.serialize_field("path", &self.path)?;
        error.serialize_field("message", &self.message)?;
        error.end()
    }
}

/// Whose mistake an [`ArgumentError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ArgumentErrorKind {
    /// The model's arguments are wrong: code `INVALID_ARGUMENTS`. The model
    /// can fix the call.
    InvalidArguments,
    /// The application did not put a value that a `#[tool(inject)]` field
    /// needs into the [`Session`](crate::Session): code
    /// `MISSING_SESSION_VALUE`. The model cannot fix this.
    MissingSessionValue,
    /// The contract itself is broken (a `pattern` that is not a valid regular
    /// expression): code `INVALID_CONTRACT`. The model cannot fix this.
    InvalidContract,
}

impl ArgumentErrorKind {
    /// The stable code of this kind of error.
    pub fn code(self) -> &'static str {
        match self {
            ArgumentErrorKind::InvalidArguments => "INVALID_ARGUMENTS",
            ArgumentErrorKind::MissingSessionValue => "MISSING_SESSION_VALUE",
            ArgumentErrorKind::InvalidContract => "INVALID_CONTRACT",
        }
    }
}

impl ArgumentError {
    /// An error in the model's arguments at `path`.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ArgumentError::new(ArgumentErrorKind::InvalidArguments, path, message)
    }

    /// An error of the given kind.
    pub fn new(
        kind: ArgumentErrorKind,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ArgumentError {
            kind,
            path: path.into(),
            message: message.into(),
        }
    }

    /// `INVALID_ARGUMENTS`, `MISSING_SESSION_VALUE` or `INVALID_CONTRACT`.
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Whose mistake it is.
    pub fn kind(&self) -> ArgumentErrorKind {
        self.kind
    }

    /// True when the model can fix the call (`INVALID_ARGUMENTS`).
    pub fn is_model_error(&self) -> bool {
        self.kind == ArgumentErrorKind::InvalidArguments
    }

    /// The JSON path of the value at fault, e.g. `$.items[2].sku`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was expected and what was given.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ArgumentError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_json_name_code_path_and_message() {
        let error = ArgumentError::invalid("$.items[2].sku", "expected a string, got the number 5");
        assert_eq!(error.code(), "INVALID_ARGUMENTS");
        assert!(error.is_model_error());
        assert_eq!(
            error.to_string(),
            "$.items[2].sku: expected a string, got the number 5"
        );
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"code":"INVALID_ARGUMENTS","path":"$.items[2].sku","message":"expected a string, got the number 5"}"#
        );
        let missing = ArgumentError::new(ArgumentErrorKind::MissingSessionValue, "$.user", "m");
        assert_eq!(missing.code(), "MISSING_SESSION_VALUE");
        assert!(!missing.is_model_error());
    }
}
