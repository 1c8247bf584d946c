//! The provider-neutral JSON Schema of a tool's arguments and output.

use serde_json::{Map, Value};

use super::field::{FieldContract, Presence, constraint_json};
use super::schema::{SchemaFn, schema_settings};

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
        prepend(
            object,
            "description",
            Value::from(field.model_description()),
        );
        for constraint in field.constraints() {
            object.insert(constraint.keyword().to_owned(), constraint_json(constraint));
        }
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
    close_objects(&mut root, 0);
    root
}

/// Closes every object schema that lists its properties and says nothing
/// about others (`additionalProperties: false`), at every depth: serde
/// ignores unknown keys of a plain `#[derive(Deserialize)]` struct, but a
/// key the model invents is a mistake to report (`$.filters.bogus`), and the
/// schema says so, so that schema and parser agree. Maps keep their
/// `additionalProperties` schema.
fn close_objects(schema: &mut Value, depth: usize) {
    // Schemas are trees built by schemars; the bound only guards the stack.
    if depth > 256 {
        return;
    }
    let Value::Object(object) = schema else {
        return;
    };
    if object.contains_key("properties") && !object.contains_key("additionalProperties") {
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
