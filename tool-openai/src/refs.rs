//! `$ref`s and the definitions they point at: any JSON pointer inside the
//! document, indexed and resolved once, and nullability, memoised.
//!
//! Every schema a `$ref` can reach becomes one entry of the output's `$defs`:
//! the root's `$defs` under their own names, draft-07 `definitions` under
//! theirs (renamed when `$defs` already has the name), and any other target
//! (`#/components/schemas/Pet`, `#/properties/a`, a branch of an `allOf`)
//! under its last pointer segment, made unique.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::{Map, Value, json};
use tool_core::refs::{self, RefError};

use crate::error::{Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{is_dropped, type_has};

/// How deep the compiler follows nested schemas before it gives up; far
/// beyond strict mode's own limit of 10, and far below the stack's.
pub(crate) const MAX_INPUT_DEPTH: usize = 64;

/// Where a `$ref` leads once its chain of bare aliases is followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// The root schema (`#`).
    Root,
    /// A definition, by index.
    Def(usize),
}

/// One schema that a `$ref` can reach.
struct Def<'a> {
    /// Its name in the output's `$defs`.
    name: String,
    /// The input schema.
    value: &'a Value,
    /// Its pointer in the input, for errors.
    path: Pointer,
}

#[derive(Default)]
struct Index<'a> {
    defs: Vec<Def<'a>>,
    /// Decoded pointer tokens -> definition.
    by_tokens: HashMap<Vec<String>, usize>,
    /// `#/$defs/NAME` as the output writes it -> definition.
    by_output: HashMap<String, usize>,
    /// Output names already given.
    names: HashSet<String>,
    /// The first pointer token of every definition (`$defs`, `components`, ...).
    containers: HashSet<String>,
    /// Where each definition's chain of bare aliases ends.
    aliases: HashMap<usize, Target>,
    /// Whether each definition admits `null`; `None` while being computed.
    nullable: HashMap<usize, Option<bool>>,
    /// Each definition with its `allOf` merged, as `allOf` entries inline
    /// it (see `merge.rs`); `None` while being merged.
    flattened: HashMap<usize, Option<Flat>>,
}

/// A definition merged for `allOf`, and how many JSON values it holds.
pub(crate) type Flat = (Rc<Map<String, Value>>, usize);

/// Where merging a definition for `allOf` stands.
pub(crate) enum Flattened {
    /// Not started.
    Unknown,
    /// Started and not finished: meeting it again is a cycle.
    InProgress,
    /// Done: the merged keywords and how many JSON values they hold.
    Done(Rc<Map<String, Value>>, usize),
}

/// The schemas of a document that `$ref`s point at, by pointer and by
/// output name. Definitions found while compiling (pointers outside `$defs`)
/// are added as they are met.
pub(crate) struct Definitions<'a> {
    root: &'a Value,
    index: RefCell<Index<'a>>,
    /// What compiling may still cost, in schemas visited and values copied.
    budget: Cell<usize>,
}

impl<'a> Definitions<'a> {
    /// Indexes the root's `$defs` and `definitions`; compiling may visit
    /// and copy up to `budget` schemas and values.
    pub(crate) fn of(root: &'a Value, budget: usize) -> Result<Self, StrictSchemaError> {
        let definitions = Definitions {
            root,
            index: RefCell::default(),
            budget: Cell::new(budget),
        };
        for key in ["$defs", "definitions"] {
            let Some(defs) = root.get(key) else { continue };
            let Value::Object(defs) = defs else {
                return Err(Pointer::root().key(key).error(
                    StrictRule::Malformed,
                    format!("`{key}` must be an object of named schemas"),
                ));
            };
            for (name, schema) in defs {
                definitions.add(vec![key.to_owned(), name.clone()], name, schema);
            }
        }
        Ok(definitions)
    }

    /// Registers the schema at `tokens` under a unique output name.
    fn add(&self, tokens: Vec<String>, name: &str, value: &'a Value) -> usize {
        let mut index = self.index.borrow_mut();
        let mut unique = name.to_owned();
        let mut n = 2;
        while index.names.contains(&unique) {
            unique = format!("{name}_{n}");
            n += 1;
        }
        let mut path = Pointer::root();
        for token in &tokens {
            path = path.key(token);
        }
        let id = index.defs.len();
        index.names.insert(unique.clone());
        index.by_output.insert(def_ref(&unique), id);
        index.containers.insert(tokens[0].clone());
        index.by_tokens.insert(tokens, id);
        index.defs.push(Def {
            name: unique,
            value,
            path,
        });
        id
    }

    /// How many definitions there are so far (more may be found while
    /// compiling them).
    pub(crate) fn len(&self) -> usize {
        self.index.borrow().defs.len()
    }

    /// Definition `id`: its output name, input schema and input pointer.
    pub(crate) fn get(&self, id: usize) -> (String, &'a Value, Pointer) {
        let index = self.index.borrow();
        let def = &index.defs[id];
        (def.name.clone(), def.value, def.path.clone())
    }

    /// Whether some definition lies under the root keyword `key` (so that an
    /// unknown root keyword such as `components` only holds definitions).
    pub(crate) fn holds_definitions(&self, key: &str) -> bool {
        self.index.borrow().containers.contains(key)
    }

    /// The `$ref` the output writes for a target.
    pub(crate) fn output_ref(&self, target: Target) -> String {
        match target {
            Target::Root => "#".to_owned(),
            Target::Def(id) => def_ref(&self.index.borrow().defs[id].name),
        }
    }

    /// Resolves `reference` (found at `at`) to the schema it names, through
    /// chains of bare `$ref`s. Any JSON pointer inside the document
    /// resolves, percent-encoded or not.
    pub(crate) fn resolve(
        &self,
        reference: &str,
        at: &Pointer,
    ) -> Result<Target, StrictSchemaError> {
        let first = self.lookup(reference, at)?;
        self.follow(first, reference, at)
    }

    /// The definition (or root) a pointer names, without following aliases.
    fn lookup(&self, reference: &str, at: &Pointer) -> Result<Target, StrictSchemaError> {
        if let Some(id) = self.index.borrow().by_output.get(reference) {
            return Ok(Target::Def(*id));
        }
        // RFC 6901 reads a URI fragment percent-decoded; generators that
        // do not encode a `%` in a name are read as they wrote it.
        let decoded = pointer_tokens(reference, at, true);
        let candidates = [decoded.as_ref().ok(), None]
            .into_iter()
            .flatten()
            .cloned()
            .chain(
                reference
                    .contains('%')
                    .then(|| pointer_tokens(reference, at, false).ok())
                    .flatten(),
            );
        for tokens in candidates {
            if tokens.is_empty() {
                return Ok(Target::Root);
            }
            if let Some(id) = self.index.borrow().by_tokens.get(&tokens) {
                return Ok(Target::Def(*id));
            }
            if let Some(value) = self.walk(&tokens) {
                let name = tokens
                    .iter()
                    .rev()
                    .find(|t| t.parse::<usize>().is_err() && !is_structural(t))
                    .cloned()
                    .unwrap_or_else(|| "schema".to_owned());
                return Ok(Target::Def(self.add(tokens, &name, value)));
            }
        }
        let tokens = decoded?;
        Err(match tokens.as_slice() {
            [defs, name] if defs == "$defs" || defs == "definitions" => at.error(
                StrictRule::UnresolvedRef,
                format!(
                    "`$ref` \"{reference}\" does not resolve: there is no definition `{name}`; \
                     add it to `{defs}` or fix the name"
                ),
            ),
            _ => at.error(
                StrictRule::UnresolvedRef,
                format!(
                    "`$ref` \"{reference}\" does not resolve: the document has nothing at that \
                     pointer; point it at a schema in the document, e.g. `#/$defs/NAME`"
                ),
            ),
        })
    }

    /// The value at a pointer's tokens, if the document has one there.
    fn walk(&self, tokens: &[String]) -> Option<&'a Value> {
        let mut value = self.root;
        for token in tokens {
            value = match value {
                Value::Object(map) => map.get(token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(value)
    }

    /// Follows bare aliases from `first`; memoised per definition.
    fn follow(
        &self,
        first: Target,
        reference: &str,
        at: &Pointer,
    ) -> Result<Target, StrictSchemaError> {
        let mut chain: Vec<usize> = Vec::new();
        let mut current = first;
        let end = loop {
            let Target::Def(id) = current else {
                break current;
            };
            if let Some(end) = self.index.borrow().aliases.get(&id) {
                break *end;
            }
            if chain.contains(&id) {
                chain.push(id);
                let names: Vec<String> = chain.iter().map(|id| self.get(*id).0).collect();
                return Err(at.error(
                    StrictRule::UnresolvedRef,
                    format!(
                        "`$ref` \"{reference}\" only leads to itself ({}); give one of these \
                         definitions a schema",
                        names.join(" -> ")
                    ),
                ));
            }
            chain.push(id);
            let (_, value, path) = self.get(id);
            match bare_ref(value, 0) {
                Some(next) => current = self.lookup(next, &path.key("$ref"))?,
                None => break current,
            }
        };
        let mut index = self.index.borrow_mut();
        for id in chain {
            index.aliases.insert(id, end);
        }
        Ok(end)
    }

    /// Whether `schema` accepts `null`. References are followed (output
    /// `#/$defs/NAME` or input pointers) and memoised per definition; a
    /// definition met again while it is being decided (recursion) counts as
    /// not nullable.
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
                Some(Target::Def(id)) if self.def_admits_null(id, depth) => {}
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

    /// Spends `cost` of the budget; `false` when it is used up.
    pub(crate) fn spend(&self, cost: usize) -> bool {
        match self.budget.get().checked_sub(cost) {
            Some(left) => {
                self.budget.set(left);
                true
            }
            None => false,
        }
    }

    /// Where merging definition `id` for `allOf` stands.
    pub(crate) fn flattened(&self, id: usize) -> Flattened {
        match self.index.borrow().flattened.get(&id) {
            None => Flattened::Unknown,
            Some(None) => Flattened::InProgress,
            Some(Some((done, values))) => Flattened::Done(Rc::clone(done), *values),
        }
    }

    /// Records that definition `id` is being merged for `allOf` (`None`)
    /// or what it merged to.
    pub(crate) fn set_flattened(&self, id: usize, flat: Option<Flat>) {
        self.index.borrow_mut().flattened.insert(id, flat);
    }

    fn def_admits_null(&self, id: usize, depth: usize) -> bool {
        if let Some(known) = self.index.borrow().nullable.get(&id) {
            return known.unwrap_or(false);
        }
        self.index.borrow_mut().nullable.insert(id, None);
        let (_, value, _) = self.get(id);
        let nullable = self.admits_null(value, depth + 1);
        self.index.borrow_mut().nullable.insert(id, Some(nullable));
        nullable
    }
}

/// Pointer segments that name a container of schemas rather than a schema,
/// and so make poor definition names.
fn is_structural(token: &str) -> bool {
    matches!(
        token,
        "$defs"
            | "definitions"
            | "properties"
            | "items"
            | "anyOf"
            | "oneOf"
            | "allOf"
            | "additionalProperties"
            | "components"
            | "schemas"
    )
}

/// The tokens of a local JSON pointer reference, read by the one resolver
/// (`tool_core::refs::pointer_tokens`; with `decode` false, as the text is,
/// with no percent-decoding), or why it is not one, at `at`.
fn pointer_tokens(
    reference: &str,
    at: &Pointer,
    decode: bool,
) -> Result<Vec<String>, StrictSchemaError> {
    // Without decoding, a `%` stands for itself: escape it so the resolver
    // reads it back as it is.
    let read = if decode {
        refs::pointer_tokens(reference)
    } else {
        refs::pointer_tokens(&reference.replace('%', "%25"))
    };
    read.map_err(|error| match error {
        RefError::NotLocal => at.error(
            StrictRule::UnresolvedRef,
            format!(
                "`$ref` \"{reference}\" is not a local reference and does not resolve; point it \
                 at `#` or at a definition, `#/$defs/NAME`"
            ),
        ),
        why => at.error(
            StrictRule::UnresolvedRef,
            format!(
                "`$ref` \"{reference}\" is not a valid JSON pointer ({}); write `#/` followed \
                 by keys separated by `/`, with `~0` for `~` and `~1` for `/`",
                why.why()
            ),
        ),
    })
}

/// `#/$defs/NAME` for an output definition name (the one resolver's
/// [`refs::def_ref`]).
pub(crate) fn def_ref(name: &str) -> String {
    refs::def_ref(name)
}

/// The output definition name that `#/$defs/...` names, if it is one.
pub(crate) fn def_name(reference: &str) -> Option<String> {
    match refs::definition(reference)? {
        ("$defs", name) => Some(name),
        _ => None,
    }
}

/// The target of a schema that is only a `$ref` (besides dropped
/// annotations), possibly through single-entry `allOf`s and through unions
/// whose branches, `false` ones aside, are all that same `$ref` (the
/// compiler unwraps those into the `$ref`, so they are aliases too: an
/// output is then a fixed point).
fn bare_ref(schema: &Value, depth: usize) -> Option<&str> {
    let Value::Object(map) = schema else {
        return None;
    };
    let structural = |k: &str| matches!(k, "$ref" | "allOf" | "anyOf" | "oneOf");
    if depth > MAX_INPUT_DEPTH || !map.keys().all(|k| is_dropped(k, false) || structural(k)) {
        return None;
    }
    if map.keys().filter(|k| structural(k)).count() != 1 {
        return None;
    }
    match (map.get("$ref"), map.get("allOf")) {
        (Some(reference), _) => reference.as_str(),
        (None, Some(Value::Array(entries))) if entries.len() == 1 => {
            bare_ref(&entries[0], depth + 1)
        }
        (None, Some(_)) => None,
        (None, None) => {
            let Some(Value::Array(branches)) = map.get("anyOf").or_else(|| map.get("oneOf")) else {
                return None;
            };
            let mut target = None;
            for branch in branches.iter().filter(|b| **b != Value::Bool(false)) {
                let reference = bare_ref(branch, depth + 1)?;
                if target.is_some_and(|t| t != reference) {
                    return None;
                }
                target = Some(reference);
            }
            target
        }
    }
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

/// Points every `$ref` of a compiled schema that names an output alias (a
/// definition that is only `{"$ref": "#/$defs/OTHER"}`) at the end of the
/// alias chain, however the alias came about (a union whose branches all
/// compiled to one `$ref`, aliases spelled differently): compiling the
/// output again would collapse them, so without this the output is not a
/// fixed point. Chains that loop are left for the checker to refuse.
/// Iterative and linear in the size of the output.
pub(crate) fn collapse_aliases(root: &mut Value, definitions: &mut Map<String, Value>) {
    let alias_of = |value: &Value| -> Option<String> {
        let map = value.as_object()?;
        if map.len() != 1 {
            return None;
        }
        def_name(map.get("$ref")?.as_str()?)
    };
    let direct: HashMap<String, String> = definitions
        .iter()
        .filter_map(|(name, value)| {
            let target = alias_of(value)?;
            definitions
                .contains_key(&target)
                .then(|| (name.clone(), target))
        })
        .collect();
    if direct.is_empty() {
        return;
    }
    let mut end: HashMap<&str, String> = HashMap::new();
    for start in direct.keys() {
        let mut chain: Vec<&str> = Vec::new();
        let mut current = start.as_str();
        let found = loop {
            if let Some(known) = end.get(current) {
                break Some(known.clone());
            }
            if chain.contains(&current) {
                break None;
            }
            chain.push(current);
            match direct.get(current) {
                Some(next) => current = next.as_str(),
                None => break Some(current.to_owned()),
            }
        };
        if let Some(found) = found {
            for name in chain {
                end.insert(name, found.clone());
            }
        }
    }
    // Compiled schemas hold schemas only under `properties`, `items` and
    // `anyOf` (definitions are passed one by one).
    let rewrite = |schema: &mut Value| {
        let mut stack: Vec<&mut Value> = vec![schema];
        while let Some(Value::Object(map)) = stack.pop() {
            for (key, inner) in map.iter_mut() {
                match (key.as_str(), inner) {
                    ("$ref", reference) => {
                        let target = reference
                            .as_str()
                            .and_then(def_name)
                            .and_then(|name| end.get(name.as_str()));
                        if let Some(target) = target {
                            *reference = Value::String(def_ref(target));
                        }
                    }
                    ("properties", Value::Object(properties)) => {
                        stack.extend(properties.values_mut());
                    }
                    ("anyOf", Value::Array(branches)) => stack.extend(branches.iter_mut()),
                    ("items", items) => stack.push(items),
                    _ => {}
                }
            }
        }
    };
    rewrite(root);
    for value in definitions.values_mut() {
        rewrite(value);
    }
}
