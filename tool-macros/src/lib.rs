//! `#[derive(Tool)]` for [tool-contract](https://docs.rs/tool-contract).
//!
//! Use it through the `tool-contract` crate, which re-exports the derive
//! together with the `Tool` trait under one name; its documentation lists
//! every `#[tool(...)]` key and contract rule.
//!
//! The expansion runs in four stages, one file each: `attr` parses
//! `#[tool(...)]` and doc comments, `ast` builds the tool as data, `valid`
//! checks the contract rules (collecting every error at its token), and
//! `expand` writes the impl.

mod args;
mod ast;
mod attr;
mod constraint;
mod constraint_keys;
mod ctxt;
mod doc_comment;
mod doc_section;
mod expand;
mod expand_args;
mod fallback;
mod foreign;
mod inject;
mod items;
mod naming;
mod nested;
mod outbound;
mod pattern;
mod slot;
mod symbol;
mod ty;
mod valid;
mod value;
mod verbs;
mod vocab;
mod waivers;
mod words;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `tool_contract::Tool` for a struct with named fields.
///
/// See the `tool-contract` crate for the attributes and the rules.
#[proc_macro_derive(Tool, attributes(tool))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}

/// Derives `Deserialize` and `JsonSchema` for a nested argument type (a
/// struct with named fields, or an enum) with the field keys and contract
/// rules of `#[derive(Tool)]`.
///
/// See the `tool-contract` crate for the attributes and the rules.
#[proc_macro_derive(ToolArgs, attributes(tool, serde, schemars))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand_args::derive(&input).into()
}
