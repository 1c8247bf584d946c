//! The contract in words: Markdown pages and catalogs, the sentences that
//! turn serde's errors into messages a model can act on, and the one
//! renderer of a field's unit and constraints ([`Words`], from the
//! `tool-words` crate) that the docs, the derive's rustdoc section and the
//! provider adapters share.

mod catalog;
pub mod describe;
pub(crate) mod humanize;
mod markdown;

pub use catalog::{CATALOG_FORMAT, Catalog};
pub use humanize::{MAX_ECHO_CHARS, echo};
pub use markdown::cell;
pub use tool_words::judge;
pub use tool_words::{
    Keyword, Words, code, described, examples_paragraph, followed_by, integer_range, string_format,
};
