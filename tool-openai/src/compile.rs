//! The strict-schema compiler: any JSON Schema of the shape schemars,
//! pydantic and zod emit, in, OpenAI strict mode out.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::check::check_strict_schema;
use crate::depth::check_depth;
use crate::error::Notes;
use crate::error::{Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{
    SUPPORTED_FORMATS, any_value, check_enum, check_type, consistent_type, count, infer_type,
    is_constraint, is_described, is_dropped, is_unknown, number, refusal, refuse_named,
    refuse_unsupported, string, type_bit, type_bits, type_has,
};
use crate::merge::{merge, merge_all_of, over_budget};
use crate::refs::{Definitions, MAX_INPUT_DEPTH, Target, collapse_aliases, make_nullable};
use crate::sound::{
    PatternVerdict, check_bounds, check_number_range, check_number_range_of, check_string_keywords,
    check_values, invalid_pattern, judge_pattern,
};

/// Compiles a JSON Schema into one that OpenAI's strict mode accepts, or
/// says why it cannot.
///
/// It takes any schema of the shape schemars 1.x, pydantic 2, zod 4 and
/// OpenAPI components have (draft 2020-12 or draft-07: nested objects,
/// `$defs`/`definitions`, `$ref` to any JSON pointer in the document,
/// `allOf`/`anyOf`/`oneOf`, enums, arrays) and:
///
/// - closes every object, nested ones and those in `$defs`, with
///   `additionalProperties: false`, and lists every property in `required`,
///   in property order (the model writes keys in schema order);
/// - makes each property that was optional nullable: `"type": [T, "null"]`
///   (an `enum` gains `null`, a `const` becomes a two-value `enum`), or a
///   `{"type": "null"}` branch for a `$ref` or `anyOf`; a schema that already
///   admits `null` is left as it is;
/// - turns `oneOf` into `anyOf` (strict mode has no `oneOf`; where branches
///   overlap, the tool's parser decides), drops `false` branches and
///   branches equal to an earlier one, joins a union nested in a union, and
///   unwraps a union left with one branch (at the root too); drops a `type`
///   beside `anyOf` that every branch already satisfies, and empty
///   `properties`/`required` there;
/// - merges `allOf` into one schema: a single entry into its parent, several
///   entries (`$ref`s replaced by their definitions, as OpenAPI and pydantic
///   write inheritance) keyword by keyword: properties and `required`
///   joined, the types both allow, the tighter bound; entries that conflict
///   are an error at the conflicting keyword;
/// - resolves `$ref`s to any JSON pointer in the document (`#/$defs/A`,
///   `#/definitions/A`, `#/components/schemas/Pet`, `#/properties/a`, a
///   branch of an `allOf`; percent-encoded, with `~0`/`~1` escapes): each
///   target becomes one entry of the output's `$defs` (see below), chains of
///   bare aliases collapse to the schema they name, and an alias with a
///   `description` keeps it; wraps a `$ref` that has keywords beside it
///   (`{"description": ..., "anyOf": [{"$ref": ...}]}`); keeps recursion
///   (`"$ref": "#"` and through `$defs`);
/// - writes one `$defs`: the root's `$defs` under their names, draft-07
///   `definitions` beside them under theirs (`A_2` when `$defs` already has
///   `A`), other pointer targets under their last segment (`Pet`), made
///   unique; a root keyword that only holds such targets (`components`) is
///   dropped;
/// - accepts a root written `"type": ["object"]`, a root `$ref` (also
///   through aliases), and closes a root `{}` or `{"type": "object"}` (a
///   tool without arguments, as schemars derives for `struct Ping {}`) into
///   `{"type": "object", "properties": {}, "required": [],
///   "additionalProperties": false}`;
/// - drops `title`, `default`, `$schema` and other annotations;
/// - states keywords strict mode rejects but that carry meaning
///   (`minLength`, `maxLength`, `uniqueItems`, unsupported `format`s such as
///   `uint32` or `uri`, `examples`, a `pattern` with lookahead, lookbehind,
///   backreferences or atomic groups, which OpenAI's regex engine refuses,
///   ...) in the description in plain words ("At least 1 character."): a
///   derived tool's parser still enforces them, and for a foreign schema the
///   description is all that can carry them;
/// - infers the `type` of a schema that only has `properties`, `items`,
///   `enum` or `const`.
///
/// What strict mode cannot express, and what no value could satisfy, is an
/// error that names the JSON path, the [rule](crate::StrictRule) and what to
/// write instead: maps, a root that is not a plain object, `{}`/`true`
/// (any JSON value, as `serde_json::Value` gives) below the root, `not`,
/// `if`/`then`/`else`, `dependent*`, `patternProperties`, tuples, `$ref`s
/// that do not resolve, `allOf` entries that conflict, invalid regular
/// expressions, bounds no value meets (`minimum` above `maximum`, `minItems`
/// above `maxItems`, `multipleOf` not above 0), `pattern` or a string
/// `format` on a non-string type, `enum`/`const` values of another type or
/// that are objects or arrays, values nested more than 256 levels deep,
/// `allOf`s that copy definitions into each other beyond 8 schemas or
/// values per input value, and OpenAI's limits. The result passes [`check_strict_schema`], and compiling
/// it again gives it back unchanged.
///
/// The cost is linear in the size of the input: definitions are indexed by
/// pointer and by name, alias chains and nullability are decided once per
/// definition, union branches are deduplicated by hash, and one iterative
/// pass bounds the depth of the input before anything is copied.
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
    let values = check_depth(schema)?;
    let Value::Object(input) = schema else {
        return Err(Pointer::root().error(
            StrictRule::RootNotObject,
            format!(
                "the root of a strict schema must be an object schema, not {}; write \
                 `{{\"type\": \"object\", \"properties\": {{...}}}}`",
                kind(schema)
            ),
        ));
    };
    let compiler = Compiler {
        definitions: Definitions::of(schema, MIN_BUDGET + BUDGET_PER_VALUE * values)?,
        types: RefCell::default(),
    };
    let output = compiler.root(input)?;
    if let Err(mut violations) = check_strict_schema(&output) {
        return Err(violations.swap_remove(0));
    }
    Ok(output)
}

/// How many schemas the compiler may visit and values `allOf` merging may
/// copy: a multiple of the input's values, so that `allOf`s that copy
/// definitions into each other (each copy again holding `allOf`s) cannot
/// make the work grow faster than the input.
const BUDGET_PER_VALUE: usize = 8;
/// The budget of the smallest inputs.
const MIN_BUDGET: usize = 10_000;

struct Compiler<'a> {
    definitions: Definitions<'a>,
    /// The types each definition admits (see [`Compiler::types_of`]).
    types: RefCell<HashMap<usize, Option<u8>>>,
}

impl Compiler<'_> {
    fn root(&self, input: &Map<String, Value>) -> Result<Value, StrictSchemaError> {
        let path = Pointer::root();
        let mut map = merge_all_of(input, &path, &self.definitions)?.into_owned();
        for round in 0.. {
            if round > MAX_INPUT_DEPTH {
                return Err(path.error(
                    StrictRule::TooDeep,
                    "the root is a chain of more than 64 `$ref`s and unions; write the root \
                     object schema",
                ));
            }
            if let Some(reference) = map.get("$ref") {
                map = self.root_ref(&map, reference, &path)?;
            } else if let Some(key) = ["anyOf", "oneOf"]
                .into_iter()
                .find(|k| map.contains_key(*k))
            {
                map = root_union(&map, key, &path, &self.definitions)?;
            } else {
                break;
            }
        }
        // A tool without arguments: `{}` or `{"type": "object"}` (as
        // schemars derives for `struct Ping {}`), annotations at most.
        if map.get("type").is_none_or(|t| t == "object")
            && map
                .keys()
                .all(|k| is_dropped(k, true) || k == "description" || k == "type")
        {
            map.entry("type").or_insert_with(|| Value::from("object"));
            map.insert("properties".to_owned(), json!({}));
        }
        match map.get("type") {
            Some(Value::String(t)) if t == "object" => {}
            Some(Value::Array(ts)) if ts.len() == 1 && ts[0] == "object" => {
                map.insert("type".to_owned(), Value::from("object"));
            }
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
        refuse_named(&map, &path, true)?;
        check_bounds(&map, &path)?;
        let mut out = self.typed(&map, &path, 0, true)?;
        let mut definitions = self.definitions()?;
        collapse_aliases(&mut out, &mut definitions);
        // Unknown root keywords may only hold the targets of `$ref`s.
        for key in map.keys() {
            if is_unknown(key, true)
                && !self.definitions.holds_definitions(key)
                && let Some((rule, message)) = refusal(key, true)
            {
                return Err(path.key(key).error(rule, message));
            }
        }
        if let Value::Object(out) = &mut out {
            match out.get_mut("$defs") {
                Some(slot) => *slot = Value::Object(definitions),
                None if !definitions.is_empty() => {
                    out.insert("$defs".to_owned(), Value::Object(definitions));
                }
                None => {}
            }
        }
        Ok(out)
    }

    /// The root with its `$ref` replaced by the definition's keywords (a
    /// `$ref` among them is followed in the next round).
    fn root_ref(
        &self,
        map: &Map<String, Value>,
        reference: &Value,
        path: &Pointer,
    ) -> Result<Map<String, Value>, StrictSchemaError> {
        let at = path.key("$ref");
        let reference = string(reference, &at)?;
        let Target::Def(id) = self.definitions.resolve(reference, &at)? else {
            return Err(at.error(
                StrictRule::RootNotObject,
                "the root is a `$ref` to itself; write the root object schema",
            ));
        };
        let (_, target, target_path) = self.definitions.get(id);
        let Value::Object(target) = target else {
            return Err(at.error(
                StrictRule::RootNotObject,
                "the root `$ref` points at a schema that is not an object schema; point it at \
                 an object schema",
            ));
        };
        let target = merge_all_of(target, &target_path, &self.definitions)?;
        merge(map, "$ref", &target, &at)
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
        if !self.definitions.spend(1) {
            return Err(over_budget(path));
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
        let map = merge_all_of(map, path, &self.definitions)?;
        refuse_unsupported(&map, path, false)?;
        check_bounds(&map, path)?;
        // Bounds beside a `$ref` or a union only become words in the
        // description; bounds that leave the type no value are refused
        // here as they are beside a `type`.
        if !map.contains_key("type")
            && ["$ref", "anyOf", "oneOf"]
                .iter()
                .any(|k| map.contains_key(*k))
            && let Some(bits) = self.types_of_map(&map, 0)
        {
            check_number_range_of(&map, bits, path)?;
        }
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
        let target = self.definitions.resolve(string(&map["$ref"], &at)?, &at)?;
        let target = self.definitions.output_ref(target);
        let mut out = Map::new();
        let mut notes = Notes::new(StrictRule::Malformed);
        for (key, value) in map {
            let at = path.key(key);
            match key.as_str() {
                "$ref" => {}
                "description" => {
                    out.insert(key.clone(), Value::from(string(value, &at)?));
                }
                k if is_dropped(k, false) => {}
                k if is_described(k) || is_constraint(k) => note(&mut notes, k, value, &at)?,
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
    /// description beside it; a union of one branch is that branch.
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
        let mut notes = Notes::new(StrictRule::Malformed);
        let mut branches: Vec<Value> = Vec::new();
        let mut written_type: Option<(&Value, Pointer)> = None;
        for (key, value) in map {
            let at = path.key(key);
            match key.as_str() {
                "anyOf" | "oneOf" => {
                    branches = self.branches(key, value, &at, depth)?;
                    out.insert("anyOf".to_owned(), Value::Null);
                }
                "description" => {
                    out.insert(key.clone(), Value::from(string(value, &at)?));
                }
                "type" => {
                    check_type(value, &at)?;
                    written_type = Some((value, at));
                }
                "properties" if value.as_object().is_some_and(Map::is_empty) => {}
                "required" if value.as_array().is_some_and(Vec::is_empty) => {}
                k if is_dropped(k, false) => {}
                k if is_described(k) || is_constraint(k) => note(&mut notes, k, value, &at)?,
                k => return Err(union_sibling(&at, k)),
            }
        }
        // A `type` every branch already satisfies says nothing more.
        if let Some((types, at)) = written_type {
            let mut allowed = type_bits(types);
            if allowed & type_bit("number") != 0 {
                allowed |= type_bit("integer");
            }
            let redundant = branches.iter().all(|branch| {
                self.types_of(branch, 0)
                    .is_some_and(|bits| bits & !allowed == 0)
            });
            if !redundant {
                return Err(union_sibling(&at, "type"));
            }
        }
        notes.attach(&mut out);
        if let [only] = branches.as_slice() {
            let bare_ref = only
                .as_object()
                .is_some_and(|b| b.len() == 1 && b.contains_key("$ref"));
            if let (Value::Object(branch), false) =
                (only, bare_ref && out.contains_key("description"))
            {
                let mut branch = branch.clone();
                if let Some(description) = out.remove("description") {
                    match branch.get_mut("description") {
                        Some(slot) => *slot = description,
                        None => {
                            let rest = std::mem::take(&mut branch);
                            branch.insert("description".to_owned(), description);
                            branch.extend(rest);
                        }
                    }
                }
                return Ok(Value::Object(branch));
            }
        }
        out.insert("anyOf".to_owned(), Value::Array(branches));
        Ok(Value::Object(out))
    }

    /// The compiled branches of a union: `false` ones dropped, a branch that
    /// is only a union joined into this one, each distinct branch once.
    fn branches(
        &self,
        key: &str,
        value: &Value,
        at: &Pointer,
        depth: usize,
    ) -> Result<Vec<Value>, StrictSchemaError> {
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
        let mut seen: HashSet<String> = HashSet::with_capacity(branches.len());
        for (i, branch) in branches.iter().enumerate() {
            if branch == &Value::Bool(false) {
                continue;
            }
            let branch = self.node(branch, &at.index(i), depth + 1)?;
            let joined = match branch {
                Value::Object(mut inner)
                    if inner.len() == 1 && inner.get("anyOf").is_some_and(Value::is_array) =>
                {
                    match inner.remove("anyOf") {
                        Some(Value::Array(nested)) => nested,
                        _ => Vec::new(),
                    }
                }
                other => vec![other],
            };
            for branch in joined {
                // Compiled schemas are shallow (the depth guard ran), so
                // their text is a cheap, exact key.
                if seen.insert(branch.to_string()) {
                    compiled.push(branch);
                }
            }
        }
        if compiled.is_empty() {
            return Err(at.error(
                StrictRule::Malformed,
                format!(
                    "every branch of `{key}` is `false`, so no value is accepted; remove the \
                     property or give a branch a schema"
                ),
            ));
        }
        Ok(compiled)
    }

    /// The types a compiled schema admits, as [`type_bits`]; `None` when it
    /// cannot be told from its top level (and that of a definition it
    /// names), which keeps a `type` beside `anyOf` refused.
    fn types_of(&self, schema: &Value, depth: usize) -> Option<u8> {
        self.types_of_map(schema.as_object()?, depth)
    }

    /// [`Compiler::types_of`] of a schema's keywords.
    fn types_of_map(&self, map: &Map<String, Value>, depth: usize) -> Option<u8> {
        if depth > 2 {
            return None;
        }
        if let Some(types) = map.get("type") {
            return Some(type_bits(types));
        }
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            return match self.definitions.resolve(reference, &Pointer::root()).ok()? {
                Target::Root => Some(type_bit("object")),
                Target::Def(id) => {
                    if let Some(known) = self.types.borrow().get(&id) {
                        return *known;
                    }
                    let (_, value, _) = self.definitions.get(id);
                    let bits = self.types_of(value, depth + 1);
                    self.types.borrow_mut().insert(id, bits);
                    bits
                }
            };
        }
        if let Some(Value::Array(branches)) = map.get("anyOf").or_else(|| map.get("oneOf")) {
            return branches
                .iter()
                .try_fold(0, |bits, b| Some(bits | self.types_of(b, depth + 1)?));
        }
        infer_type(map, &Pointer::root())
            .ok()
            .map(|t| type_bits(&t))
    }

    /// A schema with a type (given or inferred): object, array or scalar.
    fn typed(
        &self,
        map: &Map<String, Value>,
        path: &Pointer,
        depth: usize,
        is_root: bool,
    ) -> Result<Value, StrictSchemaError> {
        if let Some(types) = map.get("type") {
            check_type(types, &path.key("type"))?;
        }
        check_values(map, map.get("type"), path)?;
        let given_type = match map.get("type") {
            Some(_) => None,
            None => Some(infer_type(map, path)?),
        };
        let types = given_type
            .as_ref()
            .or(map.get("type"))
            .cloned()
            .unwrap_or_default();
        check_values(map, Some(&types), path)?;
        check_string_keywords(map, &types, path)?;
        check_number_range(map, &types, path)?;
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
        let mut notes = Notes::new(StrictRule::Malformed);
        if let Some(types) = given_type {
            let types = consistent_type(&types, enum_values, map.get("const"));
            out.insert("type".to_owned(), types);
        }
        for (key, value) in map {
            let at = path.key(key);
            match key.as_str() {
                "type" => {
                    out.insert(
                        key.clone(),
                        consistent_type(value, enum_values, map.get("const")),
                    );
                }
                "description" => {
                    out.insert(key.clone(), Value::from(string(value, &at)?));
                }
                "pattern" => match judge_pattern(string(value, &at)?) {
                    PatternVerdict::Supported => {
                        out.insert(key.clone(), value.clone());
                    }
                    PatternVerdict::Unsupported(_) => notes.add(key, value, &at)?,
                    PatternVerdict::Invalid(why) => return Err(invalid_pattern(&at, &why)),
                },
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
                // Filled in by `root` once every definition is compiled.
                "$defs" | "definitions" if is_root => {
                    out.entry("$defs").or_insert(Value::Null);
                }
                k if is_dropped(k, is_root) => {}
                k => note(&mut notes, k, value, &at)?,
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

    /// Every definition a `$ref` can reach, compiled, as `$defs`; compiling
    /// one may find more.
    fn definitions(&self) -> Result<Map<String, Value>, StrictSchemaError> {
        let mut out = Map::new();
        let mut id = 0;
        while id < self.definitions.len() {
            let (name, schema, path) = self.definitions.get(id);
            out.insert(name, self.node(schema, &path, 1)?);
            id += 1;
        }
        Ok(out)
    }
}

/// The root with its union of one branch (`false` ones aside) replaced by
/// that branch.
fn root_union(
    map: &Map<String, Value>,
    key: &str,
    path: &Pointer,
    definitions: &Definitions<'_>,
) -> Result<Map<String, Value>, StrictSchemaError> {
    let at = path.key(key);
    let not_plain = || {
        at.error(
            StrictRule::RootNotObject,
            format!(
                "the root of a strict schema must be a plain object, not `{key}`; make the root \
                 an object whose one property holds the union"
            ),
        )
    };
    let live: Vec<(usize, &Value)> = match map.get(key) {
        Some(Value::Array(branches)) => branches
            .iter()
            .enumerate()
            .filter(|(_, b)| **b != Value::Bool(false))
            .collect(),
        _ => Vec::new(),
    };
    let other = if key == "anyOf" { "oneOf" } else { "anyOf" };
    match live.as_slice() {
        [(i, Value::Object(branch))] if !map.contains_key(other) => {
            let branch_path = at.index(*i);
            let branch = merge_all_of(branch, &branch_path, definitions)?;
            merge(map, key, &branch, &branch_path)
        }
        _ => Err(not_plain()),
    }
}

/// Records a keyword for the description; a `pattern` must at least be a
/// regular expression.
fn note<'a>(
    notes: &mut Notes<'a>,
    key: &str,
    value: &'a Value,
    at: &Pointer,
) -> Result<(), StrictSchemaError> {
    if key == "pattern"
        && let PatternVerdict::Invalid(why) = judge_pattern(string(value, at)?)
    {
        return Err(invalid_pattern(at, &why));
    }
    notes.add(key, value, at)
}

fn union_sibling(at: &Pointer, key: &str) -> StrictSchemaError {
    at.error(
        StrictRule::UnionSiblings,
        format!(
            "`{key}` beside `anyOf` cannot be expressed in strict mode; move it into each branch \
             of the union"
        ),
    )
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
