//! The walk that compares two JSON Schemas of a tool (input or output) and
//! names each change with the version bump it needs.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::change::{Bump, Change, ChangeKind, keys, push, show};
use tool_core::outcome::canonical_json;
use tool_core::words::code;
use tool_core::words::describe::{enum_values, follow, model_type, split_null, value_text};

/// Which schema is compared: constraints and presence count in opposite
/// directions for what the model sends and what the tool returns.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// What the model sends.
    Input,
    /// What the tool returns.
    Output,
}

struct Cx<'a> {
    side: Side,
    old_root: &'a Value,
    new_root: &'a Value,
    old_units: &'a BTreeMap<String, String>,
    new_units: &'a BTreeMap<String, String>,
    visiting: Vec<(String, String)>,
    changes: Vec<Change>,
}

/// The changes from the schema `old_root` to `new_root`; `units` are those
/// of the tool's fields (input only).
pub(crate) fn diff_schema(
    side: Side,
    old_root: &Value,
    new_root: &Value,
    old_units: &BTreeMap<String, String>,
    new_units: &BTreeMap<String, String>,
) -> Vec<Change> {
    let mut cx = Cx {
        side,
        old_root,
        new_root,
        old_units,
        new_units,
        visiting: Vec::new(),
        changes: Vec::new(),
    };
    match side {
        // The input is always an object: no description or null of its own.
        Side::Input => cx.shape(old_root, new_root, ""),
        Side::Output => cx.node(old_root, new_root, "", true),
    }
    cx.changes
}

/// Keywords that only annotate: a change is a patch.
const ANNOTATIONS: &[&str] = &[
    "title",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];
/// Lower bounds: a larger value allows fewer values.
const LOWER_BOUNDS: &[&str] = &[
    "minLength",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "minProperties",
];
/// Upper bounds: a smaller value allows fewer values.
const UPPER_BOUNDS: &[&str] = &[
    "maxLength",
    "maximum",
    "exclusiveMaximum",
    "maxItems",
    "maxProperties",
];
/// Other restrictions: adding or changing one allows fewer values.
const RESTRICTIONS: &[&str] = &["pattern", "format", "multipleOf", "uniqueItems"];
/// Keywords the walk handles itself or ignores.
const HANDLED: &[&str] = &[
    "description",
    "$ref",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "$defs",
    "definitions",
    "$schema",
    "$id",
];

impl Cx<'_> {
    fn place(&self, path: &str) -> String {
        match (self.side, path.is_empty()) {
            (Side::Input, true) => "the input".to_owned(),
            (Side::Input, false) => format!("field {}", code(path)),
            (Side::Output, true) => "the output".to_owned(),
            (Side::Output, false) => format!("output field {}", code(path)),
        }
    }

    fn push(&mut self, kind: ChangeKind, bump: Bump, message: String) {
        push(&mut self.changes, kind, bump, message);
    }

    /// A bump that depends on the side: what the model sends may not get
    /// stricter, what the tool returns may not get looser.
    fn stricter(&self, stricter: bool) -> Bump {
        match (self.side, stricter) {
            (Side::Input, true) | (Side::Output, false) => Bump::Major,
            _ => Bump::Minor,
        }
    }

    /// Compares two property schemas: description, nullability, then shape.
    fn node(&mut self, old: &Value, new: &Value, path: &str, same_presence: bool) {
        self.description(old, new, path);
        let (old_null, old_core) = split_null(old);
        let (new_null, new_core) = split_null(new);
        if old_null != new_null && same_presence {
            let place = self.place(path);
            let (kind, message) = if new_null {
                (
                    ChangeKind::MadeNullable,
                    format!("{place} now accepts null"),
                )
            } else {
                (
                    ChangeKind::MadeNonNullable,
                    format!("{place} no longer accepts null"),
                )
            };
            let bump = self.stricter(!new_null);
            self.push(kind, bump, message);
        }
        self.shape(&old_core, &new_core, path);
    }

    fn description(&mut self, old: &Value, new: &Value, path: &str) {
        if old.get("description") != new.get("description") {
            let message = format!("description of {} changed", self.place(path));
            self.push(ChangeKind::DescriptionChanged, Bump::Patch, message);
        }
    }

    /// Compares two non-null schemas, following `$ref`s.
    fn shape(&mut self, old: &Value, new: &Value, path: &str) {
        let has_ref = ref_of(old).is_some() || ref_of(new).is_some();
        if has_ref {
            let pair = (
                ref_of(old).unwrap_or_default(),
                ref_of(new).unwrap_or_default(),
            );
            if self.visiting.contains(&pair) {
                return;
            }
            self.visiting.push(pair);
        }
        let (old_root, new_root) = (self.old_root, self.new_root);
        let (old_t, new_t) = (follow(old, old_root), follow(new, new_root));
        if has_ref {
            self.description(old_t, new_t, path);
        }
        self.compare_targets(old, new, old_t, new_t, path);
        if has_ref {
            self.visiting.pop();
        }
    }

    fn compare_targets(
        &mut self,
        old: &Value,
        new: &Value,
        old_t: &Value,
        new_t: &Value,
        path: &str,
    ) {
        let place = self.place(path);
        let type_changed = |cx: &mut Self| {
            let message = format!(
                "type of {place} changed from {} to {}",
                code(&model_type(old, cx.old_root)),
                code(&model_type(new, cx.new_root))
            );
            cx.push(ChangeKind::TypeChanged, Bump::Major, message);
        };
        match (
            enum_values(old_t, self.old_root),
            enum_values(new_t, self.new_root),
        ) {
            (Some(a), Some(b)) => {
                for value in a.iter().filter(|v| !b.iter().any(|w| w.value == v.value)) {
                    let message = format!(
                        "value {} removed from {place}",
                        code(&value_text(&value.value))
                    );
                    self.push(ChangeKind::EnumValueRemoved, Bump::Major, message);
                }
                for value in b.iter().filter(|v| !a.iter().any(|w| w.value == v.value)) {
                    let message =
                        format!("value {} added to {place}", code(&value_text(&value.value)));
                    self.push(ChangeKind::EnumValueAdded, Bump::Minor, message);
                }
                for value in &a {
                    if let Some(other) = b.iter().find(|w| w.value == value.value)
                        && other.description != value.description
                    {
                        let message = format!(
                            "description of value {} of {place} changed",
                            code(&value_text(&value.value))
                        );
                        self.push(ChangeKind::DescriptionChanged, Bump::Patch, message);
                    }
                }
                return;
            }
            (None, None) => {}
            _ => return type_changed(self),
        }
        let types = (type_set(old_t), type_set(new_t));
        if types.0 != types.1 {
            return type_changed(self);
        }
        if types.0.contains("object") {
            self.object(old_t, new_t, path);
        }
        if types.0.contains("array") {
            let items = (old_t.get("items"), new_t.get("items"));
            if let (Some(a), Some(b)) = items {
                self.node(a, b, &format!("{path}[]"), true);
            } else if items.0 != items.1 {
                type_changed(self);
            }
        }
        self.variants(old_t, new_t, path);
        self.constraints(old_t, new_t, path);
        self.rest(old_t, new_t, path);
    }

    fn object(&mut self, old: &Value, new: &Value, path: &str) {
        let empty = Map::new();
        let props = |v: &Value| {
            v.get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_else(|| empty.clone())
        };
        let (old_props, new_props) = (props(old), props(new));
        let (old_req, new_req) = (required(old), required(new));
        let child = |name: &str| {
            if path.is_empty() {
                name.to_owned()
            } else {
                format!("{path}.{name}")
            }
        };
        let removed: Vec<&String> = old_props
            .keys()
            .filter(|k| !new_props.contains_key(*k))
            .collect();
        let mut added: Vec<&String> = new_props
            .keys()
            .filter(|k| !old_props.contains_key(*k))
            .collect();
        for name in removed {
            let same = added.iter().position(|a| {
                old_req.contains(name) == new_req.contains(*a)
                    && shape_text(&old_props[name], self.old_root)
                        == shape_text(&new_props[*a], self.new_root)
            });
            let message = match same {
                Some(i) => format!(
                    "{} renamed to {}",
                    self.place(&child(name)),
                    code(added.remove(i))
                ),
                None => format!("{} removed", self.place(&child(name))),
            };
            let kind = if same.is_some() {
                ChangeKind::FieldRenamed
            } else {
                ChangeKind::FieldRemoved
            };
            self.push(kind, Bump::Major, message);
        }
        for name in added {
            let place = self.place(&child(name));
            let (bump, message) = match (self.side, new_req.contains(name)) {
                (Side::Input, true) => (Bump::Major, format!("{place} added as required")),
                (Side::Input, false) => (Bump::Minor, format!("{place} added as optional")),
                (Side::Output, _) => (Bump::Minor, format!("{place} added")),
            };
            self.push(ChangeKind::FieldAdded, bump, message);
        }
        for (name, old_prop) in &old_props {
            let Some(new_prop) = new_props.get(name) else {
                continue;
            };
            let place = self.place(&child(name));
            let (was, is) = (old_req.contains(name), new_req.contains(name));
            if was != is {
                let (kind, message) = if is {
                    (ChangeKind::MadeRequired, format!("{place} made required"))
                } else {
                    (ChangeKind::MadeOptional, format!("{place} made optional"))
                };
                let bump = self.stricter(is);
                self.push(kind, bump, message);
            }
            if self.side == Side::Input && path.is_empty() {
                self.top_level_field(name, old_prop, new_prop, was == is);
            } else {
                self.node(old_prop, new_prop, &child(name), was == is);
            }
        }
        let extra = (
            old.get("additionalProperties"),
            new.get("additionalProperties"),
        );
        if extra.0 != extra.1 {
            match extra {
                (Some(a @ Value::Object(_)), Some(b @ Value::Object(_))) => {
                    self.node(a, b, &format!("{path}.*"), true)
                }
                (a, b) => {
                    let allows = |v: Option<&Value>| v != Some(&Value::Bool(false));
                    let place = self.place(path);
                    let (stricter, message) = match (allows(a), allows(b)) {
                        (true, false) => {
                            (true, format!("{place} no longer accepts unknown fields"))
                        }
                        (false, true) => (false, format!("{place} accepts unknown fields")),
                        _ => {
                            let message = format!("`additionalProperties` of {place} changed");
                            self.push(ChangeKind::SchemaChanged, Bump::Major, message);
                            return;
                        }
                    };
                    let bump = self.stricter(stricter);
                    let kind = if stricter {
                        ChangeKind::ConstraintTightened
                    } else {
                        ChangeKind::ConstraintLoosened
                    };
                    self.push(kind, bump, message);
                }
            }
        }
    }

    /// A field of the tool. Its unit is recorded typed beside the schema;
    /// the description the model reads states the unit too, so when the
    /// unit changed the description changed with it, and the one change
    /// named is the unit's.
    fn top_level_field(&mut self, name: &str, old: &Value, new: &Value, same_presence: bool) {
        let (old_unit, new_unit) = (self.old_units.get(name), self.new_units.get(name));
        if old_unit == new_unit {
            return self.node(old, new, name, same_presence);
        }
        let show = |u: Option<&String>| u.map_or("none".to_owned(), |u| code(u));
        let message = format!(
            "unit of {} changed from {} to {}",
            self.place(name),
            show(old_unit),
            show(new_unit)
        );
        self.push(ChangeKind::UnitChanged, Bump::Major, message);
        let without_description = |v: &Value| {
            let mut v = v.clone();
            if let Some(object) = v.as_object_mut() {
                object.remove("description");
            }
            v
        };
        self.node(
            &without_description(old),
            &without_description(new),
            name,
            same_presence,
        );
    }

    /// `anyOf` / `oneOf` that are not enums or a null: compared by position.
    fn variants(&mut self, old: &Value, new: &Value, path: &str) {
        for keyword in ["anyOf", "oneOf"] {
            let list = |v: &Value| {
                v.get(keyword)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
            };
            let (a, b) = (list(old), list(new));
            if a.len() == b.len() {
                for (x, y) in a.iter().zip(&b) {
                    self.node(x, y, path, true);
                }
                continue;
            }
            let place = self.place(path);
            let (old_root, new_root) = (self.old_root, self.new_root);
            let kept = a.iter().all(|x| {
                b.iter()
                    .any(|y| shape_text(x, old_root) == shape_text(y, new_root))
            });
            if kept && b.len() > a.len() {
                self.push(
                    ChangeKind::SchemaChanged,
                    self.stricter(false),
                    format!("a variant added to {place}"),
                );
            } else {
                self.push(
                    ChangeKind::SchemaChanged,
                    Bump::Major,
                    format!("variants of {place} changed"),
                );
            }
        }
    }

    fn constraints(&mut self, old: &Value, new: &Value, path: &str) {
        let place = self.place(path);
        let get = |v: &Value, key: &str| {
            v.get(key)
                .filter(|x| **x != Value::Bool(false) && !x.is_null())
                .cloned()
        };
        for key in LOWER_BOUNDS.iter().chain(UPPER_BOUNDS).chain(RESTRICTIONS) {
            let (a, b) = (get(old, key), get(new, key));
            let (stricter, message) = match (&a, &b) {
                (Some(a), Some(b)) if a != b => {
                    let (x, y) = (a.as_f64(), b.as_f64());
                    let stricter = match (x, y) {
                        (Some(x), Some(y)) if LOWER_BOUNDS.contains(key) => y > x,
                        (Some(x), Some(y)) if UPPER_BOUNDS.contains(key) => y < x,
                        _ => true,
                    };
                    (
                        stricter,
                        format!("`{key}` of {place} changed from {} to {}", show(a), show(b)),
                    )
                }
                (None, Some(b)) => (true, format!("`{key}` of {place} set to {}", show(b))),
                (Some(a), None) => (
                    false,
                    format!("`{key}` of {place} removed (was {})", show(a)),
                ),
                _ => continue,
            };
            let kind = if stricter {
                ChangeKind::ConstraintTightened
            } else {
                ChangeKind::ConstraintLoosened
            };
            let bump = self.stricter(stricter);
            self.push(kind, bump, message);
        }
    }

    /// Every other keyword: annotations are a patch, anything else major.
    fn rest(&mut self, old: &Value, new: &Value, path: &str) {
        for key in keys(old, new) {
            let key = key.as_str();
            let known = HANDLED.contains(&key)
                || LOWER_BOUNDS.contains(&key)
                || UPPER_BOUNDS.contains(&key)
                || RESTRICTIONS.contains(&key);
            if known || old.get(key) == new.get(key) {
                continue;
            }
            let message = format!("`{key}` of {} changed", self.place(path));
            if ANNOTATIONS.contains(&key) {
                self.push(ChangeKind::DescriptionChanged, Bump::Patch, message);
            } else {
                self.push(ChangeKind::SchemaChanged, Bump::Major, message);
            }
        }
    }
}

fn ref_of(schema: &Value) -> Option<String> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn required(schema: &Value) -> BTreeSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The JSON types a schema allows, `null` included.
fn type_set(schema: &Value) -> BTreeSet<String> {
    let mut types: BTreeSet<String> = match schema.get("type") {
        Some(Value::String(t)) => [t.clone()].into(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => BTreeSet::new(),
    };
    if types.is_empty() {
        if schema.get("properties").is_some() {
            types.insert("object".to_owned());
        } else if schema.get("items").is_some() {
            types.insert("array".to_owned());
        }
    }
    types
}

/// A schema's shape as text: `$ref`s inlined, annotations dropped. Two
/// fields with the same shape take the same values.
fn shape_text(schema: &Value, root: &Value) -> String {
    canonical_json(&strip(schema, root, 0))
}

fn strip(schema: &Value, root: &Value, depth: usize) -> Value {
    if depth > 16 {
        return Value::Null;
    }
    match schema {
        Value::Object(map) => {
            if map.contains_key("$ref") {
                let target = follow(schema, root);
                if !std::ptr::eq(target, schema) {
                    return strip(target, root, depth + 1);
                }
            }
            Value::Object(
                map.iter()
                    .filter(|(k, _)| {
                        k.as_str() != "description" && !ANNOTATIONS.contains(&k.as_str())
                    })
                    .map(|(k, v)| (k.clone(), strip(v, root, depth + 1)))
                    .collect(),
            )
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| strip(v, root, depth + 1)).collect())
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_ignore_descriptions_and_follow_refs() {
        let root = serde_json::json!({"$defs": {"S": {"type": "string", "description": "x"}}});
        let a = serde_json::json!({"$ref": "#/$defs/S", "description": "a"});
        let b = serde_json::json!({"type": "string", "description": "b"});
        assert_eq!(shape_text(&a, &root), shape_text(&b, &root));
        assert_eq!(shape_text(&b, &root), r#"{"type":"string"}"#);
    }
}
