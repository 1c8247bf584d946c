//! The contract of a tool in words, said once.
//!
//! A field's unit and constraints are stated in three places: the Markdown
//! docs of a tool, the rustdoc section `#[derive(Tool)]` puts on `impl
//! Tool`, and the notes a provider adapter adds to a schema's description
//! for the keywords the provider drops. All three say them with
//! [`Words`], from typed input: a field's [`Constraint`]s and unit, and for
//! the schemas of types (which have no typed contract) the [`Keyword`]s
//! read from their JSON.
//!
//! It also holds what both sides of the proc-macro boundary must read the
//! same way: the [edit distance](edit_distance) behind "did you mean"
//! hints, the [version](parse_version) syntax, the [tool name
//! rule](name_problem), and a deprecated version's [sunset
//! date](parse_date) and [notice](deprecation_notice).
//!
//! This crate depends on nothing but std: the derive macro calls it at
//! compile time, and tool-core re-exports its [`Constraint`] and
//! [`NumberBound`] as the contract's own. Applications reach it through
//! the `tool-contract` facade (`tool_contract::docs`).
#![deny(missing_docs)]

mod constraint;
mod deprecation;
mod distance;
mod examples;
mod format;
pub mod judge;
mod name;
mod number;
mod text;
mod version;
mod words;

pub use constraint::{Constraint, Keyword};
pub use deprecation::{deprecated_description, deprecation_notice, note_problem, parse_date};
pub use distance::edit_distance;
pub use examples::examples_paragraph;
pub use format::{integer_range, string_format};
pub use name::{MAX_NAME_CHARS, NameProblem, name_problem};
pub use number::NumberBound;
pub use text::{code, described, followed_by};
pub use version::parse_version;
pub use words::Words;
