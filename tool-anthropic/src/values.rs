//! Checks of single keywords and values for the strict compiler: types,
//! `enum`/`const` values, letter case, definition names.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::error::{Pointer, StrictRule, StrictSchemaError};

/// `$defs/Name` or `definitions/Name` of a `$ref` that names a definition
/// directly: its container and (unescaped) name.
pub(crate) fn definition(reference: &str) -> Option<(&'static str, String)> {
    let rest = reference.strip_prefix("#/")?;
    let (container, name) = rest.split_once('/')?;
    let container = match container {
        "$defs" => "$defs",
        "definitions" => "definitions",
        _ => return None,
    };
    (!name.contains('/')).then(|| (container, name.replace("~1", "/").replace("~0", "~")))
}

/// A definition's name as a JSON pointer segment.
pub(crate) fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

pub(crate) fn any_value(at: &Pointer) -> StrictSchemaError {
    at.error(
        StrictRule::AnyValue,
        "a schema that accepts any JSON value has no strict form; give the value a type of its own",
    )
}

pub(crate) fn check_type(types: &Value, at: &Pointer) -> Result<(), StrictSchemaError> {
    const TYPES: [&str; 7] = [
        "object", "array", "string", "integer", "number", "boolean", "null",
    ];
    let known = |t: &Value| t.as_str().is_some_and(|t| TYPES.contains(&t));
    let ok = match types {
        Value::String(_) => known(types),
        Value::Array(list) => !list.is_empty() && list.iter().all(known),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(at.error(
            StrictRule::Malformed,
            format!("expected a JSON type or a list of them, got {types}"),
        ))
    }
}

pub(crate) fn primitive(value: &Value, at: &Pointer) -> Result<(), StrictSchemaError> {
    if value.is_object() || value.is_array() {
        return Err(at.error(
            StrictRule::ComplexEnum,
            format!(
                "{value} is an object or an array; strict tool use takes only strings, numbers, \
                 booleans and null as `enum` and `const` values (\"Complex types within enums\" \
                 are not supported): use an enum of names"
            ),
        ));
    }
    Ok(())
}

/// The string `const` and `enum` values a compiled branch allows.
pub(crate) fn strings_of(branch: &Value) -> Vec<&str> {
    let constant = branch.get("const").and_then(Value::as_str);
    let listed = branch
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    constant.into_iter().chain(listed).collect()
}

/// Refuses string values that differ only in letter case.
pub(crate) fn check_case<'v>(
    values: impl Iterator<Item = &'v str>,
    at: &Pointer,
) -> Result<(), StrictSchemaError> {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for value in values {
        if let Some(other) = seen.insert(value.to_lowercase(), value)
            && other != value
        {
            return Err(at.error(
                StrictRule::EnumCase,
                format!(
                    "{} and {} differ only in letter case; Anthropic does not guarantee the casing \
                     of enum values in strict mode (\"Structured outputs don't guarantee the \
                     capitalization of string `enum` and `const` values\"), so the parser, which \
                     matches them ignoring case, could not tell them apart: rename one",
                    Value::from(other),
                    Value::from(value)
                ),
            ));
        }
    }
    Ok(())
}

/// How many schemas the walk of [`check_case_by_position`] gathers before
/// it gives up and refuses the schema as too large to check. Each place is
/// walked once however often a definition is used there.
const MAX_CASE_WALK: usize = 200_000;

/// Refuses string values that differ only in letter case anywhere one value
/// of a call could be read against them: the `enum` and `const` values of
/// every alternative at one position (union branches, `$ref` targets, each
/// followed), and so on down through the properties of the same name and
/// the items of every alternative. The parser folds a mis-cased string
/// only when exactly one allowed value at its position matches it, so two
/// such values (`"Card"` in one tagged branch, `"card"` in another) would
/// leave the model's choice between them to chance.
pub(crate) fn check_case_by_position(root: &Value) -> Result<(), StrictSchemaError> {
    let mut walk = CaseWalk {
        root,
        budget: MAX_CASE_WALK,
        walked: HashSet::new(),
    };
    walk.position(vec![root], &Pointer::root())
}

/// The state of [`check_case_by_position`]: what is left of its budget and
/// the places already checked (by the schemas gathered there).
struct CaseWalk<'s> {
    root: &'s Value,
    budget: usize,
    walked: HashSet<Vec<*const Value>>,
}

impl<'s> CaseWalk<'s> {
    fn position(&mut self, schemas: Vec<&'s Value>, at: &Pointer) -> Result<(), StrictSchemaError> {
        let alternatives = self.alternatives(schemas, at)?;
        let mut key: Vec<*const Value> = alternatives.iter().map(|s| *s as *const Value).collect();
        key.sort_unstable();
        if !self.walked.insert(key) {
            return Ok(());
        }
        check_case(alternatives.iter().copied().flat_map(strings_of), at)?;
        let mut names: Vec<&str> = Vec::new();
        for map in &alternatives {
            if let Some(Value::Object(properties)) = map.get("properties") {
                for name in properties.keys() {
                    if !names.contains(&name.as_str()) {
                        names.push(name);
                    }
                }
            }
        }
        for name in names {
            let members: Vec<&Value> = alternatives
                .iter()
                .filter_map(|map| map.get("properties")?.get(name))
                .collect();
            self.position(members, &at.key("properties").key(name))?;
        }
        let items: Vec<&Value> = alternatives
            .iter()
            .filter_map(|map| map.get("items").filter(|items| items.is_object()))
            .collect();
        if !items.is_empty() {
            self.position(items, &at.key("items"))?;
        }
        Ok(())
    }

    /// The schemas `schemas` stand for at one value: each, its `$ref`'s
    /// target and its `anyOf`/`oneOf`/`allOf` branches, each followed once.
    fn alternatives(
        &mut self,
        schemas: Vec<&'s Value>,
        at: &Pointer,
    ) -> Result<Vec<&'s Value>, StrictSchemaError> {
        let mut found: Vec<&Value> = Vec::new();
        let mut seen: HashSet<*const Value> = HashSet::new();
        let mut queue = schemas;
        queue.reverse();
        while let Some(schema) = queue.pop() {
            if self.budget == 0 {
                return Err(at.error(
                    StrictRule::TooLarge,
                    format!(
                        "the schema has too many places to check its enum values' letter case \
                         (more than {MAX_CASE_WALK} schemas); use fewer, smaller argument types"
                    ),
                ));
            }
            self.budget -= 1;
            if !schema.is_object() || !seen.insert(schema) {
                continue;
            }
            found.push(schema);
            if let Some(target) = schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| tool_core::words::describe::resolve_ref(r, self.root))
            {
                queue.push(target);
            }
            for key in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(branches)) = schema.get(key) {
                    queue.extend(branches.iter().rev());
                }
            }
        }
        Ok(found)
    }
}
