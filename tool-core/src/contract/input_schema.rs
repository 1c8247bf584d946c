//! The provider-neutral JSON Schema of a tool's arguments and output.

use serde_json::{Map, Value};

use super::field::{FieldContract, Presence, constraint_json};
use super::schema::{SchemaFn, schema_settings};
use super::waiver::Waiver;

/// The key `#[derive(ToolArgs)]` writes into the objects of a type that
/// waives contract rules: `{"": ["untyped_amount"], "role": ["model_identity"]}`
/// (`""` for the whole type), so the contract check honours the waivers the
/// derive honoured. An `x-` key, which validators ignore and the OpenAI
/// compiler drops.
pub(crate) const ALLOW_KEY: &str = "x-tool-allow";

pub(crate) fn build_input_schema(fields: &[FieldContract]) -> Value {
    let mut generator = schema_settings().for_deserialize().into_generator();
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields.iter().filter(|field| !field.injected()) {
        let Some(schema_fn) = field.schema() else {
            continue;
        };
        let mut property = schema_fn(&mut generator).to_value();
        if !property.is_object() {
            // `true` (any value) becomes an empty object so keywords can be added.
            property = Value::Object(Map::new());
        }
        let object = property
            .as_object_mut()
            .expect("property schema is an object");
        constrain_property(object, field, generator.definitions());
        properties.insert(field.name().to_owned(), property);
        if field.presence() == Presence::Required {
            required.push(Value::from(field.name()));
        }
    }
    let mut root = Map::new();
    root.insert("type".into(), Value::from("object"));
    root.insert("properties".into(), Value::Object(properties));
    root.insert("required".into(), Value::Array(required));
    root.insert("additionalProperties".into(), Value::Bool(false));
    let definitions = generator.take_definitions(true);
    if !definitions.is_empty() {
        root.insert("$defs".into(), Value::Object(definitions));
    }
    let mut root = Value::Object(root);
    if let Some(Value::Object(definitions)) = root.get("$defs") {
        let definitions = definitions.clone();
        merge_referenced_properties(&mut root, &definitions, 0);
    }
    close_objects(&mut root, 0);
    root
}

/// Merges into an object schema that has both its own `properties` and a
/// `$ref` (schemars' internally tagged variant holding a struct: the tag
/// beside a reference to the struct) the referenced definition's
/// properties and `required`, and drops the `$ref`: closed apart, the
/// definition would refuse the tag and the object the struct's fields, so
/// no document would meet both. The definition stays for its other uses.
fn merge_referenced_properties(schema: &mut Value, definitions: &Map<String, Value>, depth: usize) {
    if depth > 256 {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    let name = object
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"));
    let def = name
        .and_then(|n| definitions.get(n))
        .and_then(Value::as_object);
    let mergeable = def.is_some_and(|def| {
        def.contains_key("properties")
            && !COMBINATORS.iter().any(|key| def.contains_key(*key))
            && !def.contains_key("$ref")
    });
    if object.contains_key("properties")
        && mergeable
        && let Some(def) = def
    {
        object.shift_remove("$ref");
        let own = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Value::Object(own), Some(Value::Object(theirs))) = (own, def.get("properties")) {
            for (key, value) in theirs {
                own.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        if let Some(Value::Array(theirs)) = def.get("required") {
            let required = object
                .entry("required")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(required) = required {
                for name in theirs {
                    if !required.contains(name) {
                        required.push(name.clone());
                    }
                }
            }
        }
        for (key, value) in def {
            if !matches!(
                key.as_str(),
                "properties" | "required" | "additionalProperties"
            ) && !object.contains_key(key)
            {
                object.insert(key.clone(), value.clone());
            }
        }
    }
    for (key, child) in object.iter_mut() {
        match (key.as_str(), child) {
            ("properties" | "$defs" | "definitions", Value::Object(named)) => {
                for schema in named.values_mut() {
                    merge_referenced_properties(schema, definitions, depth + 1);
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
                for schema in list {
                    merge_referenced_properties(schema, definitions, depth + 1);
                }
            }
            ("items" | "additionalProperties", child) => {
                merge_referenced_properties(child, definitions, depth + 1)
            }
            _ => {}
        }
    }
}

/// Closes every object schema that lists its properties and says nothing
/// about others (`additionalProperties: false`), at every depth: serde
/// ignores unknown keys of a plain `#[derive(Deserialize)]` struct, but a
/// key the model invents is a mistake to report (`$.filters.bogus`), and the
/// schema says so, so that schema and parser agree. Maps keep their
/// `additionalProperties` schema.
///
/// An object whose properties a `oneOf`/`anyOf`/`allOf` beside them
/// extends (a `#[serde(flatten)]` enum) is closed over all of them: the
/// parent and each branch list the others' names as well (as `{}`, the
/// schema that holds them checks them), since closing each over its own
/// names would leave no document that meets both ([`widen_flattened`]).
fn close_objects(schema: &mut Value, depth: usize) {
    // Schemas are trees built by schemars; the bound only guards the stack.
    if depth > 256 {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    if object.contains_key("properties") && !object.contains_key("additionalProperties") {
        widen_flattened(object, &[], depth);
        object.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (key, child) in object.iter_mut() {
        match (key.as_str(), child) {
            // Maps from names to schemas.
            ("properties" | "$defs" | "definitions", Value::Object(named)) => {
                for schema in named.values_mut() {
                    close_objects(schema, depth + 1);
                }
            }
            // Lists of schemas.
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
                for schema in list {
                    close_objects(schema, depth + 1);
                }
            }
            // One schema.
            ("items" | "additionalProperties", child) => close_objects(child, depth + 1),
            // Values (`enum`, `const`, `default`, `examples`) and annotations.
            _ => {}
        }
    }
}

/// The combinators whose branches extend an object's properties.
const COMBINATORS: [&str; 3] = ["oneOf", "anyOf", "allOf"];

/// Adds to the properties of `object` (not yet closed) the names `outer`
/// and its combinators' branches give, as `{}`; and to each branch (an
/// inline object schema) the names of `outer`, of `object`'s own
/// properties, of the other combinators and, in an `allOf`, of the other
/// branches, so that closing each over its properties leaves the
/// documents serde reads satisfiable. The branches of one `oneOf`/`anyOf`
/// do not get each other's names: a key of another variant stays refused.
fn widen_flattened(object: &mut Map<String, Value>, outer: &[String], depth: usize) {
    if depth > 256 || object.contains_key("additionalProperties") {
        return;
    }
    let own: Vec<String> = object
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default();
    let branch_names: Vec<(&str, Vec<Vec<String>>)> = COMBINATORS
        .iter()
        .filter_map(|key| match object.get(*key) {
            Some(Value::Array(branches)) => Some((
                *key,
                branches
                    .iter()
                    .map(|b| property_names(b, depth + 1))
                    .collect(),
            )),
            _ => None,
        })
        .collect();
    for (key, _) in &branch_names {
        let Some(Value::Array(list)) = object.get_mut(*key) else {
            continue;
        };
        for (i, branch) in list.iter_mut().enumerate() {
            let Value::Object(branch) = branch else {
                continue;
            };
            let mut extra: Vec<String> = outer.iter().chain(&own).cloned().collect();
            for (other_key, other_branches) in &branch_names {
                for (j, names) in other_branches.iter().enumerate() {
                    let sibling = other_key == key;
                    if !sibling || (*key == "allOf" && i != j) {
                        extra.extend(names.iter().cloned());
                    }
                }
            }
            widen_flattened(branch, &extra, depth + 1);
        }
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        let names = outer
            .iter()
            .chain(branch_names.iter().flat_map(|(_, b)| b.iter().flatten()));
        for name in names {
            if !properties.contains_key(name) {
                properties.insert(name.clone(), Value::Object(Map::new()));
            }
        }
    }
}

/// The property names an inline schema gives: its `properties` and those
/// of its combinators' branches.
fn property_names(schema: &Value, depth: usize) -> Vec<String> {
    let Value::Object(object) = schema else {
        return Vec::new();
    };
    let mut names: Vec<String> = object
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default();
    if depth < 256 {
        for key in COMBINATORS {
            if let Some(Value::Array(branches)) = object.get(key) {
                for branch in branches {
                    names.extend(property_names(branch, depth + 1));
                }
            }
        }
    }
    names
}

/// Adds what a field's contract says to its property: the description
/// (with unit and item words) first, the constraints (on `Money`,
/// `minimum`/`maximum` bound `amount_minor`), and the `items(...)`
/// constraints under `items`.
fn constrain_property(
    object: &mut Map<String, Value>,
    field: &FieldContract,
    definitions: &Map<String, Value>,
) {
    prepend(
        object,
        "description",
        Value::from(field.model_description()),
    );
    for constraint in field.constraints() {
        let keyword = constraint.keyword().to_owned();
        let bounds_amount = matches!(keyword.as_str(), "minimum" | "maximum");
        if bounds_amount && let Some(money) = money_schema(object, definitions) {
            // `minimum`/`maximum` on `Money` bound the amount in minor
            // units. Strict providers accept no keyword beside a `$ref`, so
            // the field gets its own copy of `Money`'s schema (in the
            // `Money` branch of `Option<Money>`'s `anyOf`) with the bound
            // on `amount_minor`.
            inline_definition(money, definitions);
            let amount = money
                .get_mut("properties")
                .and_then(Value::as_object_mut)
                .and_then(|p| p.get_mut("amount_minor"))
                .and_then(Value::as_object_mut);
            if let Some(amount) = amount {
                amount.insert(keyword, constraint_json(constraint));
            }
            continue;
        }
        object.insert(keyword, constraint_json(constraint));
    }
    if !field.item_constraints().is_empty() {
        let items = object
            .entry("items")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(items) = items.as_object_mut() {
            for constraint in field.item_constraints() {
                items.insert(constraint.keyword().to_owned(), constraint_json(constraint));
            }
        }
    }
}

/// Replaces a `$ref` by a copy of the definition it names; the object's
/// own description stays.
fn inline_definition(object: &mut Map<String, Value>, definitions: &Map<String, Value>) {
    let Some(reference) = object.remove("$ref") else {
        return;
    };
    let name = reference.as_str().and_then(|r| r.rsplit('/').next());
    if let Some(Value::Object(def)) = name.and_then(|n| definitions.get(n)) {
        for (key, value) in def {
            if !object.contains_key(key) {
                object.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The object that refers to `Money` in a property's schema: the property
/// itself (`{"$ref": "#/$defs/Money"}`) or its `Money` branch of
/// `anyOf`/`oneOf` (`Option<Money>`); `Money` is a definition with
/// `amount_minor` and `currency` properties.
fn money_schema<'o>(
    object: &'o mut Map<String, Value>,
    definitions: &Map<String, Value>,
) -> Option<&'o mut Map<String, Value>> {
    let is_money = |schema: &Map<String, Value>| {
        let properties = match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .rsplit('/')
                .next()
                .and_then(|name| definitions.get(name))
                .and_then(|def| def.get("properties")),
            // Inlined already by an earlier bound.
            None => schema.get("properties"),
        };
        properties.is_some_and(|p| p.get("amount_minor").is_some() && p.get("currency").is_some())
    };
    if is_money(object) {
        return Some(object);
    }
    let key = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| object.get(*k).is_some_and(Value::is_array))?;
    object
        .get_mut(key)?
        .as_array_mut()?
        .iter_mut()
        .filter_map(Value::as_object_mut)
        .find(|branch| is_money(branch))
}

pub(crate) fn build_output_schema(schema_fn: SchemaFn) -> Value {
    let mut generator = schema_settings().for_serialize().into_generator();
    schema_fn(&mut generator).to_value()
}

/// Inserts `key` first, so a property reads description-first; a
/// description the type itself carried is replaced by the field's.
fn prepend(object: &mut Map<String, Value>, key: &str, value: Value) {
    object.remove(key);
    let rest = std::mem::take(object);
    object.insert(key.to_owned(), value);
    object.extend(rest);
}

/// Completes the schema of a `#[derive(ToolArgs)]` type: each field's
/// property gets what its contract says (as a tool's input schema does),
/// and the type's own objects (the struct, or each variant) carry its
/// waivers under `"x-tool-allow"` for the contract check.
#[doc(hidden)]
pub fn args_schema(
    schema: &mut schemars::Schema,
    generator: &schemars::SchemaGenerator,
    fields: &[FieldContract],
    waivers: &[Waiver],
) {
    let Some(root) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(properties)) = root.get_mut("properties") {
        for field in fields {
            if let Some(Value::Object(property)) = properties.get_mut(field.name()) {
                constrain_property(property, field, generator.definitions());
            }
        }
    }
    if waivers.is_empty() {
        return;
    }
    let mut allow = Map::new();
    for waiver in waivers {
        let rules = allow
            .entry(waiver.field().unwrap_or_default())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(rules) = rules {
            rules.push(Value::from(waiver.rule().as_str()));
        }
    }
    mark_allowed(root, &Value::Object(allow));
}

/// Marks the type's own objects: the struct, or each variant of an enum
/// (a branch of `oneOf`/`anyOf`, and the object inside an externally
/// tagged variant's one property). Field schemas and `$ref`s are the
/// business of their own types.
fn mark_allowed(object: &mut Map<String, Value>, allow: &Value) {
    if object.contains_key("$ref") {
        return;
    }
    if object.contains_key("properties") {
        object.insert(ALLOW_KEY.to_owned(), allow.clone());
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        let Some(Value::Array(branches)) = object.get_mut(key) else {
            continue;
        };
        for branch in branches.iter_mut().filter_map(Value::as_object_mut) {
            mark_allowed(branch, allow);
            if let Some(Value::Object(properties)) = branch.get_mut("properties")
                && properties.len() == 1
                && let Some(Value::Object(inner)) = properties.values_mut().next()
                && !inner.contains_key("$ref")
                && inner.contains_key("properties")
            {
                inner.insert(ALLOW_KEY.to_owned(), allow.clone());
            }
        }
    }
}
