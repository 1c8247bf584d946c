//! The strict compiler: a tool's input schema (or any JSON Schema of the
//! shape schemars and pydantic emit) in, Anthropic's strict-tool-use subset
//! out, with every optional property recorded for the tool-set budget.

use std::collections::HashSet;

use serde_json::{Map, Value, json};
use tool_core::words::describe::resolve_ref;

use crate::error::{Notes, Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{
    SUPPORTED_FORMATS, is_annotation_only, is_described, is_dropped, is_refused, pattern_supported,
};
use crate::nullable::{REF_ANNOTATIONS, is_union, strip_null};
use crate::values::{
    any_value, check_case, check_case_by_position, check_type, definition, escape, primitive,
    strings_of,
};

/// How deep schemas nest, counting each `$ref` followed, before the
/// compiler refuses the schema.
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// The annotations of a schema that uses another (beside a `$ref`, or
/// beside an `allOf` of one entry) that replace the used schema's own.
const USE_SITE_ANNOTATIONS: [&str; 3] = ["description", "default", "examples"];

/// How many schema nodes the output may have (inlining a definition at each
/// use that gives it a description of its own copies it).
pub const MAX_SCHEMA_NODES: usize = 20_000;

/// A property that `required` does not list: "absent" as compiled, and
/// what making it "required and nullable" instead would cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OptionalField {
    /// JSON pointer of the property's schema in the compiled schema.
    pub(crate) pointer: String,
    /// JSON pointer of the object schema that holds it.
    pub(crate) object: String,
    /// The property's key.
    pub(crate) name: String,
    /// Where it is, for messages: `amount`, `account.bank`, `Account.bank`.
    pub(crate) field: String,
    /// It admitted `null` (an `Option`), so it may become required and
    /// nullable instead; the parser reads `null` as absent.
    pub(crate) nullable: bool,
    /// Union parameters the nullable form adds: 0 when the schema already
    /// is an `anyOf` or a type array, else 1.
    pub(crate) union_cost: usize,
}

/// A compiled strict input schema with its optional properties.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StrictInput {
    pub(crate) schema: Value,
    pub(crate) optional: Vec<OptionalField>,
}

/// Compiles a JSON Schema into Anthropic's strict-tool-use subset, or says
/// why it cannot (a JSON pointer, a [`StrictRule`](crate::StrictRule) and a
/// fix).
///
/// - the root becomes `{"type": "object", ...}`: a root `$ref` is inlined
///   (the API refuses `type` beside a root `$ref`), a root `{}` is an object
///   without properties;
/// - every object gets `additionalProperties: false` ("For 'object' type,
///   'additionalProperties' must be explicitly set to false"); an object
///   that accepts other keys (a map) is refused;
/// - local `$defs`/`definitions` are kept for the `$ref`s that use them bare;
///   a `$ref` with a description of its own is replaced by its definition
///   carrying that description, and other local pointers are inlined;
///   recursion ("Recursive schemas") and external `$ref`s are refused;
/// - `oneOf` becomes `anyOf`; an `allOf` of one schema merges into its
///   parent, of more is refused;
/// - numeric bounds, string lengths, `maxItems`, `minItems` above 1,
///   `uniqueItems`, `examples`, formats other than the ten supported, and
///   `pattern`s with backreferences, lookaround, `\b`/`\B` or large
///   `{n,m}` are stated in the description in the words tool-openai uses
///   ("At least 1 character."), and a derived tool's parser still enforces
///   them;
/// - `enum`/`const` values that are objects or arrays are refused, and so
///   are string values that differ only in letter case;
/// - a property `required` does not list stays optional and stops
///   admitting `null` ("absent"): the parser reads absent as `None`.
///   A tool set may instead make it required and nullable to fit the
///   request's budgets ([`ToolSet`](crate::ToolSet)).
///
/// ```
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "sku": {"type": "string", "minLength": 1, "description": "The SKU."},
///         "warehouse": {"type": ["string", "null"]}
///     },
///     "required": ["sku"]
/// });
/// assert_eq!(
///     tool_contract::anthropic::to_strict_input_schema(&schema)?,
///     json!({
///         "type": "object",
///         "properties": {
///             "sku": {"type": "string", "description": "The SKU. At least 1 character."},
///             "warehouse": {"type": "string"}
///         },
///         "required": ["sku"],
///         "additionalProperties": false
///     })
/// );
/// # Ok::<(), tool_contract::anthropic::StrictSchemaError>(())
/// ```
pub fn to_strict_input_schema(schema: &Value) -> Result<Value, StrictSchemaError> {
    compile(schema).map(|input| input.schema)
}

pub(crate) fn compile(schema: &Value) -> Result<StrictInput, StrictSchemaError> {
    let mut compiler = Compiler {
        root: schema,
        defs: Vec::new(),
        done: HashSet::new(),
        stack: Vec::new(),
        optional: Vec::new(),
        nodes: 0,
    };
    let at = Pointer::root();
    let compiled = match schema {
        Value::Bool(true) => Map::new(),
        Value::Object(map) if map.contains_key("$ref") => {
            match compiler.reference(map, &at, "", "", 0, true)? {
                Value::Object(map) => map,
                _ => return Err(not_object(&at)),
            }
        }
        Value::Object(map) => compiler.schema(map, &at, "", "", 0)?,
        _ => return Err(not_object(&at)),
    };
    // After the compile, which refused recursion and deep nesting, so the
    // walk is bounded.
    check_case_by_position(schema)?;
    let mut root = Map::new();
    match compiled.get("type") {
        None if !compiled.contains_key("anyOf") && !compiled.contains_key("enum") => {}
        Some(Value::String(t)) if t == "object" => {}
        Some(Value::Array(types)) if types.len() == 1 && types[0] == "object" => {}
        _ => return Err(not_object(&at)),
    }
    root.insert("type".to_owned(), json!("object"));
    if !compiled.contains_key("properties") {
        root.insert("properties".to_owned(), json!({}));
    }
    for (key, value) in compiled {
        if key != "type" {
            root.insert(key, value);
        }
    }
    root.entry("additionalProperties").or_insert(json!(false));
    let Compiler { defs, optional, .. } = compiler;
    for (container, name, schema) in defs {
        let entry = root.entry(container).or_insert_with(|| json!({}));
        if let Value::Object(map) = entry {
            map.insert(name, schema);
        }
    }
    Ok(StrictInput {
        schema: Value::Object(root),
        optional,
    })
}

fn not_object(at: &Pointer) -> StrictSchemaError {
    at.error(
        StrictRule::RootNotObject,
        "the input schema is not an object schema; Anthropic requires `\"type\": \"object\"` at \
         the root: take the arguments as a struct with named fields",
    )
}

struct Compiler<'s> {
    root: &'s Value,
    /// Kept definitions: container (`$defs` or `definitions`), name, schema.
    defs: Vec<(String, String, Value)>,
    done: HashSet<String>,
    /// The `$ref`s being compiled, outermost first: one seen again is recursion.
    stack: Vec<String>,
    optional: Vec<OptionalField>,
    nodes: usize,
}

impl<'s> Compiler<'s> {
    fn node(
        &mut self,
        input: &Value,
        at: &Pointer,
        out: &str,
        field: &str,
        depth: usize,
    ) -> Result<Value, StrictSchemaError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(at.error(
                StrictRule::TooLarge,
                format!("schemas nest more than {MAX_SCHEMA_DEPTH} levels deep here; flatten the argument types"),
            ));
        }
        self.nodes += 1;
        if self.nodes > MAX_SCHEMA_NODES {
            return Err(at.error(
                StrictRule::TooLarge,
                format!("the strict schema would have more than {MAX_SCHEMA_NODES} schemas; use fewer, smaller argument types"),
            ));
        }
        match input {
            Value::Object(map) if is_annotation_only(map) => Err(any_value(at)),
            Value::Object(map) if map.contains_key("$ref") => {
                self.reference(map, at, out, field, depth, false)
            }
            Value::Object(map) => self.schema(map, at, out, field, depth).map(Value::Object),
            Value::Bool(true) => Err(any_value(at)),
            other => Err(at.error(
                StrictRule::Malformed,
                format!("expected a schema (an object), got {other}"),
            )),
        }
    }

    /// A schema with a `$ref`: a bare reference to a definition stays one
    /// (the definition is compiled once and kept), anything else is the
    /// target compiled in place with the use site's annotations.
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        at: &Pointer,
        out: &str,
        field: &str,
        depth: usize,
        inline: bool,
    ) -> Result<Value, StrictSchemaError> {
        // Aliases are followed here without `node`: the same bounds apply.
        if depth > MAX_SCHEMA_DEPTH {
            return Err(at.error(
                StrictRule::TooLarge,
                format!("schemas nest more than {MAX_SCHEMA_DEPTH} levels deep here; flatten the argument types"),
            ));
        }
        let ref_at = at.key("$ref");
        let Some(reference) = map.get("$ref").and_then(Value::as_str) else {
            return Err(ref_at.error(StrictRule::Malformed, "expected a string"));
        };
        // Definitions beside a `$ref` (at the root) are read through the
        // `$ref`s that name them.
        let beside = |k: &str| {
            ["$ref", "$defs", "definitions"].contains(&k)
                || REF_ANNOTATIONS.contains(&k)
                || is_dropped(k)
        };
        if let Some(key) = map.keys().find(|k| !beside(k)) {
            return Err(at.key(key).error(
                StrictRule::UnsupportedKeyword,
                format!("`{key}` beside a `$ref`; move it into the schema the `$ref` names"),
            ));
        }
        let recursive = || {
            ref_at.error(
                StrictRule::Recursion,
                format!(
                    "`{reference}` refers to a schema that contains it; Anthropic's strict tool \
                     use refuses recursive schemas (\"Recursive schemas\" are not supported): \
                     bound the depth with types of their own, or offer this tool with `strict: false`"
                ),
            )
        };
        if reference == "#" || self.stack.iter().any(|r| r == reference) {
            return Err(recursive());
        }
        let Some(target) = reference
            .starts_with('#')
            .then(|| resolve_ref(reference, self.root))
            .flatten()
        else {
            return Err(ref_at.error(
                StrictRule::UnresolvedRef,
                format!("`{reference}` does not resolve to a definition in this schema; strict tool use takes only local `$ref`s (\"External `$ref`\" is not supported)"),
            ));
        };
        // Annotations that reach the model: the target is inlined to carry
        // them (`examples` in words in its description).
        let annotated = USE_SITE_ANNOTATIONS
            .iter()
            .any(|key| map.contains_key(*key));
        let kept = definition(reference).filter(|_| !inline && !annotated);
        self.stack.push(reference.to_owned());
        let result = match kept {
            Some((container, name)) => {
                if self.done.insert(reference.to_owned()) {
                    let def_out = format!("/{container}/{}", escape(&name));
                    let compiled = self.node(
                        target,
                        &Pointer::of_ref(reference),
                        &def_out,
                        &name,
                        depth + 1,
                    )?;
                    self.defs.push((container.to_owned(), name, compiled));
                }
                Ok(json!({"$ref": reference}))
            }
            None => {
                // The use site's annotations replace the target's before it
                // is compiled, so the sentences of the target's moved
                // keywords follow the use site's description. Through an
                // alias (a definition that is itself a `$ref`) the target is
                // inlined too: a bare `$ref` left here would sit beside the
                // root's `type`, or lose the use site's description.
                let annotated_target = match target {
                    Value::Object(target_map) => {
                        let mut merged = target_map.clone();
                        for key in USE_SITE_ANNOTATIONS {
                            if let Some(value) = map.get(key) {
                                merged.insert(key.to_owned(), value.clone());
                            }
                        }
                        Some(merged)
                    }
                    _ => None,
                };
                let target_at = Pointer::of_ref(reference);
                match annotated_target {
                    Some(merged) if merged.contains_key("$ref") => {
                        self.reference(&merged, &target_at, out, field, depth + 1, true)
                    }
                    Some(merged) => {
                        self.node(&Value::Object(merged), &target_at, out, field, depth + 1)
                    }
                    None => self.node(target, &target_at, out, field, depth + 1),
                }
            }
        };
        self.stack.pop();
        result
    }

    fn schema(
        &mut self,
        map: &Map<String, Value>,
        at: &Pointer,
        out: &str,
        field: &str,
        depth: usize,
    ) -> Result<Map<String, Value>, StrictSchemaError> {
        let mut schema = Map::new();
        let mut notes = Notes::new(StrictRule::Malformed);
        let required: HashSet<&str> = match map.get("required") {
            None => HashSet::new(),
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            Some(_) => {
                return Err(at
                    .key("required")
                    .error(StrictRule::Malformed, "expected an array of property names"));
            }
        };
        for (key, value) in map {
            let key_at = at.key(key);
            match key.as_str() {
                "type" => {
                    check_type(value, &key_at)?;
                    schema.insert(key.clone(), value.clone());
                }
                "properties" => {
                    let Value::Object(properties) = value else {
                        return Err(
                            key_at.error(StrictRule::Malformed, "expected an object of schemas")
                        );
                    };
                    let mut compiled = Map::new();
                    for (name, property) in properties {
                        let property_out = format!("{out}/properties/{}", escape(name));
                        let property_field = if field.is_empty() {
                            name.clone()
                        } else {
                            format!("{field}.{name}")
                        };
                        let property_at = key_at.key(name);
                        if required.contains(name.as_str()) {
                            let child = self.node(
                                property,
                                &property_at,
                                &property_out,
                                &property_field,
                                depth + 1,
                            )?;
                            compiled.insert(name.clone(), child);
                            continue;
                        }
                        let slot = self.optional.len();
                        let (nullable, absent) = strip_null(property);
                        let child = self.node(
                            absent.as_ref(),
                            &property_at,
                            &property_out,
                            &property_field,
                            depth + 1,
                        )?;
                        self.optional.insert(
                            slot,
                            OptionalField {
                                pointer: property_out,
                                object: out.to_owned(),
                                name: name.clone(),
                                field: property_field,
                                nullable,
                                union_cost: usize::from(!is_union(&child)),
                            },
                        );
                        compiled.insert(name.clone(), child);
                    }
                    schema.insert(key.clone(), Value::Object(compiled));
                }
                "required" => {
                    schema.insert(key.clone(), value.clone());
                }
                "additionalProperties" => {
                    if value != &Value::Bool(false) {
                        return Err(key_at.error(
                            StrictRule::OpenObject,
                            "an object that accepts keys it does not list (a map); Anthropic's strict \
                             tool use requires `additionalProperties: false` (\"For 'object' type, \
                             'additionalProperties' must be explicitly set to false\"): take a list of \
                             key-value pairs instead",
                        ));
                    }
                    schema.insert(key.clone(), value.clone());
                }
                "items" => {
                    if value.is_array() {
                        return Err(key_at.error(StrictRule::UnsupportedKeyword, "a tuple (`items` as an array) has no strict form; take a struct with named fields"));
                    }
                    let child = self.node(
                        value,
                        &key_at,
                        &format!("{out}/items"),
                        &format!("{field}[]"),
                        depth + 1,
                    )?;
                    schema.insert(key.clone(), child);
                }
                "anyOf" | "oneOf" => {
                    let Some(branches) = value.as_array().filter(|b| !b.is_empty()) else {
                        return Err(key_at.error(
                            StrictRule::Malformed,
                            "expected a non-empty array of schemas",
                        ));
                    };
                    if schema.contains_key("anyOf") {
                        return Err(key_at.error(
                            StrictRule::UnsupportedKeyword,
                            "both `anyOf` and `oneOf` on one schema; join them into one `anyOf`",
                        ));
                    }
                    let mut compiled = Vec::with_capacity(branches.len());
                    for (index, branch) in branches.iter().enumerate() {
                        let branch_out = format!("{out}/anyOf/{index}");
                        compiled.push(self.node(
                            branch,
                            &key_at.index(index),
                            &branch_out,
                            field,
                            depth + 1,
                        )?);
                    }
                    check_case(compiled.iter().flat_map(strings_of), &key_at)?;
                    schema.insert("anyOf".to_owned(), Value::Array(compiled));
                }
                "allOf" => {}
                "enum" => {
                    let Some(values) = value.as_array().filter(|v| !v.is_empty()) else {
                        return Err(
                            key_at.error(StrictRule::Malformed, "expected a non-empty array")
                        );
                    };
                    for (index, item) in values.iter().enumerate() {
                        primitive(item, &key_at.index(index))?;
                    }
                    check_case(values.iter().filter_map(Value::as_str), &key_at)?;
                    schema.insert(key.clone(), value.clone());
                }
                "const" => {
                    primitive(value, &key_at)?;
                    schema.insert(key.clone(), value.clone());
                }
                "format" => match value.as_str() {
                    Some(format) if SUPPORTED_FORMATS.contains(&format) => {
                        schema.insert(key.clone(), value.clone());
                    }
                    _ => notes.add(key, value, &key_at)?,
                },
                "pattern" => match value.as_str() {
                    Some(pattern) if pattern_supported(pattern) => {
                        schema.insert(key.clone(), value.clone());
                    }
                    _ => notes.add(key, value, &key_at)?,
                },
                "minItems" => match value.as_u64() {
                    Some(0 | 1) => {
                        schema.insert(key.clone(), value.clone());
                    }
                    _ => notes.add(key, value, &key_at)?,
                },
                "description" | "default" => {
                    schema.insert(key.clone(), value.clone());
                }
                "$defs" | "definitions" => {}
                key if is_described(key) => notes.add(key, value, &key_at)?,
                key if is_dropped(key) => {}
                key if is_refused(key) => {
                    return Err(key_at.error(
                        StrictRule::UnsupportedKeyword,
                        format!("`{key}` has no form in Anthropic's strict tool use; express the rule in the argument types, or offer this tool with `strict: false`"),
                    ));
                }
                key => {
                    return Err(key_at.error(
                        StrictRule::UnsupportedKeyword,
                        format!(
                            "`{key}` is not a JSON Schema keyword strict tool use knows; remove it"
                        ),
                    ));
                }
            }
        }
        if let Some(all_of) = map.get("allOf") {
            let all_of_at = at.key("allOf");
            // An entry that only annotates constrains nothing: its
            // description goes where the parent has none, its other
            // annotations are stated as on the parent itself.
            match all_of.as_array().map(Vec::as_slice) {
                Some([Value::Object(entry)]) if !entry.is_empty() && is_annotation_only(entry) => {
                    for (key, value) in entry {
                        match key.as_str() {
                            "description" => {
                                schema.entry("description").or_insert_with(|| value.clone());
                            }
                            key if is_described(key) => {
                                notes.add(key, value, &all_of_at.index(0).key(key))?;
                            }
                            _ => {}
                        }
                    }
                }
                _ => self.all_of(all_of, &mut schema, &all_of_at, out, field, depth)?,
            }
        }
        let is_object = match schema.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
            _ => schema.contains_key("properties"),
        };
        if is_object {
            if !schema.contains_key("type") {
                let rest = std::mem::take(&mut schema);
                schema.insert("type".to_owned(), json!("object"));
                schema.extend(rest);
            }
            schema.entry("additionalProperties").or_insert(json!(false));
        }
        notes.attach(&mut schema);
        Ok(schema)
    }

    fn all_of(
        &mut self,
        all_of: &Value,
        schema: &mut Map<String, Value>,
        at: &Pointer,
        out: &str,
        field: &str,
        depth: usize,
    ) -> Result<(), StrictSchemaError> {
        let entry = match all_of.as_array().map(Vec::as_slice) {
            Some([entry]) => entry,
            _ => {
                return Err(at.error(
                    StrictRule::AllOf,
                    "an `allOf` of several schemas; strict tool use supports `allOf` only with \
                     limitations (not with `$ref`): merge the entries into one schema",
                ));
            }
        };
        // The entry is compiled with the parent's annotations, so the
        // sentences of its moved keywords follow the parent's description
        // instead of being dropped with the entry's own.
        let entry = match entry {
            Value::Object(map) => {
                let mut map = map.clone();
                for key in USE_SITE_ANNOTATIONS {
                    if let Some(value) = schema.get(key) {
                        map.insert(key.to_owned(), value.clone());
                    }
                }
                Value::Object(map)
            }
            other => other.clone(),
        };
        let compiled = match &entry {
            Value::Object(map) if map.contains_key("$ref") => {
                self.reference(map, &at.index(0), out, field, depth + 1, true)?
            }
            other => self.node(other, &at.index(0), out, field, depth + 1)?,
        };
        let Value::Object(compiled) = compiled else {
            return Err(at
                .index(0)
                .error(StrictRule::Malformed, "expected a schema (an object)"));
        };
        for (key, value) in compiled {
            if key == "description" {
                schema.insert(key, value);
                continue;
            }
            match schema.get(&key) {
                Some(existing) if *existing != value => {
                    return Err(at.index(0).key(&key).error(
                        StrictRule::AllOf,
                        format!("`{key}` differs from the `{key}` beside the `allOf`; merge them into one schema"),
                    ));
                }
                Some(_) => {}
                None => {
                    schema.insert(key, value);
                }
            }
        }
        Ok(())
    }
}
