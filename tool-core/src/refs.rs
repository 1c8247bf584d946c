//! The one `$ref` resolver every adapter reads schemas with: a local
//! reference (`#`, `#/$defs/Money`, any JSON pointer) read as RFC 6901
//! tokens after percent-decoding its URI fragment, the definition it
//! names, and the reference that names a definition in an output.
//!
//! Reading a reference one way everywhere means a schema resolves (or is
//! refused) alike for OpenAI, Anthropic, Gemini and MCP.

use serde_json::Value;

/// Why a `$ref` is not a local JSON pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefError {
    /// It does not start with `#`: another document, which no adapter
    /// fetches.
    NotLocal,
    /// A `%` not followed by two hex digits, or bytes that are not UTF-8.
    BadPercentEncoding,
    /// A fragment that does not start with `/`.
    NoLeadingSlash,
    /// A `~` not followed by `0` or `1`.
    BadTilde,
}

impl RefError {
    /// What is wrong, in words, e.g. "bad percent-encoding".
    pub fn why(self) -> &'static str {
        match self {
            RefError::NotLocal => "not a local reference",
            RefError::BadPercentEncoding => "bad percent-encoding",
            RefError::NoLeadingSlash => "it does not start with `/`",
            RefError::BadTilde => "`~` not followed by `0` or `1`",
        }
    }
}

/// The tokens of a local reference: `#` gives none, `#/a/b` gives `a`
/// and `b`, percent-decoded, then `~1` and `~0` unescaped (RFC 6901,
/// section 6).
///
/// ```
/// use tool_core::refs::{RefError, pointer_tokens};
///
/// assert_eq!(pointer_tokens("#/$defs/a~1b%20c"), Ok(vec!["$defs".to_owned(), "a/b c".to_owned()]));
/// assert_eq!(pointer_tokens("#"), Ok(vec![]));
/// assert_eq!(pointer_tokens("other.json#/a"), Err(RefError::NotLocal));
/// assert_eq!(pointer_tokens("#/a~2"), Err(RefError::BadTilde));
/// ```
pub fn pointer_tokens(reference: &str) -> Result<Vec<String>, RefError> {
    let fragment = reference.strip_prefix('#').ok_or(RefError::NotLocal)?;
    let decoded = percent_decoded(fragment).ok_or(RefError::BadPercentEncoding)?;
    if decoded.is_empty() {
        return Ok(Vec::new());
    }
    let rest = decoded.strip_prefix('/').ok_or(RefError::NoLeadingSlash)?;
    rest.split('/').map(unescape).collect()
}

/// One pointer token with `~1` and `~0` unescaped.
fn unescape(token: &str) -> Result<String, RefError> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('0') => out.push('~'),
            Some('1') => out.push('/'),
            _ => return Err(RefError::BadTilde),
        }
    }
    Ok(out)
}

/// A name as one JSON pointer token: `~` as `~0`, `/` as `~1`.
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The definition a local `$ref` names: `("$defs", NAME)` for
/// `#/$defs/NAME`, `("definitions", NAME)` for draft-07's
/// `#/definitions/NAME`, the name read as [`pointer_tokens`] reads it;
/// `None` for any other reference.
///
/// ```
/// use tool_core::refs::definition;
///
/// assert_eq!(definition("#/$defs/Free%20Text"), Some(("$defs", "Free Text".to_owned())));
/// assert_eq!(definition("#/definitions/a~1b"), Some(("definitions", "a/b".to_owned())));
/// assert_eq!(definition("#/properties/a"), None);
/// ```
pub fn definition(reference: &str) -> Option<(&'static str, String)> {
    let tokens = pointer_tokens(reference).ok()?;
    match <[String; 2]>::try_from(tokens).ok()? {
        [keyword, name] if keyword == "$defs" => Some(("$defs", name)),
        [keyword, name] if keyword == "definitions" => Some(("definitions", name)),
        _ => None,
    }
}

/// `#/$defs/NAME` for a definition name in an output: `~` and `/`
/// escaped as pointer tokens, then anything a URI fragment cannot hold as
/// it is (spaces, `%`, non-ASCII, ...) percent-encoded, so that
/// [`definition`] reads the name back.
///
/// ```
/// use tool_core::refs::{def_ref, definition};
///
/// assert_eq!(def_ref("Free Text/2"), "#/$defs/Free%20Text~12");
/// assert_eq!(definition(&def_ref("Free Text/2")), Some(("$defs", "Free Text/2".to_owned())));
/// ```
pub fn def_ref(name: &str) -> String {
    let mut out = String::from("#/$defs/");
    for c in escape(name).chars() {
        if c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@".contains(c) {
            out.push(c);
        } else {
            let mut buffer = [0u8; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

/// The schema `$ref` points to inside `root` (`#/$defs/Name`,
/// `#/definitions/Name` or any JSON pointer), if it resolves.
pub fn resolve_ref<'a>(reference: &str, root: &'a Value) -> Option<&'a Value> {
    let mut target = root;
    for token in pointer_tokens(reference).ok()? {
        target = match target {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => {
                // RFC 6901: an index is `0` or digits without a leading zero.
                if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(target)
}

/// Which definitions lie on a cycle of references: `targets[i]` lists the
/// definitions definition `i` refers to (by index); a definition is on a
/// cycle when it reaches itself (a self-reference included). One pass
/// (Tarjan's strongly connected components, without recursion), so a chain
/// of thousands of aliases costs its length, not its square.
///
/// ```
/// use tool_core::refs::on_cycles;
///
/// // 0 -> 1 -> 2 -> 1, and 3 refers to itself.
/// let targets = vec![vec![1], vec![2], vec![1], vec![3]];
/// assert_eq!(on_cycles(&targets), [false, true, true, true]);
/// ```
pub fn on_cycles(targets: &[Vec<usize>]) -> Vec<bool> {
    const UNSEEN: usize = usize::MAX;
    let n = targets.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut cyclic = vec![false; n];
    let mut next = 0;
    for start in 0..n {
        if index[start] != UNSEEN {
            continue;
        }
        // Each frame: a definition and how many of its targets are done.
        let mut frames = vec![(start, 0usize)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (at, ref mut done)) = frames.last_mut() {
            if let Some(&target) = targets[at].get(*done) {
                *done += 1;
                if target >= n {
                    continue;
                }
                if target == at {
                    cyclic[at] = true;
                }
                if index[target] == UNSEEN {
                    index[target] = next;
                    low[target] = next;
                    next += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    frames.push((target, 0));
                } else if on_stack[target] {
                    low[at] = low[at].min(index[target]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[at]);
            }
            if low[at] == index[at] {
                let mut members = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    members.push(member);
                    if member == at {
                        break;
                    }
                }
                if members.len() > 1 {
                    for member in members {
                        cyclic[member] = true;
                    }
                }
            }
        }
    }
    cyclic
}

/// `text` with each `%XX` replaced by its byte (a `$ref`'s fragment is a
/// URI fragment); `None` for a malformed escape or bytes that are not UTF-8.
pub fn percent_decoded(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
