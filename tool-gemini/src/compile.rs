//! The Gemini schema compiler: a tool's provider-neutral input schema (the
//! JSON Schema schemars writes) in, Gemini's `parametersJsonSchema` or
//! OpenAPI-subset `parameters` out.
//!
//! Every output node is typed; what Gemini does not take as a keyword is
//! stated in the description (and still enforced by the tool's parser);
//! what cannot be stated is refused with the JSON pointer, the
//! [`GeminiRule`] and what to write instead. The rules and the provider
//! errors they prevent: docs/providers-dialects.md section 2.

use serde_json::{Map, Value};
use tool_core::words::followed_by;

use crate::defs::Definitions;
use crate::error::{GeminiRule, GeminiSchemaError, MAX_LEVELS, child, too_deep};
use crate::notes::Notes;

/// Which of Gemini's two schema fields a function declaration uses.
///
/// (No variant is called `JsonSchema`: re-exported by the facade, such a
/// name would make rustc spell schemars' `JsonSchema` trait out in full in
/// every error message of an application.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `parametersJsonSchema`: JSON Schema (google-genai 1.21.0 and later,
    /// every current model). Recursion through optional properties is kept
    /// as `$defs` and `$ref`; `null` is a `{"type": "null"}` branch.
    ParametersJsonSchema,
    /// `parameters`: the OpenAPI 3.0 subset of the proto `Schema`, for
    /// older models. Definitions are inlined, recursion is refused, `null`
    /// is `"nullable": true`.
    OpenApiParameters,
}

impl Dialect {
    /// The field of a `FunctionDeclaration` that holds the schema:
    /// `parametersJsonSchema` or `parameters`.
    pub fn field(self) -> &'static str {
        match self {
            Dialect::ParametersJsonSchema => "parametersJsonSchema",
            Dialect::OpenApiParameters => "parameters",
        }
    }
}

/// How many JSON levels an input document may have.
const MAX_VALUE_DEPTH: usize = 256;
/// How many nodes the output may have once definitions are inlined.
const MAX_NODES: usize = 100_000;
/// Under `parametersJsonSchema` (which takes `$ref`), how many nodes may be
/// written before the definitions still to come are kept as `$ref`s, each
/// written once: a type shared at every level (2 KB of schema) would
/// otherwise be inlined into megabytes.
const INLINE_NODES: usize = 10_000;

/// Keywords that constrain values in ways Gemini cannot take and words
/// cannot state: refused.
const REFUSED: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "minProperties",
    "maxProperties",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
];

/// Keywords dropped without a word: annotations that constrain nothing.
const DROPPED: &[&str] = &[
    "title",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "default",
    "readOnly",
    "writeOnly",
    "$defs",
    "definitions",
];

/// Compiles a tool's input schema for Gemini.
///
/// `Ok(None)` for a tool without arguments (an object with no properties):
/// the declaration then leaves the schema out, because Gemini refuses an
/// empty object ("parameters.properties: should be non-empty for OBJECT
/// type").
///
/// ```
/// use serde_json::json;
/// use tool_contract::gemini::{Dialect, to_gemini_schema};
///
/// let schema = json!({"type": "object", "properties": {
///     "sku": {"type": "string", "minLength": 1, "description": "The SKU"},
///     "note": {"type": ["string", "null"]}
/// }, "required": ["sku"]});
/// assert_eq!(
///     to_gemini_schema(&schema, Dialect::OpenApiParameters)?,
///     Some(json!({"type": "object", "properties": {
///         "sku": {"type": "string", "description": "The SKU. At least 1 character."},
///         "note": {"type": "string", "nullable": true}
///     }, "required": ["sku"]}))
/// );
/// # Ok::<(), tool_contract::gemini::GeminiSchemaError>(())
/// ```
pub fn to_gemini_schema(
    schema: &Value,
    dialect: Dialect,
) -> Result<Option<Value>, GeminiSchemaError> {
    check_depth(schema)?;
    let defs = Definitions::of(schema)?;
    let recursive = defs.recursive(schema, dialect == Dialect::ParametersJsonSchema)?;
    if dialect == Dialect::OpenApiParameters
        && let Some(i) = recursive.iter().position(|r| *r)
    {
        let def = &defs.list[i];
        return Err(GeminiSchemaError::new(
            &def.path,
            GeminiRule::Recursion,
            format!(
                "`{}` refers back to itself; Gemini `parameters` has no `$ref`, so a \
                 recursive type cannot be written out; use `parametersJsonSchema` \
                 (`Dialect::ParametersJsonSchema`) or give the type a fixed depth",
                def.name
            ),
        ));
    }
    let mut compiler = Compiler {
        defs: &defs,
        recursive: &recursive,
        dialect,
        out_defs: vec![None; defs.list.len()],
        nodes: 0,
    };
    let out = compiler.node(schema, "#", 0)?;
    let Value::Object(mut out) = out else {
        return Err(not_object());
    };
    if out.get("type") != Some(&Value::String("object".to_owned())) || out.contains_key("nullable")
    {
        return Err(not_object());
    }
    let no_properties = out
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    if no_properties && !out.contains_key("additionalProperties") {
        return Ok(None);
    }
    if no_properties && out.get("additionalProperties") == Some(&Value::Bool(false)) {
        return Ok(None);
    }
    let emitted: Map<String, Value> = compiler
        .out_defs
        .into_iter()
        .enumerate()
        .filter_map(|(i, def)| Some((defs.list[i].name.clone(), def?)))
        .collect();
    if !emitted.is_empty() {
        out.insert("$defs".to_owned(), Value::Object(emitted));
    }
    Ok(Some(Value::Object(out)))
}

fn not_object() -> GeminiSchemaError {
    GeminiSchemaError::new(
        "#",
        GeminiRule::RootNotObject,
        "the root of a function's parameters must be a plain object schema (`\"type\": \
         \"object\"`, not nullable, not a union); wrap the value in a property",
    )
}

struct Compiler<'d, 'a> {
    defs: &'d Definitions<'a>,
    recursive: &'d [bool],
    dialect: Dialect,
    /// Recursive definitions written to the output's `$defs`
    /// (`parametersJsonSchema` only), by index.
    out_defs: Vec<Option<Value>>,
    nodes: usize,
}

impl Compiler<'_, '_> {
    fn node(
        &mut self,
        schema: &Value,
        path: &str,
        level: usize,
    ) -> Result<Value, GeminiSchemaError> {
        if level > MAX_LEVELS {
            return Err(too_deep(path));
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(GeminiSchemaError::new(
                path,
                GeminiRule::TooLarge,
                format!(
                    "with its definitions inlined the schema grows past {MAX_NODES} nodes; \
                     share fewer large types between properties"
                ),
            ));
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => return Err(untyped(path, "`true` accepts any JSON value")),
            Value::Bool(false) => {
                return Err(GeminiSchemaError::new(
                    path,
                    GeminiRule::Malformed,
                    "`false` accepts no value; remove the property",
                ));
            }
            other => {
                return Err(GeminiSchemaError::new(
                    path,
                    GeminiRule::Malformed,
                    format!("a schema must be a JSON object, not {other}"),
                ));
            }
        };
        for key in map.keys() {
            if REFUSED.contains(&key.as_str()) {
                return Err(GeminiSchemaError::new(
                    child(path, key),
                    GeminiRule::UnsupportedKeyword,
                    format!(
                        "Gemini does not take `{key}`, and it cannot be stated in the \
                         description; express the rule with types, enums or separate \
                         properties"
                    ),
                ));
            }
        }
        if map.contains_key("prefixItems") || matches!(map.get("items"), Some(Value::Array(_))) {
            return Err(GeminiSchemaError::new(
                path,
                GeminiRule::Tuple,
                "a tuple (`prefixItems` or an array of `items`) cannot be sent to Gemini; use an \
                 object with named properties",
            ));
        }
        if let Some(reference) = map.get("$ref") {
            return self.reference(map, reference, path, level);
        }
        if let Some(all_of) = map.get("allOf") {
            return self.all_of(map, all_of, path, level);
        }
        match (map.get("anyOf"), map.get("oneOf")) {
            (Some(_), Some(_)) => Err(GeminiSchemaError::new(
                path,
                GeminiRule::UnsupportedKeyword,
                "`anyOf` and `oneOf` on one schema; keep one of them",
            )),
            (Some(branches), None) => self.union(map, branches, &child(path, "anyOf"), path, level),
            (None, Some(branches)) => self.union(map, branches, &child(path, "oneOf"), path, level),
            (None, None) => self.typed_node(map, path, level),
        }
    }

    /// A `$ref`, inlined, or (under `parametersJsonSchema`, a recursive
    /// definition, or any once [`INLINE_NODES`] are written) kept and its
    /// definition written once.
    fn reference(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        path: &str,
        level: usize,
    ) -> Result<Value, GeminiSchemaError> {
        let target = self.defs.resolve(reference, &child(path, "$ref"))?;
        let description = description(map, path)?;
        for key in map.keys() {
            if !matches!(
                key.as_str(),
                "$ref" | "description" | "examples" | "deprecated"
            ) && !DROPPED.contains(&key.as_str())
            {
                return Err(GeminiSchemaError::new(
                    child(path, key),
                    GeminiRule::UnsupportedKeyword,
                    format!(
                        "`{key}` beside `$ref`; put it into the definition, or wrap the `$ref` \
                         in a property of its own"
                    ),
                ));
            }
        }
        let def = &self.defs.list[target];
        let keep_ref = self.recursive[target]
            || (self.dialect == Dialect::ParametersJsonSchema && self.nodes > INLINE_NODES);
        let mut out = if keep_ref {
            // Only under `parametersJsonSchema`: `parameters` refused
            // recursion before compiling, and inlines every other one.
            if self.out_defs[target].is_none() {
                // Marked first, so that the definition's own `$ref`s to
                // itself stop here.
                self.out_defs[target] = Some(Value::Null);
                let (schema, def_path) = (def.schema, def.path.clone());
                let compiled = self.node(schema, &def_path, 1)?;
                self.out_defs[target] = Some(compiled);
            }
            // "If `$ref` is set on a sub-schema, no other properties, except
            // for those starting as a `$`, may be set": a description is put
            // on a union around it (`set_description`).
            let reference = Value::String(tool_core::refs::def_ref(&def.name));
            let mut only = Map::new();
            only.insert("$ref".to_owned(), reference);
            Value::Object(only)
        } else {
            let (schema, def_path) = (def.schema, def.path.clone());
            self.node(schema, &def_path, level + 1)?
        };
        let mut notes = Notes::default();
        for key in ["examples", "deprecated"] {
            if let Some(value) = map.get(key) {
                notes.add(key, value, &child(path, key))?;
            }
        }
        let own = notes.attach(description);
        set_description(&mut out, own.as_deref());
        Ok(out)
    }

    /// `allOf` of one schema: merged with the keywords beside it.
    fn all_of(
        &mut self,
        map: &Map<String, Value>,
        all_of: &Value,
        path: &str,
        level: usize,
    ) -> Result<Value, GeminiSchemaError> {
        let at = child(path, "allOf");
        let entry = match all_of {
            Value::Array(entries) if entries.len() == 1 => &entries[0],
            Value::Array(entries) if entries.is_empty() => {
                return Err(GeminiSchemaError::new(
                    &at,
                    GeminiRule::Malformed,
                    "`allOf` must be a non-empty array of schemas",
                ));
            }
            Value::Array(_) => {
                return Err(GeminiSchemaError::new(
                    &at,
                    GeminiRule::AllOf,
                    "Gemini has no `allOf`, and only an `allOf` of one schema is merged here; \
                     write the combined type as one struct",
                ));
            }
            _ => {
                return Err(GeminiSchemaError::new(
                    &at,
                    GeminiRule::Malformed,
                    "`allOf` must be an array of schemas",
                ));
            }
        };
        let Value::Object(entry) = entry else {
            return Err(GeminiSchemaError::new(
                child(&at, "0"),
                GeminiRule::Malformed,
                "an `allOf` entry must be a schema object",
            ));
        };
        let mut merged = map.clone();
        merged.shift_remove("allOf");
        for (key, value) in entry {
            match merged.get(key) {
                None => {
                    merged.insert(key.clone(), value.clone());
                }
                Some(_) if key == "description" => {}
                Some(existing) if existing == value => {}
                Some(_) => {
                    return Err(GeminiSchemaError::new(
                        child(&child(&at, "0"), key),
                        GeminiRule::AllOf,
                        format!("`{key}` in the `allOf` differs from `{key}` beside it"),
                    ));
                }
            }
        }
        self.node(&Value::Object(merged), path, level + 1)
    }

    /// `anyOf` (or `oneOf`, read as `anyOf`): null branches become
    /// nullability, one branch left is the schema itself.
    fn union(
        &mut self,
        map: &Map<String, Value>,
        branches: &Value,
        at: &str,
        path: &str,
        level: usize,
    ) -> Result<Value, GeminiSchemaError> {
        let Some(branches) = branches.as_array().filter(|b| !b.is_empty()) else {
            return Err(GeminiSchemaError::new(
                at,
                GeminiRule::Malformed,
                "a union must be a non-empty array of schemas",
            ));
        };
        for key in map.keys() {
            if !matches!(
                key.as_str(),
                "anyOf" | "oneOf" | "description" | "examples" | "deprecated"
            ) && !DROPPED.contains(&key.as_str())
            {
                return Err(GeminiSchemaError::new(
                    child(path, key),
                    GeminiRule::UnsupportedKeyword,
                    format!(
                        "`{key}` beside a union; move it into each branch (Gemini takes only a \
                         description beside `anyOf`)"
                    ),
                ));
            }
        }
        let mut nullable = false;
        let mut compiled = Vec::with_capacity(branches.len());
        for (i, branch) in branches.iter().enumerate() {
            if is_null_schema(branch) {
                nullable = true;
                continue;
            }
            compiled.push(self.node(branch, &child(at, &i.to_string()), level + 1)?);
        }
        let mut out = match compiled.len() {
            0 => return Err(untyped(path, "a union that only admits null")),
            1 => compiled.pop().unwrap_or(Value::Null),
            _ => {
                let mut union = Map::new();
                union.insert("anyOf".to_owned(), Value::Array(compiled));
                Value::Object(union)
            }
        };
        if nullable {
            out = self.nullable(out);
        }
        let mut notes = Notes::default();
        for key in ["examples", "deprecated"] {
            if let Some(value) = map.get(key) {
                notes.add(key, value, &child(path, key))?;
            }
        }
        let own = notes.attach(description(map, path)?);
        set_description(&mut out, own.as_deref());
        Ok(out)
    }

    /// A schema with a `type` (or one inferred from its keywords).
    fn typed_node(
        &mut self,
        map: &Map<String, Value>,
        path: &str,
        level: usize,
    ) -> Result<Value, GeminiSchemaError> {
        let mut nullable = map.get("nullable") == Some(&Value::Bool(true));
        let mut types: Vec<&str> = match map.get("type") {
            None => Vec::new(),
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(list)) => {
                let mut names = Vec::with_capacity(list.len());
                for t in list {
                    match t.as_str() {
                        Some(name) if !names.contains(&name) => names.push(name),
                        _ => return Err(bad_type(path, t)),
                    }
                }
                names
            }
            Some(other) => return Err(bad_type(path, other)),
        };
        if types.contains(&"null") {
            nullable = true;
            types.retain(|t| *t != "null");
            if types.is_empty() {
                return Err(untyped(path, "a schema that only admits null"));
            }
        }
        if types.is_empty() {
            types.push(
                infer_type(map).ok_or_else(|| {
                    untyped(path, "a schema without a type accepts any JSON value")
                })?,
            );
        }
        let mut out = if types.len() == 1 {
            self.typed(map, types[0], path, level, &mut nullable)?
        } else {
            // `["string", "integer"]`: one branch per type.
            let mut branches = Vec::with_capacity(types.len());
            for t in &types {
                let mut one = nullable;
                branches.push(self.typed(map, t, path, level, &mut one)?);
                nullable |= one;
            }
            let mut union = Map::new();
            union.insert("anyOf".to_owned(), Value::Array(branches));
            Value::Object(union)
        };
        if nullable {
            out = self.nullable(out);
        }
        Ok(out)
    }

    /// One type's schema; `nullable` is set when an `enum` lists `null`.
    fn typed(
        &mut self,
        map: &Map<String, Value>,
        ty: &str,
        path: &str,
        level: usize,
        nullable: &mut bool,
    ) -> Result<Value, GeminiSchemaError> {
        if !matches!(
            ty,
            "string" | "number" | "integer" | "boolean" | "array" | "object"
        ) {
            return Err(bad_type(path, &Value::String(ty.to_owned())));
        }
        let numeric = matches!(ty, "number" | "integer");
        let mut notes = Notes::default();
        let mut rest = Map::new();
        for (key, value) in map {
            let at = child(path, key);
            match key.as_str() {
                "type" | "description" | "nullable" => {}
                k if DROPPED.contains(&k) => {}
                "enum" => {
                    let Some(values) = value.as_array().filter(|v| !v.is_empty()) else {
                        return Err(GeminiSchemaError::new(
                            &at,
                            GeminiRule::Malformed,
                            "`enum` must be a non-empty array",
                        ));
                    };
                    let (nulls, values): (Vec<&Value>, Vec<&Value>) =
                        values.iter().partition(|v| v.is_null());
                    *nullable |= !nulls.is_empty();
                    if ty == "string" && values.iter().all(|v| v.is_string()) {
                        let strings = values.into_iter().cloned().collect();
                        rest.insert("enum".to_owned(), Value::Array(strings));
                    } else {
                        // "enum: only allowed for STRING type".
                        let values: Vec<Value> = values.into_iter().cloned().collect();
                        notes.one_of(&values);
                    }
                }
                "const" => match value {
                    Value::String(_) if ty == "string" => {
                        rest.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
                    }
                    // No `const` in Gemini ("Unknown name \"const\"").
                    _ => notes.always(value),
                },
                "format" => {
                    if ty == "string" && value == "date-time" {
                        rest.insert(key.clone(), value.clone());
                    } else if ty == "string" || numeric {
                        notes.add(key, value, &at)?;
                    }
                }
                "minimum" | "maximum" if numeric => {
                    if !value.is_number() {
                        return Err(GeminiSchemaError::new(
                            &at,
                            GeminiRule::Malformed,
                            format!("expected a number, got {value}"),
                        ));
                    }
                    rest.insert(key.clone(), value.clone());
                }
                "minItems" | "maxItems" if ty == "array" => {
                    if value.as_u64().is_none() {
                        return Err(GeminiSchemaError::new(
                            &at,
                            GeminiRule::Malformed,
                            format!("expected a non-negative integer, got {value}"),
                        ));
                    }
                    rest.insert(key.clone(), value.clone());
                }
                "items" if ty == "array" => {
                    let items = self.node(value, &at, level + 1)?;
                    rest.insert(key.clone(), items);
                }
                "properties" | "required" | "additionalProperties" if ty == "object" => {}
                "minLength" | "maxLength" | "pattern" if ty == "string" => {
                    notes.add(key, value, &at)?;
                }
                "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" if numeric => {
                    notes.add(key, value, &at)?;
                }
                "uniqueItems" if ty == "array" => {
                    notes.add(key, value, &at)?;
                }
                "examples" | "deprecated" | "contentEncoding" | "contentMediaType" => {
                    notes.add(key, value, &at)?;
                }
                // Keywords of other types, vendor extensions: nothing to say.
                _ => {}
            }
        }
        if ty == "array" && !rest.contains_key("items") {
            return Err(untyped(
                path,
                "an array without `items` accepts items of any type (Gemini: \"items: missing \
                 field\")",
            ));
        }
        if ty == "object" {
            self.object(map, path, level, &mut rest)?;
        }
        if numeric {
            notes.bounds_kept(&rest);
        }
        let mut out = Map::new();
        out.insert("type".to_owned(), Value::String(ty.to_owned()));
        if let Some(text) = notes.attach(description(map, path)?) {
            out.insert("description".to_owned(), Value::String(text));
        }
        out.extend(rest);
        Ok(Value::Object(out))
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        path: &str,
        level: usize,
        rest: &mut Map<String, Value>,
    ) -> Result<(), GeminiSchemaError> {
        let empty = Map::new();
        let properties = match map.get("properties") {
            None => &empty,
            Some(Value::Object(properties)) => properties,
            Some(_) => {
                return Err(GeminiSchemaError::new(
                    child(path, "properties"),
                    GeminiRule::Malformed,
                    "`properties` must be an object of named schemas",
                ));
            }
        };
        let required = required_list(map, properties, path)?;
        let mut out = Map::new();
        for (name, property) in properties {
            let at = child(&child(path, "properties"), name);
            if !valid_property_name(name) {
                return Err(GeminiSchemaError::new(
                    &at,
                    GeminiRule::PropertyName,
                    format!(
                        "property name `{name}` is not one Gemini takes: \"Parameter names must \
                         start with a letter or an underscore and must only contain chars a-z, \
                         A-Z, 0-9, or underscores with a maximum length of 64\"; rename it \
                         (`#[tool(rename = \"...\")]`, `#[serde(rename = \"...\")]`)"
                    ),
                ));
            }
            out.insert(name.clone(), self.node(property, &at, level + 1)?);
        }
        let map_values = match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => None,
            Some(Value::Bool(true)) => {
                return Err(GeminiSchemaError::new(
                    child(path, "additionalProperties"),
                    GeminiRule::OpenObject,
                    "an object that accepts any further keys cannot be sent to Gemini; list its \
                     properties",
                ));
            }
            Some(schema)
                if self.dialect == Dialect::OpenApiParameters || !properties.is_empty() =>
            {
                let _ = schema;
                return Err(GeminiSchemaError::new(
                    child(path, "additionalProperties"),
                    GeminiRule::OpenObject,
                    "a map (`additionalProperties` with a schema) cannot be sent in Gemini \
                     `parameters` (\"Unknown name \\\"additionalProperties\\\"\"), nor beside \
                     properties; take a list of key-value objects",
                ));
            }
            Some(schema) => {
                Some(self.node(schema, &child(path, "additionalProperties"), level + 1)?)
            }
        };
        if out.is_empty()
            && map_values.is_none()
            && level > 0
            && self.dialect == Dialect::OpenApiParameters
        {
            return Err(GeminiSchemaError::new(
                path,
                GeminiRule::EmptyObject,
                "an object without properties cannot be sent in Gemini `parameters` \
                 (\"properties: should be non-empty for OBJECT type\"); remove the field or \
                 give the type a property",
            ));
        }
        if !out.is_empty() {
            rest.insert("properties".to_owned(), Value::Object(out));
        }
        if !required.is_empty() {
            rest.insert("required".to_owned(), Value::Array(required));
        }
        if self.dialect == Dialect::ParametersJsonSchema {
            rest.insert(
                "additionalProperties".to_owned(),
                map_values.unwrap_or(Value::Bool(false)),
            );
        }
        Ok(())
    }

    /// `schema` that also admits `null`: `"nullable": true` for
    /// `parameters`, a `{"type": "null"}` branch for `parametersJsonSchema`.
    fn nullable(&self, schema: Value) -> Value {
        let Value::Object(mut map) = schema else {
            return schema;
        };
        match self.dialect {
            Dialect::OpenApiParameters => {
                if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                    for branch in branches.iter_mut() {
                        if let Value::Object(branch) = branch {
                            branch.insert("nullable".to_owned(), Value::Bool(true));
                        }
                    }
                } else {
                    map.insert("nullable".to_owned(), Value::Bool(true));
                }
                Value::Object(map)
            }
            Dialect::ParametersJsonSchema => {
                let null = serde_json::json!({"type": "null"});
                if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                    if !branches.contains(&null) {
                        branches.push(null);
                    }
                    return Value::Object(map);
                }
                let description = map.shift_remove("description");
                let mut union = Map::new();
                if let Some(description) = description {
                    union.insert("description".to_owned(), description);
                }
                union.insert(
                    "anyOf".to_owned(),
                    Value::Array(vec![Value::Object(map), null]),
                );
                Value::Object(union)
            }
        }
    }
}

/// Puts `own` (the description where the schema is used) before the
/// description the schema brought along.
fn set_description(out: &mut Value, own: Option<&str>) {
    let (Some(own), Value::Object(map)) = (own, out) else {
        return;
    };
    if map.contains_key("$ref") {
        // Nothing but `$`-keywords beside a `$ref`: the description goes on
        // a union of the one reference.
        let only = std::mem::take(map);
        map.insert("anyOf".to_owned(), Value::Array(vec![Value::Object(only)]));
    }
    let text = match map.get("description").and_then(Value::as_str) {
        // The schema's own description is left out when the use repeats it
        // ("How urgent the search is; absent for low." and "How urgent the
        // search is.").
        Some(theirs) if !own.starts_with(theirs.trim_end_matches('.')) => followed_by(own, theirs),
        _ => own.to_owned(),
    };
    if map.contains_key("description") {
        map.insert("description".to_owned(), Value::String(text));
        return;
    }
    // First after `type` when there is one, else first.
    let rest = std::mem::take(map);
    let mut rest = rest.into_iter().peekable();
    if let Some((k, v)) = rest.next_if(|(k, _)| k == "type") {
        map.insert(k, v);
    }
    map.insert("description".to_owned(), Value::String(text));
    map.extend(rest);
}

fn description(map: &Map<String, Value>, path: &str) -> Result<Option<String>, GeminiSchemaError> {
    match map.get("description") {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(GeminiSchemaError::new(
            child(path, "description"),
            GeminiRule::Malformed,
            format!("`description` must be a string, got {other}"),
        )),
    }
}

/// The `required` names, each a property of the object.
fn required_list(
    map: &Map<String, Value>,
    properties: &Map<String, Value>,
    path: &str,
) -> Result<Vec<Value>, GeminiSchemaError> {
    let at = child(path, "required");
    let names = match map.get("required") {
        None => return Ok(Vec::new()),
        Some(Value::Array(names)) => names,
        Some(_) => {
            return Err(GeminiSchemaError::new(
                &at,
                GeminiRule::Malformed,
                "`required` must be an array of property names",
            ));
        }
    };
    let mut out = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        match name.as_str() {
            Some(n) if properties.contains_key(n) => {
                if !out.contains(name) {
                    out.push(name.clone());
                }
            }
            _ => {
                return Err(GeminiSchemaError::new(
                    child(&at, &i.to_string()),
                    GeminiRule::Malformed,
                    format!(
                        "`required` names {name}, which is not a property (Gemini: \
                         \"required[{i}]: property is not defined\")"
                    ),
                ));
            }
        }
    }
    Ok(out)
}

/// `[A-Za-z_][A-Za-z0-9_]{0,63}`.
pub(crate) fn valid_property_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    (1..=64).contains(&bytes.len())
        && (bytes[0].is_ascii_alphabetic() || bytes[0] == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

fn is_null_schema(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    map.get("type") == Some(&Value::String("null".to_owned()))
        && map
            .keys()
            .all(|k| k == "type" || k == "description" || DROPPED.contains(&k.as_str()))
}

/// The type a schema without `type` has by its keywords, if it has one.
fn infer_type(map: &Map<String, Value>) -> Option<&'static str> {
    if ["properties", "required", "additionalProperties"]
        .iter()
        .any(|k| map.contains_key(*k))
    {
        return Some("object");
    }
    if ["items", "minItems", "maxItems"]
        .iter()
        .any(|k| map.contains_key(*k))
    {
        return Some("array");
    }
    let values: Vec<&Value> = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => values.iter().filter(|v| !v.is_null()).collect(),
        (None, Some(value)) => vec![value],
        _ => return None,
    };
    let first = values.first()?;
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(first)?;
    let all_same = values.iter().all(|v| kind(v) == Some(first));
    if all_same {
        return Some(first);
    }
    let numeric = values
        .iter()
        .all(|v| matches!(kind(v), Some("integer" | "number")));
    numeric.then_some("number")
}

fn untyped(path: &str, what: &str) -> GeminiSchemaError {
    GeminiSchemaError::new(
        path,
        GeminiRule::Untyped,
        format!(
            "{what}; Gemini needs a type on every schema (\"schema didnt specify the schema type \
             field\"); give it a concrete type"
        ),
    )
}

fn bad_type(path: &str, value: &Value) -> GeminiSchemaError {
    GeminiSchemaError::new(
        child(path, "type"),
        GeminiRule::Malformed,
        format!(
            "`type` must be one of \"string\", \"number\", \"integer\", \"boolean\", \"array\", \
             \"object\", \"null\" or a list of them, got {value}"
        ),
    )
}

/// Refuses a document nested deeper than [`MAX_VALUE_DEPTH`] JSON levels,
/// before anything recursive (clone, compare, drop of a copy) touches it.
/// Iterative: any depth is safe.
fn check_depth(document: &Value) -> Result<(), GeminiSchemaError> {
    let mut stack: Vec<(&Value, usize)> = vec![(document, 1)];
    while let Some((value, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Object(map) => Box::new(map.values()),
            Value::Array(items) => Box::new(items.iter()),
            _ => continue,
        };
        if depth > MAX_VALUE_DEPTH {
            return Err(GeminiSchemaError::new(
                "#",
                GeminiRule::TooLarge,
                format!("the schema document is nested more than {MAX_VALUE_DEPTH} levels deep"),
            ));
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    Ok(())
}
