//! The contract in words: Markdown pages and catalogs, and the sentences
//! that turn serde's errors into messages a model can act on.

mod catalog;
pub mod describe;
pub(crate) mod humanize;
mod markdown;

pub use catalog::{CATALOG_FORMAT, Catalog};
pub use humanize::{MAX_ECHO_CHARS, echo};
pub use markdown::{cell, code};
