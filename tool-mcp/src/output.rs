//! The MCP dialect of a tool's output schema: the output type's schema
//! with its local `$ref`s inlined as the input schema's are (`schema.rs`)
//! and nothing else changed (a serialized `None` is `null`, so nulls
//! stay), wrapped as `{"value": ...}` when the peer needs an object root or
//! the output may be `null`.

use serde_json::{Map, Value};

use crate::schema::{Dialect, MAX_DEPTH, subschemas, subschemas_mut, take_defs};

/// The key under which a non-object output is wrapped for peers on a
/// revision that requires an object (`{"value": ...}`).
pub const VALUE_KEY: &str = "value";

/// The MCP `outputSchema` of an output type's root schema: local `$ref`s
/// inlined; when `object_root` is set and the root is not `type: "object"`,
/// wrapped as `{"type": "object", "properties": {"value": ...},
/// "required": ["value"], "additionalProperties": false}` (a root that
/// refers to itself moves into `$defs` first, so its `$ref`s still hold).
pub fn output_schema(type_schema: &Value, object_root: bool) -> Map<String, Value> {
    let mut root = match type_schema {
        Value::Object(object) => object.clone(),
        // `true` or `false`: any value, or none.
        other => {
            let mut any = Map::new();
            if other == &Value::Bool(false) {
                any.insert("not".into(), Value::Object(Map::new()));
            }
            any
        }
    };
    let wrap = wraps(type_schema, object_root);
    let meta_schema = root.shift_remove("$schema");
    let mut defs = take_defs(&mut root);
    if wrap && refers_to_root(&Value::Object(root.clone()), 0) {
        let name = unique_name(&defs, root.get("title").and_then(Value::as_str));
        let target = format!("#/$defs/{name}");
        let mut moved = Value::Object(std::mem::take(&mut root));
        retarget_root_refs(&mut moved, &target, 0);
        for def in defs.values_mut() {
            retarget_root_refs(def, &target, 0);
        }
        defs.insert(name, moved);
        root.insert("$ref".into(), Value::from(target));
    }
    let mut dialect = Dialect::new(defs, false);
    let body = dialect.object(&root, 0);
    let mut out = Map::new();
    if let Some(meta_schema) = meta_schema {
        out.insert("$schema".into(), meta_schema);
    }
    if wrap {
        let mut properties = Map::new();
        properties.insert(VALUE_KEY.into(), Value::Object(body));
        out.insert("type".into(), Value::from("object"));
        out.insert("properties".into(), Value::Object(properties));
        out.insert(
            "required".into(),
            Value::Array(vec![Value::from(VALUE_KEY)]),
        );
        out.insert("additionalProperties".into(), Value::Bool(false));
    } else {
        out.extend(body);
    }
    dialect.finish(&mut out);
    out
}

/// Whether the output of this type schema goes to the peer wrapped as
/// `{"value": ...}`: when its root is not `type: "object"` and the peer
/// requires an object (`object_root`, revisions before 2026-07-28), and
/// for any peer when the output may be `null` (an `Option` or `()`
/// output), since the official clients read `"structuredContent": null` as
/// missing and refuse the result.
pub fn wraps(type_schema: &Value, object_root: bool) -> bool {
    match type_schema {
        Value::Object(root) if is_object_root(root) => false,
        Value::Object(root) => object_root || may_be_null(root),
        _ => true,
    }
}

/// Whether a root schema admits `null`: `type` says so, a branch of
/// `anyOf`/`oneOf` is `null`, or it says nothing about type at all.
fn may_be_null(root: &Map<String, Value>) -> bool {
    let branch_is_null = ["anyOf", "oneOf"].iter().any(|key| match root.get(*key) {
        Some(Value::Array(branches)) => branches.iter().any(|branch| match branch {
            Value::Object(branch) => may_be_null(branch),
            other => other == &Value::Bool(true),
        }),
        _ => false,
    });
    match root.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        Some(_) => false,
        None => {
            branch_is_null
                || !["anyOf", "oneOf", "allOf", "$ref", "const", "enum", "not"]
                    .iter()
                    .any(|key| root.contains_key(*key))
        }
    }
}

/// Whether a peer that requires an object root accepts this output schema
/// as it is: its root says `type: "object"` (as rmcp checks it).
pub fn is_object_root(schema: &Map<String, Value>) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Whether `schema` holds a `$ref` to the document root (`#`).
fn refers_to_root(schema: &Value, depth: usize) -> bool {
    let Value::Object(object) = schema else {
        return false;
    };
    object.get("$ref").and_then(Value::as_str) == Some("#")
        || (depth < MAX_DEPTH && subschemas(object).any(|child| refers_to_root(child, depth + 1)))
}

/// Rewrites every `$ref: "#"` under `schema` to `target`.
fn retarget_root_refs(schema: &mut Value, target: &str, depth: usize) {
    let Value::Object(object) = schema else {
        return;
    };
    if object.get("$ref").and_then(Value::as_str) == Some("#") {
        object.insert("$ref".into(), Value::from(target));
    }
    if depth < MAX_DEPTH {
        for child in subschemas_mut(object) {
            retarget_root_refs(child, target, depth + 1);
        }
    }
}

/// A definition name not in `defs`, from the root's title.
fn unique_name(defs: &Map<String, Value>, title: Option<&str>) -> String {
    let base: String = title
        .unwrap_or("Output")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let base = if base.is_empty() {
        "Output".into()
    } else {
        base
    };
    let mut name = base.clone();
    let mut n = 2;
    while defs.contains_key(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}
