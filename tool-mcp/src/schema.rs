//! The MCP dialect of a contract's schemas.
//!
//! - `inputSchema`: the contract's input schema with every local `$ref`
//!   inlined (`$defs` kept only for the types that contain themselves),
//!   every object closed (`additionalProperties: false`), and each optional
//!   property written with its plain type: absent from `required`, with no
//!   `["T", "null"]`, no `null` branch and no `nullable`. Hosts and gateways
//!   refuse type arrays and cannot resolve `$ref`s (PROVIDERS-DIALECTS.md
//!   3.6); the parser takes absence as `None`, so nothing is lost.
//! - `outputSchema`: the output type's schema with its local `$ref`s
//!   inlined the same way, and nothing else changed (a serialized `None` is
//!   `null`, so nulls stay); wrapped as `{"value": ...}` for peers that
//!   require an object root.
//!
//! Both are subsets of the contract's own schemas: whatever they accept,
//! the contract's parser accepts.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::{Map, Value};

/// The key under which a non-object output is wrapped for peers on a
/// revision that requires an object (`{"value": ...}`).
pub const VALUE_KEY: &str = "value";

/// How deep the dialect follows nested schemas; deeper ones are copied as
/// they are (schemars writes far shallower trees).
const MAX_DEPTH: usize = 128;

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
    if !out.contains_key("additionalProperties") {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    dialect.finish(&mut out);
    out
}

/// The MCP `outputSchema` of an output type's root schema: local `$ref`s
/// inlined; when `object_root` is set and the root is not `type: "object"`,
/// wrapped as `{"type": "object", "properties": {"value": ...},
/// "required": ["value"], "additionalProperties": false}` (a root that
/// refers to itself moves into `$defs` first, so its `$ref`s still hold).
pub fn output_schema(type_schema: &Value, object_root: bool) -> Map<String, Value> {
    let mut root = match type_schema {
        Value::Object(object) => object.clone(),
        // `true` or `false`: any value, or none.
        other => {
            let mut any = Map::new();
            if other == &Value::Bool(false) {
                any.insert("not".into(), Value::Object(Map::new()));
            }
            any
        }
    };
    let wrap = wraps(type_schema, object_root);
    let meta_schema = root.shift_remove("$schema");
    let mut defs = take_defs(&mut root);
    if wrap && refers_to_root(&Value::Object(root.clone()), 0) {
        let name = unique_name(&defs, root.get("title").and_then(Value::as_str));
        let target = format!("#/$defs/{name}");
        let mut moved = Value::Object(std::mem::take(&mut root));
        retarget_root_refs(&mut moved, &target, 0);
        for def in defs.values_mut() {
            retarget_root_refs(def, &target, 0);
        }
        defs.insert(name, moved);
        root.insert("$ref".into(), Value::from(target));
    }
    let mut dialect = Dialect::new(defs, false);
    let body = dialect.object(&root, 0);
    let mut out = Map::new();
    if let Some(meta_schema) = meta_schema {
        out.insert("$schema".into(), meta_schema);
    }
    if wrap {
        let mut properties = Map::new();
        properties.insert(VALUE_KEY.into(), Value::Object(body));
        out.insert("type".into(), Value::from("object"));
        out.insert("properties".into(), Value::Object(properties));
        out.insert(
            "required".into(),
            Value::Array(vec![Value::from(VALUE_KEY)]),
        );
        out.insert("additionalProperties".into(), Value::Bool(false));
    } else {
        out.extend(body);
    }
    dialect.finish(&mut out);
    out
}

/// Whether the output of this type schema goes to the peer wrapped as
/// `{"value": ...}`: when its root is not `type: "object"` and the peer
/// requires an object (`object_root`, revisions before 2026-07-28), and
/// for any peer when the output may be `null` (an `Option` or `()`
/// output), since the official clients read `"structuredContent": null` as
/// missing and refuse the result.
pub fn wraps(type_schema: &Value, object_root: bool) -> bool {
    match type_schema {
        Value::Object(root) if is_object_root(root) => false,
        Value::Object(root) => object_root || may_be_null(root),
        _ => true,
    }
}

/// Whether a root schema admits `null`: `type` says so, a branch of
/// `anyOf`/`oneOf` is `null`, or it says nothing about type at all.
fn may_be_null(root: &Map<String, Value>) -> bool {
    let branch_is_null = ["anyOf", "oneOf"].iter().any(|key| match root.get(*key) {
        Some(Value::Array(branches)) => branches.iter().any(|branch| match branch {
            Value::Object(branch) => may_be_null(branch),
            other => other == &Value::Bool(true),
        }),
        _ => false,
    });
    match root.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        Some(_) => false,
        None => {
            branch_is_null
                || !["anyOf", "oneOf", "allOf", "$ref", "const", "enum", "not"]
                    .iter()
                    .any(|key| root.contains_key(*key))
        }
    }
}

/// Whether a peer that requires an object root accepts this output schema
/// as it is: its root says `type: "object"` (as rmcp checks it).
pub fn is_object_root(schema: &Map<String, Value>) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Removes and returns the root's named definitions (`$defs`, and draft-07
/// `definitions` under names `$defs` does not use).
fn take_defs(root: &mut Map<String, Value>) -> Map<String, Value> {
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
/// `#/definitions/NAME`, with `~1` and `~0` decoded.
fn def_name(reference: &str) -> Option<String> {
    let name = reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))?;
    (!name.contains('/')).then(|| name.replace("~1", "/").replace("~0", "~"))
}

/// The `$ref` that names definition `name` in the output.
fn def_ref(name: &str) -> String {
    format!("#/$defs/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// Whether `schema` holds a `$ref` to the document root (`#`).
fn refers_to_root(schema: &Value, depth: usize) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    object.get("$ref").and_then(Value::as_str) == Some("#")
        || (depth < MAX_DEPTH && subschemas(object).any(|child| refers_to_root(child, depth + 1)))
}

/// Rewrites every `$ref: "#"` under `schema` to `target`.
fn retarget_root_refs(schema: &mut Value, target: &str, depth: usize) {
    let Value::Object(object) = schema else {
        return;
    };
    if object.get("$ref").and_then(Value::as_str) == Some("#") {
        object.insert("$ref".into(), Value::from(target));
    }
    if depth < MAX_DEPTH {
        for child in subschemas_mut(object) {
            retarget_root_refs(child, target, depth + 1);
        }
    }
}

/// The schemas directly inside a schema object, by what each keyword
/// holds: `properties` and the other maps of named schemas, the lists of
/// schemas, and the keywords of one schema. Values (`enum`, `const`,
/// `default`, `examples`), `required` and unknown keywords hold none.
fn subschemas(object: &Map<String, Value>) -> impl Iterator<Item = &Value> {
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
fn subschemas_mut(object: &mut Map<String, Value>) -> Vec<&mut Value> {
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

/// A definition name not in `defs`, from the root's title.
fn unique_name(defs: &Map<String, Value>, title: Option<&str>) -> String {
    let base: String = title
        .unwrap_or("Output")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let base = if base.is_empty() {
        "Output".into()
    } else {
        base
    };
    let mut name = base.clone();
    let mut n = 2;
    while defs.contains_key(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
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
struct Dialect {
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
    fn new(defs: Map<String, Value>, input: bool) -> Self {
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
    fn finish(&mut self, root: &mut Map<String, Value>) {
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
    fn object(&mut self, object: &Map<String, Value>, depth: usize) -> Map<String, Value> {
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

/// Replaces a schemars number format (`uint32`, `int64`, `double`, ...),
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

/// The definitions that reach themselves through `$ref`s.
fn recursive_defs(defs: &Map<String, Value>) -> HashSet<String> {
    let edges: HashMap<&str, BTreeSet<String>> = defs
        .iter()
        .map(|(name, schema)| {
            let mut out = BTreeSet::new();
            collect_refs(schema, &mut out, 0);
            out.retain(|target| defs.contains_key(target));
            (name.as_str(), out)
        })
        .collect();
    let mut recursive = HashSet::new();
    for start in defs.keys() {
        // Depth-first from `start`'s targets; `start` met again is a cycle.
        let mut seen: HashSet<&str> = HashSet::new();
        let mut stack: Vec<&str> = edges[start.as_str()].iter().map(String::as_str).collect();
        while let Some(next) = stack.pop() {
            if next == start {
                recursive.insert(start.clone());
                break;
            }
            if seen.insert(next)
                && let Some(targets) = edges.get(next)
            {
                stack.extend(targets.iter().map(String::as_str));
            }
        }
    }
    recursive
}

/// The definition names of the local `$ref`s under `schema`.
fn collect_refs(schema: &Value, out: &mut BTreeSet<String>, depth: usize) {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_type_used_at_every_level_twice_stops_inlining_at_the_budget() {
        // D0 holds two D1s, D1 two D2s, ...: inlined in full, 2^40 copies.
        let mut defs = Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
            defs.insert(
                format!("D{i}"),
                json!({"type": "object", "properties": {"a": next, "b": next}, "required": ["a", "b"]}),
            );
        }
        defs.insert("D40".into(), json!({"type": "string"}));
        let contract = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}},
            "required": ["root"], "additionalProperties": false, "$defs": defs});
        let schema = Value::Object(input_schema(&contract));
        let text = schema.to_string();
        assert!(text.len() < 4 * 1024 * 1024, "{} bytes", text.len());
        // What was not inlined is referred to and defined.
        let kept = schema["$defs"].as_object().unwrap();
        assert!(!kept.is_empty());
        let mut refs = BTreeSet::new();
        collect_refs(&schema, &mut refs, 0);
        for def in kept.values() {
            collect_refs(def, &mut refs, 0);
        }
        for name in &refs {
            assert!(kept.contains_key(name), "#/$defs/{name} is not defined");
        }
    }

    #[test]
    fn a_schema_deeper_than_the_walk_keeps_its_definitions() {
        let mut deep = json!({"$ref": "#/$defs/Leaf"});
        for _ in 0..(MAX_DEPTH + 20) {
            deep = json!({"type": "array", "items": deep});
        }
        let contract = json!({"type": "object", "properties": {"deep": deep}, "required": ["deep"],
            "$defs": {"Leaf": {"type": "string"}}});
        let schema = input_schema(&contract);
        assert_eq!(schema["$defs"], json!({"Leaf": {"type": "string"}}));
    }

    #[test]
    fn nulls_leave_optional_properties_only() {
        let contract = json!({
            "type": "object",
            "properties": {
                "a": {"type": ["integer", "null"]},
                "b": {"anyOf": [{"$ref": "#/$defs/Pet"}, {"type": "null"}], "description": "A pet."},
                "c": {"enum": ["x", null]},
                "d": {"type": ["string", "null"]},
                "e": {"type": "null"},
                "f": {"type": ["null"]},
                "g": {"type": "string", "nullable": true},
                "h": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
            },
            "required": ["d"],
            "$defs": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}},
                "required": ["name"], "description": "Any pet."}}
        });
        assert_eq!(
            Value::Object(input_schema(&contract)),
            json!({
                "type": "object",
                "properties": {
                    "a": {"type": "integer"},
                    "b": {"description": "A pet.", "type": "object",
                        "properties": {"name": {"type": "string"}}, "required": ["name"],
                        "additionalProperties": false},
                    "c": {"enum": ["x"]},
                    "d": {"type": ["string", "null"]},
                    "e": {"type": "null"},
                    "f": {"type": ["null"]},
                    "g": {"type": "string"},
                    "h": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
                },
                "required": ["d"],
                "additionalProperties": false
            })
        );
    }

    #[test]
    fn a_recursive_root_moves_into_defs_when_wrapped() {
        // schemars writes a root that refers to itself as `$ref: "#"`.
        let output = json!({"title": "Expr", "oneOf": [
            {"type": "integer"},
            {"type": "array", "items": {"$ref": "#"}}
        ]});
        assert_eq!(
            Value::Object(output_schema(&output, true)),
            json!({
                "type": "object",
                "properties": {"value": {"$ref": "#/$defs/Expr"}},
                "required": ["value"],
                "additionalProperties": false,
                "$defs": {"Expr": {"title": "Expr", "oneOf": [
                    {"type": "integer"},
                    {"type": "array", "items": {"$ref": "#/$defs/Expr"}}
                ]}}
            })
        );
        // Unwrapped, `#` still names the root.
        assert_eq!(Value::Object(output_schema(&output, false)), output);
    }

    #[test]
    fn property_names_that_are_keywords_are_walked_as_properties() {
        let contract = json!({"type": "object", "properties": {
            "enum": {"$ref": "#/$defs/Tag"},
            "x-tool-allow": {"type": "string"},
            "$ref": {"type": "string"}
        }, "required": ["enum", "x-tool-allow", "$ref"],
        "$defs": {"Tag": {"type": "object", "properties": {"name": {"type": "string"}},
            "required": ["name"], "x-tool-allow": {"": ["model_identity"]}}}});
        assert_eq!(
            Value::Object(input_schema(&contract)),
            json!({"type": "object", "properties": {
                "enum": {"type": "object", "properties": {"name": {"type": "string"}},
                    "required": ["name"], "additionalProperties": false},
                "x-tool-allow": {"type": "string"},
                "$ref": {"type": "string"}
            }, "required": ["enum", "x-tool-allow", "$ref"], "additionalProperties": false})
        );
    }

    #[test]
    fn an_output_that_may_be_null_is_wrapped_for_every_revision() {
        let cases = [
            (json!({"type": "object", "properties": {}}), false, false),
            (json!({"type": "number"}), false, true),
            (json!({"type": ["string", "null"]}), true, true),
            (json!({"type": "null"}), true, true),
            (
                json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}),
                true,
                true,
            ),
            (
                json!({"oneOf": [{"type": "integer"}, {"type": "string"}]}),
                false,
                true,
            ),
            (json!({"enum": ["a", "b"]}), false, true),
            (json!({}), true, true),
            (json!(true), true, true),
        ];
        for (schema, any_revision, legacy) in cases {
            assert_eq!(wraps(&schema, false), any_revision, "{schema}");
            assert_eq!(wraps(&schema, true), legacy, "{schema}");
        }
        assert_eq!(
            Value::Object(output_schema(&json!({"type": ["string", "null"]}), false)),
            json!({"type": "object", "properties": {"value": {"type": ["string", "null"]}},
                "required": ["value"], "additionalProperties": false})
        );
    }

    #[test]
    fn number_formats_become_the_bounds_they_stand_for() {
        let contract = json!({"type": "object", "properties": {
            "a": {"type": "integer", "format": "uint8", "minimum": 1},
            "b": {"type": "integer", "format": "int16"},
            "c": {"type": "number", "format": "double"},
            "d": {"type": "string", "format": "uuid"}
        }, "required": ["a", "b", "c", "d"]});
        assert_eq!(
            Value::Object(input_schema(&contract)),
            json!({"type": "object", "properties": {
                "a": {"type": "integer", "minimum": 1, "maximum": 255},
                "b": {"type": "integer", "minimum": -32768, "maximum": 32767},
                "c": {"type": "number"},
                "d": {"type": "string", "format": "uuid"}
            }, "required": ["a", "b", "c", "d"], "additionalProperties": false})
        );
    }

    #[test]
    fn not_an_object_or_a_boolean_schema_is_still_an_object_root() {
        assert_eq!(
            Value::Object(input_schema(&json!(true))),
            json!({"type": "object", "additionalProperties": false})
        );
        assert_eq!(
            Value::Object(output_schema(&json!(true), true)),
            json!({"type": "object", "properties": {"value": {}}, "required": ["value"],
                "additionalProperties": false})
        );
    }
}
