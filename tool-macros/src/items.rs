//! `items(...)` on a list field: the constraints each item must meet.

use quote::quote;
use syn::meta::ParseNestedMeta;

use crate::constraint::ConstraintAttr;
use crate::constraint_keys::CONSTRAINTS;
use crate::ctxt::Ctxt;
use crate::nested::{did_you_mean, key_list};
use crate::symbol::*;
use crate::value::skip_value;

/// `items(format = "email", max_length = 254)`: the constraints each item
/// of a list must meet.
pub fn item_constraints(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Vec<ConstraintAttr>> {
    let mut found: Vec<ConstraintAttr> = Vec::new();
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            "`items` takes the constraints of each item in parentheses, e.g. `items(format = \"email\", max_length = 254)`",
        );
        return skip_value(meta).map(|()| found);
    }
    let empty = {
        let fork = meta.input.fork();
        let content;
        syn::parenthesized!(content in fork);
        content.is_empty()
    };
    let mut written = false;
    if empty {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    } else {
        meta.parse_nested_meta(|m| {
        written = true;
        if m.path == MIN_ITEMS || m.path == MAX_ITEMS {
            let key = crate::value::path_to_string(&m.path);
            cx.error_spanned_by(
                &m.path,
                format!("`{key}` counts the items of the list itself, not something of each item; put it on the field: `#[tool({key} = ..., items(...))]`"),
            );
            return skip_value(&m);
        }
        let position = CONSTRAINTS
            .iter()
            .position(|(key, _)| m.path == *key)
            .filter(|&i| ITEM_KEYS.iter().any(|k| CONSTRAINTS[i].0.0 == k.0));
        let Some(i) = position else {
            let written = crate::value::path_to_string(&m.path);
            cx.error_spanned_by(
                &m.path,
                format!(
                    "unknown key `{written}` in `items(...)`{}; the keys of `items(...)` are {}",
                    did_you_mean(&written, ITEM_KEYS),
                    key_list(ITEM_KEYS)
                ),
            );
            return skip_value(&m);
        };
        let (key, read) = CONSTRAINTS[i];
        if found.iter().any(|c| c.constraint.key().0 == key.0) {
            cx.error_spanned_by(
                &m.path,
                format!("duplicate tool attribute `{key}` in `items(...)`"),
            );
            return skip_value(&m);
        }
        if let Some((constraint, value_tokens)) = read(cx, &m, key)? {
            let path = &m.path;
            found.push(ConstraintAttr {
                constraint,
                tokens: quote!(#path = #value_tokens),
            });
        }
        Ok(())
    })?;
    }
    if !written {
        cx.error_spanned_by(
            &meta.path,
            "`items()` is empty; write the constraints of each item, e.g. `items(format = \"email\", max_length = 254)`",
        );
    }
    Ok(found)
}
