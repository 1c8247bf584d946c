//! The canonical form of a call's arguments and its SHA-256, which approvals
//! and the audit record are bound to.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The canonical JSON text of a call's arguments, or `None` when the text is
/// not one JSON document.
///
/// Two argument texts that the parser reads the same way give the same
/// canonical text:
/// - whitespace is dropped and object keys are sorted (by UTF-16 code
///   units, as in RFC 8785), at every depth;
/// - a top-level member whose value is `null` is dropped, because the parser
///   treats `null` and an absent key alike for every optional field;
/// - an empty (or all-whitespace) text is `{}`, as the parser reads it;
/// - strings and numbers are written as `serde_json` writes them (strings
///   escape only `"`, `\` and control characters; numbers keep their
///   integer or floating-point form, so `1` and `1.0` differ).
///
/// ```
/// use tool_contract::audit::canonical_arguments;
///
/// assert_eq!(
///     canonical_arguments(r#"{ "sku": "SKU-1", "warehouse": null, "a": [2, {"y": 1, "x": 0}] }"#).as_deref(),
///     Some(r#"{"a":[2,{"x":0,"y":1}],"sku":"SKU-1"}"#)
/// );
/// assert_eq!(canonical_arguments("").as_deref(), Some("{}"));
/// assert_eq!(canonical_arguments("{"), None);
/// ```
pub fn canonical_arguments(arguments: &str) -> Option<String> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    let value: Value = serde_json::from_str(text).ok()?;
    let value = match value {
        Value::Object(map) => {
            Value::Object(map.into_iter().filter(|(_, v)| !v.is_null()).collect())
        }
        other => other,
    };
    Some(canonical_json(&value))
}

/// SHA-256 of the canonical arguments ([`canonical_arguments`]) as 64
/// lowercase hex digits; of the raw text when it is not one JSON document.
///
/// ```
/// use tool_contract::audit::arguments_sha256;
///
/// let spaced = arguments_sha256(r#"{ "b": 1, "a": null }"#);
/// assert_eq!(spaced, arguments_sha256(r#"{"b":1}"#));
/// assert_eq!(spaced.len(), 64);
/// assert_ne!(spaced, arguments_sha256(r#"{"b":2}"#));
/// ```
pub fn arguments_sha256(arguments: &str) -> String {
    match canonical_arguments(arguments) {
        Some(canonical) => sha256_hex(canonical.as_bytes()),
        None => sha256_hex(arguments.as_bytes()),
    }
}

/// SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    hex
}

/// JSON text in canonical form: no whitespace, object keys sorted by their
/// UTF-16 code units at every depth (as in RFC 8785), arrays in their order,
/// strings and numbers as `serde_json` writes them. Argument hashes and
/// contract fingerprints are both taken over this form.
///
/// ```
/// use serde_json::json;
///
/// let a = json!({"b": 1, "a": {"d": [2, 1], "c": null}});
/// assert_eq!(tool_contract::audit::canonical_json(&a), r#"{"a":{"c":null,"d":[2,1]},"b":1}"#);
/// ```
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// The order of object keys in canonical JSON: by UTF-16 code units.
pub fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Writes `value` without whitespace and with sorted keys. The depth is
/// bounded by serde_json's recursion limit when the value was parsed.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|(a, _), (b, _)| key_order(a, b));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                // A string, a number, a bool or null always serializes.
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_known_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn canonical_form_sorts_keys_by_utf16_and_keeps_nested_nulls() {
        // U+1F600 (surrogates D83D DE00) sorts before U+FF61 in UTF-16 code
        // units, though after it in UTF-8 bytes.
        let text =
            "{\"\u{1F600}\": 1, \"\u{FF61}\": 2, \"n\": {\"z\": null}, \"s\": \"a\\u0001\\\"\"}";
        assert_eq!(
            canonical_arguments(text).unwrap(),
            "{\"n\":{\"z\":null},\"s\":\"a\\u0001\\\"\",\"\u{1F600}\":1,\"\u{FF61}\":2}"
        );
        assert_eq!(canonical_arguments("  \n").unwrap(), "{}");
        assert_eq!(canonical_arguments("[1, 2.0, -0]").unwrap(), "[1,2.0,-0.0]");
    }

    #[test]
    fn text_that_is_not_json_is_hashed_raw() {
        assert_eq!(arguments_sha256("abc"), sha256_hex(b"abc"));
        assert_eq!(arguments_sha256("{} {}"), sha256_hex(b"{} {}"));
        assert_eq!(arguments_sha256(""), sha256_hex(b"{}"));
    }
}
