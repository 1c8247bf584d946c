//! OpenAI adapter of tool-contract: compiles a tool's provider-neutral input
//! schema into what OpenAI's strict mode accepts, and writes tool definitions.
//!
//! This first cut handles object schemas made of objects, arrays, scalars,
//! enums and `$ref`s into `$defs`; the full compiler (with every refusal and
//! limit) grows from here.
#![deny(missing_docs)]

use std::fmt;

use serde_json::{Map, Value, json};
use tool_core::Tool;

/// Why a schema cannot be expressed in OpenAI's strict mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrictSchemaError {
    path: String,
    message: String,
}

impl StrictSchemaError {
    fn new(path: &str, message: impl Into<String>) -> Self {
        StrictSchemaError {
            path: path.to_owned(),
            message: message.into(),
        }
    }

    /// The JSON pointer of the offending schema, e.g. `#/properties/filters`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong and what to write instead.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StrictSchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for StrictSchemaError {}

/// Compiles a JSON Schema into OpenAI strict mode: every object closed with
/// `additionalProperties: false`, every property required, optional ones
/// made nullable.
pub fn to_strict_json_schema(schema: &Value) -> Result<Value, StrictSchemaError> {
    let mut out = schema.clone();
    if out.get("type") != Some(&Value::from("object")) {
        return Err(StrictSchemaError::new(
            "#",
            "the root of a strict schema must be an object (`\"type\": \"object\"`)",
        ));
    }
    strictify(&mut out, "#")?;
    Ok(out)
}

fn strictify(schema: &mut Value, path: &str) -> Result<(), StrictSchemaError> {
    let Some(object) = schema.as_object_mut() else {
        return Ok(());
    };
    object.remove("default");
    object.remove("title");
    object.remove("$schema");
    if let Some(Value::Object(defs)) = object.get_mut("$defs") {
        for (name, def) in defs.iter_mut() {
            strictify(def, &format!("{path}/$defs/{name}"))?;
        }
    }
    if let Some(items) = object.get_mut("items") {
        strictify(items, &format!("{path}/items"))?;
    }
    if let Some(Value::Array(branches)) = object.get_mut("anyOf") {
        for (i, branch) in branches.iter_mut().enumerate() {
            strictify(branch, &format!("{path}/anyOf/{i}"))?;
        }
    }
    if object.contains_key("properties") {
        let required: Vec<String> = match object.get("required") {
            Some(Value::Array(names)) => names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        let Some(Value::Object(properties)) = object.get_mut("properties") else {
            return Ok(());
        };
        let mut names = Vec::new();
        for (name, property) in properties.iter_mut() {
            strictify(property, &format!("{path}/properties/{name}"))?;
            if !required.contains(name) {
                make_nullable(property);
            }
            names.push(Value::from(name.as_str()));
        }
        object.insert("required".into(), Value::Array(names));
        object.insert("additionalProperties".into(), Value::Bool(false));
    }
    Ok(())
}

fn make_nullable(property: &mut Value) {
    let Some(object) = property.as_object_mut() else {
        return;
    };
    match object.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            object.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = object.get_mut("enum") {
                values.push(Value::Null);
            }
        }
        Some(Value::Array(types)) => {
            if !types.iter().any(|t| t == "null") {
                types.push(Value::from("null"));
            }
        }
        _ => {
            let inner: Map<String, Value> = std::mem::take(object);
            let description = inner.get("description").cloned();
            let mut branch = inner;
            branch.remove("description");
            if let Some(d) = description {
                object.insert("description".into(), d);
            }
            object.insert(
                "anyOf".into(),
                json!([Value::Object(branch), {"type": "null"}]),
            );
        }
    }
}

/// The strict schema of `T`'s arguments.
pub fn strict_schema<T: Tool>() -> Result<Value, StrictSchemaError> {
    to_strict_json_schema(T::input_schema())
}

/// `T`'s tool definition for the Chat Completions API, in strict mode.
pub fn chat_completions_tool<T: Tool>() -> Result<Value, StrictSchemaError> {
    let contract = T::contract();
    Ok(json!({
        "type": "function",
        "function": {
            "name": contract.name(),
            "description": contract.description(),
            "parameters": strict_schema::<T>()?,
            "strict": true,
        }
    }))
}

/// `T`'s tool definition for the Responses API, in strict mode.
pub fn responses_tool<T: Tool>() -> Result<Value, StrictSchemaError> {
    let contract = T::contract();
    Ok(json!({
        "type": "function",
        "name": contract.name(),
        "description": contract.description(),
        "parameters": strict_schema::<T>()?,
        "strict": true,
    }))
}
