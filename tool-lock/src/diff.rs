//! What changed between two recorded contracts, and how big a version bump
//! each change needs.

use serde_json::Value;

use crate::change::{Bump, Change, ChangeKind, keys, push};
use crate::entry::LockedTool;
use crate::schema_diff::{Side, diff_schema};
use tool_core::words::code;
use tool_core::words::describe::value_text;

/// The changes from `old` to `new`, most important parts first; no repeats.
/// When the schemas differ only in form (a type renamed in `$defs`), one
/// patch-level change says so; when nothing but the version differs, none.
pub(crate) fn diff(old: &LockedTool, new: &LockedTool) -> Vec<Change> {
    let mut changes = Vec::new();
    diff_policy(&old.policy, &new.policy, &mut changes);
    for (side, old_root, new_root) in [
        (Side::Input, &old.input_schema, &new.input_schema),
        (Side::Output, &old.output_schema, &new.output_schema),
    ] {
        changes.extend(diff_schema(
            side, old_root, new_root, &old.units, &new.units,
        ));
    }
    diff_errors(&old.errors, &new.errors, &mut changes);
    diff_deprecation(
        old.deprecation.as_ref(),
        new.deprecation.as_ref(),
        &mut changes,
    );
    if old.description != new.description {
        push(
            &mut changes,
            ChangeKind::DescriptionChanged,
            Bump::Patch,
            "tool description changed".into(),
        );
    }
    if old.examples != new.examples {
        // Examples show the model what to send; the contract takes what it
        // took before.
        push(
            &mut changes,
            ChangeKind::DescriptionChanged,
            Bump::Patch,
            "tool examples changed".into(),
        );
    }
    let mut unique: Vec<Change> = Vec::new();
    for change in changes {
        if !unique.contains(&change) {
            unique.push(change);
        }
    }
    let same_content = old.input_schema == new.input_schema
        && old.output_schema == new.output_schema
        && old.units == new.units;
    if unique.is_empty() && !same_content {
        push(
            &mut unique,
            ChangeKind::SchemaChanged,
            Bump::Patch,
            "the schemas changed without changing the values they allow \
             (a renamed or reorganised type)"
                .to_owned(),
        );
    }
    unique
}

/// Policy keys in the order their changes are listed: the weightiest first.
const POLICY_ORDER: &[&str] = &[
    "effect",
    "approval",
    "idempotency",
    "data_class",
    "open_world",
    "timeout_ms",
];

fn diff_policy(old: &Value, new: &Value, changes: &mut Vec<Change>) {
    let mut keys = keys(old, new);
    keys.sort_by_key(|k| {
        POLICY_ORDER
            .iter()
            .position(|p| p == k)
            .unwrap_or(POLICY_ORDER.len())
    });
    for key in keys {
        let (a, b) = (old.get(&key), new.get(&key));
        if a == b {
            continue;
        }
        let show = |v: Option<&Value>| policy_text(&key, v);
        let (kind, bump, name) = match key.as_str() {
            "effect" => (ChangeKind::EffectChanged, Bump::Major, "effect"),
            "approval" => (ChangeKind::ApprovalChanged, Bump::Major, "approval"),
            "timeout_ms" => (ChangeKind::PolicyChanged, Bump::Patch, "timeout"),
            "idempotency" => (ChangeKind::PolicyChanged, Bump::Major, "idempotency"),
            "data_class" => (ChangeKind::PolicyChanged, Bump::Major, "data class"),
            "open_world" => (ChangeKind::PolicyChanged, Bump::Major, "open world"),
            other => (ChangeKind::PolicyChanged, Bump::Major, other),
        };
        let message = format!("{name} changed from {} to {}", show(a), show(b));
        push(changes, kind, bump, message);
    }
}

fn policy_text(key: &str, value: Option<&Value>) -> String {
    match (key, value) {
        ("timeout_ms", Some(Value::Number(ms))) => format!("{ms} ms"),
        ("timeout_ms", _) => "the runtime's default".to_owned(),
        ("idempotency", Some(v)) => {
            let kind = v.get("kind").map(value_text).unwrap_or_default();
            match v.get("field") {
                Some(field) => code(&format!("{kind} by {}", value_text(field))),
                None => code(&kind),
            }
        }
        (_, Some(v)) => code(&value_text(v)),
        (_, None) => "nothing".to_owned(),
    }
}

/// A version marked deprecated, no longer deprecated, or given another
/// sunset or note: a minor bump each (semver's rule for a deprecation),
/// so the lock moves with the version.
fn diff_deprecation(old: Option<&Value>, new: Option<&Value>, changes: &mut Vec<Change>) {
    let sunset = |v: &Value| v.get("sunset").map(value_text).unwrap_or_default();
    let message = match (old, new) {
        (None, Some(new)) => format!("deprecated, with the sunset {}", sunset(new)),
        (Some(_), None) => "no longer deprecated".to_owned(),
        (Some(old), Some(new)) if sunset(old) != sunset(new) => format!(
            "deprecation sunset moved from {} to {}",
            sunset(old),
            sunset(new)
        ),
        (Some(old), Some(new)) if old != new => "deprecation note changed".to_owned(),
        _ => return,
    };
    push(
        changes,
        ChangeKind::DeprecationChanged,
        Bump::Minor,
        message,
    );
}

fn diff_errors(old: &Value, new: &Value, changes: &mut Vec<Change>) {
    for key in keys(old, new) {
        let name = code(&key);
        match (old.get(&key), new.get(&key)) {
            (None, Some(_)) => push(
                changes,
                ChangeKind::ErrorCodeAdded,
                Bump::Minor,
                format!("error code {name} added"),
            ),
            (Some(_), None) => push(
                changes,
                ChangeKind::ErrorCodeRemoved,
                Bump::Major,
                format!("error code {name} removed"),
            ),
            (Some(a), Some(b)) => {
                if a.get("meaning") != b.get("meaning") {
                    let message = format!("meaning of error code {name} changed");
                    push(changes, ChangeKind::ErrorCodeChanged, Bump::Patch, message);
                }
                for part in ["category", "recovery"] {
                    if a.get(part) != b.get(part) {
                        let text = |v: Option<&Value>| match v {
                            Some(Value::String(s)) => code(s),
                            _ => "none".to_owned(),
                        };
                        let message = format!(
                            "{part} of error code {name} changed from {} to {}",
                            text(a.get(part)),
                            text(b.get(part))
                        );
                        push(changes, ChangeKind::ErrorCodeChanged, Bump::Minor, message);
                    }
                }
            }
            (None, None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tool_core::Version;

    fn tool(input: Value, output: Value) -> LockedTool {
        LockedTool {
            version: Version::new(1, 0, 0),
            deprecation: None,
            fingerprint: String::new(),
            description: "Do one thing.".into(),
            policy: json!({"effect": "write", "idempotency": {"kind": "idempotent"},
                "approval": "none", "timeout_ms": 2000, "open_world": false,
                "data_class": "internal"}),
            errors: json!({}),
            units: Default::default(),
            input_schema: input,
            output_schema: output,
            examples: Vec::new(),
        }
    }

    fn object(properties: Value, required: &[&str]) -> Value {
        json!({"type": "object", "properties": properties, "required": required,
            "additionalProperties": false})
    }

    fn texts(old: &LockedTool, new: &LockedTool) -> Vec<String> {
        diff(old, new).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn nested_fields_are_named_by_their_path() {
        let address = |defs: Value| {
            let mut input = object(
                json!({"address": {"$ref": "#/$defs/Address"}}),
                &["address"],
            );
            input["$defs"] = json!({ "Address": defs });
            input
        };
        let old = tool(
            address(object(
                json!({"street": {"type": "string"},
                "zip": {"type": ["string", "null"]}}),
                &["street"],
            )),
            json!({"type": "string"}),
        );
        let new = tool(
            address(object(
                json!({"zip": {"type": "string"},
                "country": {"type": ["string", "null"]}}),
                &["zip"],
            )),
            json!({"type": "string"}),
        );
        assert_eq!(
            texts(&old, &new),
            [
                "field `address.street` removed (major)",
                "field `address.country` added as optional (minor)",
                "field `address.zip` made required (major)",
            ]
        );
    }

    #[test]
    fn outputs_count_in_the_other_direction() {
        let old = tool(
            object(json!({}), &[]),
            object(
                json!({"id": {"type": "string"}, "note": {"type": "string", "maxLength": 10},
                "left": {"type": "integer"}, "kept": {"type": ["string", "null"]}}),
                &["id", "note", "kept"],
            ),
        );
        let new = tool(
            object(json!({}), &[]),
            object(
                json!({"id": {"type": "string"}, "note": {"type": "string", "maxLength": 20},
                "added": {"type": "integer"}, "kept": {"type": ["string", "null"]}}),
                &["kept", "added"],
            ),
        );
        assert_eq!(
            texts(&old, &new),
            [
                "output field `left` removed (major)",
                "output field `added` added (minor)",
                "output field `id` made optional (major)",
                "output field `note` made optional (major)",
                "`maxLength` of output field `note` changed from 10 to 20 (major)",
            ]
        );
    }

    #[test]
    fn constraints_tighten_or_loosen_inputs() {
        let old = tool(
            object(
                json!({"note": {"type": "string", "maxLength": 500, "format": "email"},
                "qty": {"type": "integer", "minimum": 5}, "sku": {"type": "string"}}),
                &["note", "qty", "sku"],
            ),
            json!({"type": "string"}),
        );
        let new = tool(
            object(
                json!({"note": {"type": "string", "maxLength": 200},
                "qty": {"type": "integer", "minimum": 1}, "sku": {"type": "string", "pattern": "^A"}}),
                &["note", "qty", "sku"],
            ),
            json!({"type": "string"}),
        );
        assert_eq!(
            texts(&old, &new),
            [
                "`maxLength` of field `note` changed from 500 to 200 (major)",
                "`format` of field `note` removed (was `email`) (minor)",
                "`minimum` of field `qty` changed from 5 to 1 (minor)",
                "`pattern` of field `sku` set to `^A` (major)",
            ]
        );
    }

    #[test]
    fn nullability_items_variants_and_unknown_fields() {
        let old = tool(
            object(
                json!({"tags": {"type": "array", "items": {"type": "string"}},
                "flag": {"type": ["boolean", "null"]},
                "id": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}),
                &["tags"],
            ),
            json!({"type": "string"}),
        );
        let mut input = object(
            json!({"tags": {"type": "array", "items": {"type": ["string", "null"]}},
            "flag": {"type": "boolean"},
            "id": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]}}),
            &["tags"],
        );
        input
            .as_object_mut()
            .unwrap()
            .remove("additionalProperties");
        let new = tool(input, json!({"type": "string"}));
        assert_eq!(
            texts(&old, &new),
            [
                "field `tags[]` now accepts null (minor)",
                "field `flag` no longer accepts null (major)",
                "a variant added to field `id` (minor)",
                "the input accepts unknown fields (minor)",
            ]
        );
    }

    #[test]
    fn types_enum_descriptions_and_recursive_types() {
        let tree = |extra: bool| {
            let mut node = object(
                json!({"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}),
                &[],
            );
            if extra {
                node["properties"]["label"] = json!({"type": ["string", "null"]});
            }
            let mut input = object(
                json!({"tree": {"$ref": "#/$defs/Node"},
                "kind": {"$ref": "#/$defs/Kind"}}),
                &["tree", "kind"],
            );
            let a = if extra { "The first kind." } else { "Kind a." };
            input["$defs"] = json!({"Node": node, "Kind": {"oneOf": [
                {"type": "string", "const": "a", "description": a},
                {"type": "string", "const": "b"}]}});
            input
        };
        let old = tool(tree(false), json!({"type": "string"}));
        let new = tool(
            tree(true),
            json!({"type": "object", "title": "Stock", "properties": {}}),
        );
        assert_eq!(
            texts(&old, &new),
            [
                "field `tree.label` added as optional (minor)",
                "description of value `a` of field `kind` changed (patch)",
                "type of the output changed from `string` to `Stock object` (major)",
            ]
        );
    }

    #[test]
    fn policy_errors_and_description() {
        let mut old = tool(object(json!({}), &[]), json!({"type": "string"}));
        old.errors = json!({"GONE": {"meaning": "m", "category": null, "recovery": null},
            "KEPT": {"meaning": "m", "category": "upstream", "recovery": "retry"}});
        let mut new = old.clone();
        new.policy["timeout_ms"] = Value::Null;
        new.policy["idempotency"] = json!({"kind": "keyed", "field": "request_id"});
        new.policy["data_class"] = json!("restricted");
        new.policy["open_world"] = json!(true);
        new.errors = json!({"KEPT": {"meaning": "n", "category": "upstream", "recovery": "none"},
            "NEW": {"meaning": "m", "category": null, "recovery": null}});
        new.description = "Do one thing well.".into();
        assert_eq!(
            texts(&old, &new),
            [
                "idempotency changed from `idempotent` to `keyed by request_id` (major)",
                "data class changed from `internal` to `restricted` (major)",
                "open world changed from `false` to `true` (major)",
                "timeout changed from 2000 ms to the runtime's default (patch)",
                "error code `GONE` removed (major)",
                "meaning of error code `KEPT` changed (patch)",
                "recovery of error code `KEPT` changed from `retry` to `none` (minor)",
                "error code `NEW` added (minor)",
                "tool description changed (patch)",
            ]
        );
    }

    #[test]
    fn a_renamed_type_is_a_change_in_form_only() {
        let input = |name: &str| {
            let mut input = object(
                json!({"amount": {"$ref": format!("#/$defs/{name}")}}),
                &["amount"],
            );
            input["$defs"] = json!({ name: {"type": "integer"} });
            input
        };
        let old = tool(input("Money"), json!({"type": "string"}));
        let new = tool(input("Amount"), json!({"type": "string"}));
        assert_eq!(
            texts(&old, &new),
            [
                "the schemas changed without changing the values they allow (a renamed or reorganised type) (patch)"
            ]
        );
        assert!(diff(&old, &old).is_empty());
    }

    #[test]
    fn a_rename_needs_the_same_shape_and_presence() {
        let old = tool(
            object(json!({"sku": {"type": "string"}}), &["sku"]),
            json!({"type": "string"}),
        );
        let optional = tool(
            object(json!({"item": {"type": "string"}}), &[]),
            json!({"type": "string"}),
        );
        assert_eq!(
            texts(&old, &optional),
            [
                "field `sku` removed (major)",
                "field `item` added as optional (minor)"
            ]
        );
        let retyped = tool(
            object(json!({"item": {"type": "integer"}}), &["item"]),
            json!({"type": "string"}),
        );
        assert_eq!(
            texts(&old, &retyped),
            [
                "field `sku` removed (major)",
                "field `item` added as required (major)"
            ]
        );
    }

    #[test]
    fn nonsense_in_a_lock_entry_does_not_panic() {
        let odd = [
            json!(null),
            json!(7),
            json!("x"),
            json!([1, {"$ref": "#/nowhere"}]),
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}}),
            json!({"properties": 3, "required": "x", "items": [], "anyOf": {}, "enum": 1}),
        ];
        for a in &odd {
            for b in &odd {
                let mut old = tool(a.clone(), b.clone());
                old.policy = a.clone();
                old.errors = b.clone();
                let new = tool(b.clone(), a.clone());
                let _ = diff(&old, &new);
            }
        }
    }
}
