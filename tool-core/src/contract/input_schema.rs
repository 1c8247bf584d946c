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
    Value::Object(root)
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
