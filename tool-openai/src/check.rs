//! The strict-mode checker: every rule and limit OpenAI states, asserted on a
//! finished schema.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::depth::check_depth;
use crate::error::{Pointer, StrictRule, StrictViolation};
use crate::keywords::{SUPPORTED, SUPPORTED_FORMATS, TYPES, type_has};
use crate::refs::def_name;
use crate::sound::{
    PatternVerdict, check_bounds, check_number_range, check_string_keywords, check_values,
    invalid_pattern, judge_pattern,
};

/// At most this many object properties in the whole schema.
pub const MAX_PROPERTIES: usize = 5000;
/// At most this many levels of nesting (the root is level 0).
pub const MAX_NESTING: usize = 10;
/// At most this many enum values in the whole schema.
pub const MAX_ENUM_VALUES: usize = 1000;
/// At most this many characters across property names, definition names,
/// enum values and const values.
pub const MAX_TOTAL_CHARACTERS: usize = 120_000;
/// A string enum with more than this many values ...
pub const LONG_ENUM_VALUES: usize = 250;
/// ... may have at most this many characters in its values.
pub const LONG_ENUM_CHARACTERS: usize = 15_000;

/// Checks a schema against OpenAI's strict-mode rules and reports every
/// violation, in document order.
///
/// The rules: the root is an object schema (not `anyOf`, not nullable);
/// every schema has a `type`, an `anyOf` or a `$ref`; every object is closed
/// with `additionalProperties: false` and lists every property in `required`;
/// only supported keywords and formats appear; a `$ref` has no keywords
/// beside it and resolves to `#` or a root `$defs` entry; an `anyOf` has only
/// a `description` beside it; an `enum` whose `type` admits `null` lists
/// `null`; and the limits hold: [`MAX_PROPERTIES`], [`MAX_NESTING`] (each
/// property, `items`, `anyOf` branch and `$defs` entry is one level deeper),
/// [`MAX_ENUM_VALUES`], [`MAX_TOTAL_CHARACTERS`], and
/// [`LONG_ENUM_CHARACTERS`] for an enum of more than [`LONG_ENUM_VALUES`]
/// string values. Totals are reported at `#`.
///
/// [`to_strict_json_schema`](crate::to_strict_json_schema) runs it on what it
/// writes; use it to check schemas written by hand or by other tools.
///
/// ```
/// use serde_json::json;
///
/// let open = json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// let violations = tool_contract::openai::check_strict_schema(&open).unwrap_err();
/// let paths: Vec<&str> = violations.iter().map(|v| v.path()).collect();
/// assert_eq!(paths, ["#", "#/properties/a"]);
/// ```
pub fn check_strict_schema(schema: &Value) -> Result<(), Vec<StrictViolation>> {
    check_depth(schema).map_err(|too_deep| vec![too_deep])?;
    let mut checker = Checker {
        defs: None,
        violations: Vec::new(),
        properties: 0,
        enum_values: 0,
        characters: 0,
    };
    checker.check_root(schema);
    if checker.violations.is_empty() {
        Ok(())
    } else {
        Err(checker.violations)
    }
}

struct Checker<'a> {
    defs: Option<&'a Map<String, Value>>,
    violations: Vec<StrictViolation>,
    properties: usize,
    enum_values: usize,
    characters: usize,
}

impl<'a> Checker<'a> {
    fn report(&mut self, path: &Pointer, rule: StrictRule, message: impl Into<String>) {
        self.violations.push(path.error(rule, message));
    }

    /// Reports each definition that never reaches a schema of its own:
    /// every way through its `$ref`s and `anyOf` branches leads back into
    /// definitions of the same kind (`A: {"$ref": "#/$defs/A"}`, `A:
    /// {"anyOf": [{"$ref": "#/$defs/B"}]}, B: {"$ref": "#/$defs/A"}`), so
    /// no value matches it. Linear: each definition's top level is read
    /// once, then groundedness spreads backwards along the references.
    fn check_grounded(&mut self, defs: &Map<String, Value>, root: &Pointer) {
        let names: Vec<&String> = defs.keys().collect();
        let index: HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let mut grounded = vec![false; names.len()];
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
        let mut ready: Vec<usize> = Vec::new();
        for (i, def) in defs.values().enumerate() {
            // The top level of a definition, unions flattened: grounded
            // when some branch is a schema with keywords of its own (or
            // `#`, the root object), else the definitions it names.
            let mut stack = vec![def];
            let mut own = false;
            while let Some(schema) = stack.pop() {
                let Value::Object(map) = schema else {
                    own |= schema != &Value::Bool(false);
                    continue;
                };
                if let Some(reference) = map.get("$ref") {
                    match reference.as_str() {
                        Some("#") => own = true,
                        Some(r) => match def_name(r).and_then(|n| index.get(n.as_str())) {
                            Some(target) => users[*target].push(i),
                            // Unresolved: reported by `check_ref`.
                            None => own = true,
                        },
                        None => own = true,
                    }
                } else if let Some(Value::Array(branches)) = map.get("anyOf") {
                    stack.extend(branches);
                } else {
                    own = true;
                }
            }
            if own {
                grounded[i] = true;
                ready.push(i);
            }
        }
        while let Some(done) = ready.pop() {
            for user in std::mem::take(&mut users[done]) {
                if !grounded[user] {
                    grounded[user] = true;
                    ready.push(user);
                }
            }
        }
        for (i, name) in names.iter().enumerate() {
            if !grounded[i] {
                self.report(
                    &root.key("$defs").key(name),
                    StrictRule::Unsatisfiable,
                    format!(
                        "definition `{name}` only refers to itself through `$ref`s and `anyOf`s and \
                         never reaches a schema, so no value matches it; give one of these \
                         definitions a type"
                    ),
                );
            }
        }
    }

    fn check_root(&mut self, schema: &'a Value) {
        let root = Pointer::root();
        let Value::Object(map) = schema else {
            self.report(
                &root,
                StrictRule::RootNotObject,
                "the root is not an object schema",
            );
            return;
        };
        match map.get("type") {
            Some(t) if t == "object" => {}
            Some(_) => self.report(
                &root.key("type"),
                StrictRule::RootNotObject,
                "the root must be `\"type\": \"object\"` (not nullable, not another type)",
            ),
            None => self.report(
                &root,
                StrictRule::RootNotObject,
                "the root has no `\"type\": \"object\"`",
            ),
        }
        for key in ["anyOf", "$ref"] {
            if map.contains_key(key) {
                self.report(
                    &root.key(key),
                    StrictRule::RootNotObject,
                    format!("the root cannot be `{key}`; it must be a plain object"),
                );
            }
        }
        match map.get("$defs") {
            Some(Value::Object(defs)) => self.defs = Some(defs),
            Some(_) => self.report(
                &root.key("$defs"),
                StrictRule::Malformed,
                "`$defs` must be an object of named schemas",
            ),
            None => {}
        }
        self.check(schema, &root, 0, true);
        if let Some(defs) = self.defs {
            for (name, def) in defs {
                self.characters += name.chars().count();
                self.check(def, &root.key("$defs").key(name), 1, false);
            }
            self.check_grounded(defs, &root);
        }
        self.check_totals(&root);
    }

    fn check_totals(&mut self, root: &Pointer) {
        if self.properties > MAX_PROPERTIES {
            let message = format!(
                "the schema has {} object properties; OpenAI allows at most {MAX_PROPERTIES} in \
                 total; split the tool or move rarely used parts into a free-text field",
                self.properties
            );
            self.report(root, StrictRule::TooManyProperties, message);
        }
        if self.enum_values > MAX_ENUM_VALUES {
            let message = format!(
                "the schema has {} enum values; OpenAI allows at most {MAX_ENUM_VALUES} in \
                 total; take large value sets as a validated string",
                self.enum_values
            );
            self.report(root, StrictRule::TooManyEnumValues, message);
        }
        if self.characters > MAX_TOTAL_CHARACTERS {
            let message = format!(
                "property names, definition names, enum and const values add up to {} \
                 characters; OpenAI allows at most {MAX_TOTAL_CHARACTERS}; shorten them or \
                 take large value sets as a validated string",
                self.characters
            );
            self.report(root, StrictRule::TooManyCharacters, message);
        }
    }

    fn check(&mut self, schema: &'a Value, path: &Pointer, level: usize, is_root: bool) {
        if level > MAX_NESTING {
            self.report(
                path,
                StrictRule::TooDeep,
                format!(
                    "this schema is nested {level} levels deep; OpenAI allows at most \
                     {MAX_NESTING} (each property, `items`, `anyOf` branch and `$defs` entry \
                     is one level); flatten the structure"
                ),
            );
            return;
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(true) => {
                self.report(path, StrictRule::AnyValue, "`true` accepts any JSON value");
                return;
            }
            _ => {
                self.report(
                    path,
                    StrictRule::Malformed,
                    "a schema must be a JSON object",
                );
                return;
            }
        };
        for key in map.keys() {
            let allowed = SUPPORTED.contains(&key.as_str()) && (key != "$defs" || is_root);
            if !allowed {
                self.report(
                    &path.key(key),
                    StrictRule::UnsupportedKeyword,
                    format!("`{key}` is not supported here in strict mode"),
                );
            }
        }
        if map.get("description").is_some_and(|d| !d.is_string()) {
            self.report(
                &path.key("description"),
                StrictRule::Malformed,
                "`description` must be a string",
            );
        }
        if let Some(reference) = map.get("$ref") {
            self.check_ref(map, reference, path);
        } else if let Some(branches) = map.get("anyOf") {
            self.check_union(map, branches, path, level);
        } else {
            self.check_typed(map, path, level);
        }
    }

    fn check_ref(&mut self, map: &Map<String, Value>, reference: &Value, path: &Pointer) {
        // Unsupported keywords are already reported as such.
        for key in map
            .keys()
            .filter(|k| *k != "$ref" && SUPPORTED.contains(&k.as_str()))
        {
            self.report(
                &path.key(key),
                StrictRule::RefSiblings,
                format!(
                    "`$ref` cannot have `{key}` beside it; wrap it: `{{\"{key}\": ..., \
                     \"anyOf\": [{{\"$ref\": ...}}]}}`"
                ),
            );
        }
        let resolves = match reference.as_str() {
            Some("#") => true,
            Some(r) => def_name(r)
                .zip(self.defs)
                .is_some_and(|(name, defs)| defs.contains_key(&name)),
            None => false,
        };
        if !resolves {
            let shown = match reference {
                Value::String(r) => format!("{r:?}"),
                _ => "that is not a string".to_owned(),
            };
            self.report(
                &path.key("$ref"),
                StrictRule::UnresolvedRef,
                format!("`$ref` {shown} is neither `#` nor a `#/$defs/NAME` that exists"),
            );
        }
    }

    fn check_union(
        &mut self,
        map: &'a Map<String, Value>,
        branches: &'a Value,
        path: &Pointer,
        level: usize,
    ) {
        for key in map
            .keys()
            .filter(|k| !matches!(k.as_str(), "anyOf" | "description"))
            .filter(|k| SUPPORTED.contains(&k.as_str()))
        {
            self.report(
                &path.key(key),
                StrictRule::UnionSiblings,
                format!("`{key}` cannot stand beside `anyOf`; move it into the branches"),
            );
        }
        match branches {
            Value::Array(branches) if !branches.is_empty() => {
                for (i, branch) in branches.iter().enumerate() {
                    self.check(branch, &path.key("anyOf").index(i), level + 1, false);
                }
            }
            _ => self.report(
                &path.key("anyOf"),
                StrictRule::Malformed,
                "`anyOf` must be a non-empty array of schemas",
            ),
        }
    }

    fn check_typed(&mut self, map: &'a Map<String, Value>, path: &Pointer, level: usize) {
        let types = match map.get("type") {
            Some(types) if valid_type(types) => types.clone(),
            Some(_) => {
                self.report(
                    &path.key("type"),
                    StrictRule::Malformed,
                    "`type` must be a JSON Schema type name or an array of distinct ones",
                );
                Value::Null
            }
            None => {
                self.report(
                    path,
                    StrictRule::AnyValue,
                    "this schema has no `type` (and no `anyOf` or `$ref`)",
                );
                Value::Null
            }
        };
        if type_has(&types, "object") || map.contains_key("properties") {
            self.check_object(map, path, level);
        }
        if type_has(&types, "array") {
            match map.get("items") {
                Some(items) => self.check(items, &path.key("items"), level + 1, false),
                None => self.report(path, StrictRule::AnyValue, "an array needs `items`"),
            }
        } else if let Some(items) = map.get("items") {
            self.check(items, &path.key("items"), level + 1, false);
        }
        if let Some(format) = map.get("format")
            && !format
                .as_str()
                .is_some_and(|f| SUPPORTED_FORMATS.contains(&f))
        {
            let shown = format
                .as_str()
                .map_or("that is not a string".to_owned(), |f| format!("{f:?}"));
            self.report(
                &path.key("format"),
                StrictRule::UnsupportedFormat,
                format!(
                    "format {shown} is not supported; use one of {}",
                    SUPPORTED_FORMATS.join(", ")
                ),
            );
        }
        self.check_sound(map, &types, path);
        if let Some(values) = map.get("enum") {
            self.check_enum(values, &types, path);
        }
        if let Some(value) = map.get("const") {
            self.characters += value_characters(value);
        }
    }

    /// What no value could satisfy or OpenAI's engine refuses, though every
    /// keyword is supported.
    fn check_sound(&mut self, map: &Map<String, Value>, types: &Value, path: &Pointer) {
        let known_type = if types.is_null() { None } else { Some(types) };
        let checks = [
            // Bounds that cross each other are one violation, not two.
            check_bounds(map, path).and_then(|()| {
                known_type.map_or(Ok(()), |types| check_number_range(map, types, path))
            }),
            check_values(map, known_type, path),
            known_type.map_or(Ok(()), |types| check_string_keywords(map, types, path)),
        ];
        self.violations
            .extend(checks.into_iter().filter_map(Result::err));
        let at = path.key("pattern");
        match map.get("pattern").map(|p| p.as_str().map(judge_pattern)) {
            None | Some(Some(PatternVerdict::Supported)) => {}
            Some(None) => self.report(&at, StrictRule::Malformed, "`pattern` must be a string"),
            Some(Some(PatternVerdict::Invalid(why))) => {
                self.violations.push(invalid_pattern(&at, &why));
            }
            Some(Some(PatternVerdict::Unsupported(what))) => self.report(
                &at,
                StrictRule::UnsupportedPattern,
                format!(
                    "OpenAI's regex engine does not support {what}; state the rule in \
                     `description` and check it in the tool"
                ),
            ),
        }
    }

    fn check_object(&mut self, map: &'a Map<String, Value>, path: &Pointer, level: usize) {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            self.report(
                path,
                StrictRule::OpenObject,
                "the object is not closed; add `\"additionalProperties\": false`",
            );
        }
        let required: Vec<&str> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let properties = match map.get("properties") {
            Some(Value::Object(properties)) => properties,
            Some(_) => {
                self.report(
                    &path.key("properties"),
                    StrictRule::Malformed,
                    "`properties` must be an object",
                );
                return;
            }
            None => {
                if !required.is_empty() {
                    self.report(
                        &path.key("required"),
                        StrictRule::NotRequired,
                        "`required` names properties the object does not have",
                    );
                }
                return;
            }
        };
        for name in &required {
            if !properties.contains_key(*name) {
                self.report(
                    &path.key("required"),
                    StrictRule::NotRequired,
                    format!("`required` names `{name}`, which is not a property"),
                );
            }
        }
        let listed: HashSet<&str> = required.iter().copied().collect();
        for (name, schema) in properties {
            self.properties += 1;
            self.characters += name.chars().count();
            let at = path.key("properties").key(name);
            if !listed.contains(name.as_str()) {
                self.report(
                    &at,
                    StrictRule::NotRequired,
                    format!(
                        "property `{name}` is not in `required`; list it there, and make it \
                         nullable if it is optional"
                    ),
                );
            }
            self.check(schema, &at, level + 1, false);
        }
    }

    fn check_enum(&mut self, values: &Value, types: &Value, path: &Pointer) {
        let at = path.key("enum");
        let Value::Array(values) = values else {
            self.report(&at, StrictRule::Malformed, "`enum` must be an array");
            return;
        };
        self.enum_values += values.len();
        let characters: usize = values.iter().map(value_characters).sum();
        self.characters += characters;
        if type_has(types, "null") && !values.contains(&Value::Null) {
            self.report(
                &at,
                StrictRule::Malformed,
                "the `type` admits `null` but the `enum` does not list it; add `null` to the \
                 values",
            );
        }
        let string_characters: usize = values
            .iter()
            .filter_map(Value::as_str)
            .map(|s| s.chars().count())
            .sum();
        if values.len() > LONG_ENUM_VALUES && string_characters > LONG_ENUM_CHARACTERS {
            self.report(
                &at,
                StrictRule::EnumTooLong,
                format!(
                    "this enum has {} values with {string_characters} characters; OpenAI allows \
                     at most {LONG_ENUM_CHARACTERS} characters in an enum of more than \
                     {LONG_ENUM_VALUES} values; take the value as a validated string",
                    values.len()
                ),
            );
        }
    }
}

fn valid_type(types: &Value) -> bool {
    let names: Vec<&Value> = match types {
        Value::String(_) => vec![types],
        Value::Array(names) if !names.is_empty() => names.iter().collect(),
        _ => return false,
    };
    names.iter().enumerate().all(|(i, name)| {
        name.as_str().is_some_and(|n| TYPES.contains(&n)) && !names[..i].contains(name)
    })
}

/// The characters an enum or const value counts for: a string's own, the
/// JSON text of another scalar (objects and arrays are violations of their
/// own and count nothing).
pub(crate) fn value_characters(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        Value::Array(_) | Value::Object(_) => 0,
        other => other.to_string().chars().count(),
    }
}
