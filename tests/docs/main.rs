//! The documents generated from contracts say what the contract says: the
//! Markdown page, the catalog, the fingerprint, one wording across pages,
//! schemas and rustdoc, and the `tool_definitions` example's output.
//!
//! Modules:
//! - `markdown`: `ToolContract::to_markdown()` against committed pages.
//! - `catalog`: the committed `TOOLS.md` and the catalog JSON.
//! - `fingerprint`: contract fingerprints.
//! - `input_examples`: examples checked, on each provider's definition, in the docs.
//! - `words`: one wording of units and constraints.
//! - `definitions_example`: every dialect of `examples/tool_definitions.rs`, golden.
//! - `versions`: a deprecated version on its page and in a catalog.

#[path = "../../examples/catalog.rs"]
#[allow(dead_code)]
mod catalog_example;
// The example tools, as the catalog example loads them.
use catalog_example::tools;
// The example is a program of its own and loads the example tools itself,
// as the catalog example does; its tools are not the catalog's.
#[allow(clippy::duplicate_mod)]
#[path = "../../examples/tool_definitions.rs"]
#[allow(dead_code)]
mod tool_definitions;
#[path = "../versions_support/mod.rs"]
mod versions_support;

pub mod catalog;
pub mod definitions_example;
pub mod fingerprint;
pub mod input_examples;
pub mod markdown;
pub mod versions;
pub mod words;
