//! JSON Schema in words: the type of a value as the model sees it, the
//! values of an enum and a property's constraints. Shared by the Markdown
//! docs and the lock file's change messages.

use serde_json::{Map, Value};

use crate::parse::formats;

/// How deep `$ref`s and nested types are followed before giving up.
const MAX_DEPTH: usize = 16;

/// The schema `$ref` points to inside `root` (`#/$defs/Name`,
/// `#/definitions/Name` or any JSON pointer), if it resolves.
pub fn resolve_ref<'a>(reference: &str, root: &'a Value) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    let pointer = pointer.replace("~1", "/").replace("~0", "~");
    root.pointer(&pointer)
}

/// The last segment of a `$ref`: the type's name (`Money` for `#/$defs/Money`).
pub fn ref_name(reference: &str) -> &str {
    reference.rsplit('/').next().unwrap_or(reference)
}

/// Follows `$ref` chains from `schema`; stops at a cycle or a dangling ref.
pub fn follow<'a>(mut schema: &'a Value, root: &'a Value) -> &'a Value {
    for _ in 0..MAX_DEPTH {
        match schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve_ref(r, root))
        {
            Some(target) => schema = target,
            None => return schema,
        }
    }
    schema
}

/// Splits a nullable schema into whether it accepts null and the schema of
/// its non-null values: `{"type": ["string", "null"]}` gives `(true,
/// {"type": "string", ...})`, `{"anyOf": [X, {"type": "null"}]}` gives `(true, X)`.
pub fn split_null(schema: &Value) -> (bool, Value) {
    let Some(object) = schema.as_object() else {
        return (false, schema.clone());
    };
    let mut core = object.clone();
    let mut nullable = false;
    if let Some(Value::Array(types)) = object.get("type")
        && types.iter().any(|t| t == "null")
    {
        nullable = true;
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match rest.len() {
            1 => core.insert("type".into(), rest[0].clone()),
            _ => core.insert("type".into(), Value::Array(rest)),
        };
    }
    if let Some(Value::Array(values)) = object.get("enum")
        && values.contains(&Value::Null)
        && (nullable || values.len() >= 2)
    {
        nullable = true;
        let rest: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        core.insert("enum".into(), Value::Array(rest));
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(keyword) {
            let is_null = |b: &Value| b.get("type").is_some_and(|t| t == "null");
            if branches.len() >= 2 && branches.iter().any(is_null) {
                nullable = true;
                let rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
                core.remove(keyword);
                if rest.len() == 1 {
                    if let Some(branch) = rest[0].as_object() {
                        for (key, value) in branch {
                            core.entry(key.clone()).or_insert_with(|| value.clone());
                        }
                    }
                } else {
                    core.insert(keyword.into(), Value::Array(rest));
                }
            }
        }
    }
    (nullable, Value::Object(core))
}

/// One allowed value of an enum with its description, if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    /// The value as JSON.
    pub value: Value,
    /// What the value means, from the schema's `description`.
    pub description: Option<String>,
}

/// The values of an enum-like schema (`enum`, `const`, or a `oneOf`/`anyOf`
/// of those), following `$ref`s; `None` when the schema is not an enum.
pub fn enum_values(schema: &Value, root: &Value) -> Option<Vec<EnumValue>> {
    enum_values_at(schema, root, 0)
}

fn enum_values_at(schema: &Value, root: &Value, depth: usize) -> Option<Vec<EnumValue>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let schema = follow(schema, root);
    let object = schema.as_object()?;
    let description = || {
        object
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    if let Some(Value::Array(values)) = object.get("enum") {
        return Some(
            values
                .iter()
                .map(|value| EnumValue {
                    value: value.clone(),
                    description: None,
                })
                .collect(),
        );
    }
    if let Some(value) = object.get("const") {
        return Some(vec![EnumValue {
            value: value.clone(),
            description: description(),
        }]);
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = object.get(keyword) {
            let mut values = Vec::new();
            for branch in branches {
                values.extend(enum_values_at(branch, root, depth + 1)?);
            }
            return (!values.is_empty()).then_some(values);
        }
    }
    None
}

/// A value as written in docs and messages: strings bare, others as JSON.
pub fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The type of a value as the model sees it: `string`, `integer`,
/// `array of string`, `Money object`, `"a" | "b"`, `string | null`.
pub fn model_type(schema: &Value, root: &Value) -> String {
    describe(schema, root, 0)
}

fn describe(schema: &Value, root: &Value, depth: usize) -> String {
    if depth > MAX_DEPTH {
        return "any".to_owned();
    }
    let object = match schema {
        Value::Bool(true) => return "any".to_owned(),
        Value::Bool(false) => return "nothing".to_owned(),
        Value::Object(object) => object,
        _ => return "any".to_owned(),
    };
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        let Some(target) = resolve_ref(reference, root) else {
            return ref_name(reference).to_owned();
        };
        if enum_values(target, root).is_none() && is_object(target) {
            return format!("{} object", ref_name(reference));
        }
        return describe(target, root, depth + 1);
    }
    if let Some(values) = enum_values(schema, root) {
        return join_alternatives(values.iter().map(|v| v.value.to_string()).collect());
    }
    for keyword in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(keyword) {
            let parts = branches
                .iter()
                .map(|b| describe(b, root, depth + 1))
                .collect();
            return join_alternatives(parts);
        }
    }
    if let Some(Value::Array(all)) = object.get("allOf")
        && let [only] = all.as_slice()
    {
        return describe(only, root, depth + 1);
    }
    match object.get("type") {
        Some(Value::String(ty)) => describe_type(ty, object, root, depth),
        Some(Value::Array(types)) => join_alternatives(
            types
                .iter()
                .filter_map(Value::as_str)
                .map(|ty| describe_type(ty, object, root, depth))
                .collect(),
        ),
        _ if object.contains_key("properties") => "object".to_owned(),
        _ if object.contains_key("items") => describe_type("array", object, root, depth),
        _ => "any".to_owned(),
    }
}

fn describe_type(ty: &str, object: &Map<String, Value>, root: &Value, depth: usize) -> String {
    match ty {
        "array" => match object.get("items") {
            Some(items) => {
                let inner = describe(items, root, depth + 1);
                if inner.contains(" | ") {
                    format!("array of ({inner})")
                } else {
                    format!("array of {inner}")
                }
            }
            None => "array".to_owned(),
        },
        "object" => match object.get("additionalProperties") {
            Some(values @ Value::Object(_)) if !object.contains_key("properties") => {
                format!("map of string to {}", describe(values, root, depth + 1))
            }
            _ => match object.get("title").and_then(Value::as_str) {
                Some(title) => format!("{title} object"),
                None => "object".to_owned(),
            },
        },
        other => other.to_owned(),
    }
}

/// Joins alternatives with ` | `, dropping repeats and putting `null` last.
fn join_alternatives(parts: Vec<String>) -> String {
    let mut unique: Vec<String> = Vec::new();
    for part in parts {
        if !unique.contains(&part) {
            unique.push(part);
        }
    }
    if let Some(i) = unique.iter().position(|p| p == "null") {
        let null = unique.remove(i);
        unique.push(null);
    }
    unique.join(" | ")
}

fn is_object(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(ty)) => ty == "object",
        Some(_) => false,
        None => schema.get("properties").is_some(),
    }
}

/// The constraints a property's schema states, in words: `1 to 64
/// characters`, `at least 5`, `matches ^[A-Z]+$`, `a UUID`.
///
/// Pattern texts are returned as is; the caller decides how to quote them.
pub fn constraint_words(schema: &Value) -> Vec<Limit> {
    let Some(object) = schema.as_object() else {
        return Vec::new();
    };
    let get = |key: &str| object.get(key).filter(|v| !v.is_null());
    let mut out = Vec::new();
    let number = |v: &Value| v.to_string();
    if let Some(words) = range(
        get("minLength").map(number),
        get("maxLength").map(number),
        ("character", "characters"),
    ) {
        out.push(Limit::Words(words));
    }
    if let Some(pattern) = get("pattern") {
        out.push(Limit::Pattern(value_text(pattern)));
    }
    if let Some(format) = get("format").and_then(Value::as_str) {
        out.push(Limit::Words(format_words(format)));
    }
    if let Some(words) = range(
        get("minimum").map(number),
        get("maximum").map(number),
        ("", ""),
    ) {
        out.push(Limit::Words(words));
    }
    if let Some(min) = get("exclusiveMinimum") {
        out.push(Limit::Words(format!("more than {min}")));
    }
    if let Some(max) = get("exclusiveMaximum") {
        out.push(Limit::Words(format!("less than {max}")));
    }
    if let Some(step) = get("multipleOf") {
        out.push(Limit::Words(format!("a multiple of {step}")));
    }
    if let Some(words) = range(
        get("minItems").map(number),
        get("maxItems").map(number),
        ("item", "items"),
    ) {
        out.push(Limit::Words(words));
    }
    if get("uniqueItems") == Some(&Value::Bool(true)) {
        out.push(Limit::Words("no repeated items".to_owned()));
    }
    out
}

/// One constraint in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// Plain words.
    Words(String),
    /// A regular expression the value must match.
    Pattern(String),
}

fn range(min: Option<String>, max: Option<String>, noun: (&str, &str)) -> Option<String> {
    let with_noun = |n: &str, text: String| {
        let noun = if n == "1" { noun.0 } else { noun.1 };
        if noun.is_empty() {
            text
        } else {
            format!("{text} {noun}")
        }
    };
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(with_noun(&max, format!("exactly {max}"))),
        (Some(min), Some(max)) => Some(with_noun(&max, format!("{min} to {max}"))),
        (Some(min), None) => Some(with_noun(&min, format!("at least {min}"))),
        (None, Some(max)) => Some(with_noun(&max, format!("at most {max}"))),
        (None, None) => None,
    }
}

/// A `format` in words: `a UUID`, `a 32-bit unsigned integer`.
fn format_words(format: &str) -> String {
    let integer = |bits: &str, signed: bool| {
        let sign = if signed { "signed" } else { "unsigned" };
        let article = if bits == "8" { "an" } else { "a" };
        format!("{article} {bits}-bit {sign} integer")
    };
    match format {
        "int8" | "int16" | "int32" | "int64" | "int128" => integer(&format[3..], true),
        "uint8" | "uint16" | "uint32" | "uint64" | "uint128" => integer(&format[4..], false),
        "float" => "a 32-bit float".to_owned(),
        "double" => "a 64-bit float".to_owned(),
        known if formats::SUPPORTED.contains(&known) => {
            // "a UUID such as ..." -> "a UUID"
            let words = formats::describe(known);
            words.split(" such as ").next().unwrap_or(words).to_owned()
        }
        other => format!("format {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn root() -> Value {
        json!({"$defs": {
            "Money": {"type": "object", "properties": {"amount_minor": {"type": "integer"}}},
            "Reason": {"oneOf": [
                {"type": "string", "const": "damaged", "description": "Broken."},
                {"type": "string", "const": "late"}
            ]},
            "Color": {"type": "string", "enum": ["red", "green"]},
            "Sku": {"type": "string", "minLength": 1}
        }})
    }

    #[test]
    fn types_read_as_the_model_sees_them() {
        let root = root();
        let cases = [
            (json!({"type": "string"}), "string"),
            (json!({"type": ["integer", "null"]}), "integer | null"),
            (
                json!({"type": "array", "items": {"type": "string"}}),
                "array of string",
            ),
            (
                json!({"type": "array", "items": {"type": ["string", "null"]}}),
                "array of (string | null)",
            ),
            (json!({"$ref": "#/$defs/Money"}), "Money object"),
            (
                json!({"anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]}),
                "Money object | null",
            ),
            (json!({"$ref": "#/$defs/Reason"}), "\"damaged\" | \"late\""),
            (
                json!({"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}]}),
                "\"red\" | \"green\" | null",
            ),
            (json!({"$ref": "#/$defs/Sku"}), "string"),
            (json!({"$ref": "#/$defs/Missing"}), "Missing"),
            (
                json!({"type": "object", "additionalProperties": {"type": "integer"}}),
                "map of string to integer",
            ),
            (
                json!({"type": "object", "title": "StockLevel"}),
                "StockLevel object",
            ),
            (json!(true), "any"),
            (json!({}), "any"),
        ];
        for (schema, expected) in cases {
            assert_eq!(model_type(&schema, &root), expected, "{schema}");
        }
    }

    #[test]
    fn a_ref_cycle_does_not_hang() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
        assert_eq!(model_type(&json!({"$ref": "#/$defs/A"}), &root), "any");
        assert_eq!(enum_values(&json!({"$ref": "#/$defs/A"}), &root), None);
    }

    #[test]
    fn enum_values_keep_their_descriptions() {
        let values = enum_values(&json!({"$ref": "#/$defs/Reason"}), &root()).unwrap();
        assert_eq!(
            values,
            vec![
                EnumValue {
                    value: json!("damaged"),
                    description: Some("Broken.".into())
                },
                EnumValue {
                    value: json!("late"),
                    description: None
                },
            ]
        );
    }

    #[test]
    fn nullable_schemas_split() {
        assert_eq!(
            split_null(&json!({"type": ["string", "null"], "maxLength": 5})),
            (true, json!({"type": "string", "maxLength": 5}))
        );
        assert_eq!(
            split_null(
                &json!({"description": "d", "anyOf": [{"$ref": "#/$defs/M"}, {"type": "null"}]})
            ),
            (true, json!({"description": "d", "$ref": "#/$defs/M"}))
        );
        assert_eq!(
            split_null(&json!({"enum": ["a", null]})),
            (true, json!({"enum": ["a"]}))
        );
        assert_eq!(
            split_null(&json!({"type": "string"})),
            (false, json!({"type": "string"}))
        );
    }

    #[test]
    fn constraints_in_words() {
        let words = |schema: Value| -> Vec<String> {
            constraint_words(&schema)
                .into_iter()
                .map(|c| match c {
                    Limit::Words(w) => w,
                    Limit::Pattern(p) => format!("matches {p}"),
                })
                .collect()
        };
        assert_eq!(
            words(json!({"minLength": 1, "maxLength": 64, "pattern": "^[A-Z]$"})),
            ["1 to 64 characters", "matches ^[A-Z]$"]
        );
        assert_eq!(words(json!({"minLength": 1})), ["at least 1 character"]);
        assert_eq!(words(json!({"maxLength": 1})), ["at most 1 character"]);
        assert_eq!(
            words(json!({"format": "uint32", "minimum": 5, "maximum": 1440})),
            ["a 32-bit unsigned integer", "5 to 1440"]
        );
        assert_eq!(words(json!({"format": "uuid"})), ["a UUID"]);
        assert_eq!(
            words(json!({"format": "int8"})),
            ["an 8-bit signed integer"]
        );
        assert_eq!(
            words(json!({"format": "int64"})),
            ["a 64-bit signed integer"]
        );
        assert_eq!(
            words(json!({"format": "date-time"})),
            ["an RFC 3339 date-time"]
        );
        assert_eq!(words(json!({"format": "color"})), ["format color"]);
        assert_eq!(
            words(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1.5, "multipleOf": 0.5})),
            ["more than 0", "less than 1.5", "a multiple of 0.5"]
        );
        assert_eq!(
            words(json!({"minItems": 2, "maxItems": 2, "uniqueItems": true})),
            ["exactly 2 items", "no repeated items"]
        );
        assert_eq!(words(json!({"minimum": -3})), ["at least -3"]);
    }
}
