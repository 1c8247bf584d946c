//! Arguments that arrive as a JSON object (Anthropic `tool_use.input`,
//! Gemini `functionCall.args`, MCP `arguments`) rather than as text, and the
//! case-insensitive reading of enum values some providers need.
//!
//! An object is parsed by writing it as compact JSON text and running the
//! tool's own parser over that text, so every error, path and check is the
//! one `from_arguments` gives; key order never matters to that parser, and
//! `null` reads as absent for an `Option`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::words::describe::resolve_ref;

/// Deeper than this, a value is cut before it is written as text: the text
/// parser refuses nesting far above serde_json's limit of 128 anyway, and
/// writing an unbounded value would recurse without bound.
const MAX_WRITTEN_DEPTH: usize = 160;

/// How many schemas the walk that folds enum casing looks at for one value
/// before it stops: each `$ref` and union branch is followed once per
/// value, so only a schema far larger than any tool's reaches it.
const MAX_SCHEMA_VISITS: usize = 20_000;

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

/// `arguments` with each string that names an enum or const value of
/// `schema` in another letter case rewritten to the value's own casing; the
/// text unchanged when nothing needs folding or when it is not JSON (the
/// parser then reports the syntax error).
///
/// Text with a key twice in one object is left unchanged too: read into a
/// `Value` it would keep one of them, and the parser must see both to
/// refuse it.
pub fn fold_enum_case(schema: &Value, arguments: &str) -> Option<String> {
    let mut value: Value = serde_json::from_str(arguments).ok()?;
    let mut changed = false;
    fold(&[schema], schema, &mut value, &mut changed);
    (changed && serde_json::from_str::<UniqueKeys>(arguments).is_ok()).then(|| compact(&value))
}

/// Any JSON value, read only to find out that no object in it has a key
/// twice (it fails at the first repeated key).
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut keys: HashSet<std::borrow::Cow<'de, str>> = HashSet::new();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            map.next_value::<UniqueKeys>()?;
            if !keys.insert(key) {
                return Err(serde::de::Error::custom("a key twice"));
            }
        }
        Ok(UniqueKeys)
    }
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

/// The schemas that `schemas` stand for at one value: each of them, what
/// its `$ref` points to and the branches of its `anyOf`/`oneOf`/`allOf`,
/// each followed once (a schema reached twice, as by a recursive `$ref`,
/// is not followed again; at most [`MAX_SCHEMA_VISITS`] are looked at).
fn alternatives<'s>(schemas: &[&'s Value], root: &'s Value) -> Vec<&'s Map<String, Value>> {
    let mut found: Vec<&Map<String, Value>> = Vec::new();
    let mut queue: Vec<&Value> = schemas.iter().rev().copied().collect();
    let mut seen: HashSet<*const Map<String, Value>> = HashSet::new();
    let mut visits = 0;
    while let Some(schema) = queue.pop() {
        visits += 1;
        if visits > MAX_SCHEMA_VISITS {
            break;
        }
        let Some(map) = schema.as_object() else {
            continue;
        };
        if !seen.insert(map) {
            continue;
        }
        found.push(map);
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_ref(r, root))
        {
            queue.push(target);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                queue.extend(branches.iter().rev());
            }
        }
    }
    found
}

/// Folds the casing of `value`'s strings against every schema that may
/// describe it: a string is folded only when none of them allows it as
/// written and exactly one allowed value matches it ignoring case.
fn fold(schemas: &[&Value], root: &Value, value: &mut Value, changed: &mut bool) {
    let schemas = alternatives(schemas, root);
    match value {
        Value::String(text) => {
            let allowed = schemas.iter().flat_map(|map| {
                let listed = map
                    .get("enum")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten();
                listed.chain(map.get("const")).filter_map(Value::as_str)
            });
            // A schema that takes any string (no enum or const, a string
            // type or none) allows the text as written: nothing to fold.
            let mut exact = schemas.iter().any(|map| takes_any_string(map));
            let mut matches: Vec<&str> = Vec::new();
            let lower = text.to_lowercase();
            for candidate in allowed {
                if candidate == text {
                    exact = true;
                } else if candidate.to_lowercase() == lower && !matches.contains(&candidate) {
                    matches.push(candidate);
                }
            }
            if !exact && let [only] = matches[..] {
                *text = only.to_owned();
                *changed = true;
            }
        }
        Value::Object(members) => {
            for (key, member) in members.iter_mut() {
                let mut member_schemas: Vec<&Value> = schemas
                    .iter()
                    .filter_map(|map| map.get("properties").and_then(Value::as_object)?.get(key))
                    .collect();
                if member_schemas.is_empty() {
                    member_schemas = schemas
                        .iter()
                        .filter_map(|map| map.get("additionalProperties").filter(|s| s.is_object()))
                        .collect();
                }
                if !member_schemas.is_empty() {
                    fold(&member_schemas, root, member, changed);
                }
            }
        }
        Value::Array(items) => {
            let item_schemas: Vec<&Value> =
                schemas.iter().filter_map(|map| map.get("items")).collect();
            if !item_schemas.is_empty() {
                for item in items {
                    fold(&item_schemas, root, item, changed);
                }
            }
        }
        _ => {}
    }
}

/// Whether a schema (one of [`alternatives`], so its `$ref` and branches
/// are judged on their own) takes any string as it is written.
fn takes_any_string(map: &Map<String, Value>) -> bool {
    let composite = ["enum", "const", "$ref", "anyOf", "oneOf", "allOf", "not"]
        .iter()
        .any(|key| map.contains_key(*key));
    let stringy = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        Some(_) => false,
    };
    !composite && stringy
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_unique_case_insensitive_match_is_folded() {
        let schema = json!({
            "type": "object",
            "properties": {
                "reason": {"$ref": "#/$defs/Reason"},
                "tags": {"type": "array", "items": {"enum": ["Red", "red", "Blue"]}},
                "mode": {"anyOf": [{"const": "fast"}, {"type": "null"}]}
            },
            "$defs": {"Reason": {"type": "string", "enum": ["damaged", "late"]}}
        });
        let folded = fold_enum_case(
            &schema,
            r#"{"reason":"DAMAGED","tags":["BLUE","RED","red"],"mode":"Fast"}"#,
        );
        assert_eq!(
            folded.as_deref(),
            Some(r#"{"reason":"damaged","tags":["Blue","RED","red"],"mode":"fast"}"#)
        );
        assert_eq!(fold_enum_case(&schema, r#"{"reason":"late"}"#), None);
        // A value another branch allows as written is left alone.
        let branches = json!({"anyOf": [
            {"type": "object", "properties": {"kind": {"enum": ["A"]}}},
            {"type": "object", "properties": {"kind": {"enum": ["a"]}}}
        ]});
        assert_eq!(fold_enum_case(&branches, r#"{"kind":"a"}"#), None);
        assert_eq!(fold_enum_case(&branches, r#"{"kind":"A"}"#), None);
        assert_eq!(fold_enum_case(&schema, "{not json"), None);
    }

    #[test]
    fn a_string_another_branch_takes_as_written_is_not_folded() {
        let union = json!({"type": "object", "properties": {
            "x": {"anyOf": [{"enum": ["abc"]}, {"type": "string"}]}
        }});
        assert_eq!(fold_enum_case(&union, r#"{"x":"ABC"}"#), None);
        let shapes = json!({"type": "object", "properties": {"shape": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}},
            {"type": "object", "properties": {"kind": {"type": "string"}, "note": {"type": "string"}}}
        ]}}});
        assert_eq!(
            fold_enum_case(&shapes, r#"{"shape":{"kind":"Circle","note":"n"}}"#),
            None
        );
        // Where only the enum can take it, it is still folded.
        let only = json!({"type": "object", "properties": {
            "x": {"anyOf": [{"enum": ["abc"]}, {"type": "null"}]}
        }});
        assert_eq!(
            fold_enum_case(&only, r#"{"x":"ABC"}"#).as_deref(),
            Some(r#"{"x":"abc"}"#)
        );
    }

    #[test]
    fn every_branch_of_a_large_documented_enum_is_folded() {
        // A documented enum is a `oneOf` of one `const` per variant; each
        // is followed however many there are (a count of 32 schemas once
        // stopped the walk before the last variants).
        let variants: Vec<Value> = (1..=300)
            .map(|n| json!({"const": format!("V{n}"), "description": format!("Variant {n}.")}))
            .collect();
        let schema = json!({"type": "object", "properties": {
            "v": {"$ref": "#/$defs/Big"}
        }, "$defs": {"Big": {"oneOf": variants}}});
        for n in [1, 39, 40, 300] {
            assert_eq!(
                fold_enum_case(&schema, &format!(r#"{{"v":"v{n}"}}"#)).as_deref(),
                Some(format!(r#"{{"v":"V{n}"}}"#).as_str()),
                "V{n}"
            );
        }
        // A definition reached by several `$ref`s of one union is read once.
        let shared = json!({"type": "object", "properties": {"v": {"anyOf": [
            {"$ref": "#/$defs/E"}, {"$ref": "#/$defs/E"}, {"type": "null"}
        ]}}, "$defs": {"E": {"enum": ["Open"]}}});
        assert_eq!(
            fold_enum_case(&shared, r#"{"v":"OPEN"}"#).as_deref(),
            Some(r#"{"v":"Open"}"#)
        );
    }

    #[test]
    fn text_with_a_key_twice_is_left_for_the_parser_to_refuse() {
        let schema = json!({"type": "object", "properties": {
            "mode": {"enum": ["fast", "slow"]},
            "inner": {"type": "object", "properties": {"mode": {"enum": ["fast"]}}}
        }});
        assert_eq!(
            fold_enum_case(&schema, r#"{"mode":"FAST","mode":"slow"}"#),
            None
        );
        assert_eq!(
            fold_enum_case(&schema, r#"{"inner":{"mode":"FAST","mode":"x"}}"#),
            None
        );
        // Escaped and plain spellings of one key are one key.
        assert_eq!(
            fold_enum_case(&schema, r#"{"mode":"FAST","mo\u0064e":"slow"}"#),
            None
        );
        assert_eq!(
            fold_enum_case(&schema, r#"{"mode":"FAST","inner":{"mode":"Fast"}}"#).as_deref(),
            Some(r#"{"mode":"fast","inner":{"mode":"fast"}}"#)
        );
    }

    #[test]
    fn recursive_refs_and_deep_values_stay_bounded() {
        let schema = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
        assert_eq!(fold_enum_case(&schema, r#"{"a":"x"}"#), None);
        let mut deep = json!(1);
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
