//! The strict-schema compiler: any JSON Schema of the shape schemars and
//! pydantic emit, in, OpenAI strict mode out.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use crate::check::check_strict_schema;
use crate::describe::Notes;
use crate::error::{Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{
    SUPPORTED_FORMATS, any_value, check_enum, check_type, consistent_type, count, infer_type,
    is_constraint, is_described, is_dropped, number, refuse_unsupported, string, type_has,
};
use crate::refs::{Definitions, MAX_INPUT_DEPTH, make_nullable, merge, merge_all_of};

/// Compiles a JSON Schema into one that OpenAI's strict mode accepts, or
/// says why it cannot.
///
/// It takes any schema of the shape schemars 1.x and pydantic emit (draft
/// 2020-12 or draft-07: nested objects, `$defs`/`definitions` and `$ref`,
/// `anyOf`/`oneOf`, enums, arrays) and:
///
/// - closes every object, nested ones and those in `$defs`, with
///   `additionalProperties: false`, and lists every property in `required`,
///   in property order (the model writes keys in schema order);
/// - makes each property that was optional nullable: `"type": [T, "null"]`
///   (an `enum` gains `null`, a `const` becomes a two-value `enum`), or a
///   `{"type": "null"}` branch for a `$ref` or `anyOf`; a schema that already
///   admits `null` is left as it is;
/// - turns `oneOf` into `anyOf` (strict mode has no `oneOf`; where branches
///   overlap, the tool's parser decides), merges a single-entry `allOf` into its
///   parent, resolves chains of `$ref`s, wraps a `$ref` that has keywords
///   beside it (`{"description": ..., "anyOf": [{"$ref": ...}]}`), keeps
///   recursion (`"$ref": "#"` and through `$defs`), and drops `title`,
///   `default`, `$schema` and other annotations;
/// - states keywords strict mode rejects but that carry meaning
///   (`minLength`, `maxLength`, `uniqueItems`, unsupported `format`s such as
///   `uint32` or `uri`, `examples`, ...) in the description in plain words
///   ("At least 1 character."), because the runtime still enforces them;
/// - infers the `type` of a schema that only has `properties`, `items`,
///   `enum` or `const`.
///
/// What strict mode cannot express is an error that names the JSON path, the
/// [rule](crate::StrictRule) and what to write instead: maps, a root that is
/// not a plain object, `{}`/`true` (any JSON value, as `serde_json::Value`
/// gives), `not`, `if`/`then`/`else`, `dependent*`, `patternProperties`,
/// tuples, `$ref`s that do not resolve, and OpenAI's limits. The result
/// passes [`check_strict_schema`], and compiling it again gives it back
/// unchanged.
///
/// ```
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "sku": {"type": "string", "minLength": 1, "description": "The SKU."},
///         "warehouse": {"type": "string"}
///     },
///     "required": ["sku"]
/// });
/// assert_eq!(
///     tool_contract::openai::to_strict_json_schema(&schema)?,
///     json!({
///         "type": "object",
///         "properties": {
///             "sku": {"type": "string", "description": "The SKU. At least 1 character."},
///             "warehouse": {"type": ["string", "null"]}
///         },
///         "required": ["sku", "warehouse"],
///         "additionalProperties": false
///     })
/// );
/// # Ok::<(), tool_contract::openai::StrictSchemaError>(())
/// ```
pub fn to_strict_json_schema(schema: &Value) -> Result<Value, StrictSchemaError> {
    let root = Pointer::root();
    let Value::Object(input) = schema else {
        return Err(root.error(
            StrictRule::RootNotObject,
            format!(
                "the root of a strict schema must be an object schema, not {}; write \
                 `{{\"type\": \"object\", \"properties\": {{...}}}}`",
                kind(schema)
            ),
        ));
    };
    let definitions = Definitions::of(input)?;
    let compiler = Compiler { definitions };
    let output = compiler.root(input)?;
    if let Err(mut violations) = check_strict_schema(&output) {
        return Err(violations.swap_remove(0));
    }
    Ok(output)
}

struct Compiler<'a> {
    definitions: Definitions<'a>,
}

impl Compiler<'_> {
    fn root(&self, input: &Map<String, Value>) -> Result<Value, StrictSchemaError> {
        let path = Pointer::root();
        let mut map = merge_all_of(input, &path)?.into_owned();
        if let Some(reference) = map.get("$ref") {
            let at = path.key("$ref");
            let reference = string(reference, &at)?;
            let Some(target) = self.definitions.resolve(reference, &at)?.1 else {
                return Err(at.error(
                    StrictRule::RootNotObject,
                    "the root is a `$ref` to itself; write the root object schema",
                ));
            };
            let Value::Object(target) = target else {
                return Err(at.error(
                    StrictRule::RootNotObject,
                    "the root `$ref` points at a schema that is not an object schema; point it \
                     at an object schema",
                ));
            };
            let target = merge_all_of(target, &at)?;
            map = merge(&map, "$ref", &target, &at)?;
        }
        for key in ["anyOf", "oneOf"] {
            if map.contains_key(key) {
                return Err(path.key(key).error(
                    StrictRule::RootNotObject,
                    format!(
                        "the root of a strict schema must be a plain object, not `{key}`; make \
                         the root an object whose one property holds the union"
                    ),
                ));
            }
        }
        match map.get("type") {
            Some(Value::String(t)) if t == "object" => {}
            None if map.contains_key("properties") => {}
            Some(t) if type_has(t, "object") && type_has(t, "null") => {
                return Err(path.key("type").error(
                    StrictRule::RootNotObject,
                    "the root of a strict schema cannot be nullable; write `\"type\": \
                     \"object\"` and make the properties nullable instead",
                ));
            }
            _ => {
                return Err(path.key("type").error(
                    StrictRule::RootNotObject,
                    "the root of a strict schema must be `\"type\": \"object\"`; wrap the value \
                     in an object property",
                ));
            }
        }
        refuse_unsupported(&map, &path, true)?;
        self.typed(&map, &path, 0, true)
    }

    fn node(
        &self,
        schema: &Value,
        path: &Pointer,
        depth: usize,
    ) -> Result<Value, StrictSchemaError> {
        if depth > MAX_INPUT_DEPTH {
            return Err(path.error(
                StrictRule::TooDeep,
                format!(
                    "the schema is nested more than {MAX_INPUT_DEPTH} levels deep; strict mode \
                     allows 10, so flatten the structure"
                ),
            ));
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => return Err(any_value(path)),
            Value::Bool(false) => {
                return Err(path.error(
                    StrictRule::Malformed,
                    "`false` accepts no value; remove the property or give it a type",
                ));
            }
            other => {
                return Err(path.error(
                    StrictRule::Malformed,
                    format!("a schema must be a JSON object, not {}", kind(other)),
                ));
            }
        };
        let map = merge_all_of(map, path)?;
        refuse_unsupported(&map, path, false)?;
        if map.contains_key("$ref") {
            self.reference(&map, path)
        } else if map.contains_key("anyOf") || map.contains_key("oneOf") {
            self.union(&map, path, depth)
        } else {
            self.typed(&map, path, depth, false)
        }
    }

    /// A `$ref`, bare when nothing stands beside it, else wrapped in `anyOf`
    /// with its description.
    fn reference(
        &self,
        map: &Map<String, Value>,
        path: &Pointer,
    ) -> Result<Value, StrictSchemaError> {
        let at = path.key("$ref");
        let (target, _) = self.definitions.resolve(string(&map["$ref"], &at)?, &at)?;
        let mut out = Map::new();
        let mut notes = Notes::default();
        for (key, value) in map {
            let at = path.key(key);
            match key.as_str() {
                "$ref" => {}
                "description" => {
                    out.insert(key.clone(), Value::from(string(value, &at)?));
                }
                k if is_dropped(k, false) => {}
                k if is_described(k) || is_constraint(k) => notes.add(k, value, &at)?,
                k => {
                    return Err(at.error(
                        StrictRule::RefSiblings,
                        format!(
                            "`$ref` cannot have `{k}` beside it in strict mode; move `{k}` into \
                             the referenced definition"
                        ),
                    ));
                }
            }
        }
        notes.attach(&mut out);
        if out.is_empty() {
            out.insert("$ref".to_owned(), Value::String(target));
        } else {
            out.insert("anyOf".to_owned(), json!([{ "$ref": target }]));
        }
        Ok(Value::Object(out))
    }

    /// An `anyOf` or `oneOf` (which becomes `anyOf`), with at most a
    /// description beside it.
    fn union(
        &self,
        map: &Map<String, Value>,
        path: &Pointer,
        depth: usize,
    ) -> Result<Value, StrictSchemaError> {
        if map.contains_key("anyOf") && map.contains_key("oneOf") {
            return Err(path.key("oneOf").error(
                StrictRule::UnionSiblings,
                "a schema with both `anyOf` and `oneOf` cannot be expressed in strict mode; \
                 write one `anyOf` that lists every case",
            ));
        }
        let mut out = Map::new();
        let mut notes = Notes::default();
        for (key, value) in map {
            let at = path.key(key);
            match key.as_str() {
                "anyOf" | "oneOf" => {
                    let branches = match value {
                        Value::Array(branches) if !branches.is_empty() => branches,
                        _ => {
                            return Err(at.error(
                                StrictRule::Malformed,
                                format!("`{key}` must be a non-empty array of schemas"),
                            ));
                        }
                    };
                    let mut compiled: Vec<Value> = Vec::with_capacity(branches.len());
                    for (i, branch) in branches.iter().enumerate() {
                        let branch = self.node(branch, &at.index(i), depth + 1)?;
                        // A branch that is only a union joins this one; a
                        // branch equal to an earlier one adds nothing.
                        let joined = match branch {
                            Value::Object(mut inner)
                                if inner.len() == 1
                                    && inner.get("anyOf").is_some_and(Value::is_array) =>
                            {
                                match inner.remove("anyOf") {
                                    Some(Value::Array(nested)) => nested,
                                    _ => Vec::new(),
                                }
                            }
                            other => vec![other],
                        };
                        for branch in joined {
                            if !compiled.contains(&branch) {
                                compiled.push(branch);
                            }
                        }
                    }
                    out.insert("anyOf".to_owned(), Value::Array(compiled));
                }
                "description" => {
                    out.insert(key.clone(), Value::from(string(value, &at)?));
                }
                k if is_dropped(k, false) => {}
                k if is_described(k) || is_constraint(k) => notes.add(k, value, &at)?,
                k => {
                    return Err(at.error(
                        StrictRule::UnionSiblings,
                        format!(
                            "`{k}` beside `anyOf` cannot be expressed in strict mode; move it \
                             into each branch of the union"
                        ),
                    ));
                }
            }
        }
        notes.attach(&mut out);
        Ok(Value::Object(out))
    }

    /// A schema with a type (given or inferred): object, array or scalar.
    fn typed(
        &self,
        map: &Map<String, Value>,
        path: &Pointer,
        depth: usize,
        is_root: bool,
    ) -> Result<Value, StrictSchemaError> {
        let given_type = match map.get("type") {
            Some(types) => {
                check_type(types, &path.key("type"))?;
                None
            }
            None => Some(infer_type(map, path)?),
        };
        let types = given_type
            .as_ref()
            .or(map.get("type"))
            .cloned()
            .unwrap_or_default();
        let enum_values = check_enum(map, path)?;
        let is_object = type_has(&types, "object") || map.contains_key("properties");
        let property_names: Vec<&String> = match map.get("properties") {
            Some(Value::Object(properties)) => properties.keys().collect(),
            Some(_) => {
                return Err(path.key("properties").error(
                    StrictRule::Malformed,
                    "`properties` must be an object of named schemas",
                ));
            }
            None => Vec::new(),
        };
        let required = required_names(map, path, &property_names)?;

        let mut out = Map::new();
        let mut notes = Notes::default();
        if let Some(types) = given_type {
            let types = consistent_type(&types, enum_values, map.get("const"));
            out.insert("type".to_owned(), types);
        }
        let mut defs_written = false;
        for (key, value) in map {
            let at = path.key(key);
            match key.as_str() {
                "type" => {
                    out.insert(
                        key.clone(),
                        consistent_type(value, enum_values, map.get("const")),
                    );
                }
                "description" | "pattern" => {
                    out.insert(key.clone(), Value::from(string(value, &at)?));
                }
                "enum" | "const" => {
                    out.insert(key.clone(), value.clone());
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                    out.insert(key.clone(), Value::Number(number(value, &at)?.clone()));
                }
                "minItems" | "maxItems" => {
                    out.insert(key.clone(), Value::from(count(value, &at)?));
                }
                "format" if SUPPORTED_FORMATS.contains(&string(value, &at)?) => {
                    out.insert(key.clone(), value.clone());
                }
                "properties" => {
                    let properties = self.properties(value, &at, depth, &required)?;
                    out.insert(key.clone(), properties);
                }
                "required" => {
                    out.insert(key.clone(), json!(property_names));
                }
                "additionalProperties" => match value {
                    Value::Bool(false) => {
                        out.insert(key.clone(), Value::Bool(false));
                    }
                    Value::Bool(true) | Value::Object(_) => return Err(open_object(&at, value)),
                    _ => {
                        return Err(at.error(
                            StrictRule::Malformed,
                            "`additionalProperties` must be `false` or a schema",
                        ));
                    }
                },
                "items" => {
                    if value.is_array() {
                        return Err(at.error(
                            StrictRule::Tuple,
                            "tuples (`items` as an array) cannot be expressed in strict mode; \
                             use an object with one named property per position",
                        ));
                    }
                    out.insert(key.clone(), self.node(value, &at, depth + 1)?);
                }
                "$defs" | "definitions" if is_root => {
                    if !defs_written {
                        defs_written = true;
                        out.insert("$defs".to_owned(), self.definitions(depth)?);
                    }
                }
                k if is_dropped(k, is_root) => {}
                k => notes.add(k, value, &at)?,
            }
        }
        if is_object {
            if !map.contains_key("properties") {
                if map.get("additionalProperties") != Some(&Value::Bool(false)) {
                    return Err(path.error(
                        StrictRule::OpenObject,
                        "an object without `properties` accepts any keys (a map), which strict \
                         mode cannot express; list its keys as `properties`, or write \
                         `\"properties\": {}` for an object that takes none",
                    ));
                }
                out.insert("properties".to_owned(), json!({}));
            }
            if !map.contains_key("required") {
                out.insert("required".to_owned(), json!(property_names));
            }
            if !map.contains_key("additionalProperties") {
                out.insert("additionalProperties".to_owned(), Value::Bool(false));
            }
        }
        notes.bounds_kept(map);
        if type_has(&types, "array") && !map.contains_key("items") {
            return Err(path.error(
                StrictRule::AnyValue,
                "an array without `items` accepts any values, which strict mode cannot express; \
                 give its items a schema",
            ));
        }
        notes.attach(&mut out);
        Ok(Value::Object(out))
    }

    /// The properties, each compiled; one that was optional becomes nullable.
    fn properties(
        &self,
        properties: &Value,
        path: &Pointer,
        depth: usize,
        required: &HashSet<&str>,
    ) -> Result<Value, StrictSchemaError> {
        let mut out = Map::new();
        for (name, schema) in properties.as_object().into_iter().flatten() {
            let mut compiled = self.node(schema, &path.key(name), depth + 1)?;
            if !required.contains(name.as_str()) && !self.definitions.admits_null(&compiled, 0) {
                make_nullable(&mut compiled);
            }
            out.insert(name.clone(), compiled);
        }
        Ok(Value::Object(out))
    }

    /// Every definition of `$defs` and `definitions`, compiled, as `$defs`.
    fn definitions(&self, depth: usize) -> Result<Value, StrictSchemaError> {
        let mut out = Map::new();
        for (name, schema, path) in self.definitions.iter() {
            out.insert(name.to_owned(), self.node(schema, &path, depth + 1)?);
        }
        Ok(Value::Object(out))
    }
}

/// What a JSON value is, in words, without repeating it.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "`null`",
        Value::Bool(true) => "`true`",
        Value::Bool(false) => "`false`",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn open_object(path: &Pointer, value: &Value) -> StrictSchemaError {
    let what = if value == &Value::Bool(true) {
        "`additionalProperties: true`"
    } else {
        "`additionalProperties` with a schema"
    };
    path.error(
        StrictRule::OpenObject,
        format!(
            "{what} makes an open object (a map), which strict mode cannot express; list the \
             keys as `properties`, or use an array of `{{key, value}}` objects"
        ),
    )
}

/// The names in `required`, each of which must be a property.
fn required_names<'m>(
    map: &'m Map<String, Value>,
    path: &Pointer,
    properties: &[&String],
) -> Result<HashSet<&'m str>, StrictSchemaError> {
    let at = path.key("required");
    let Some(required) = map.get("required") else {
        return Ok(HashSet::new());
    };
    let Value::Array(names) = required else {
        return Err(at.error(
            StrictRule::Malformed,
            "`required` must be an array of property names",
        ));
    };
    let known: HashSet<&str> = properties.iter().map(|p| p.as_str()).collect();
    let mut out = HashSet::new();
    for (i, name) in names.iter().enumerate() {
        let name = string(name, &at.index(i))?;
        if !known.contains(name) {
            return Err(at.index(i).error(
                StrictRule::NotRequired,
                format!(
                    "`required` names `{name}`, which is not among `properties`; add the \
                     property or remove the name"
                ),
            ));
        }
        out.insert(name);
    }
    Ok(out)
}
