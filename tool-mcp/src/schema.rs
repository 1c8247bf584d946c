//! The MCP dialect of a contract's input schema, and the walk over a
//! schema document that the output schema shares (`output.rs`).
//!
//! `inputSchema` is the contract's input schema with every local `$ref`
//! inlined (`$defs` kept only for the types that contain themselves), every
//! object closed (`additionalProperties: false`), schemars' number formats
//! written as bounds, and each optional property written with its plain
//! type: absent from `required`, with no `["T", "null"]`, no `null` branch
//! and no `nullable`. Hosts and gateways refuse type arrays and cannot
//! resolve `$ref`s (docs/providers-dialects.md 3.6); the parser takes absence as
//! `None`, so nothing is lost: whatever the MCP schema accepts, the
//! contract's parser accepts.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::{Map, Value};

/// How deep the dialect follows nested schemas; deeper ones are copied as
/// they are (schemars writes far shallower trees).
pub(crate) const MAX_DEPTH: usize = 128;

/// How many JSON values inlining may copy in all before the remaining
/// `$ref`s are kept as references (with their definitions), so that a type
/// used many times at many levels cannot blow the schema up exponentially.
const INLINE_BUDGET: usize = 50_000;

/// The contract key that marks waived rules for the contract check; not
/// part of what a host reads.
const ALLOW_KEY: &str = "x-tool-allow";

/// The MCP `inputSchema` of a contract's input schema (see the module
/// documentation). A tool without arguments gets
/// `{"type": "object", "additionalProperties": false}`.
pub fn input_schema(contract_schema: &Value) -> Map<String, Value> {
    let mut root = match contract_schema {
        Value::Object(object) => object.clone(),
        _ => Map::new(),
    };
    let defs = take_defs(&mut root);
    let mut dialect = Dialect::new(defs, true);
    let mut out = dialect.object(&root, 0);
    out.insert("type".into(), Value::from("object"));
    // A root that stays a `$ref` (a type that contains itself) is closed in
    // its definition: `additionalProperties` beside the `$ref` would see
    // no properties here and admit only `{}`.
    if !out.contains_key("additionalProperties") && !out.contains_key("$ref") {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    dialect.finish(&mut out);
    out
}

/// Removes and returns the root's named definitions (`$defs`, and draft-07
/// `definitions` under names `$defs` does not use).
pub(crate) fn take_defs(root: &mut Map<String, Value>) -> Map<String, Value> {
    let mut defs = match root.shift_remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    if let Some(Value::Object(older)) = root.shift_remove("definitions") {
        for (name, schema) in older {
            defs.entry(name).or_insert(schema);
        }
    }
    defs
}

/// The definition name a local `$ref` names: `#/$defs/NAME` or
/// `#/definitions/NAME`, read by the one resolver (`tool_core::refs`).
pub(crate) fn def_name(reference: &str) -> Option<String> {
    tool_core::refs::definition(reference).map(|(_, name)| name)
}

/// The `$ref` that names definition `name` in the output.
fn def_ref(name: &str) -> String {
    tool_core::refs::def_ref(name)
}

/// The schemas directly inside a schema object, by what each keyword
/// holds: `properties` and the other maps of named schemas, the lists of
/// schemas, and the keywords of one schema. Values (`enum`, `const`,
/// `default`, `examples`), `required` and unknown keywords hold none.
pub(crate) fn subschemas(object: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    object.iter().flat_map(|(key, value)| {
        let children: Box<dyn Iterator<Item = &Value>> = match (key.as_str(), value) {
            ("properties", Value::Object(named)) => Box::new(named.values()),
            (key, Value::Object(named)) if is_map_keyword(key) => Box::new(named.values()),
            (key, Value::Array(list)) if is_list_keyword(key) => Box::new(list.iter()),
            (key, child) if is_schema_keyword(key) => Box::new(std::iter::once(child)),
            _ => Box::new(std::iter::empty()),
        };
        children
    })
}

/// [`subschemas`], mutable.
pub(crate) fn subschemas_mut(object: &mut Map<String, Value>) -> Vec<&mut Value> {
    let mut out = Vec::new();
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        if is_schema_keyword(key) {
            out.push(value);
            continue;
        }
        match value {
            Value::Object(named) if key == "properties" || is_map_keyword(key) => {
                out.extend(named.values_mut());
            }
            Value::Array(list) if is_list_keyword(key) => out.extend(list.iter_mut()),
            _ => {}
        }
    }
    out
}

/// Keywords whose value is one schema.
fn is_schema_keyword(key: &str) -> bool {
    matches!(
        key,
        "items"
            | "additionalProperties"
            | "additionalItems"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contains"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contentSchema"
    )
}

/// Keywords whose value is a list of schemas.
fn is_list_keyword(key: &str) -> bool {
    matches!(key, "anyOf" | "oneOf" | "allOf" | "prefixItems")
}

/// Keywords whose value maps names to schemas (`properties` is handled on
/// its own, for optional properties).
fn is_map_keyword(key: &str) -> bool {
    matches!(
        key,
        "patternProperties" | "dependentSchemas" | "$defs" | "definitions"
    )
}

/// One pass over a schema document: its definitions, which of them
/// contain themselves, and which of them the output keeps.
pub(crate) struct Dialect {
    defs: Map<String, Value>,
    /// Definitions that reach themselves through `$ref`s: kept as `$ref`s.
    recursive: HashSet<String>,
    /// Definitions the output refers to, so `$defs` must hold them.
    kept: BTreeSet<String>,
    /// Whether this is an input schema (close objects, drop nulls from
    /// optional properties) or an output schema (refs only).
    input: bool,
    /// JSON values inlining may still copy.
    budget: usize,
}

impl Dialect {
    pub(crate) fn new(defs: Map<String, Value>, input: bool) -> Self {
        let recursive = recursive_defs(&defs);
        Dialect {
            defs,
            recursive,
            kept: BTreeSet::new(),
            input,
            budget: INLINE_BUDGET,
        }
    }

    /// Writes the kept definitions (each in the dialect, which may keep
    /// more) into `root`'s `$defs`, in the order of the input's `$defs`.
    pub(crate) fn finish(&mut self, root: &mut Map<String, Value>) {
        let mut done: HashMap<String, Value> = HashMap::new();
        loop {
            let pending: Vec<String> = self
                .kept
                .iter()
                .filter(|name| !done.contains_key(*name))
                .cloned()
                .collect();
            if pending.is_empty() {
                break;
            }
            for name in pending {
                let body = match self.defs.get(&name) {
                    Some(Value::Object(def)) => Value::Object(self.object(&def.clone(), 1)),
                    Some(other) => other.clone(),
                    None => Value::Object(Map::new()),
                };
                done.insert(name, body);
            }
        }
        if done.is_empty() {
            return;
        }
        let mut defs = Map::new();
        for name in self.defs.keys() {
            if let Some(body) = done.remove(name) {
                defs.insert(name.clone(), body);
            }
        }
        root.insert("$defs".into(), Value::Object(defs));
    }

    /// The dialect of any schema value (`true`/`false` stay as they are).
    fn schema(&mut self, schema: &Value, depth: usize) -> Value {
        match schema {
            Value::Object(object) => Value::Object(self.object(object, depth)),
            other => other.clone(),
        }
    }

    /// The dialect of one schema object.
    pub(crate) fn object(
        &mut self,
        object: &Map<String, Value>,
        depth: usize,
    ) -> Map<String, Value> {
        if depth > MAX_DEPTH {
            // Copied as it is; the definitions it refers to stay.
            let mut names = BTreeSet::new();
            collect_refs(&Value::Object(object.clone()), &mut names, 0);
            self.kept
                .extend(names.into_iter().filter(|n| self.defs.contains_key(n)));
            return object.clone();
        }
        if let Some(merged) = self.inlined(object, depth) {
            return self.object(&merged, depth + 1);
        }
        let required: HashSet<&str> = match object.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => HashSet::new(),
        };
        let mut out = Map::new();
        for (key, value) in object {
            match (key.as_str(), value) {
                (ALLOW_KEY, _) if self.input => {}
                ("$ref", Value::String(reference)) => {
                    if let Some(name) = def_name(reference)
                        && self.defs.contains_key(&name)
                    {
                        out.insert(key.clone(), Value::from(def_ref(&name)));
                        self.kept.insert(name);
                    } else {
                        out.insert(key.clone(), value.clone());
                    }
                }
                ("properties", Value::Object(properties)) => {
                    let mut written = Map::new();
                    for (name, property) in properties {
                        let mut property = self.schema(property, depth + 1);
                        if self.input && !required.contains(name.as_str()) {
                            strip_null(&mut property);
                        }
                        written.insert(name.clone(), property);
                    }
                    if !(self.input && written.is_empty()) {
                        out.insert(key.clone(), Value::Object(written));
                    }
                }
                ("required", Value::Array(names)) if self.input && names.is_empty() => {}
                (key, Value::Object(named)) if is_map_keyword(key) => {
                    let written = named
                        .iter()
                        .map(|(name, schema)| (name.clone(), self.schema(schema, depth + 1)))
                        .collect();
                    out.insert(key.to_owned(), Value::Object(written));
                }
                (key, Value::Array(list)) if is_list_keyword(key) => {
                    let written = list.iter().map(|s| self.schema(s, depth + 1)).collect();
                    out.insert(key.to_owned(), Value::Array(written));
                }
                (key, child) if is_schema_keyword(key) => {
                    let written = self.schema(child, depth + 1);
                    out.insert(key.to_owned(), written);
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        if self.input && closes(&out) {
            out.insert("additionalProperties".into(), Value::Bool(false));
        }
        numeric_format_as_bounds(&mut out);
        out
    }

    /// `object` with its `$ref` replaced by the definition it names (the
    /// object's own keywords first, then the definition's that it does not
    /// set), or `None` when the `$ref` stays: not a local definition, a
    /// definition that contains itself, or the budget spent.
    fn inlined(&mut self, object: &Map<String, Value>, depth: usize) -> Option<Map<String, Value>> {
        let name = def_name(object.get("$ref")?.as_str()?)?;
        if self.recursive.contains(&name) || depth >= MAX_DEPTH {
            return None;
        }
        let Some(Value::Object(def)) = self.defs.get(&name) else {
            return None;
        };
        let cost = size(def);
        if cost > self.budget {
            self.budget = 0;
            return None;
        }
        self.budget -= cost;
        let mut merged: Map<String, Value> = object
            .iter()
            .filter(|(key, _)| *key != "$ref")
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        for (key, value) in def {
            if !merged.contains_key(key) {
                merged.insert(key.clone(), value.clone());
            }
        }
        Some(merged)
    }
}

/// Replaces a schemars number format (`uint32`, `int64`, `uint128`,
/// `double`, ...),
/// which JSON Schema does not define and validators such as Ajv (the
/// official TypeScript client's) warn about, by the bounds it stands for;
/// bounds the schema already states stay.
fn numeric_format_as_bounds(object: &mut Map<String, Value>) {
    let Some(format) = object.get("format").and_then(Value::as_str) else {
        return;
    };
    let bounds: Option<(Value, Value)> = match format {
        "int8" => Some((i8::MIN.into(), i8::MAX.into())),
        "int16" => Some((i16::MIN.into(), i16::MAX.into())),
        "int32" => Some((i32::MIN.into(), i32::MAX.into())),
        "int64" | "int" => Some((i64::MIN.into(), i64::MAX.into())),
        "uint8" => Some((0.into(), u8::MAX.into())),
        "uint16" => Some((0.into(), u16::MAX.into())),
        "uint32" => Some((0.into(), u32::MAX.into())),
        "uint64" | "uint" => Some((0.into(), u64::MAX.into())),
        "float" | "double" => None,
        "int128" | "uint128" => {
            let signed = format == "int128";
            object.shift_remove("format");
            wide_integer_bounds(object, signed);
            return;
        }
        _ => return,
    };
    object.shift_remove("format");
    if let Some((minimum, maximum)) = bounds {
        if !object.contains_key("minimum") && !object.contains_key("exclusiveMinimum") {
            object.insert("minimum".into(), minimum);
        }
        if !object.contains_key("maximum") && !object.contains_key("exclusiveMaximum") {
            object.insert("maximum".into(), maximum);
        }
    }
}

/// The bounds of a 128-bit integer type, which a JSON number without
/// arbitrary precision (a validator's, serde_json's) cannot write exactly:
/// `exclusiveMaximum: 2^128` (`2^127` for `i128`) and, for `i128`,
/// `exclusiveMinimum: -2^127`, each a power of two a float holds exactly.
/// A validator that reads numbers as floats then accepts only numbers the
/// type holds (`2^128` itself is refused, which an inclusive
/// `maximum: u128::MAX`, rounded to `2^128`, would let through); the
/// price is the few largest values, within 2^75 of the bound, that round
/// onto it.
fn wide_integer_bounds(object: &mut Map<String, Value>, signed: bool) {
    let (low, high) = if signed {
        (Some(-(2f64.powi(127))), 2f64.powi(127))
    } else {
        (None, 2f64.powi(128))
    };
    if !object.contains_key("minimum") && !object.contains_key("exclusiveMinimum") {
        match low {
            Some(low) => object.insert("exclusiveMinimum".into(), Value::from(low)),
            None => object.insert("minimum".into(), Value::from(0)),
        };
    }
    if !object.contains_key("maximum") && !object.contains_key("exclusiveMaximum") {
        object.insert("exclusiveMaximum".into(), Value::from(high));
    }
}

/// Whether an input object schema must be closed: it lists properties or
/// says `type: "object"`, and says nothing about other properties.
fn closes(object: &Map<String, Value>) -> bool {
    let object_type = object.get("type").and_then(Value::as_str) == Some("object");
    (object_type || object.contains_key("properties"))
        && !object.contains_key("additionalProperties")
        && !object.contains_key("patternProperties")
        && !object.contains_key("$ref")
        && !["anyOf", "oneOf", "allOf"]
            .iter()
            .any(|key| object.contains_key(*key))
}

/// Takes `null` out of an optional property's schema: `["T", "null"]`
/// becomes `"T"`, a `null` branch of `anyOf`/`oneOf` goes (one branch
/// left is merged into the property, whose own keywords win), `null` leaves
/// `enum`, and `nullable` goes.
fn strip_null(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    object.shift_remove("nullable");
    if let Some(Value::Array(types)) = object.get_mut("type")
        && types.iter().any(|t| t.as_str() != Some("null"))
    {
        types.retain(|t| t.as_str() != Some("null"));
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = object.get_mut("enum")
        && values.iter().any(|v| !v.is_null())
    {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = object.get_mut(key) else {
            continue;
        };
        let before = branches.len();
        branches.retain(|branch| !is_null_schema(branch));
        if branches.len() == before || branches.is_empty() {
            continue;
        }
        if branches.len() == 1 {
            let only = branches.remove(0);
            object.shift_remove(key);
            match only {
                Value::Object(branch) => {
                    for (k, v) in branch {
                        if !object.contains_key(&k) {
                            object.insert(k, v);
                        }
                    }
                }
                Value::Bool(true) => {}
                other => {
                    object.insert(key.into(), Value::Array(vec![other]));
                }
            }
        }
    }
}

/// Whether a schema admits `null` only: `{"type": "null"}` or
/// `{"const": null}` (with annotations at most).
fn is_null_schema(schema: &Value) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    let null_type = object.get("type").and_then(Value::as_str) == Some("null");
    let null_const = object.get("const").is_some_and(Value::is_null);
    let null_enum =
        matches!(object.get("enum"), Some(Value::Array(v)) if v.len() == 1 && v[0].is_null());
    (null_type || null_const || null_enum)
        && object.keys().all(|key| {
            matches!(
                key.as_str(),
                "type" | "const" | "enum" | "description" | "title"
            )
        })
}

/// How many JSON values `object` holds (an upper bound is enough).
fn size(object: &Map<String, Value>) -> usize {
    fn count(value: &Value, depth: usize) -> usize {
        if depth > MAX_DEPTH {
            return 1;
        }
        match value {
            Value::Object(object) => {
                1 + object.values().map(|v| count(v, depth + 1)).sum::<usize>()
            }
            Value::Array(list) => 1 + list.iter().map(|v| count(v, depth + 1)).sum::<usize>(),
            _ => 1,
        }
    }
    1 + object.values().map(|v| count(v, 1)).sum::<usize>()
}

/// The definitions that reach themselves through `$ref`s (one pass over
/// the reference graph: `tool_core::refs::on_cycles`).
fn recursive_defs(defs: &Map<String, Value>) -> HashSet<String> {
    let names: Vec<&String> = defs.keys().collect();
    let position: HashMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let targets: Vec<Vec<usize>> = defs
        .values()
        .map(|schema| {
            let mut out = BTreeSet::new();
            collect_refs(schema, &mut out, 0);
            out.iter()
                .filter_map(|t| position.get(t.as_str()).copied())
                .collect()
        })
        .collect();
    tool_core::refs::on_cycles(&targets)
        .into_iter()
        .zip(names)
        .filter(|(cyclic, _)| *cyclic)
        .map(|(_, name)| name.clone())
        .collect()
}

/// The definition names of the local `$ref`s under `schema`.
pub(crate) fn collect_refs(schema: &Value, out: &mut BTreeSet<String>, depth: usize) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(name) = object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(def_name)
    {
        out.insert(name);
    }
    if depth < MAX_DEPTH {
        for child in subschemas(object) {
            collect_refs(child, out, depth + 1);
        }
    }
}
