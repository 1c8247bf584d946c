//! Nullability of optional properties: the "absent" form the compiler
//! writes (`null` taken out) and whether a schema is already a union.

use std::borrow::Cow;

use serde_json::Value;

/// Keywords that may stand beside a `$ref`: the use site's own words.
pub(crate) const REF_ANNOTATIONS: [&str; 5] =
    ["description", "title", "default", "$comment", "examples"];

/// Whether a compiled schema already is a union: an `anyOf` or a type array.
pub(crate) fn is_union(schema: &Value) -> bool {
    schema.get("anyOf").is_some()
        || schema
            .get("type")
            .and_then(Value::as_array)
            .is_some_and(|t| t.len() > 1)
}

/// An optional property's schema without `null`: whether it admitted
/// `null`, and the schema of its other values.
pub(crate) fn strip_null(schema: &Value) -> (bool, Cow<'_, Value>) {
    let Some(map) = schema.as_object() else {
        return (false, Cow::Borrowed(schema));
    };
    let mut out = map.clone();
    let mut stripped = false;
    if let Some(Value::Array(types)) = map.get("type")
        && types.iter().any(|t| t == "null")
    {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match rest.len() {
            0 => return (false, Cow::Borrowed(schema)),
            1 => out.insert("type".to_owned(), rest[0].clone()),
            _ => out.insert("type".to_owned(), Value::Array(rest)),
        };
        stripped = true;
    }
    if let Some(Value::Array(values)) = map.get("enum")
        && values.iter().any(Value::is_null)
    {
        let rest: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        if rest.is_empty() {
            return (false, Cow::Borrowed(schema));
        }
        out.insert("enum".to_owned(), Value::Array(rest));
        stripped = true;
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        let is_null =
            |b: &Value| b.get("type").is_some_and(|t| t == "null") && b.get("$ref").is_none();
        if !branches.iter().any(is_null) {
            continue;
        }
        let mut rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
        stripped = true;
        match rest.len() {
            0 => return (false, Cow::Borrowed(schema)),
            1 if out
                .keys()
                .all(|k| k == key || REF_ANNOTATIONS.contains(&k.as_str())) =>
            {
                out.remove(key);
                let Value::Object(branch) = rest.remove(0) else {
                    out.insert(key.to_owned(), Value::Array(rest));
                    continue;
                };
                for (k, v) in branch {
                    if !out.contains_key(&k) {
                        out.insert(k, v);
                    }
                }
            }
            _ => {
                out.insert(key.to_owned(), Value::Array(rest));
            }
        }
    }
    if stripped {
        (true, Cow::Owned(Value::Object(out)))
    } else {
        (false, Cow::Borrowed(schema))
    }
}
