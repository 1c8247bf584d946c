//! The provider-neutral JSON Schema of a tool's arguments and output.

use schemars::{JsonSchema, Schema, SchemaGenerator, generate::SchemaSettings};

/// Builds a (sub)schema for one type with a shared generator; written by the
/// derive into each field and output contract.
#[doc(hidden)]
pub type SchemaFn = fn(&mut SchemaGenerator) -> Schema;

/// The schema of `T` as a property: a `$ref` into `$defs` for named types.
#[doc(hidden)]
pub fn schema_of<T: JsonSchema + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// The schema of `T` as a document root, with its `$defs`.
#[doc(hidden)]
pub fn root_schema_of<T: JsonSchema + ?Sized>(generator: &mut SchemaGenerator) -> Schema {
    generator.root_schema_for::<T>()
}

/// The settings every schema of this crate is generated with: JSON Schema
/// 2020-12, definitions under `$defs`, no `$schema` keyword (the dialect is
/// documented, and provider payloads do not want it).
pub fn schema_settings() -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|settings| settings.meta_schema = None)
}
