//! `allOf` merging: every schema of an `allOf`, `$ref`s included, becomes
//! one schema when they agree, or an error at the keyword where they do not.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::error::{Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{TYPES, is_dropped, type_has};
use crate::refs::{Definitions, Flattened, MAX_INPUT_DEPTH, Target};
use crate::sound::compare;

/// Merges `allOf` into its parent: a single entry's keywords take the place
/// of `allOf` (a `$ref` stays a `$ref`); several entries, each `$ref` among
/// them replaced by its definition, are joined keyword by keyword (see
/// [`join`]). The parent's annotations win. Also turns draft-04 boolean
/// `exclusiveMinimum`/`exclusiveMaximum` into numbers.
pub(crate) fn merge_all_of<'m>(
    map: &'m Map<String, Value>,
    path: &Pointer,
    definitions: &Definitions<'_>,
) -> Result<Cow<'m, Map<String, Value>>, StrictSchemaError> {
    merge_all_of_at(map, path, definitions, 0)
}

fn too_deep(path: &Pointer) -> StrictSchemaError {
    path.error(
        StrictRule::TooDeep,
        format!("`allOf` is nested more than {MAX_INPUT_DEPTH} levels deep; write one schema"),
    )
}

fn merge_all_of_at<'m>(
    map: &'m Map<String, Value>,
    path: &Pointer,
    definitions: &Definitions<'_>,
    depth: usize,
) -> Result<Cow<'m, Map<String, Value>>, StrictSchemaError> {
    if depth > MAX_INPUT_DEPTH {
        return Err(too_deep(path));
    }
    let boolean_bound = ["exclusiveMinimum", "exclusiveMaximum"]
        .iter()
        .any(|k| map.get(*k).is_some_and(Value::is_boolean));
    if !map.contains_key("allOf") && !boolean_bound {
        return Ok(Cow::Borrowed(map));
    }
    let out = if boolean_bound {
        draft4_bounds(map)
    } else {
        map.clone()
    };
    let Some(all_of) = out.get("allOf") else {
        return Ok(Cow::Owned(out));
    };
    let at = path.key("allOf");
    let entries = match all_of {
        Value::Array(entries) if !entries.is_empty() => entries,
        Value::Array(_) => {
            return Err(at.error(
                StrictRule::Malformed,
                "`allOf` must be a non-empty array of schemas",
            ));
        }
        _ => {
            return Err(at.error(StrictRule::Malformed, "`allOf` must be an array of schemas"));
        }
    };
    // A description written in an entry speaks for this schema; one that
    // comes with a referenced definition describes that type in general.
    let direct_description = entries
        .iter()
        .any(|e| e.get("description").is_some() && e.get("$ref").is_none());
    // `$ref`s are inlined only when two entries or more say something:
    // `allOf: [{$ref}, {description}]` stays a described `$ref`.
    let substantive = entries.iter().filter(|e| !is_annotation(e)).count();
    let mut joined: Option<(Map<String, Value>, Pointer)> = None;
    for (i, entry) in entries.iter().enumerate() {
        let entry_path = at.index(i);
        let entry = match entry {
            Value::Object(entry) => merge_all_of_at(entry, &entry_path, definitions, depth + 1)?,
            Value::Bool(true) => continue,
            Value::Bool(false) => {
                return Err(entry_path.error(
                    StrictRule::Malformed,
                    "`false` in `allOf` accepts no value, so the schema accepts none; remove \
                     the property or the `false`",
                ));
            }
            _ => {
                return Err(entry_path.error(
                    StrictRule::Malformed,
                    "an `allOf` entry must be a schema object",
                ));
            }
        };
        let entry = if substantive > 1 {
            let was_ref = entry.contains_key("$ref");
            let mut entry = inline_ref(entry.into_owned(), &entry_path, definitions, depth + 1)?;
            if was_ref && direct_description {
                entry.remove("description");
            }
            entry
        } else {
            entry.into_owned()
        };
        joined = Some(match joined {
            None => (entry, entry_path),
            Some((acc, _)) => (join(&acc, &entry, &entry_path)?, entry_path),
        });
    }
    let Some((entry, entry_path)) = joined else {
        // Only `true` entries: `allOf` says nothing.
        let mut out = out;
        out.remove("allOf");
        return Ok(Cow::Owned(out));
    };
    let merged = merge(&out, "allOf", &entry, &entry_path)?;
    Ok(Cow::Owned(merged))
}

/// The error when `allOf` merging would copy more than the budget allows.
pub(crate) fn over_budget(path: &Pointer) -> StrictSchemaError {
    path.error(
        StrictRule::AllOf,
        "`allOf`s that copy definitions into one another expand this schema to more than 8 \
         schemas or values per input value; refer to shared parts with `$ref` properties instead \
         of merging them with `allOf`",
    )
}

/// How many JSON values a map holds (itself included), without recursion.
fn count_values(map: &Map<String, Value>) -> usize {
    let mut count = 1;
    let mut stack: Vec<&Value> = map.values().collect();
    while let Some(value) = stack.pop() {
        count += 1;
        match value {
            Value::Object(inner) => stack.extend(inner.values()),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    count
}

/// Whether an `allOf` entry only annotates (`true`, or a description,
/// title, examples and the like).
fn is_annotation(entry: &Value) -> bool {
    match entry {
        Value::Bool(true) => true,
        Value::Object(map) => map.keys().all(|k| {
            is_dropped(k, false) || matches!(k.as_str(), "description" | "examples" | "deprecated")
        }),
        _ => false,
    }
}

/// An `allOf` entry with its `$ref` replaced by the definition's keywords
/// (themselves merged), so that the entries can be joined.
fn inline_ref(
    mut entry: Map<String, Value>,
    path: &Pointer,
    definitions: &Definitions<'_>,
    depth: usize,
) -> Result<Map<String, Value>, StrictSchemaError> {
    let mut rounds = 0;
    while let Some(reference) = entry.get("$ref") {
        let at = path.key("$ref");
        rounds += 1;
        if rounds > MAX_INPUT_DEPTH || depth > MAX_INPUT_DEPTH {
            return Err(too_deep(&at));
        }
        let Some(reference) = reference.as_str() else {
            return Err(at.error(
                StrictRule::Malformed,
                "`$ref` must be a string such as `#/$defs/NAME`",
            ));
        };
        let id = match definitions.resolve(reference, &at)? {
            Target::Def(id) => id,
            Target::Root => {
                return Err(at.error(
                    StrictRule::AllOf,
                    "an `allOf` entry cannot be the root schema itself (`#`), which would \
                     contain itself; combine the schemas by hand",
                ));
            }
        };
        // Each definition is merged once, however many `allOf`s include it.
        let mut target = match definitions.flattened(id) {
            Flattened::Done(flat, values) => {
                if !definitions.spend(values) {
                    return Err(over_budget(&at));
                }
                (*flat).clone()
            }
            Flattened::InProgress => {
                return Err(at.error(
                    StrictRule::AllOf,
                    "this `$ref` leads back into the `allOf` that includes it, so the schema \
                     would contain itself; combine the schemas by hand",
                ));
            }
            Flattened::Unknown => {
                let (_, target, target_path) = definitions.get(id);
                let Value::Object(target) = target else {
                    return Err(at.error(
                        StrictRule::AllOf,
                        "this `$ref` in `allOf` points at a schema that is not an object \
                         schema; point it at one",
                    ));
                };
                definitions.set_flattened(id, None);
                let flat = merge_all_of_at(target, &target_path, definitions, depth + 1)?;
                let flat = flat.into_owned();
                let values = count_values(&flat);
                if !definitions.spend(values) {
                    return Err(over_budget(&at));
                }
                definitions.set_flattened(id, Some((Rc::new(flat.clone()), values)));
                flat
            }
        };
        // The entry's own description speaks for this use; the
        // definition's describes the referenced type in general.
        if entry.contains_key("description") {
            target.remove("description");
        }
        entry = merge(&entry, "$ref", &target, &at)?;
    }
    Ok(entry)
}

/// `parent` with `entry`'s keywords in place of `slot`. Keywords both give
/// must agree (see [`join`]); the parent's annotations win.
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
                if entry_key == slot || !parent.contains_key(entry_key) {
                    out.insert(entry_key.clone(), entry_value.clone());
                }
            }
            continue;
        }
        match entry.get(key) {
            Some(theirs) => {
                let with = Beside(slot);
                out.insert(
                    key.clone(),
                    join_keyword(key, value, theirs, entry_path, with)?,
                );
            }
            None => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(out)
}

/// Two schemas that must both hold, as one: keywords only one gives are
/// kept; keywords both give must agree, except annotations (the first's
/// win), `properties` (joined; a property both give must have one schema),
/// `required` (joined), `type` (the types both allow), lower and upper
/// bounds (the tighter one), and `additionalProperties: false` (which must
/// then list every property of the other).
fn join(
    first: &Map<String, Value>,
    second: &Map<String, Value>,
    second_path: &Pointer,
) -> Result<Map<String, Value>, StrictSchemaError> {
    for (closed, other, at) in [
        (first, second, second_path.clone()),
        (second, first, second_path.clone()),
    ] {
        if closed.get("additionalProperties") == Some(&Value::Bool(false)) {
            let own = closed.get("properties").and_then(Value::as_object);
            let extra = other
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, _)| name)
                .find(|name| !own.is_some_and(|own| own.contains_key(*name)));
            if let Some(name) = extra {
                return Err(at.key("additionalProperties").error(
                    StrictRule::AllOf,
                    format!(
                        "an `allOf` schema closed with `additionalProperties: false` does not \
                         list property `{name}` of another, so `{name}` could never be sent; \
                         remove `additionalProperties` from the parts and close the whole"
                    ),
                ));
            }
        }
    }
    let mut out = first.clone();
    for (key, theirs) in second {
        let joined = match first.get(key) {
            Some(ours) => join_keyword(key, ours, theirs, second_path, Among)?,
            None => theirs.clone(),
        };
        out.insert(key.clone(), joined);
    }
    Ok(out)
}

/// What a keyword is joined with, for messages.
#[derive(Clone, Copy)]
enum With<'a> {
    /// The parent of the `allOf` or `$ref` named.
    Beside(&'a str),
    /// Another entry of the same `allOf`.
    Among,
}
use With::{Among, Beside};

fn join_keyword(
    key: &str,
    ours: &Value,
    theirs: &Value,
    path: &Pointer,
    with: With<'_>,
) -> Result<Value, StrictSchemaError> {
    let conflict = || {
        let other = match with {
            Beside(slot) => format!("the `{key}` beside `{slot}`"),
            Among => format!("the `{key}` of another `allOf` schema"),
        };
        path.key(key).error(
            StrictRule::AllOf,
            format!("`{key}` here differs from {other}; write one schema"),
        )
    };
    Ok(match (key, ours, theirs) {
        _ if ours == theirs => ours.clone(),
        ("description" | "examples" | "deprecated", _, _) => ours.clone(),
        (k, _, _) if is_dropped(k, false) => ours.clone(),
        ("properties", Value::Object(ours), Value::Object(theirs)) => {
            let mut joined = ours.clone();
            for (name, schema) in theirs {
                match ours.get(name) {
                    Some(mine) if mine != schema => {
                        return Err(path.key("properties").key(name).error(
                            StrictRule::AllOf,
                            format!(
                                "property `{name}` has a different schema here than {}; give \
                                 it one schema",
                                match with {
                                    Beside(_) => "in the parent",
                                    Among => "in another `allOf` schema",
                                }
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
        ("type", _, _) => {
            let both: Vec<&str> = TYPES
                .iter()
                .copied()
                .filter(|t| allows(ours, t) && allows(theirs, t))
                .collect();
            match both.as_slice() {
                [] => return Err(conflict()),
                [one] => Value::from(*one),
                many => Value::from(many.to_vec()),
            }
        }
        (
            "minimum" | "exclusiveMinimum" | "minItems" | "minLength",
            Value::Number(a),
            Value::Number(b),
        ) => {
            if compare(a, b) != Some(Ordering::Less) {
                ours.clone()
            } else {
                theirs.clone()
            }
        }
        (
            "maximum" | "exclusiveMaximum" | "maxItems" | "maxLength",
            Value::Number(a),
            Value::Number(b),
        ) => {
            if compare(a, b) != Some(Ordering::Greater) {
                ours.clone()
            } else {
                theirs.clone()
            }
        }
        _ => return Err(conflict()),
    })
}

/// Whether a `type` value allows values of type `name` (`number` allows
/// integers).
fn allows(types: &Value, name: &str) -> bool {
    type_has(types, name) || (name == "integer" && type_has(types, "number"))
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
