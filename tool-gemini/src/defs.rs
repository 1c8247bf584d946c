//! The definitions of a schema (`$defs`, draft-07 `definitions`), the
//! `$ref`s between them, and which of them are recursive.
//!
//! Gemini's `parameters` takes no `$ref` at all, so definitions are inlined
//! and recursion is refused. `parametersJsonSchema` takes `$defs` and `$ref`,
//! but "Cyclic references are unrolled to a limited degree and, as such, may
//! only be used within non-required properties. (Nullable properties are not
//! sufficient.)": a cycle must pass through at least one property its object
//! does not require.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::error::{GeminiRule, GeminiSchemaError, MAX_LEVELS, child, too_deep};

/// At most this many definitions in one schema.
pub(crate) const MAX_DEFINITIONS: usize = 1000;

/// One definition: its name in the output, its schema, and its pointer.
#[derive(Debug)]
pub(crate) struct Definition<'a> {
    pub(crate) name: String,
    pub(crate) schema: &'a Value,
    pub(crate) path: String,
}

/// A `$ref` found inside a definition: the definition it names, whether the
/// way to it passes a property that is not required, and where it is.
struct Edge {
    target: usize,
    guarded: bool,
    path: String,
}

/// The definitions of one root schema, by index.
#[derive(Debug, Default)]
pub(crate) struct Definitions<'a> {
    pub(crate) list: Vec<Definition<'a>>,
    /// Each definition by the keyword that holds it and its name, as the
    /// one resolver (`tool_core::refs::definition`) reads a `$ref`.
    by_ref: HashMap<(&'static str, String), usize>,
}

impl<'a> Definitions<'a> {
    /// Indexes `root`'s `$defs` and `definitions`.
    pub(crate) fn of(root: &'a Value) -> Result<Self, GeminiSchemaError> {
        let mut defs = Definitions::default();
        let mut names: HashSet<String> = HashSet::new();
        for key in ["$defs", "definitions"] as [&'static str; 2] {
            let Some(entries) = root.get(key) else {
                continue;
            };
            let Value::Object(entries) = entries else {
                return Err(GeminiSchemaError::new(
                    child("#", key),
                    GeminiRule::Malformed,
                    format!("`{key}` must be an object of named schemas"),
                ));
            };
            for (name, schema) in entries {
                if defs.list.len() >= MAX_DEFINITIONS {
                    return Err(GeminiSchemaError::new(
                        child("#", key),
                        GeminiRule::TooLarge,
                        format!("more than {MAX_DEFINITIONS} definitions"),
                    ));
                }
                let mut unique = name.clone();
                let mut n = 2;
                while names.contains(&unique) {
                    unique = format!("{name}_{n}");
                    n += 1;
                }
                names.insert(unique.clone());
                let path = child(&child("#", key), name);
                defs.by_ref.insert((key, name.clone()), defs.list.len());
                defs.list.push(Definition {
                    name: unique,
                    schema,
                    path,
                });
            }
        }
        Ok(defs)
    }

    /// The definition a `$ref` names.
    pub(crate) fn resolve(&self, reference: &Value, at: &str) -> Result<usize, GeminiSchemaError> {
        let Some(reference) = reference.as_str() else {
            return Err(GeminiSchemaError::new(
                at,
                GeminiRule::Malformed,
                "`$ref` must be a string such as `#/$defs/NAME`",
            ));
        };
        let found = tool_core::refs::definition(reference).and_then(|d| self.by_ref.get(&d));
        found.copied().ok_or_else(|| {
            let message = if reference == "#" {
                "`$ref: \"#\"` (the root referring to itself) cannot be sent to Gemini; move the \
                 recursive part into a definition of its own"
                    .to_owned()
            } else {
                format!(
                    "`{reference}` is not a definition of this schema (`#/$defs/NAME` or \
                     `#/definitions/NAME`); Gemini resolves no other references"
                )
            };
            GeminiSchemaError::new(at, GeminiRule::UnresolvedRef, message)
        })
    }

    /// Which definitions refer back to themselves (are on a cycle of
    /// `$ref`s), and, with `require_guard`, an error for a cycle that runs
    /// only through required properties.
    ///
    /// Only definitions the root reaches count: an unused definition is
    /// never written out, recursive or not.
    pub(crate) fn recursive(
        &self,
        root: &Value,
        require_guard: bool,
    ) -> Result<Vec<bool>, GeminiSchemaError> {
        let mut edges: Vec<Vec<Edge>> = Vec::with_capacity(self.list.len());
        for def in &self.list {
            let mut found = Vec::new();
            self.scan(def.schema, false, &def.path, &mut found, 0)?;
            edges.push(found);
        }
        let mut from_root = Vec::new();
        self.scan(root, false, "#", &mut from_root, 0)?;
        let mut used = vec![false; self.list.len()];
        let mut stack: Vec<usize> = from_root.iter().map(|edge| edge.target).collect();
        while let Some(at) = stack.pop() {
            if !std::mem::replace(&mut used[at], true) {
                stack.extend(edges[at].iter().map(|edge| edge.target));
            }
        }
        let targets = |follow: fn(&Edge) -> bool| -> Vec<Vec<usize>> {
            edges
                .iter()
                .map(|out| out.iter().filter(|e| follow(e)).map(|e| e.target).collect())
                .collect()
        };
        let recursive: Vec<bool> = tool_core::refs::on_cycles(&targets(|_| true))
            .into_iter()
            .zip(&used)
            .map(|(cyclic, used)| cyclic && *used)
            .collect();
        if require_guard {
            let unguarded = tool_core::refs::on_cycles(&targets(|edge| !edge.guarded));
            for (start, is_recursive) in recursive.iter().enumerate() {
                if *is_recursive && unguarded[start] {
                    let def = &self.list[start];
                    let at = edges[start]
                        .iter()
                        .find(|edge| !edge.guarded)
                        .map_or(def.path.as_str(), |edge| edge.path.as_str());
                    return Err(GeminiSchemaError::new(
                        at,
                        GeminiRule::Recursion,
                        format!(
                            "`{}` refers back to itself through required properties only; \
                             Gemini unrolls a recursive schema only through properties that are \
                             not required (a nullable required property is not enough), so make \
                             a property on the way optional (`Option<...>`)",
                            def.name
                        ),
                    ));
                }
            }
        }
        Ok(recursive)
    }

    /// Collects the `$ref`s under `schema`; `guarded` once the way passes a
    /// property that its object does not require.
    fn scan(
        &self,
        schema: &Value,
        guarded: bool,
        path: &str,
        found: &mut Vec<Edge>,
        level: usize,
    ) -> Result<(), GeminiSchemaError> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        if level > MAX_LEVELS {
            return Err(too_deep(path));
        }
        if let Some(reference) = map.get("$ref") {
            let target = self.resolve(reference, &child(path, "$ref"))?;
            found.push(Edge {
                target,
                guarded,
                path: child(path, "$ref"),
            });
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            let required = required_names(map);
            for (name, property) in properties {
                let guard = guarded || !required.contains(name.as_str());
                let at = child(&child(path, "properties"), name);
                self.scan(property, guard, &at, found, level + 1)?;
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(sub) = map.get(key) {
                self.scan(sub, guarded, &child(path, key), found, level + 1)?;
            }
        }
        for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                for (i, branch) in branches.iter().enumerate() {
                    let at = child(&child(path, key), &i.to_string());
                    self.scan(branch, guarded, &at, found, level + 1)?;
                }
            }
        }
        if let Some(Value::Array(items)) = map.get("items") {
            for (i, item) in items.iter().enumerate() {
                let at = child(&child(path, "items"), &i.to_string());
                self.scan(item, guarded, &at, found, level + 1)?;
            }
        }
        Ok(())
    }
}

/// The names an object's `required` lists (malformed entries are reported
/// by the compiler).
pub(crate) fn required_names(map: &Map<String, Value>) -> HashSet<&str> {
    match map.get("required") {
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ => HashSet::new(),
    }
}
