//! The first place where two JSON documents differ, for a replayed request
//! that is not the recorded one.

use serde_json::Value;

/// The longest a value is shown in a difference, in characters.
const SHOWN: usize = 200;

/// The first place where `found` differs from `expected`, depth first in
/// `expected`'s order: `(JSON path, expected there, found there)`, each
/// value as shortened JSON text or `absent`. `None` when they are equal.
/// Key order in objects does not count (no API reads it).
///
/// ```
/// use serde_json::json;
/// use tool_transport::first_difference;
///
/// let expected = json!({"input": [{"call_id": "call_1", "output": "12"}]});
/// let found = json!({"input": [{"call_id": "call_2", "output": "12"}]});
/// assert_eq!(
///     first_difference(&expected, &found),
///     Some(("$.input[0].call_id".to_owned(), "\"call_1\"".to_owned(), "\"call_2\"".to_owned()))
/// );
/// ```
pub fn first_difference(expected: &Value, found: &Value) -> Option<(String, String, String)> {
    let mut at = String::from("$");
    difference(expected, found, &mut at).map(|(expected, found)| (at, expected, found))
}

fn difference(expected: &Value, found: &Value, at: &mut String) -> Option<(String, String)> {
    match (expected, found) {
        (Value::Object(expected), Value::Object(found)) => {
            let len = at.len();
            for (key, value) in expected {
                push_key(at, key);
                match found.get(key) {
                    None => return Some((shown(value), "absent".to_owned())),
                    Some(other) => {
                        if let Some(difference) = difference(value, other, at) {
                            return Some(difference);
                        }
                    }
                }
                at.truncate(len);
            }
            let (key, value) = found.iter().find(|(key, _)| !expected.contains_key(*key))?;
            push_key(at, key);
            Some(("absent".to_owned(), shown(value)))
        }
        (Value::Array(expected), Value::Array(found)) => {
            let len = at.len();
            for (i, (value, other)) in expected.iter().zip(found).enumerate() {
                at.push_str(&format!("[{i}]"));
                if let Some(difference) = difference(value, other, at) {
                    return Some(difference);
                }
                at.truncate(len);
            }
            let i = expected.len().min(found.len());
            if expected.len() == found.len() {
                return None;
            }
            at.push_str(&format!("[{i}]"));
            let side = |items: &[Value]| items.get(i).map_or_else(|| "absent".to_owned(), shown);
            Some((side(expected), side(found)))
        }
        _ if expected == found => None,
        _ => Some((shown(expected), shown(found))),
    }
}

/// `.key` for a plain key, `["key"]` (JSON-quoted) for any other.
fn push_key(at: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain {
        at.push('.');
        at.push_str(key);
    } else {
        at.push('[');
        at.push_str(&Value::from(key).to_string());
        at.push(']');
    }
}

/// A value as JSON text, cut at [`SHOWN`] characters with `…`.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}
