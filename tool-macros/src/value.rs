//! Reading the values of `#[tool(...)]` keys: string, integer, number, flag
//! and vocabulary literals and types, each reported at its token when it is
//! malformed.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, ExprUnary, Lit, LitBool, LitInt, LitStr, Path, Token, Type, UnOp};

use crate::constraint::Number;
use crate::ctxt::Ctxt;
use crate::symbol::Symbol;
use crate::vocab::Vocabulary;

/// Consumes whatever follows a key up to the next comma.
pub fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        meta.input.parse::<TokenTree>()?;
    }
    Ok(())
}

pub fn no_value(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<()> {
    if !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes no value; write `#[tool({key})]`"),
        );
        skip_value(meta)?;
    }
    Ok(())
}

pub fn value_expr(meta: &ParseNestedMeta) -> syn::Result<Expr> {
    meta.value()?.parse()
}

pub fn lit_str(cx: &Ctxt, meta: &ParseNestedMeta, key: Symbol) -> syn::Result<Option<LitStr>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` needs a value: `{key} = \"...\"`"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let expr = value_expr(meta)?;
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(s)),
        other => {
            cx.error_spanned_by(
                &other,
                format!("expected a string literal: `{key} = \"...\"`"),
            );
            Ok(None)
        }
    }
}

pub fn lit_count(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
) -> syn::Result<Option<(u64, LitInt)>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, format!("`{key}` needs a value: `{key} = 1`"));
        skip_value(meta)?;
        return Ok(None);
    }
    let expr = value_expr(meta)?;
    if let Expr::Lit(ExprLit {
        lit: Lit::Int(i), ..
    }) = &expr
        && let Ok(n) = i.base10_parse::<u64>()
    {
        return Ok(Some((n, i.clone())));
    }
    cx.error_spanned_by(
        &expr,
        format!("expected a non-negative integer: `{key} = 1`"),
    );
    Ok(None)
}

pub fn lit_number(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
) -> syn::Result<Option<(Number, TokenStream)>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, format!("`{key}` needs a value: `{key} = 0`"));
        skip_value(meta)?;
        return Ok(None);
    }
    let expr = value_expr(meta)?;
    let (negative, lit) = match &expr {
        Expr::Lit(ExprLit { lit, .. }) => (false, Some(lit)),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit { lit, .. }) => (true, Some(lit)),
            _ => (false, None),
        },
        _ => (false, None),
    };
    let number = match lit {
        Some(Lit::Int(i)) if negative => i
            .base10_parse::<u64>()
            .ok()
            .and_then(|n| {
                i64::try_from(n)
                    .ok()
                    .map(|n| -n)
                    .or((n == 1u64 << 63).then_some(i64::MIN))
            })
            .map(|n| {
                if n == 0 {
                    Number::UInt(0)
                } else {
                    Number::Int(n)
                }
            }),
        Some(Lit::Int(i)) => i.base10_parse::<u64>().ok().map(Number::UInt),
        Some(Lit::Float(f)) => f
            .base10_parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .map(|n| Number::Float(if negative { -n } else { n })),
        _ => None,
    };
    if number.is_none() {
        cx.error_spanned_by(
            &expr,
            format!("expected a number: `{key} = 0`, `{key} = -1` or `{key} = 0.5`"),
        );
    }
    Ok(number.map(|n| (n, expr.to_token_stream())))
}

/// `output = Type`.
pub fn output_type(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Type>> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        cx.error_spanned_by(
            &lit,
            format!(
                "`output` takes a type, not a string: write `output = {}`",
                lit.value()
            ),
        );
        return Ok(None);
    }
    match value.parse::<Type>() {
        Ok(ty) => Ok(Some(ty)),
        Err(err) => {
            cx.error_at(
                err.span(),
                "`output` takes the type a call returns, e.g. `output = OrderStatus`",
            );
            skip_value(meta)?;
            Ok(None)
        }
    }
}

pub fn flag(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
) -> syn::Result<Option<(bool, TokenStream)>> {
    if meta.input.is_empty() || meta.input.peek(Token![,]) {
        return Ok(Some((true, meta.path.to_token_stream())));
    }
    let expr = value_expr(meta)?;
    match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Bool(LitBool { value, .. }),
            ..
        }) => Ok(Some((*value, expr.to_token_stream()))),
        _ => {
            cx.error_spanned_by(
                &expr,
                format!("expected `{key}`, `{key} = true` or `{key} = false`"),
            );
            Ok(None)
        }
    }
}

/// Reads the value of a key whose values are the vocabulary `V`:
/// `effect = "write"`. An unknown spelling is reported at the literal with
/// every `key = "..."` that is allowed.
pub fn lit_vocab<V: Vocabulary>(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Symbol,
) -> syn::Result<Option<(V, LitStr)>> {
    let Some(lit) = lit_str(cx, meta, key)? else {
        return Ok(None);
    };
    match V::from_spelling(&lit.value()) {
        Some(value) => Ok(Some((value, lit))),
        None => {
            let choices: Vec<String> = V::ALL
                .iter()
                .map(|(_, spelling)| format!("`{key} = \"{spelling}\"`"))
                .collect();
            cx.error_spanned_by(
                &lit,
                format!(
                    "unknown {} `{}`; write {}",
                    V::WHAT,
                    lit.value(),
                    one_or_other(&choices)
                ),
            );
            Ok(None)
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn one_or_other(choices: &[String]) -> String {
    match choices {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The spellings of `V` as a list for messages: `` `a`, `b`, `c` ``.
pub fn spellings<V: Vocabulary>() -> String {
    V::ALL
        .iter()
        .map(|(_, spelling)| format!("`{spelling}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn is_screaming_snake(code: &str) -> bool {
    !code.is_empty()
        && code.starts_with(|c: char| c.is_ascii_uppercase())
        && !code.ends_with('_')
        && !code.contains("__")
        && code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

pub fn path_to_string(path: &Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}
