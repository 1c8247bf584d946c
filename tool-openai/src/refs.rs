//! Definitions and `$ref`s, `allOf` merging, and nullability.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::error::{Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{is_dropped, type_has};

/// How deep the compiler follows nested schemas before it gives up; far
/// beyond strict mode's own limit of 10, and far below the stack's.
pub(crate) const MAX_INPUT_DEPTH: usize = 64;

/// The definitions of a schema document: `$defs` and draft-07 `definitions`
/// of the root, by name.
pub(crate) struct Definitions<'a> {
    entries: Vec<(&'a str, &'a Value, &'static str)>,
}

impl<'a> Definitions<'a> {
    /// Collects the root's definitions; a name defined twice is an error.
    pub(crate) fn of(root: &'a Map<String, Value>) -> Result<Self, StrictSchemaError> {
        let mut entries: Vec<(&'a str, &'a Value, &'static str)> = Vec::new();
        for key in ["$defs", "definitions"] {
            let Some(defs) = root.get(key) else { continue };
            let Value::Object(defs) = defs else {
                return Err(Pointer::root().key(key).error(
                    StrictRule::Malformed,
                    format!("`{key}` must be an object of named schemas"),
                ));
            };
            for (name, schema) in defs {
                if entries.iter().any(|(seen, _, _)| *seen == name) {
                    return Err(Pointer::root().key(key).key(name).error(
                        StrictRule::Malformed,
                        format!("`{name}` is defined in both `$defs` and `definitions`; keep one"),
                    ));
                }
                entries.push((name.as_str(), schema, key));
            }
        }
        Ok(Definitions { entries })
    }

    /// Every definition in document order, with the pointer of its input.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&'a str, &'a Value, Pointer)> + '_ {
        self.entries
            .iter()
            .map(|(name, schema, key)| (*name, *schema, Pointer::root().key(key).key(name)))
    }

    /// Resolves `reference` (found at `at`) through chains of bare `$ref`s:
    /// `#`, or `#/$defs/NAME` with the definition it names.
    pub(crate) fn resolve(
        &self,
        reference: &str,
        at: &Pointer,
    ) -> Result<(String, Option<&'a Value>), StrictSchemaError> {
        let mut chain: Vec<&str> = Vec::new();
        let mut current = reference.to_owned();
        loop {
            if current == "#" {
                return Ok((current, None));
            }
            let name = def_name(&current).ok_or_else(|| unsupported_ref(&current, at))?;
            let Some((found, schema, _)) = self.entries.iter().find(|(n, _, _)| *n == name) else {
                return Err(at.error(
                    StrictRule::UnresolvedRef,
                    format!(
                        "`$ref` \"{current}\" does not resolve: there is no definition \
                         `{name}`; add it to `$defs` or fix the name"
                    ),
                ));
            };
            if chain.contains(found) {
                chain.push(found);
                return Err(at.error(
                    StrictRule::UnresolvedRef,
                    format!(
                        "`$ref` \"{reference}\" only leads to itself ({}); give one of these \
                         definitions a schema",
                        chain.join(" -> ")
                    ),
                ));
            }
            chain.push(found);
            match bare_ref(schema) {
                Some(next) => current = next,
                None => return Ok((format!("#/$defs/{}", escape(found)), Some(*schema))),
            }
        }
    }

    /// Whether `schema` accepts `null`. References are followed (a guard
    /// stops recursive ones, which then count as not nullable).
    pub(crate) fn admits_null(&self, schema: &Value, depth: usize) -> bool {
        let Value::Object(map) = schema else {
            return schema == &Value::Bool(true);
        };
        if depth > MAX_INPUT_DEPTH {
            return false;
        }
        if let Some(reference) = map.get("$ref") {
            let target = reference
                .as_str()
                .and_then(|r| self.resolve(r, &Pointer::root()).ok());
            match target {
                Some((_, Some(def))) if self.admits_null(def, depth + 1) => {}
                _ => return false,
            }
        }
        if map.get("type").is_some_and(|t| !type_has(t, "null")) {
            return false;
        }
        if let Some(Value::Array(values)) = map.get("enum")
            && !values.contains(&Value::Null)
        {
            return false;
        }
        if map.get("const").is_some_and(|c| !c.is_null()) {
            return false;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key)
                && !branches.iter().any(|b| self.admits_null(b, depth + 1))
            {
                return false;
            }
        }
        if let Some(Value::Array(all)) = map.get("allOf")
            && !all.iter().all(|b| self.admits_null(b, depth + 1))
        {
            return false;
        }
        true
    }
}

/// The definition name in `#/$defs/NAME` or `#/definitions/NAME`.
fn def_name(reference: &str) -> Option<String> {
    let rest = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))?;
    if rest.is_empty() || rest.contains('/') {
        return None;
    }
    Some(rest.replace("~1", "/").replace("~0", "~"))
}

/// A definition name as a JSON pointer segment.
pub(crate) fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn unsupported_ref(reference: &str, at: &Pointer) -> StrictSchemaError {
    let message = if reference.starts_with('#') {
        format!(
            "`$ref` \"{reference}\" points inside another schema, which strict mode does not \
             resolve; move that schema into `$defs` and point at `#/$defs/NAME`"
        )
    } else {
        format!(
            "`$ref` \"{reference}\" is not a local reference and does not resolve; point it at \
             `#` or at a definition, `#/$defs/NAME`"
        )
    };
    at.error(StrictRule::UnresolvedRef, message)
}

/// The target of a schema that is only a `$ref` (besides dropped
/// annotations), possibly through single-entry `allOf`s.
fn bare_ref(schema: &Value) -> Option<String> {
    let Value::Object(map) = schema else {
        return None;
    };
    let map = merge_all_of(map, &Pointer::root()).ok()?;
    let reference = map.get("$ref")?.as_str()?;
    map.keys()
        .all(|k| k == "$ref" || is_dropped(k, false))
        .then(|| reference.to_owned())
}

/// Merges every single-entry `allOf` into its parent: the entry's keywords
/// take the place of `allOf`, and the parent's annotations win. Also turns
/// draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` into numbers.
pub(crate) fn merge_all_of<'m>(
    map: &'m Map<String, Value>,
    path: &Pointer,
) -> Result<Cow<'m, Map<String, Value>>, StrictSchemaError> {
    merge_all_of_at(map, path, 0)
}

fn merge_all_of_at<'m>(
    map: &'m Map<String, Value>,
    path: &Pointer,
    depth: usize,
) -> Result<Cow<'m, Map<String, Value>>, StrictSchemaError> {
    if depth > MAX_INPUT_DEPTH {
        return Err(path.error(
            StrictRule::TooDeep,
            format!("`allOf` is nested more than {MAX_INPUT_DEPTH} levels deep; write one schema"),
        ));
    }
    let boolean_bound = ["exclusiveMinimum", "exclusiveMaximum"]
        .iter()
        .any(|k| map.get(*k).is_some_and(Value::is_boolean));
    if !map.contains_key("allOf") && !boolean_bound {
        return Ok(Cow::Borrowed(map));
    }
    let mut out = if boolean_bound {
        draft4_bounds(map)
    } else {
        map.clone()
    };
    while let Some(all_of) = out.get("allOf").cloned() {
        let at = path.key("allOf");
        let entry = match &all_of {
            Value::Array(entries) if entries.len() == 1 => &entries[0],
            Value::Array(entries) => {
                return Err(at.error(
                    StrictRule::AllOf,
                    format!(
                        "`allOf` with {} schemas cannot be expressed in strict mode; write one \
                         schema that combines them",
                        entries.len()
                    ),
                ));
            }
            _ => {
                return Err(at.error(StrictRule::Malformed, "`allOf` must be an array of schemas"));
            }
        };
        let entry_path = at.index(0);
        let entry = match entry {
            Value::Object(entry) => merge_all_of_at(entry, &entry_path, depth + 1)?.into_owned(),
            Value::Bool(true) => Map::new(),
            _ => {
                return Err(entry_path.error(
                    StrictRule::Malformed,
                    "an `allOf` entry must be a schema object",
                ));
            }
        };
        out = merge(&out, "allOf", &entry, &entry_path)?;
    }
    Ok(Cow::Owned(out))
}

/// `parent` with `entry`'s keywords in place of `slot`. Keywords both give
/// must agree, except annotations (the parent's win), `properties` (joined
/// when they name different properties) and `required` (joined).
pub(crate) fn merge(
    parent: &Map<String, Value>,
    slot: &str,
    entry: &Map<String, Value>,
    entry_path: &Pointer,
) -> Result<Map<String, Value>, StrictSchemaError> {
    let mut out = Map::new();
    for (key, value) in parent {
        if key == slot {
            for (entry_key, entry_value) in entry {
                if !parent.contains_key(entry_key) {
                    out.insert(entry_key.clone(), entry_value.clone());
                }
            }
            continue;
        }
        let Some(theirs) = entry.get(key) else {
            out.insert(key.clone(), value.clone());
            continue;
        };
        let merged = match (key.as_str(), value, theirs) {
            _ if value == theirs => value.clone(),
            ("description" | "examples" | "deprecated", _, _) => value.clone(),
            (k, _, _) if is_dropped(k, false) => value.clone(),
            ("properties", Value::Object(ours), Value::Object(theirs)) => {
                let mut joined = ours.clone();
                for (name, schema) in theirs {
                    match ours.get(name) {
                        Some(mine) if mine != schema => {
                            return Err(entry_path.key("properties").key(name).error(
                                StrictRule::AllOf,
                                format!(
                                    "property `{name}` has a different schema here than in the \
                                     parent; give it one schema"
                                ),
                            ));
                        }
                        _ => {
                            joined.insert(name.clone(), schema.clone());
                        }
                    }
                }
                Value::Object(joined)
            }
            ("required", Value::Array(ours), Value::Array(theirs)) => {
                let mut joined = ours.clone();
                joined.extend(theirs.iter().filter(|n| !ours.contains(n)).cloned());
                Value::Array(joined)
            }
            _ => {
                return Err(entry_path.key(key).error(
                    StrictRule::AllOf,
                    format!(
                        "`{key}` here differs from the `{key}` beside `{slot}`; write one schema"
                    ),
                ));
            }
        };
        out.insert(key.clone(), merged);
    }
    Ok(out)
}

/// Draft-04 `"exclusiveMinimum": true` next to `minimum` as the draft 2020-12
/// `"exclusiveMinimum": <number>`; `false` is dropped.
fn draft4_bounds(map: &Map<String, Value>) -> Map<String, Value> {
    let exclusive = |key: &str| map.get(key) == Some(&Value::Bool(true));
    let (min, max) = (exclusive("exclusiveMinimum"), exclusive("exclusiveMaximum"));
    map.iter()
        .filter(|(k, v)| {
            !(matches!(k.as_str(), "exclusiveMinimum" | "exclusiveMaximum") && v.is_boolean())
        })
        .map(|(k, v)| match k.as_str() {
            "minimum" if min => ("exclusiveMinimum".to_owned(), v.clone()),
            "maximum" if max => ("exclusiveMaximum".to_owned(), v.clone()),
            _ => (k.clone(), v.clone()),
        })
        .collect()
}

/// Makes a compiled schema also accept `null`: `type` gains `"null"` (and an
/// `enum` its `null` value), a `$ref` or `anyOf` gains a `{"type": "null"}`
/// branch.
pub(crate) fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if let Some(reference) = map.remove("$ref") {
        let rest = std::mem::take(map);
        map.insert(
            "anyOf".to_owned(),
            json!([{"$ref": reference}, {"type": "null"}]),
        );
        map.extend(rest);
        return;
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.push(json!({"type": "null"}));
        return;
    }
    match map.get_mut("type") {
        Some(Value::String(name)) => {
            let name = std::mem::take(name);
            map.insert("type".to_owned(), json!([name, "null"]));
        }
        Some(Value::Array(names)) if !names.iter().any(|n| n == "null") => {
            names.push(Value::from("null"));
        }
        _ => {}
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    if map.get("const").is_some_and(|c| !c.is_null()) {
        *map = std::mem::take(map)
            .into_iter()
            .map(|(k, v)| match k.as_str() {
                "const" => ("enum".to_owned(), json!([v, null])),
                _ => (k, v),
            })
            .collect();
    }
}
