//! What the tests of the two readers share (tests/parse/fast_agrees.rs,
//! tests/regression/fast_reader.rs, tests/regression/parser_type_checks.rs): a call's answer as
//! comparable text, the check that the fast reader and the exact path give
//! the same answer, and the reference validator.

#![allow(dead_code)]

use serde_json::Value;
use tool_contract::__private::{last_call_read_fast, with_exact_reader_only};
use tool_contract::{Session, Tool};

/// A call's answer: the value's `Debug` text, or the error's code, path and
/// message.
pub type Outcome = Result<String, (String, String, String)>;

/// What `T::from_arguments(text)` gives, with an empty session.
pub fn outcome<T: Tool + std::fmt::Debug>(text: &str) -> Outcome {
    T::from_arguments(text, &Session::new())
        .map(|v| format!("{v:?}"))
        .map_err(|e| {
            (
                e.code().to_owned(),
                e.path().to_owned(),
                e.message().to_owned(),
            )
        })
}

/// Asserts that both readers give the same answer for `text`; returns it
/// and whether the fast reader read the arguments object (what the
/// generated code judges after it, a missing required field, is the same
/// code on both paths).
fn answer<T: Tool + std::fmt::Debug>(text: &str) -> (Outcome, bool) {
    let fast = outcome::<T>(text);
    let read_fast = last_call_read_fast();
    let exact = with_exact_reader_only(|| outcome::<T>(text));
    assert!(!last_call_read_fast(), "the exact path read {text}");
    assert_eq!(
        fast, exact,
        "the readers disagree on {text} (left: the fast reader answered: {read_fast}; right: the exact path)"
    );
    (fast, read_fast)
}

/// Whether the fast reader read `text` (both readers' answers asserted to
/// be the same).
pub fn both<T: Tool + std::fmt::Debug>(text: &str) -> bool {
    answer::<T>(text).1
}

/// The answer both readers give for `text` (asserted to be the same).
pub fn agreed<T: Tool + std::fmt::Debug>(text: &str) -> Outcome {
    answer::<T>(text).0
}

/// Whether the `jsonschema` crate accepts `document` against the tool's
/// input schema, formats checked, with the documented exception: `null`
/// for an optional property whose schema refuses `null` (a defaulted
/// field, at any depth) is the key being absent, as OpenAI's strict mode
/// lets a model send it.
pub fn schema_accepts<T: Tool>(document: &Value) -> bool {
    let schema = T::input_schema();
    let mut judged = document.clone();
    without_default_nulls(schema, schema, &mut judged, 0);
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
        .is_valid(&judged)
}

/// `schema` with a local `$ref` (`#/$defs/X`) followed.
fn resolved<'s>(root: &'s Value, mut schema: &'s Value) -> &'s Value {
    for _ in 0..32 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => match reference.strip_prefix('#').and_then(|p| root.pointer(p)) {
                Some(target) => schema = target,
                None => return schema,
            },
            None => return schema,
        }
    }
    schema
}

/// Whether `schema` may accept `null` (its `type`, `enum` and choices).
fn takes_null(root: &Value, schema: &Value, depth: usize) -> bool {
    let schema = resolved(root, schema);
    if depth > 32 {
        return true;
    }
    let choices: Vec<&Value> = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .collect();
    if !choices.is_empty() && !choices.iter().any(|b| takes_null(root, b, depth + 1)) {
        return false;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array)
        && !values.iter().any(Value::is_null)
    {
        return false;
    }
    match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => true,
    }
}

/// Takes out of `value` the `null`s of optional properties whose schema
/// refuses `null`, at every depth the schema describes.
fn without_default_nulls(root: &Value, schema: &Value, value: &mut Value, depth: usize) {
    let schema = resolved(root, schema);
    if depth > 128 {
        return;
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for branch in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            without_default_nulls(root, branch, value, depth + 1);
        }
    }
    match value {
        Value::Object(object) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if let Some(properties) = properties {
                object.retain(|key, item| {
                    !item.is_null()
                        || required.contains(&key.as_str())
                        || properties.get(key).is_none_or(|p| takes_null(root, p, 0))
                });
            }
            for (key, item) in object.iter_mut() {
                let child = properties
                    .and_then(|p| p.get(key))
                    .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
                if let Some(child) = child {
                    without_default_nulls(root, child, item, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            for (i, item) in items.iter_mut().enumerate() {
                let child = prefix
                    .and_then(|p| p.get(i))
                    .or_else(|| schema.get("items"));
                if let Some(child) = child {
                    without_default_nulls(root, child, item, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// Whether an object anywhere in `text` has a key twice. The parser
/// refuses such a text; a JSON Schema validator only sees the parsed
/// value, which kept one of the two.
pub fn has_repeated_key(text: &str) -> bool {
    use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
    struct Walk;
    impl<'de> de::Deserialize<'de> for Walk {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Walk, D::Error> {
            d.deserialize_any(Walk)
        }
    }
    impl<'de> Visitor<'de> for Walk {
        type Value = Walk;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_str<E>(self, _: &str) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_unit<E>(self) -> Result<Walk, E> {
            Ok(Walk)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Walk, A::Error> {
            while seq.next_element::<Walk>()?.is_some() {}
            Ok(Walk)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Walk, A::Error> {
            let mut keys = std::collections::HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                if !keys.insert(key) {
                    return Err(de::Error::custom("repeated key"));
                }
                map.next_value::<Walk>()?;
            }
            Ok(Walk)
        }
    }
    // Nesting past serde_json's limit is "no": such a text is refused for
    // its depth.
    let mut reader = serde_json::Deserializer::from_str(text);
    matches!(<Walk as de::Deserialize>::deserialize(&mut reader), Err(e) if e.to_string().starts_with("repeated key"))
}
