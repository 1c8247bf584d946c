//! Contract fingerprints: a SHA-256 over the canonical JSON of what a tool
//! promises, so any change to the wire contract changes the hash.

use serde_json::{Map, Value};

use super::deprecation::deprecation_json;
use super::errors::DeclaredError;
use super::policy::{Idempotency, Policy};
use super::tool_contract::ToolContract;
use super::version::Version;
use crate::outcome::{canonical_json, key_order, sha256_hex};

impl ToolContract {
    /// A stable SHA-256 fingerprint (64 lowercase hex digits) of the contract.
    ///
    /// It is the SHA-256 of the [canonical JSON](canonical_json) of
    /// `{"name", "version", "description", "policy", "errors",
    /// "input_schema", "output_schema"}` (and `"deprecation"`,
    /// `{"sunset", "note"}`, for a deprecated version, and `"examples"`, the
    /// list of example arguments, for a tool that declares some), where `policy` has
    /// the catalog's shape, `errors` maps each code to `{"meaning", "category",
    /// "recovery"}`, and in both schemas the set-valued keywords `required`
    /// and `type` are sorted. So neither the order of the struct's fields or
    /// error codes nor the key order a JSON library keeps changes it, and it
    /// is the same on every machine (a lock file's entry holds exactly these
    /// parts, so another tool can recompute it). Anything the model or the
    /// runtime can observe changes it, the version included.
    pub fn fingerprint(&self) -> String {
        let input = canonical_schema(self.input_schema());
        let output = canonical_schema(self.output_schema());
        let deprecation = self.deprecation().map(deprecation_json);
        let examples = self.example_values();
        fingerprint_of(
            self.name(),
            self.version(),
            self.description(),
            &policy_json(self.policy()),
            &errors_json(self.errors()),
            &input,
            &output,
            deprecation.as_ref(),
            &examples,
        )
    }
}

/// The fingerprint of a contract given as its parts (schemas canonical;
/// `deprecation` as [`deprecation_json`] writes it, for a deprecated
/// version; `examples` the example arguments, left out when empty, so the
/// fingerprint of a tool without examples is what it always was).
#[allow(clippy::too_many_arguments)]
pub fn fingerprint_of(
    name: &str,
    version: Version,
    description: &str,
    policy: &Value,
    errors: &Value,
    input_schema: &Value,
    output_schema: &Value,
    deprecation: Option<&Value>,
    examples: &[Value],
) -> String {
    let mut document = Map::new();
    document.insert("name".into(), Value::from(name));
    document.insert("version".into(), Value::from(version.to_string()));
    document.insert("description".into(), Value::from(description));
    document.insert("policy".into(), policy.clone());
    document.insert("errors".into(), errors.clone());
    document.insert("input_schema".into(), input_schema.clone());
    document.insert("output_schema".into(), output_schema.clone());
    if let Some(deprecation) = deprecation {
        document.insert("deprecation".into(), deprecation.clone());
    }
    if !examples.is_empty() {
        document.insert("examples".into(), Value::Array(examples.to_vec()));
    }
    sha256_hex(canonical_json(&Value::Object(document)).as_bytes())
}

/// The policy as JSON, in the shape the catalog and the lock file use:
/// `{"effect": "write", "idempotency": {"kind": "keyed", "field": "id"},
/// "approval": "none", "timeout_ms": 5000, "open_world": false,
/// "data_class": "internal"}`.
pub fn policy_json(policy: &Policy) -> Value {
    let mut idempotency = Map::new();
    let kind = match policy.idempotency() {
        Idempotency::Unspecified => "unspecified",
        Idempotency::Idempotent => "idempotent",
        Idempotency::NotIdempotent => "not_idempotent",
        Idempotency::Keyed { field } => {
            idempotency.insert("field".into(), Value::from(field));
            "keyed"
        }
    };
    idempotency.insert("kind".into(), Value::from(kind));
    let mut object = Map::new();
    object.insert("effect".into(), to_value(policy.effect()));
    object.insert("idempotency".into(), Value::Object(idempotency));
    object.insert("approval".into(), to_value(policy.approval()));
    object.insert("timeout_ms".into(), Value::from(policy.timeout_ms()));
    object.insert("open_world".into(), Value::from(policy.open_world()));
    object.insert("data_class".into(), to_value(policy.data_class()));
    Value::Object(object)
}

/// The declared errors as a JSON object keyed by code (so their order does
/// not matter): `{"CODE": {"meaning": "...", "category": null, "recovery": null}}`.
pub fn errors_json(errors: &[DeclaredError]) -> Value {
    let mut object = Map::new();
    for error in errors {
        let mut entry = Map::new();
        entry.insert("meaning".into(), Value::from(error.meaning()));
        entry.insert(
            "category".into(),
            Value::from(error.category().map(|c| c.as_str())),
        );
        entry.insert(
            "recovery".into(),
            Value::from(error.recovery().map(|r| r.as_str())),
        );
        object.insert(error.code().to_owned(), Value::Object(entry));
    }
    Value::Object(object)
}

/// A unit-only enum's snake_case name as JSON.
fn to_value<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// `value` with the keys of every object sorted (a `Value` keeps insertion
/// order with `preserve_order`, so this fixes the order it prints in).
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| key_order(a.0, b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        scalar => scalar.clone(),
    }
}

/// Keywords whose value is a map from names to subschemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is one subschema.
const SCHEMA_VALUES: &[&str] = &[
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];
/// Keywords whose value is a list of subschemas, in an order that may matter.
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// A JSON Schema in canonical form: keys sorted everywhere, and the values of
/// `required` and of a `type` list sorted, since JSON Schema reads them as
/// sets. Other arrays (`enum`, `oneOf`, ...) keep their order, which the
/// model reads. Values that are data rather than schemas (`const`,
/// `default`, `examples`) are only key-sorted.
pub fn canonical_schema(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_by(|a, b| key_order(a, b));
    for key in keys {
        let value = &map[key];
        let key_str = key.as_str();
        let canonical = if SCHEMA_MAPS.contains(&key_str) {
            match value {
                Value::Object(children) => {
                    let mut names: Vec<&String> = children.keys().collect();
                    names.sort_by(|a, b| key_order(a, b));
                    Value::Object(
                        names
                            .into_iter()
                            .map(|n| (n.clone(), canonical_schema(&children[n])))
                            .collect(),
                    )
                }
                other => sorted(other),
            }
        } else if SCHEMA_VALUES.contains(&key_str) {
            canonical_schema(value)
        } else if SCHEMA_LISTS.contains(&key_str) {
            match value {
                Value::Array(items) => Value::Array(items.iter().map(canonical_schema).collect()),
                other => sorted(other),
            }
        } else if key_str == "required" || key_str == "type" {
            match value {
                Value::Array(items) => {
                    let mut items: Vec<Value> = items.iter().map(sorted).collect();
                    items.sort_by_cached_key(canonical_json);
                    items.dedup();
                    Value::Array(items)
                }
                other => sorted(other),
            }
        } else {
            sorted(value)
        };
        out.insert(key.clone(), canonical);
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_and_keeps_arrays() {
        let value = json!({"z": [3, {"b": true, "a": "é\n"}], "a": 1.5, "m": null});
        assert_eq!(
            canonical_json(&value),
            r#"{"a":1.5,"m":null,"z":[3,{"a":"é\n","b":true}]}"#
        );
        // UTF-16 order puts a surrogate pair (U+1F600) before U+FF61.
        let value = json!({"\u{ff61}": 2, "\u{1f600}": 1});
        assert_eq!(canonical_json(&value), "{\"\u{1f600}\":1,\"\u{ff61}\":2}");
    }

    #[test]
    fn canonical_schema_sorts_sets_but_not_lists() {
        let schema = json!({
            "type": "object",
            "required": ["b", "a"],
            "properties": {
                "b": {"type": ["null", "string"], "enum": ["y", "x", null]},
                "a": {"oneOf": [{"const": "q"}, {"const": "p"}]},
            },
            "default": {"required": ["z", "y"]},
        });
        assert_eq!(
            canonical_json(&canonical_schema(&schema)),
            concat!(
                r#"{"default":{"required":["z","y"]},"properties":{"a":{"oneOf":[{"const":"q"},{"const":"p"}]},"#,
                r#""b":{"enum":["y","x",null],"type":["null","string"]}},"required":["a","b"],"type":"object"}"#
            )
        );
        let reordered = json!({
            "properties": {
                "a": {"oneOf": [{"const": "q"}, {"const": "p"}]},
                "b": {"enum": ["y", "x", null], "type": ["string", "null"]},
            },
            "default": {"required": ["z", "y"]},
            "required": ["a", "b"],
            "type": "object",
        });
        assert_eq!(canonical_schema(&schema), canonical_schema(&reordered));
    }
}
