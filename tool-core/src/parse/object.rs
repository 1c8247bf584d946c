//! Arguments that arrive as a JSON object (Anthropic `tool_use.input`,
//! Gemini `functionCall.args`, MCP `arguments`) rather than as text, and how
//! a call says its enum values are matched ([`EnumCase`]; the folding
//! itself is in `fold.rs`).
//!
//! An object is parsed by writing it as compact JSON text and running the
//! tool's own parser over that text, so every error, path and check is the
//! one `from_arguments` gives; key order never matters to that parser, and
//! `null` reads as absent for an `Option`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Deeper than this, a value is cut before it is written as text: the text
/// parser refuses nesting far above serde_json's limit of 128 anyway, and
/// writing an unbounded value would recurse without bound.
const MAX_WRITTEN_DEPTH: usize = 160;

/// How a call's string `enum` and `const` values are matched against the
/// tool's schema.
///
/// `Exact` (the default) is the parser's rule everywhere. `Insensitive` is
/// for calls from a provider that does not guarantee the casing of enum
/// values in constrained output (Anthropic's strict tool use: "Structured
/// outputs don't guarantee the capitalization of string `enum` and `const`
/// values"): before parsing, a string that matches exactly one of the
/// allowed values when letter case is ignored, and none exactly, is read as
/// that value. The provider adapter that reads such a call sets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnumCase {
    /// Enum values match only as written.
    #[default]
    Exact,
    /// Enum values match ignoring letter case, when exactly one does.
    Insensitive,
}

impl EnumCase {
    /// Whether this is the default, exact matching.
    pub fn is_exact(&self) -> bool {
        matches!(self, EnumCase::Exact)
    }
}

/// `arguments` as the compact JSON text the tool's parser reads. A value
/// nested deeper than the text parser ever reads is cut (its deepest parts
/// become `null`): the parser refuses it at the same place either way.
pub fn arguments_text(arguments: &Value) -> String {
    if depth_exceeds(arguments, MAX_WRITTEN_DEPTH) {
        return compact(&cut(arguments, MAX_WRITTEN_DEPTH));
    }
    compact(arguments)
}

/// Compact JSON text, written straight into a buffer (`Value`'s `Display`
/// goes through the formatter one piece at a time, several times slower).
fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    // A JSON value always writes: its map keys are strings.
    serde_json::to_string(value).unwrap_or_default()
}

/// [`arguments_text`] of an object, without copying it first.
pub fn object_text(arguments: &Map<String, Value>) -> String {
    if arguments
        .values()
        .any(|value| depth_exceeds(value, MAX_WRITTEN_DEPTH - 1))
    {
        let cut_members = arguments
            .iter()
            .map(|(k, v)| (k.clone(), cut(v, MAX_WRITTEN_DEPTH - 1)))
            .collect::<Map<String, Value>>();
        return compact(&cut_members);
    }
    compact(arguments)
}

/// Whether `value` is nested deeper than `limit` (iteratively, so any depth
/// is safe to ask about).
fn depth_exceeds(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    false
}

/// A copy of `value` whose containers below `depth` levels are `null`.
fn cut(value: &Value, depth: usize) -> Value {
    match value {
        Value::Array(_) | Value::Object(_) if depth == 0 => Value::Null,
        Value::Array(items) => Value::Array(items.iter().map(|v| cut(v, depth - 1)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), cut(v, depth - 1)))
                .collect::<Map<String, Value>>(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_values_are_cut_when_written() {
        let mut deep = serde_json::json!(1);
        for _ in 0..10_000 {
            deep = Value::Array(vec![deep]);
        }
        let text = arguments_text(&deep);
        assert_eq!(text.len(), 2 * MAX_WRITTEN_DEPTH + 4);
        assert!(text.starts_with("[[[") && text.contains("null"));
        // Taken apart iteratively: dropping it whole would recurse.
        let mut stack = vec![deep];
        while let Some(value) = stack.pop() {
            if let Value::Array(items) = value {
                stack.extend(items);
            }
        }
    }
}
