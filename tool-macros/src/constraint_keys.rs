//! The constraint keys (`min_length = 1`, `format = "email"`), each with
//! how its value is read: on a field and inside `items(...)`.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;

use crate::constraint::{Constraint, Number};
use crate::ctxt::Ctxt;
use crate::symbol::*;
use crate::value::{lit_count, lit_number, lit_str, spellings};
use crate::vocab::{Format, Vocabulary};

/// How the value of a constraint key is read.
pub(crate) type ReadConstraint =
    fn(&Ctxt, &ParseNestedMeta, Symbol) -> syn::Result<Option<(Constraint, TokenStream)>>;

/// The constraint keys, each with how its value is read.
pub(crate) const CONSTRAINTS: [(Symbol, ReadConstraint); 8] = [
    (MIN_LENGTH, |cx, meta, key| {
        count(cx, meta, key, Constraint::MinLength)
    }),
    (MAX_LENGTH, |cx, meta, key| {
        count(cx, meta, key, Constraint::MaxLength)
    }),
    (PATTERN, |cx, meta, key| {
        Ok(lit_str(cx, meta, key)?.map(|lit| {
            let tokens = lit.to_token_stream();
            (Constraint::Pattern(lit), tokens)
        }))
    }),
    (MINIMUM, |cx, meta, key| {
        number(cx, meta, key, Constraint::Minimum)
    }),
    (MAXIMUM, |cx, meta, key| {
        number(cx, meta, key, Constraint::Maximum)
    }),
    (MIN_ITEMS, |cx, meta, key| {
        count(cx, meta, key, Constraint::MinItems)
    }),
    (MAX_ITEMS, |cx, meta, key| {
        count(cx, meta, key, Constraint::MaxItems)
    }),
    (FORMAT, format),
];

fn count(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
    make: fn(u64) -> Constraint,
) -> syn::Result<Option<(Constraint, TokenStream)>> {
    Ok(lit_count(cx, meta, key)?.map(|(n, lit)| (make(n), lit.to_token_stream())))
}

fn number(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
    make: fn(Number) -> Constraint,
) -> syn::Result<Option<(Constraint, TokenStream)>> {
    Ok(lit_number(cx, meta, key)?.map(|(n, tokens)| (make(n), tokens)))
}

/// `format = "email"`: one of the formats the runtime enforces.
fn format(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
) -> syn::Result<Option<(Constraint, TokenStream)>> {
    let Some(lit) = lit_str(cx, meta, key)? else {
        return Ok(None);
    };
    match Format::from_spelling(&lit.value()) {
        Some(format) => Ok(Some((Constraint::Format(format), lit.to_token_stream()))),
        None => {
            cx.error_spanned_by(
                &lit,
                format!(
                    "unknown format `{}`; write one of {}",
                    lit.value(),
                    spellings::<Format>()
                ),
            );
            Ok(None)
        }
    }
}
