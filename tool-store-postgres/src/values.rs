//! How the stores' values become SQL parameters.

use std::borrow::Cow;
use std::time::Duration;

use serde_json::Value;

/// `text` for a column that is only read by people: U+0000, which
/// PostgreSQL's `text` cannot hold, as U+FFFD.
pub(crate) fn readable(text: &str) -> Cow<'_, str> {
    if text.contains('\0') {
        Cow::Owned(text.replace('\0', "\u{FFFD}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A JSON value for a `jsonb` column: U+0000 in any string or key, which
/// `jsonb` cannot hold, as U+FFFD.
pub(crate) fn readable_json(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(readable(&text).into_owned()),
        Value::Array(items) => Value::Array(items.into_iter().map(readable_json).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .map(|(key, value)| (readable(&key).into_owned(), readable_json(value)))
                .collect(),
        ),
        other => other,
    }
}

/// A duration in milliseconds for an interval, at most 100 years (a longer
/// interval would overflow the server's timestamps).
pub(crate) fn millis(duration: Duration) -> i64 {
    const CENTURY_MS: u128 = 100 * 365 * 24 * 3600 * 1000;
    i64::try_from(duration.as_millis().min(CENTURY_MS)).unwrap_or(i64::MAX)
}
