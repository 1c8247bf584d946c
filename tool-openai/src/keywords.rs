//! What strict mode does with each JSON Schema keyword: keep it, drop it,
//! state it in the description, or refuse the schema.

use serde_json::{Map, Number, Value};

use crate::error::{Pointer, StrictRule, StrictSchemaError};

/// The keywords OpenAI's strict mode accepts (Structured Outputs guide,
/// "Supported schemas").
pub(crate) const SUPPORTED: &[&str] = &[
    "type",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// The string formats strict mode accepts.
pub(crate) const SUPPORTED_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The JSON Schema type names.
pub(crate) const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// Annotations with no meaning for the model, or whose meaning the schema
/// already carries; the compiler drops them.
pub(crate) fn is_dropped(key: &str, is_root: bool) -> bool {
    matches!(
        key,
        "title" | "default" | "$schema" | "$comment" | "discriminator" | "readOnly" | "writeOnly"
    ) || key.starts_with("x-")
        || (is_root && key == "$id")
}

/// Keywords that strict mode does not accept but whose meaning a sentence in
/// the description can carry (the runtime still enforces them).
pub(crate) fn is_described(key: &str) -> bool {
    matches!(
        key,
        "minLength"
            | "maxLength"
            | "uniqueItems"
            | "examples"
            | "deprecated"
            | "contentEncoding"
            | "contentMediaType"
    )
}

/// Value constraints that strict mode accepts on a typed schema but that
/// cannot stand beside `$ref` or `anyOf`; there they move into the description.
pub(crate) fn is_constraint(key: &str) -> bool {
    matches!(
        key,
        "pattern"
            | "format"
            | "minimum"
            | "maximum"
            | "exclusiveMinimum"
            | "exclusiveMaximum"
            | "multipleOf"
            | "minItems"
            | "maxItems"
    )
}

/// The keywords the compiler understands, whatever it does with them.
fn is_known(key: &str) -> bool {
    SUPPORTED.contains(&key) || matches!(key, "oneOf" | "allOf" | "definitions")
}

/// Why strict mode cannot take `key`, if it cannot: the rule and the message.
pub(crate) fn refusal(key: &str, is_root: bool) -> Option<(StrictRule, String)> {
    named_refusal(key, is_root).or_else(|| is_unknown(key, is_root).then(|| unknown(key)))
}

/// Whether `key` is no keyword the compiler knows (at the root, such a key
/// may hold definitions that `$ref`s point into, as OpenAPI's `components`).
pub(crate) fn is_unknown(key: &str, is_root: bool) -> bool {
    named_refusal(key, is_root).is_none()
        && !(is_known(key) || is_dropped(key, is_root) || is_described(key))
}

fn unknown(key: &str) -> (StrictRule, String) {
    (
        StrictRule::UnsupportedKeyword,
        format!(
            "unknown keyword `{key}`, which strict mode rejects; remove it, or say what it \
             means in `description`"
        ),
    )
}

/// The keywords strict mode refuses by name, with the reason.
fn named_refusal(key: &str, is_root: bool) -> Option<(StrictRule, String)> {
    let refused = match key {
        "not" => (
            StrictRule::UnsupportedKeyword,
            "strict mode does not support `not`; describe the values to avoid in `description` \
             and reject them in the tool"
                .to_owned(),
        ),
        "if" | "then" | "else" => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode does not support conditional schemas (`{key}`); use `anyOf` with \
                 one object schema per case"
            ),
        ),
        "dependentRequired" | "dependentSchemas" | "dependencies" => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode does not support `{key}` (every property is always sent); make the \
                 dependent properties nullable and check the dependency in the tool"
            ),
        ),
        "patternProperties" | "propertyNames" => (
            StrictRule::OpenObject,
            format!(
                "`{key}` describes an open object (a map), which strict mode cannot express; \
                 list the keys as `properties`, or use an array of `{{key, value}}` objects"
            ),
        ),
        "unevaluatedProperties" | "unevaluatedItems" => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode does not support `{key}`; close objects with \
                 `additionalProperties: false` and give arrays one `items` schema"
            ),
        ),
        "prefixItems" | "additionalItems" => (
            StrictRule::Tuple,
            format!(
                "tuples (`{key}`) cannot be expressed in strict mode; use an object with one \
                 named property per position"
            ),
        ),
        "contains" | "minContains" | "maxContains" => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode does not support `{key}`; state the rule in `description` and check \
                 it in the tool"
            ),
        ),
        "minProperties" | "maxProperties" => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode sends every property of an object, so `{key}` cannot be expressed; \
                 state the rule in `description` and check it in the tool"
            ),
        ),
        "$anchor" | "$dynamicRef" | "$dynamicAnchor" | "$recursiveRef" | "$recursiveAnchor"
        | "$vocabulary" => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode does not support `{key}`; put the schema in the root `$defs` and \
                 refer to it with `\"$ref\": \"#/$defs/NAME\"`"
            ),
        ),
        "$id" if !is_root => (
            StrictRule::UnsupportedKeyword,
            format!(
                "strict mode does not support `{key}` here; put the schema in the root `$defs` \
                 and refer to it with `\"$ref\": \"#/$defs/NAME\"`"
            ),
        ),
        "$defs" | "definitions" if !is_root => (
            StrictRule::UnsupportedKeyword,
            format!(
                "`{key}` is only supported at the root; move these definitions into the root \
                 `$defs`"
            ),
        ),
        _ => return None,
    };
    Some(refused)
}

/// The first keyword of `map` that strict mode cannot take, as an error.
pub(crate) fn refuse_unsupported(
    map: &Map<String, Value>,
    path: &Pointer,
    is_root: bool,
) -> Result<(), StrictSchemaError> {
    for key in map.keys() {
        if let Some((rule, message)) = refusal(key, is_root) {
            return Err(path.key(key).error(rule, message));
        }
    }
    Ok(())
}

/// Like [`refuse_unsupported`], but only the keywords refused by name:
/// unknown keywords at the root are judged once the definitions are known.
pub(crate) fn refuse_named(
    map: &Map<String, Value>,
    path: &Pointer,
    is_root: bool,
) -> Result<(), StrictSchemaError> {
    for key in map.keys() {
        if let Some((rule, message)) = named_refusal(key, is_root) {
            return Err(path.key(key).error(rule, message));
        }
    }
    Ok(())
}

/// Whether a `type` value admits `null`.
pub(crate) fn type_has(types: &Value, name: &str) -> bool {
    match types {
        Value::String(t) => t == name,
        Value::Array(ts) => ts.iter().any(|t| t == name),
        _ => false,
    }
}

/// Checks a `type` value: one type name, or a non-empty array of distinct ones.
pub(crate) fn check_type(types: &Value, path: &Pointer) -> Result<(), StrictSchemaError> {
    let names: Vec<&Value> = match types {
        Value::String(_) => vec![types],
        Value::Array(ts) if !ts.is_empty() => ts.iter().collect(),
        _ => {
            return Err(path.error(
                StrictRule::Malformed,
                "`type` must be a type name or a non-empty array of type names; write e.g. \
                 `\"string\"` or `[\"string\", \"null\"]`",
            ));
        }
    };
    for (i, name) in names.iter().enumerate() {
        let known = name.as_str().filter(|n| TYPES.contains(n));
        let Some(known) = known else {
            return Err(path.error(
                StrictRule::Malformed,
                format!(
                    "{name} is not a JSON Schema type; use one of `string`, `number`, \
                     `integer`, `boolean`, `object`, `array`, `null`"
                ),
            ));
        };
        if names[..i]
            .iter()
            .any(|earlier| earlier.as_str() == Some(known))
        {
            return Err(path.error(
                StrictRule::Malformed,
                format!("`type` lists `{known}` twice; list each type once"),
            ));
        }
    }
    Ok(())
}

/// The JSON Schema type of a value.
pub(crate) fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The `type` that covers exactly the given scalar values, e.g. `"string"`
/// for `["a", "b"]`, `["string", "null"]` for `["a", null]`. `None` when a
/// value is an object or array.
pub(crate) fn type_of_values(values: &[Value]) -> Option<Value> {
    let mut types: Vec<&'static str> = Vec::new();
    for value in values {
        let t = type_of(value);
        if t == "array" || t == "object" {
            return None;
        }
        if !types.contains(&t) {
            types.push(t);
        }
    }
    if types.contains(&"number") {
        types.retain(|t| *t != "integer");
    }
    match types.as_slice() {
        [one] => Some(Value::from(*one)),
        _ => Some(Value::from(types)),
    }
}

/// A keyword value that must be a non-negative integer.
pub(crate) fn count(value: &Value, path: &Pointer) -> Result<u64, StrictSchemaError> {
    value.as_u64().ok_or_else(|| {
        path.error(
            StrictRule::Malformed,
            format!("expected a non-negative integer, got {value}"),
        )
    })
}

/// A keyword value that must be a number.
pub(crate) fn number<'v>(
    value: &'v Value,
    path: &Pointer,
) -> Result<&'v Number, StrictSchemaError> {
    match value {
        Value::Number(n) => Ok(n),
        _ => Err(path.error(
            StrictRule::Malformed,
            format!("expected a number, got {value}"),
        )),
    }
}

/// A keyword value that must be a string.
pub(crate) fn string<'v>(value: &'v Value, path: &Pointer) -> Result<&'v str, StrictSchemaError> {
    value.as_str().ok_or_else(|| {
        path.error(
            StrictRule::Malformed,
            format!("expected a string, got {value}"),
        )
    })
}

/// The error for a schema that accepts any JSON value.
pub(crate) fn any_value(path: &Pointer) -> StrictSchemaError {
    path.error(
        StrictRule::AnyValue,
        "this schema has no type and accepts any JSON value (`{}`, `true`, or \
         `serde_json::Value`), which strict mode cannot express; give it a type, or take the \
         value as a string that holds JSON",
    )
}

/// The `type` of a schema that does not give one, from the keywords it has.
pub(crate) fn infer_type(
    map: &Map<String, Value>,
    path: &Pointer,
) -> Result<Value, StrictSchemaError> {
    if ["properties", "required", "additionalProperties"]
        .iter()
        .any(|k| map.contains_key(*k))
    {
        return Ok(Value::from("object"));
    }
    if map.contains_key("items") {
        return Ok(Value::from("array"));
    }
    let values = match (map.get("enum"), map.get("const")) {
        (Some(Value::Array(values)), _) => values.clone(),
        (None, Some(value)) => vec![value.clone()],
        _ => return Err(any_value(path)),
    };
    type_of_values(&values).ok_or_else(|| {
        path.error(
            StrictRule::UnsupportedKeyword,
            "an `enum` or `const` of objects or arrays cannot be expressed in strict mode; use \
             string or number values",
        )
    })
}

/// Checks `enum`: a non-empty array.
pub(crate) fn check_enum<'m>(
    map: &'m Map<String, Value>,
    path: &Pointer,
) -> Result<Option<&'m Vec<Value>>, StrictSchemaError> {
    match map.get("enum") {
        None => Ok(None),
        Some(Value::Array(values)) if !values.is_empty() => Ok(Some(values)),
        Some(_) => Err(path.key("enum").error(
            StrictRule::Malformed,
            "`enum` must be a non-empty array of values",
        )),
    }
}

/// `type` without `"null"` when the `enum` or `const` beside it rules null
/// out anyway (`["string", "null"]` with `enum: ["a"]` accepts only "a").
pub(crate) fn consistent_type(
    types: &Value,
    values: Option<&Vec<Value>>,
    constant: Option<&Value>,
) -> Value {
    // An `enum` that lists `null` keeps it in the type (strict mode wants
    // both or neither); a `const` beside it narrows the values anyway.
    let null_ruled_out = match values {
        Some(values) => !values.contains(&Value::Null),
        None => constant.is_some_and(|c| !c.is_null()),
    };
    match types {
        Value::Array(names) if null_ruled_out && names.iter().any(|n| n == "null") => {
            let mut names: Vec<Value> = names.iter().filter(|n| *n != "null").cloned().collect();
            if names.len() == 1 {
                names.swap_remove(0)
            } else {
                Value::Array(names)
            }
        }
        Value::Array(names) if names.len() == 1 => names[0].clone(),
        other => other.clone(),
    }
}

/// The types a `type` value names, as a bit set (bit `i` for `TYPES[i]`).
pub(crate) fn type_bits(types: &Value) -> u8 {
    TYPES
        .iter()
        .enumerate()
        .filter(|(_, t)| type_has(types, t))
        .fold(0, |bits, (i, _)| bits | 1 << i)
}

/// The bit of one type name in [`type_bits`].
pub(crate) fn type_bit(name: &str) -> u8 {
    TYPES.iter().position(|t| *t == name).map_or(0, |i| 1 << i)
}
