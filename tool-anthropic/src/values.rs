//! Checks of single keywords and values for the strict compiler: types,
//! `enum`/`const` values, letter case, definition names.

use std::collections::HashMap;

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
