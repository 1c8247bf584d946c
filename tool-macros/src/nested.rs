//! The nested lists inside `#[tool(...)]`: `errors(...)`, `allow(...)` and
//! `deprecated(...)`, and the report for keys that are unknown or in the
//! wrong place.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{LitStr, Token};

use crate::ctxt::Ctxt;
use crate::slot::Slot;
use crate::symbol::*;
use crate::value::{is_screaming_snake, lit_str, lit_vocab, path_to_string, skip_value, spellings};
use crate::vocab::{ErrorCategory, Recovery, Rule, Vocabulary};
use tool_words::{edit_distance, note_problem, parse_date};

/// `errors(CODE = "meaning")` or `errors(CODE(meaning = "...", category = "...", recovery = "..."))`.
pub struct ErrorDecl {
    pub code: syn::Ident,
    pub meaning: LitStr,
    pub category: Option<ErrorCategory>,
    pub recovery: Option<Recovery>,
}

/// `deprecated(sunset = "YYYY-MM-DD", note = "...")`: the day the version
/// stops being served and one sentence of guidance.
pub struct Deprecated {
    pub sunset: (u16, u8, u8),
    pub note: LitStr,
}

/// Parses `deprecated(sunset = "2026-09-30", note = "Use version 2.")`;
/// `None` when a part is missing or refused (each reported).
pub fn parse_deprecated(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Deprecated>> {
    const EXAMPLE: &str = "`deprecated(sunset = \"2026-09-30\", note = \"Use version 2, which asks where the refund goes.\")`";
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            format!("`deprecated` needs the sunset date and a note: {EXAMPLE}"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let mut sunset = None;
    let mut note = None;
    let mut refused = false;
    meta.parse_nested_meta(|m| {
        if m.path == SUNSET {
            match lit_str(cx, &m, SUNSET)? {
                Some(text) => match parse_date(&text.value()) {
                    Some(date) => sunset = Some(date),
                    None => {
                        refused = true;
                        cx.error_spanned_by(
                            &text,
                            format!(
                                "malformed sunset `{}`; write the first day the version is no longer served as `YYYY-MM-DD` (UTC), e.g. `sunset = \"2026-09-30\"`",
                                text.value()
                            ),
                        );
                    }
                },
                None => refused = true,
            }
        } else if m.path == NOTE {
            match lit_str(cx, &m, NOTE)? {
                Some(text) => match note_problem(&text.value()) {
                    None => note = Some(text),
                    Some(problem) => {
                        refused = true;
                        cx.error_spanned_by(
                            &text,
                            format!(
                                "{problem}; the note is the one sentence the model reads after the description, saying what to use instead, e.g. `note = \"Use version 2, which asks where the refund goes.\"`"
                            ),
                        );
                    }
                },
                None => refused = true,
            }
        } else {
            let written = path_to_string(&m.path);
            cx.error_spanned_by(
                &m.path,
                format!(
                    "unknown key `{written}` in `deprecated`{}; its keys are {}",
                    did_you_mean(&written, DEPRECATED_KEYS),
                    key_list(DEPRECATED_KEYS)
                ),
            );
            refused = true;
            skip_value(&m)?;
        }
        Ok(())
    })?;
    if refused {
        return Ok(None);
    }
    match (sunset, note) {
        (Some(sunset), Some(note)) => Ok(Some(Deprecated { sunset, note })),
        (sunset, _) => {
            let missing = if sunset.is_none() { "sunset" } else { "note" };
            cx.error_spanned_by(
                &meta.path,
                format!("`deprecated` needs a `{missing}`: {EXAMPLE}"),
            );
            Ok(None)
        }
    }
}

/// `allow(rule = "reason")`.
pub struct Allow {
    pub rule: Rule,
    pub rule_tokens: TokenStream,
    pub reason: LitStr,
}

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
                if let Some((value, _)) = lit_vocab::<ErrorCategory>(cx, &m, CATEGORY)? {
                    category = Some(value);
                }
            } else if m.path == RECOVERY {
                if let Some((value, _)) = lit_vocab::<Recovery>(cx, &m, RECOVERY)? {
                    recovery = Some(value);
                }
            } else {
                let written = path_to_string(&m.path);
                cx.error_spanned_by(
                    &m.path,
                    format!(
                        "unknown key `{written}` in error code `{name}`{}; the keys of an error code are {}",
                        did_you_mean(&written, ERROR_KEYS),
                        key_list(ERROR_KEYS)
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

/// The waivers of the struct or of one field, from every `allow(...)`.
#[derive(Default)]
pub struct AllowList {
    allows: Vec<Allow>,
    written: bool,
    refused: bool,
}

impl AllowList {
    /// Reads one `allow(rule = "reason", ...)`.
    pub fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
        self.written = true;
        meta.parse_nested_meta(|m| {
            let accepted = self.parse_waiver(cx, &m)?;
            self.refused |= !accepted;
            Ok(())
        })
    }

    /// Reads `rule = "reason"`; whether it was accepted.
    fn parse_waiver(&mut self, cx: &Ctxt, m: &ParseNestedMeta) -> syn::Result<bool> {
        let written = path_to_string(&m.path);
        let Some(rule) = Rule::from_spelling(&written) else {
            let hint = closest::<Rule>(&written)
                .map(|r| format!(" (did you mean `{}`?)", r.spelling()))
                .unwrap_or_default();
            cx.error_spanned_by(
                &m.path,
                format!(
                    "unknown rule `{written}` in `allow`{hint}; the rules that can be waived are {}",
                    spellings::<Rule>()
                ),
            );
            skip_value(m)?;
            return Ok(false);
        };
        let spelled = rule.spelling();
        if !m.input.peek(Token![=]) {
            cx.error_spanned_by(&m.path, format!("waiving `{spelled}` needs a reason: `allow({spelled} = \"why this rule does not apply here\")`"));
            skip_value(m)?;
            return Ok(false);
        }
        let Some(reason) = lit_str(cx, m, ALLOW)? else {
            return Ok(false);
        };
        if reason.value().trim().is_empty() {
            cx.error_spanned_by(&reason, format!("the reason for waiving `{spelled}` is empty; say why the rule does not apply here"));
            return Ok(false);
        }
        if self.allows.iter().any(|a| a.rule == rule) {
            cx.error_spanned_by(&m.path, format!("duplicate waiver `{spelled}`"));
            return Ok(false);
        }
        self.allows.push(Allow {
            rule,
            rule_tokens: m.path.to_token_stream(),
            reason,
        });
        Ok(true)
    }

    /// The waivers after every attribute was read; refused when one of them
    /// was, or when an attribute failed to parse before any `allow` was read
    /// (see [`Attr::finish`](crate::slot::Attr::finish)).
    pub fn finish(self, failed: bool) -> Slot<Vec<Allow>> {
        if self.refused || (failed && !self.written) {
            Slot::Refused
        } else if self.written {
            Slot::Given(self.allows)
        } else {
            Slot::Absent
        }
    }
}

/// Where a key was written: the keys valid there and what messages call it.
pub struct Position {
    pub keys: &'static [Symbol],
    pub name: &'static str,
}

/// A tool struct's `#[tool(...)]`.
pub const ON_STRUCT: Position = Position {
    keys: ALL_STRUCT_KEYS,
    name: "the struct",
};

/// A field's `#[tool(...)]`.
pub const ON_FIELD: Position = Position {
    keys: ALL_FIELD_KEYS,
    name: "a field",
};

/// Reports a key that is not valid at `here`: in the wrong place when
/// `elsewhere` has it, else unknown, with the closest valid key and the
/// list of the keys valid here.
pub fn misplaced_or_unknown(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    here: &Position,
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
        cx.error_spanned_by(
            &meta.path,
            format!(
                "unknown tool attribute `{key}`{}; the keys on {} are {}",
                did_you_mean(&key, here.keys),
                here.name,
                key_list(here.keys)
            ),
        );
    }
    skip_value(meta)
}

/// ` (did you mean `effect`?)` when a key of `keys` is close to `written`.
pub fn did_you_mean(written: &str, keys: &[Symbol]) -> String {
    keys.iter()
        .map(|key| (edit_distance(written, key.0), key))
        .filter(|(d, key)| *d <= 3 && *d < key.0.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, key)| format!(" (did you mean `{key}`?)"))
        .unwrap_or_default()
}

/// `` `a`, `b`, `c` ``.
pub fn key_list(keys: &[Symbol]) -> String {
    keys.iter()
        .map(|key| format!("`{key}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The value of `V` whose spelling is closest to a misspelled word, if one
/// is close.
fn closest<V: Vocabulary>(word: &str) -> Option<V> {
    V::ALL
        .iter()
        .map(|(value, spelling)| (edit_distance(word, spelling), *value))
        .filter(|(d, _)| *d <= 3)
        .min_by_key(|(d, _)| *d)
        .map(|(_, value)| value)
}
