//! JSON Schema in words: the type of a value as the model sees it, the
//! values of an enum, and the keywords of a type's schema read into
//! [`Words`]. Shared by the Markdown docs, the lock file's change messages
//! and the provider adapters' description notes.

use serde_json::{Map, Value};
use tool_words::{Constraint, Keyword, Words};

use crate::contract::bound_from_json;

/// How deep `$ref`s and nested types are followed before giving up.
const MAX_DEPTH: usize = 16;

/// The one `$ref` resolver (`tool_core::refs`), where the words read
/// references with it.
pub use crate::refs::{percent_decoded, resolve_ref};

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

/// What a keyword's value should have been, when it is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A non-negative integer (`minLength`, `maxItems`, ...).
    Count,
    /// A number (`minimum`, `multipleOf`, ...).
    Number,
    /// A string (`pattern`, `format`, ...).
    String,
    /// `true` or `false` (`uniqueItems`, `deprecated`).
    Flag,
}

impl Expected {
    /// In words: `a non-negative integer`, `a number`, `a string`,
    /// `` `true` or `false` ``.
    pub fn what(self) -> &'static str {
        match self {
            Expected::Count => "a non-negative integer",
            Expected::Number => "a number",
            Expected::String => "a string",
            Expected::Flag => "`true` or `false`",
        }
    }
}

/// Reads one keyword of a type's schema into `words` (the schema of a
/// type has no typed contract, so its JSON is read): `Ok(true)` when the
/// words state it, `Ok(false)` for a keyword they do not (`type`,
/// `properties`, `description`, ...), `Err` when its value is malformed.
pub fn read_keyword<'a>(
    key: &str,
    value: &'a Value,
    words: &mut Words<'a>,
) -> Result<bool, Expected> {
    let count = || value.as_u64().ok_or(Expected::Count);
    let number = || match value {
        Value::Number(n) => Ok(bound_from_json(n)),
        _ => Err(Expected::Number),
    };
    let string = || value.as_str().ok_or(Expected::String);
    let flag = || value.as_bool().ok_or(Expected::Flag);
    match key {
        "minLength" => words.constraint(Constraint::MinLength(count()?)),
        "maxLength" => words.constraint(Constraint::MaxLength(count()?)),
        "pattern" => words.constraint(Constraint::Pattern(string()?)),
        "format" => words.constraint(Constraint::Format(string()?)),
        "minimum" => words.constraint(Constraint::Minimum(number()?)),
        "maximum" => words.constraint(Constraint::Maximum(number()?)),
        "minItems" => words.constraint(Constraint::MinItems(count()?)),
        "maxItems" => words.constraint(Constraint::MaxItems(count()?)),
        "exclusiveMinimum" => words.keyword(Keyword::ExclusiveMinimum(number()?)),
        "exclusiveMaximum" => words.keyword(Keyword::ExclusiveMaximum(number()?)),
        "multipleOf" => words.keyword(Keyword::MultipleOf(number()?)),
        "uniqueItems" if flag()? => words.keyword(Keyword::UniqueItems),
        "deprecated" if flag()? => words.keyword(Keyword::Deprecated),
        "uniqueItems" | "deprecated" => words,
        "contentEncoding" => words.keyword(Keyword::ContentEncoding(string()?)),
        "contentMediaType" => words.keyword(Keyword::ContentMediaType(string()?)),
        "examples" => words.keyword(Keyword::Examples(match value {
            Value::Array(values) => values.iter().map(Value::to_string).collect(),
            other => vec![other.to_string()],
        })),
        _ => return Ok(false),
    };
    Ok(true)
}

/// The words of a type's schema: each keyword [`read_keyword`] knows;
/// malformed values are left out.
pub fn schema_words(schema: &Value) -> Words<'_> {
    let mut words = Words::new();
    for (key, value) in schema.as_object().into_iter().flatten() {
        let _ = read_keyword(key, value, &mut words);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_resolve_with_escaped_and_percent_encoded_names() {
        let root = serde_json::json!({"$defs": {"a/b~c": {"n": 1}, "Free Text": {"n": 2}}});
        assert_eq!(
            resolve_ref("#/$defs/a~1b~0c", &root),
            Some(&serde_json::json!({"n": 1}))
        );
        assert_eq!(
            resolve_ref("#/$defs/Free%20Text", &root),
            Some(&serde_json::json!({"n": 2}))
        );
        assert_eq!(resolve_ref("#/$defs/Free%2", &root), None);
        assert_eq!(resolve_ref("#/$defs/%FF", &root), None);
        assert_eq!(resolve_ref("other.json#/a", &root), None);
    }
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
    fn the_keywords_of_a_type_in_words() {
        let words = |schema: Value| schema_words(&schema).sentences();
        assert_eq!(
            words(json!({"minLength": 1, "maxLength": 64, "pattern": "^[A-Z]$"})),
            [
                "Between 1 and 64 characters.",
                "Matches the regular expression `^[A-Z]$`."
            ]
        );
        assert_eq!(
            words(json!({"type": "integer", "format": "uint32", "minimum": 0})),
            ["A whole number from 0 to 4294967295."]
        );
        assert_eq!(
            words(json!({"format": "uint32", "minimum": 5, "maximum": 1440})),
            ["From 5 to 1440."]
        );
        assert_eq!(
            words(json!({"format": "uuid"})),
            ["A UUID such as \"123e4567-e89b-12d3-a456-426614174000\"."]
        );
        assert_eq!(words(json!({"format": "color"})), ["Format: color."]);
        assert_eq!(
            words(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 1.5, "multipleOf": 0.5})),
            ["Greater than 0.", "Less than 1.5.", "A multiple of 0.5."]
        );
        assert_eq!(
            words(json!({"minItems": 2, "maxItems": 2, "uniqueItems": true})),
            ["Exactly 2 items.", "No duplicate items."]
        );
        assert_eq!(
            words(json!({"contentEncoding": "base64", "examples": ["a", 1], "deprecated": true})),
            ["Encoded as base64.", "Examples: \"a\", 1.", "Deprecated."]
        );
        assert_eq!(words(json!({"minimum": -3})), ["At least -3."]);
        assert!(words(json!({"uniqueItems": false, "deprecated": false})).is_empty());
        assert!(words(json!({"minLength": -1, "type": "string"})).is_empty());
        assert!(words(json!(true)).is_empty());
    }

    #[test]
    fn malformed_keywords_say_what_was_expected() {
        let cases = [
            ("minLength", json!(-1), Err(Expected::Count)),
            ("minimum", json!("1"), Err(Expected::Number)),
            ("pattern", json!(1), Err(Expected::String)),
            ("uniqueItems", json!(1), Err(Expected::Flag)),
            ("type", json!("string"), Ok(false)),
            ("maxItems", json!(3), Ok(true)),
        ];
        for (key, value, expected) in &cases {
            let mut words = Words::new();
            assert_eq!(read_keyword(key, value, &mut words), *expected, "{key}");
        }
        assert_eq!(Expected::Flag.what(), "`true` or `false`");
    }
}
