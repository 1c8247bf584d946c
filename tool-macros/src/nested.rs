//! The nested lists inside `#[tool(...)]`: `errors(...)` and `allow(...)`,
//! and the report for keys that are unknown or in the wrong place.

use quote::ToTokens;
use syn::Token;
use syn::meta::ParseNestedMeta;

use crate::attr::{Allow, CATEGORIES, ErrorDecl, RECOVERIES, RULES};
use crate::ctxt::Ctxt;
use crate::symbol::*;
use crate::value::{is_screaming_snake, lit_str, path_to_string, skip_value, unknown_value};

pub fn parse_error_decl(
    cx: &Ctxt,
    entry: ParseNestedMeta,
    errors: &mut Vec<ErrorDecl>,
) -> syn::Result<()> {
    let Some(code) = entry.path.get_ident().cloned() else {
        cx.error_spanned_by(
            &entry.path,
            "expected an error code such as `ORDER_NOT_FOUND`",
        );
        return skip_value(&entry);
    };
    let name = code.to_string();
    if !is_screaming_snake(&name) {
        cx.error_spanned_by(
            &code,
            format!(
                "error code `{name}` is not SCREAMING_SNAKE_CASE; write `{}`",
                crate::words::snake_case(&name).to_uppercase()
            ),
        );
    }
    let mut meaning = None;
    let mut category = None;
    let mut recovery = None;
    if entry.input.peek(Token![=]) {
        meaning = lit_str(cx, &entry, MEANING)?;
    } else if entry.input.peek(syn::token::Paren) {
        entry.parse_nested_meta(|m| {
            if m.path == MEANING {
                meaning = lit_str(cx, &m, MEANING)?;
            } else if m.path == CATEGORY {
                if let Some(s) = lit_str(cx, &m, CATEGORY)? {
                    if CATEGORIES.contains(&s.value().as_str()) {
                        category = Some(s.value());
                    } else {
                        unknown_value(cx, &s, CATEGORY, CATEGORIES);
                    }
                }
            } else if m.path == RECOVERY {
                if let Some(s) = lit_str(cx, &m, RECOVERY)? {
                    if RECOVERIES.contains(&s.value().as_str()) {
                        recovery = Some(s.value());
                    } else {
                        unknown_value(cx, &s, RECOVERY, RECOVERIES);
                    }
                }
            } else {
                cx.error_spanned_by(
                    &m.path,
                    format!(
                        "unknown key `{}` in error code `{name}`; use `meaning`, `category` or `recovery`",
                        path_to_string(&m.path)
                    ),
                );
                skip_value(&m)?;
            }
            Ok(())
        })?;
        if meaning.is_none() {
            cx.error_spanned_by(&code, format!("error code `{name}` needs a meaning: `{name}(meaning = \"what it means and what to do\")`"));
        }
    } else {
        cx.error_spanned_by(
            &code,
            format!(
                "error code `{name}` needs a meaning: `{name} = \"what it means and what to do\"`"
            ),
        );
        return Ok(());
    }
    let Some(meaning) = meaning else {
        return Ok(());
    };
    if meaning.value().trim().is_empty() {
        cx.error_spanned_by(
            &meaning,
            format!(
                "the meaning of `{name}` is empty; say what it means and what the model should do"
            ),
        );
    }
    if errors.iter().any(|e| e.code == code) {
        cx.error_spanned_by(&code, format!("duplicate error code `{name}`"));
        return Ok(());
    }
    errors.push(ErrorDecl {
        code,
        meaning,
        category,
        recovery,
    });
    Ok(())
}

pub fn parse_allows(cx: &Ctxt, meta: &ParseNestedMeta, allows: &mut Vec<Allow>) -> syn::Result<()> {
    meta.parse_nested_meta(|m| {
        let rule = path_to_string(&m.path);
        if !RULES.contains(&rule.as_str()) {
            let rules = RULES.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", ");
            let hint = closest(&rule, RULES).map(|r| format!(" (did you mean `{r}`?)")).unwrap_or_default();
            cx.error_spanned_by(
                &m.path,
                format!("unknown rule `{rule}` in `allow`{hint}; the rules that can be waived are {rules}"),
            );
            return skip_value(&m);
        }
        if !m.input.peek(Token![=]) {
            cx.error_spanned_by(&m.path, format!("waiving `{rule}` needs a reason: `allow({rule} = \"why this rule does not apply here\")`"));
            return skip_value(&m);
        }
        let Some(reason) = lit_str(cx, &m, Symbol("allow"))? else {
            return Ok(());
        };
        if reason.value().trim().is_empty() {
            cx.error_spanned_by(&reason, format!("the reason for waiving `{rule}` is empty; say why the rule does not apply here"));
        } else if allows.iter().any(|a| a.rule == rule) {
            cx.error_spanned_by(&m.path, format!("duplicate waiver `{rule}`"));
        } else {
            allows.push(Allow { rule, rule_tokens: m.path.to_token_stream(), reason });
        }
        Ok(())
    })
}

pub fn misplaced_or_unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    elsewhere: &[Symbol],
    place: &str,
) -> syn::Result<()> {
    let key = path_to_string(&meta.path);
    if elsewhere.iter().any(|s| meta.path == *s) {
        cx.error_spanned_by(
            &meta.path,
            format!("`#[tool({key})]` is not expected here; it belongs on {place}"),
        );
    } else {
        cx.error_spanned_by(&meta.path, format!("unknown tool attribute `{key}`"));
    }
    skip_value(meta)
}

/// The candidate closest to a misspelled word, if one is close.
fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (edit_distance(word, c), *c))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(row[j + 1])
            };
            prev = cur;
        }
    }
    row[b.len()]
}
