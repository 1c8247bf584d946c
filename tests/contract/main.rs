//! What `#[derive(Tool)]` and `#[derive(ToolArgs)]` build and the contract
//! rules they judge: the contract and input schema, the derive's smaller
//! features, nested types judged by the rules, and the vocabularies the
//! macro crate and the runtime share.
//!
//! Modules:
//! - `schema`: the contract and input schema as JSON.
//! - `derive`: tools without arguments, waivers, raw identifiers, descriptions.
//! - `tool_args`: `#[derive(ToolArgs)]` nested argument types.
//! - `nested_rules`: the contract rules on nested plain types.
//! - `vocabulary`: lists and parsers on both sides of the proc-macro boundary.

#[path = "../../tool-macros/src/pattern.rs"]
mod pattern;
#[path = "../../examples/tools/mod.rs"]
mod tools;
#[path = "../../tool-macros/src/vocab.rs"]
mod vocab;

pub mod derive;
pub mod nested_rules;
pub mod schema;
pub mod tool_args;
pub mod vocabulary;
