//! Doc comments become descriptions: the lines of a paragraph joined with
//! spaces, paragraphs (separated by a blank `///` line) with a blank line.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

use crate::symbol::DOC;

/// Collected doc comment text and the tokens it came from.
pub struct Doc {
    pub text: String,
    pub tokens: TokenStream,
}

/// The doc comment text: lines of a paragraph joined with spaces, paragraphs
/// (separated by a blank `///` line) joined with a blank line.
pub fn doc(attrs: &[Attribute]) -> Option<Doc> {
    let mut lines = Vec::new();
    let mut tokens = TokenStream::new();
    for attr in attrs {
        if attr.path() != DOC {
            continue;
        }
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) = &nv.value
        else {
            continue;
        };
        if tokens.is_empty() {
            attr.to_tokens(&mut tokens);
        }
        lines.extend(s.value().split('\n').map(|l| l.trim().to_owned()));
    }
    if tokens.is_empty() {
        return None;
    }
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(&line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    Some(Doc {
        text: paragraphs.join("\n\n"),
        tokens,
    })
}
