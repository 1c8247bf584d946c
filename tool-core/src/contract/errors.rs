//! What a tool returns and the error codes it declares.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::schema::SchemaFn;

/// What the tool returns.
#[derive(Clone, Copy)]
pub struct OutputContract {
    rust_type: &'static str,
    declared: bool,
    schema: SchemaFn,
}

impl OutputContract {
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(rust_type: &'static str, declared: bool, schema: SchemaFn) -> Self {
        OutputContract {
            rust_type,
            declared,
            schema,
        }
    }

    /// The Rust type named in `output = ...` (`String` when none is declared).
    pub const fn rust_type(&self) -> &'static str {
        self.rust_type
    }

    /// True when the struct declares `output = ...`.
    pub const fn declared(&self) -> bool {
        self.declared
    }

    #[doc(hidden)]
    pub const fn schema(&self) -> SchemaFn {
        self.schema
    }
}

impl fmt::Debug for OutputContract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputContract")
            .field("rust_type", &self.rust_type)
            .field("declared", &self.declared)
            .finish_non_exhaustive()
    }
}

/// An error code the tool declares with `errors(CODE = "...")`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DeclaredError {
    code: &'static str,
    meaning: &'static str,
    category: Option<ErrorCategory>,
    recovery: Option<Recovery>,
}

impl DeclaredError {
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        code: &'static str,
        meaning: &'static str,
        category: Option<ErrorCategory>,
        recovery: Option<Recovery>,
    ) -> Self {
        DeclaredError {
            code,
            meaning,
            category,
            recovery,
        }
    }

    /// Stable `SCREAMING_SNAKE_CASE` code.
    pub const fn code(&self) -> &'static str {
        self.code
    }

    /// What it means and what the model (or user) should do.
    pub const fn meaning(&self) -> &'static str {
        self.meaning
    }

    /// What kind of failure it is, when declared.
    pub const fn category(&self) -> Option<ErrorCategory> {
        self.category
    }

    /// How to recover, when declared.
    pub const fn recovery(&self) -> Option<Recovery> {
        self.recovery
    }
}

/// The kind of failure behind an error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCategory {
    /// The arguments are wrong.
    InvalidArguments,
    /// What the arguments name does not exist.
    NotFound,
    /// The caller may not do this.
    Permission,
    /// An approval is needed first.
    Approval,
    /// The state changed underneath the call.
    Conflict,
    /// Too many calls.
    RateLimit,
    /// The call took too long.
    Timeout,
    /// The call was cancelled.
    Aborted,
    /// A system the tool depends on failed.
    Upstream,
    /// A bug or an unexpected failure.
    Internal,
}

impl ErrorCategory {
    /// The snake_case name used in JSON and docs.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCategory::InvalidArguments => "invalid_arguments",
            ErrorCategory::NotFound => "not_found",
            ErrorCategory::Permission => "permission",
            ErrorCategory::Approval => "approval",
            ErrorCategory::Conflict => "conflict",
            ErrorCategory::RateLimit => "rate_limit",
            ErrorCategory::Timeout => "timeout",
            ErrorCategory::Aborted => "aborted",
            ErrorCategory::Upstream => "upstream",
            ErrorCategory::Internal => "internal",
        }
    }
}

/// What to do after an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recovery {
    /// Call again with corrected arguments.
    FixArguments,
    /// Call again as is.
    Retry,
    /// Call again after a while.
    RetryLater,
    /// Ask for an approval, then call again.
    RequestApproval,
    /// Ask the user.
    AskUser,
    /// Nothing will help.
    None,
}

impl Recovery {
    /// The snake_case name used in JSON and docs.
    pub fn as_str(self) -> &'static str {
        match self {
            Recovery::FixArguments => "fix_arguments",
            Recovery::Retry => "retry",
            Recovery::RetryLater => "retry_later",
            Recovery::RequestApproval => "request_approval",
            Recovery::AskUser => "ask_user",
            Recovery::None => "none",
        }
    }
}
