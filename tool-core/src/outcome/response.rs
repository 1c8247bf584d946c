//! What every provider adapter says about a response it cannot read: the
//! place in the response and what is wrong there.

use std::fmt;

use serde_json::Value;

/// A provider's response that does not have the shape its API documents,
/// or an error body where a response was expected: where
/// (`$.choices[0].message.tool_calls[1].id`, `$.content[2].id`) and what
/// is wrong. Every adapter's readers of whole responses give this.
///
/// ```
/// use tool_contract::ResponseError;
///
/// let error = ResponseError::new("$.content[2].id", "missing");
/// assert_eq!(error.to_string(), "$.content[2].id: missing");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseError {
    path: String,
    message: String,
}

impl ResponseError {
    /// An error at `path` (a JSON path into the response, `$` for the
    /// whole of it) saying `message`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ResponseError {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Where in the response.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ResponseError {}

/// A JSON value's kind as an error message names it: `null`, `a boolean`,
/// `a number`, `a string`, `an array`, `an object`.
///
/// ```
/// assert_eq!(tool_core::outcome::json_kind(&serde_json::json!([1])), "an array");
/// ```
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
