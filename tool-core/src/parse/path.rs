//! JSON paths (`$.items[2].sku`) for argument errors, and the scan that finds
//! which value of a JSON text a byte offset falls in.

use std::fmt::Write as _;

use crate::words::humanize::{MAX_ECHO_CHARS, echo};

/// The path of a top-level field: `$.name`, or `$["odd name"]` when the name
/// is not an identifier.
pub fn field_path(name: &str) -> String {
    let mut path = String::from("$");
    push_key(&mut path, name);
    path
}

/// Appends an object key to a path: `.name` for a short identifier, else
/// the key as [`echo`] writes it (escaped and capped), so a path stays short
/// and on one line at every depth whatever keys the model sent.
pub(crate) fn push_key(path: &mut String, key: &str) {
    let plain = key.len() <= MAX_ECHO_CHARS
        && key
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        path.push('.');
        path.push_str(key);
    } else {
        path.push('[');
        path.push_str(&echo(key));
        path.push(']');
    }
}

fn push_index(path: &mut String, index: usize) {
    let _ = write!(path, "[{index}]");
}

/// The byte offset of a 1-based line and a 0-based byte column, as
/// `serde_json::Error` reports them.
pub(crate) fn offset_of(input: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr(b'\n', &input.as_bytes()[start..]) {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column).min(input.len())
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

/// Where in the document an offset falls.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Location {
    /// The value being read at the offset (`$.items[2].sku`).
    pub value: String,
    /// The innermost object or array that is open at the offset (`$.items[2]`),
    /// or the object that was closed just before it.
    pub container: String,
}

/// The deepest path an error names; deeper levels are shown as `…`, so a
/// hostile document cannot make an error message as large as itself.
const MAX_PATH_DEPTH: usize = 64;

enum Frame {
    Object { key: Option<String> },
    Array { index: usize },
}

/// Finds the value that the parser was reading when it stopped at `offset`:
/// scans the text up to there, keeping the stack of open objects and arrays,
/// the current key of each object and the current index of each array.
///
/// It runs only when a call has already failed, in time linear in `offset`
/// and without recursion, so hostile nesting cannot overflow the stack.
pub(crate) fn locate(input: &str, offset: usize) -> Location {
    let bytes = input.as_bytes();
    let end = offset.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut closed_object = false;
    let mut just_opened = false;
    let mut i = 0;
    while i < end {
        if !bytes[i].is_ascii_whitespace() {
            closed_object = bytes[i] == b'}';
            just_opened = matches!(bytes[i], b'[' | b'{');
        }
        match bytes[i] {
            b'{' => {
                stack.push(Frame::Object { key: None });
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Array { index: 0 });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                match stack.last_mut() {
                    Some(Frame::Array { index }) => *index += 1,
                    Some(Frame::Object { key }) => *key = None,
                    None => {}
                }
                i += 1;
            }
            b'"' => {
                let start = i;
                i = skip_string(bytes, i);
                if let Some(Frame::Object { key: key @ None }) = stack.last_mut() {
                    let raw = &input[start..i];
                    *key = Some(
                        serde_json::from_str::<String>(raw)
                            .unwrap_or_else(|_| raw.trim_matches('"').to_owned()),
                    );
                }
            }
            _ => i += 1,
        }
    }
    let mut value = String::from("$");
    let mut container = String::from("$");
    let last = stack.len().saturating_sub(1);
    for (depth, frame) in stack.iter().enumerate() {
        if depth == MAX_PATH_DEPTH {
            value.push('…');
            container = value.clone();
            break;
        }
        if depth == last {
            container = value.clone();
        }
        match frame {
            Frame::Object { key: Some(key) } => push_key(&mut value, key),
            Frame::Object { key: None } => {}
            Frame::Array { index } => push_index(&mut value, *index),
        }
    }
    if closed_object {
        // Stopped just after an object's `}` (serde reports a missing field
        // there): that object is the container.
        container = value.clone();
    }
    if just_opened {
        // Stopped just after a `[` or `{`: the value at fault is that array
        // or object itself, not its first member.
        value = container.clone();
    }
    Location { value, container }
}

/// Where in `text`, a valid JSON text, the first `[` or `{` opens that
/// is nested more than `max` levels deep (the text's own outermost
/// container is level 1). One pass, without recursion.
pub(crate) fn too_deep(text: &str, max: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'"' => {
                i = skip_string(bytes, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first key given twice in one object of `text`, a valid JSON text
/// (serde_json's `RawValue`, kept as written): the offset just past the
/// second one and its name. Keys are compared unescaped (`"a"` is
/// `"\u0061"`). One pass, without recursion.
pub(crate) fn first_repeated_key(text: &str) -> Option<(usize, String)> {
    let bytes = text.as_bytes();
    // The keys of each open object; `None` for an open array.
    let mut open: Vec<Option<std::collections::HashSet<String>>> = Vec::new();
    let mut key_next = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                open.push(Some(std::collections::HashSet::new()));
                key_next = true;
            }
            b'[' => {
                open.push(None);
                key_next = false;
            }
            b'}' | b']' => {
                open.pop();
                key_next = false;
            }
            b',' => key_next = matches!(open.last(), Some(Some(_))),
            b'"' => {
                let start = i;
                i = skip_string(bytes, i);
                if key_next {
                    key_next = false;
                    let raw = &text[start..i];
                    let key = if raw.contains('\\') {
                        serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_owned())
                    } else {
                        raw.trim_matches('"').to_owned()
                    };
                    if let Some(Some(keys)) = open.last_mut()
                        && !keys.insert(key.clone())
                    {
                        return Some((i, key));
                    }
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset just past the string that starts at `start` (a `"`).
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(input: &str, marker: &str) -> Location {
        locate(input, input.find(marker).unwrap() + marker.len())
    }

    #[test]
    fn keys_that_are_not_identifiers_are_quoted() {
        assert_eq!(field_path("order_ref"), "$.order_ref");
        assert_eq!(field_path("odd key"), "$[\"odd key\"]");
        assert_eq!(field_path("2fa"), "$[\"2fa\"]");
        assert_eq!(field_path(""), "$[\"\"]");
    }

    #[test]
    fn finds_nested_values_keys_and_indexes() {
        let input = r#"{"items": [{"sku": "a", "qty": 1}, {"sku": 5, "qty": 2}], "note": "x"}"#;
        let loc = at(input, r#""sku": 5"#);
        assert_eq!(loc.value, "$.items[1].sku");
        assert_eq!(loc.container, "$.items[1]");
        assert_eq!(at(input, r#""note": "x""#).value, "$.note");
        // After a closed container the path is that container's.
        assert_eq!(at(input, r#""qty": 2}"#).value, "$.items[1]");
        assert_eq!(at(input, r#"2}]"#).value, "$.items");
    }

    #[test]
    fn missing_fields_report_the_open_or_just_closed_object() {
        let input = r#"{"items": [{"sku": "a"}, {"qty": 1}]}"#;
        let open = locate(input, input.find("}, {").unwrap());
        assert_eq!(open.container, "$.items[0]");
        let closed = locate(input, input.find("}]").unwrap() + 1);
        assert_eq!(closed.container, "$.items[1]");
    }

    #[test]
    fn escaped_keys_and_strings_with_brackets() {
        let input = r#"{"a\"b": {"c": "x,]}", "d\u0065": true}}"#;
        assert_eq!(at(input, "true").value, r#"$["a\"b"].de"#);
    }

    #[test]
    fn a_container_that_was_just_opened_is_the_value() {
        let input = r#"{"address": ["Main St 1"]}"#;
        let loc = at(input, "[");
        assert_eq!(loc.value, "$.address");
    }

    #[test]
    fn offsets_from_lines_and_columns() {
        let input = "{\n  \"a\": 1,\n  \"b\": x\n}";
        assert_eq!(offset_of(input, 1, 0), 0);
        assert_eq!(offset_of(input, 3, 7), input.find('x').unwrap());
        assert_eq!(offset_of(input, 9, 9), input.len());
    }

    #[test]
    fn deep_nesting_is_scanned_without_recursion_and_the_path_is_capped() {
        let input = "[".repeat(200_000);
        let loc = locate(&input, input.len());
        assert_eq!(loc.value, format!("${}…", "[0]".repeat(MAX_PATH_DEPTH)));
        assert_eq!(loc.container, loc.value);
    }
}
