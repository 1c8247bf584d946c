//! Parses `#[tool(...)]` and doc comments on the struct and its fields.
//!
//! Every key is parsed by hand with `parse_nested_meta`; a bad key or value is
//! recorded in the [`Ctxt`] and parsing goes on with the next key. Each key
//! ends as a [`Slot`]: absent, given, or refused when its value was.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitInt, LitStr, Meta, Path, Token, Type};

use crate::constraint::ConstraintAttr;
use crate::constraint_keys::CONSTRAINTS;
use crate::ctxt::Ctxt;
use crate::doc_comment::{Doc, doc};
use crate::nested::{
    Allow, AllowList, Deprecated, ErrorDecl, ON_STRUCT, Position, misplaced_or_unknown,
    parse_deprecated, parse_error_decl,
};
use crate::slot::{Attr, Slot};
use crate::symbol::*;
use crate::value::{flag, lit_count, lit_str, lit_vocab, no_value, output_type};
use crate::vocab::{Approval, DataClass, Effect};
use tool_words::parse_version;

/// The keys on the struct.
pub struct ToolAttrs {
    pub doc: Option<Doc>,
    pub description: Slot<LitStr>,
    pub name: Slot<LitStr>,
    /// `title = "..."`: the display name hosts show (MCP's `title`).
    pub title: Slot<LitStr>,
    pub version: Slot<((u64, u64, u64), LitStr)>,
    /// `deprecated(sunset = "...", note = "...")`.
    pub deprecated: Slot<Deprecated>,
    pub effect: Slot<(Effect, LitStr)>,
    pub idempotent: Slot<(bool, TokenStream)>,
    pub approval: Slot<(Approval, LitStr)>,
    pub timeout_ms: Slot<(u64, LitInt)>,
    pub open_world: Slot<(bool, TokenStream)>,
    pub data: Slot<(DataClass, LitStr)>,
    pub output: Slot<Type>,
    pub errors: Vec<ErrorDecl>,
    /// `example = r#"{...}"#`, each a JSON object of arguments (checked
    /// here as JSON; parsed by the tool's parser when the contract is
    /// checked), in the order written.
    pub examples: Vec<LitStr>,
    pub crate_path: Slot<Path>,
    pub allows: Slot<Vec<Allow>>,
}

impl ToolAttrs {
    /// The waivers on the struct (none when `allow` was refused).
    pub fn allows(&self) -> &[Allow] {
        self.allows.given().map_or(&[], Vec::as_slice)
    }
}

pub enum DefaultKind {
    /// `#[tool(default)]`: `Default::default()`.
    Trait,
    /// `#[tool(default = path)]`: a function returning the value.
    Path(Path),
}

/// The keys on a field.
pub struct FieldAttrs {
    pub doc: Option<Doc>,
    pub description: Slot<LitStr>,
    pub rename: Slot<LitStr>,
    pub inject: Slot<TokenStream>,
    /// The constraints given, in the order written.
    pub constraints: Vec<ConstraintAttr>,
    pub default: Slot<(DefaultKind, TokenStream)>,
    pub unit: Slot<LitStr>,
    pub idempotency_key: Slot<TokenStream>,
    /// `items(...)`: the constraints on each item of a list, and the key.
    pub items: Option<(Vec<ConstraintAttr>, TokenStream)>,
    pub allows: Slot<Vec<Allow>>,
}

impl FieldAttrs {
    /// The waivers on the field (none when `allow` was refused).
    pub fn allows(&self) -> &[Allow] {
        self.allows.given().map_or(&[], Vec::as_slice)
    }
}

/// Why `text` cannot be an example of a tool's arguments: not JSON (where
/// and what serde_json says), or JSON that is not an object.
fn example_problem(text: &str) -> Option<String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => None,
        Ok(_) => Some(
            "an example is the tool's arguments as a JSON object, e.g. `example = r#\"{\"sku\": \"SKU-1042\"}\"#`".to_owned(),
        ),
        Err(error) => Some(format!(
            "the example is not valid JSON: {error}; write the tool's arguments as a JSON object, e.g. `example = r#\"{{\"sku\": \"SKU-1042\"}}\"#`"
        )),
    }
}

/// Parses the struct's attributes.
pub fn tool_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ToolAttrs {
    let mut description = Attr::none(cx, DESCRIPTION);
    let mut name = Attr::none(cx, NAME);
    let mut title = Attr::none(cx, TITLE);
    let mut version = Attr::none(cx, VERSION);
    let mut deprecated = Attr::none(cx, DEPRECATED);
    let mut effect = Attr::none(cx, EFFECT);
    let mut idempotent = Attr::none(cx, IDEMPOTENT);
    let mut approval = Attr::none(cx, APPROVAL);
    let mut timeout_ms = Attr::none(cx, TIMEOUT_MS);
    let mut open_world = Attr::none(cx, OPEN_WORLD);
    let mut data = Attr::none(cx, DATA);
    let mut output = Attr::none(cx, OUTPUT);
    let mut crate_path = Attr::none(cx, CRATE);
    let mut errors = Vec::new();
    let mut examples = Vec::new();
    let mut allows = AllowList::default();

    let failed = each_key(cx, attrs, "#[tool(effect = \"write\")]", |meta| {
        if meta.path == DESCRIPTION {
            description.set(&meta.path, lit_str(cx, meta, DESCRIPTION)?);
        } else if meta.path == NAME {
            name.set(&meta.path, lit_str(cx, meta, NAME)?);
        } else if meta.path == TITLE {
            let value = lit_str(cx, meta, TITLE)?.filter(|s| {
                let text = s.value();
                let fine = !text.trim().is_empty() && !text.contains(['\n', '\r']);
                if !fine {
                    cx.error_spanned_by(
                        s,
                        "the title is empty or spans lines; write the short name a person reads, e.g. `title = \"Create refund draft\"`",
                    );
                }
                fine
            });
            title.set(&meta.path, value);
        } else if meta.path == VERSION {
            let value = lit_str(cx, meta, VERSION)?.and_then(|s| match parse_version(&s.value()) {
                Some(v) => Some((v, s)),
                None => {
                    cx.error_spanned_by(
                        &s,
                        format!(
                            "malformed version `{}`; write `MAJOR.MINOR.PATCH` with unsigned integers, e.g. `version = \"1.2.0\"`",
                            s.value()
                        ),
                    );
                    None
                }
            });
            version.set(&meta.path, value);
        } else if meta.path == DEPRECATED {
            deprecated.set(&meta.path, parse_deprecated(cx, meta)?);
        } else if meta.path == EFFECT {
            effect.set(&meta.path, lit_vocab(cx, meta, EFFECT)?);
        } else if meta.path == IDEMPOTENT {
            idempotent.set(&meta.path, flag(cx, meta, IDEMPOTENT)?);
        } else if meta.path == APPROVAL {
            approval.set(&meta.path, lit_vocab(cx, meta, APPROVAL)?);
        } else if meta.path == TIMEOUT_MS {
            let value = lit_count(cx, meta, TIMEOUT_MS)?.filter(|(n, lit)| {
                if *n == 0 {
                    cx.error_spanned_by(
                        lit,
                        "`timeout_ms = 0` would stop every call at once; give the longest a call may run in milliseconds, e.g. `timeout_ms = 30_000`",
                    );
                }
                *n != 0
            });
            timeout_ms.set(&meta.path, value);
        } else if meta.path == OPEN_WORLD {
            open_world.set(&meta.path, flag(cx, meta, OPEN_WORLD)?);
        } else if meta.path == DATA {
            data.set(&meta.path, lit_vocab(cx, meta, DATA)?);
        } else if meta.path == OUTPUT {
            output.set(&meta.path, output_type(cx, meta)?);
        } else if meta.path == ERRORS {
            meta.parse_nested_meta(|entry| parse_error_decl(cx, entry, &mut errors))?;
        } else if meta.path == EXAMPLE {
            if let Some(example) = lit_str(cx, meta, EXAMPLE)? {
                match example_problem(&example.value()) {
                    Some(problem) => cx.error_spanned_by(&example, problem),
                    None => examples.push(example),
                }
            }
        } else if meta.path == CRATE {
            let value = lit_str(cx, meta, CRATE)?.and_then(|s| match s.parse::<Path>() {
                Ok(path) => Some(path),
                Err(_) => {
                    cx.error_spanned_by(
                        &s,
                        "`crate` must be a path to the tool-contract crate, e.g. `crate = \"my_app::tool_contract\"`",
                    );
                    None
                }
            });
            crate_path.set(&meta.path, value);
        } else if meta.path == ALLOW {
            allows.parse(cx, meta)?;
        } else {
            misplaced_or_unknown(cx, meta, &ON_STRUCT, FIELD_KEYS, "a field")?;
        }
        Ok(())
    });

    ToolAttrs {
        doc: doc(attrs),
        description: description.finish(failed),
        name: name.finish(failed),
        title: title.finish(failed),
        version: version.finish(failed),
        deprecated: deprecated.finish(failed),
        effect: effect.finish(failed),
        idempotent: idempotent.finish(failed),
        approval: approval.finish(failed),
        timeout_ms: timeout_ms.finish(failed),
        open_world: open_world.finish(failed),
        data: data.finish(failed),
        output: output.finish(failed),
        errors,
        examples,
        crate_path: crate_path.finish(failed),
        allows: allows.finish(failed),
    }
}

/// Parses a field's attributes; `here` lists the keys valid on this field
/// for the message about an unknown key (a nested type's field takes no
/// `inject` or `idempotency_key`).
pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute], here: &Position) -> FieldAttrs {
    let mut description = Attr::none(cx, DESCRIPTION);
    let mut rename = Attr::none(cx, RENAME);
    let mut inject = Attr::none(cx, INJECT);
    let mut default = Attr::none(cx, DEFAULT);
    let mut unit = Attr::none(cx, UNIT);
    let mut idempotency_key = Attr::none(cx, IDEMPOTENCY_KEY);
    // Each constraint with the place it was written at, to keep their order.
    let mut constraints = CONSTRAINTS.map(|(key, _)| Attr::none(cx, key));
    let mut written = 0;
    let mut allows = AllowList::default();
    let mut items: Option<(Vec<ConstraintAttr>, TokenStream)> = None;

    let failed = each_key(cx, attrs, "#[tool(inject)]", |meta| {
        if meta.path == DESCRIPTION {
            description.set(&meta.path, lit_str(cx, meta, DESCRIPTION)?);
        } else if meta.path == RENAME {
            let value = lit_str(cx, meta, RENAME)?.filter(|s| {
                if s.value().is_empty() {
                    cx.error_spanned_by(s, "`rename` needs a non-empty JSON property name");
                }
                !s.value().is_empty()
            });
            rename.set(&meta.path, value);
        } else if meta.path == INJECT {
            // A stray value is reported; the key still says what it says.
            no_value(cx, meta, INJECT)?;
            inject.set_flag(&meta.path, meta.path.to_token_stream());
        } else if meta.path == IDEMPOTENCY_KEY {
            no_value(cx, meta, IDEMPOTENCY_KEY)?;
            idempotency_key.set_flag(&meta.path, meta.path.to_token_stream());
        } else if meta.path == UNIT {
            let value = lit_str(cx, meta, UNIT)?.filter(|s| {
                let named = !s.value().trim().is_empty();
                if !named {
                    cx.error_spanned_by(
                        s,
                        "`unit` needs the unit's name, e.g. `unit = \"milliseconds\"`",
                    );
                }
                named
            });
            unit.set(&meta.path, value);
        } else if meta.path == DEFAULT {
            let tokens = meta.path.to_token_stream();
            if meta.input.peek(Token![=]) {
                let value = meta.value()?;
                let path = if value.peek(LitStr) {
                    let s: LitStr = value.parse()?;
                    match s.parse::<Path>() {
                        Ok(p) => Some(p),
                        Err(_) => {
                            cx.error_spanned_by(&s, "`default = ...` takes the path of a function that returns the value, e.g. `default = default_limit`");
                            None
                        }
                    }
                } else {
                    Some(value.parse::<Path>()?)
                };
                let value = path.map(|path| {
                    let tokens = path.to_token_stream();
                    (DefaultKind::Path(path), tokens)
                });
                default.set(tokens, value);
            } else {
                default.set(&meta.path, Some((DefaultKind::Trait, tokens)));
            }
        } else if let Some(i) = CONSTRAINTS.iter().position(|(key, _)| meta.path == *key) {
            let (key, read) = CONSTRAINTS[i];
            let value = read(cx, meta, key)?.map(|(constraint, value_tokens)| {
                let path = &meta.path;
                let tokens = quote!(#path = #value_tokens);
                (written, ConstraintAttr { constraint, tokens })
            });
            written += 1;
            constraints[i].set(&meta.path, value);
        } else if meta.path == ITEMS {
            if items.is_some() {
                cx.error_spanned_by(&meta.path, format!("duplicate tool attribute `{ITEMS}`"));
            }
            let parsed = crate::items::item_constraints(cx, meta)?;
            items = Some((parsed, meta.path.to_token_stream()));
        } else if meta.path == ALLOW {
            allows.parse(cx, meta)?;
        } else {
            misplaced_or_unknown(cx, meta, here, STRUCT_KEYS, "the struct")?;
        }
        Ok(())
    });

    let mut constraints: Vec<(usize, ConstraintAttr)> = constraints
        .into_iter()
        .filter_map(|c| match c.finish(failed) {
            Slot::Given(c) => Some(c),
            Slot::Absent | Slot::Refused => None,
        })
        .collect();
    constraints.sort_by_key(|(written, _)| *written);

    FieldAttrs {
        doc: doc(attrs),
        description: description.finish(failed),
        rename: rename.finish(failed),
        inject: inject.finish(failed),
        constraints: constraints.into_iter().map(|(_, c)| c).collect(),
        default: default.finish(failed),
        unit: unit.finish(failed),
        idempotency_key: idempotency_key.finish(failed),
        items,
        allows: allows.finish(failed),
    }
}

/// Runs `parse_key` on every key of every `#[tool(...)]` attribute; returns
/// whether an attribute failed to parse, which leaves the keys after the
/// failure unread.
pub fn each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    example: &str,
    mut parse_key: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) -> bool {
    let mut failed = false;
    for attr in tool_attributes(cx, attrs, example) {
        if let Err(err) = attr.parse_nested_meta(|meta| parse_key(&meta)) {
            failed = true;
            cx.syn_error(err);
        }
    }
    failed
}

/// The `#[tool(...)]` attributes; a `#[tool]` or `#[tool = ...]` is an error.
fn tool_attributes<'a>(
    cx: &'a Ctxt,
    attrs: &'a [Attribute],
    example: &'a str,
) -> impl Iterator<Item = &'a Attribute> + 'a {
    attrs
        .iter()
        .filter(|attr| attr.path() == TOOL)
        .filter(move |attr| {
            let is_list = matches!(attr.meta, Meta::List(_));
            if !is_list {
                cx.error_spanned_by(
                    attr,
                    format!(
                        "expected `#[tool(...)]` with keys inside the parentheses, e.g. `{example}`"
                    ),
                );
            }
            is_list
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::{Constraint, Number};
    use crate::nested::ON_FIELD;
    use syn::parse_quote;

    fn errors_of(f: impl FnOnce(&Ctxt)) -> Vec<String> {
        let cx = Ctxt::new();
        f(&cx);
        match cx.check() {
            Ok(()) => Vec::new(),
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn doc_lines_join_into_paragraphs() {
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[doc = " First line"]),
            parse_quote!(#[allow(dead_code)]),
            parse_quote!(#[doc = " goes on."]),
            parse_quote!(#[doc = ""]),
            parse_quote!(#[doc = " Second paragraph."]),
        ];
        assert_eq!(
            doc(&attrs).unwrap().text,
            "First line goes on.\n\nSecond paragraph."
        );
    }

    #[test]
    fn every_bad_key_is_reported_not_only_the_first() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(bogus = 1, effect = "delete", version = "1.0", inject, name = "ok_name", name = "again")]
        )];
        let errors = errors_of(|cx| {
            tool_attrs(cx, &attrs);
        });
        assert_eq!(
            errors,
            vec![
                "unknown tool attribute `bogus`; the keys on the struct are `description`, `name`, `title`, `version`, `deprecated`, `effect`, `idempotent`, `approval`, `timeout_ms`, `open_world`, `data`, `output`, `errors`, `example`, `crate`, `allow`",
                "unknown effect `delete`; write `effect = \"read\"`, `effect = \"write\"` or `effect = \"destructive\"`",
                "malformed version `1.0`; write `MAJOR.MINOR.PATCH` with unsigned integers, e.g. `version = \"1.2.0\"`",
                "`#[tool(inject)]` is not expected here; it belongs on a field",
                "duplicate tool attribute `name`",
            ]
        );
    }

    #[test]
    fn a_title_is_one_line_of_words() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(title = "Open support ticket")])];
        let mut title = None;
        let errors = errors_of(|cx| {
            title = tool_attrs(cx, &attrs).title.given().map(LitStr::value);
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(title.as_deref(), Some("Open support ticket"));
        for bad in ["", "  ", "Open\nticket"] {
            let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(title = #bad)])];
            let errors = errors_of(|cx| {
                tool_attrs(cx, &attrs);
            });
            assert_eq!(
                errors,
                vec![
                    "the title is empty or spans lines; write the short name a person reads, e.g. `title = \"Create refund draft\"`"
                ],
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_deprecation_has_a_real_sunset_and_one_sentence() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(deprecated(sunset = "2026-09-30", note = "Use version 2, which asks where the refund goes."))]
        )];
        let mut read = None;
        let errors = errors_of(|cx| {
            read = tool_attrs(cx, &attrs)
                .deprecated
                .given()
                .map(|d| (d.sunset, d.note.value()));
        });
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            read,
            Some((
                (2026, 9, 30),
                "Use version 2, which asks where the refund goes.".to_owned()
            ))
        );
        let cases: Vec<(Attribute, &str)> = vec![
            (
                parse_quote!(#[tool(deprecated(sunset = "2026-02-30", note = "Use version 2."))]),
                "malformed sunset `2026-02-30`; write the first day the version is no longer served as `YYYY-MM-DD` (UTC), e.g. `sunset = \"2026-09-30\"`",
            ),
            (
                parse_quote!(#[tool(deprecated(sunset = "2026-09-30", note = "Use version 2"))]),
                "the note does not end a sentence with `.`, `!` or `?`; the note is the one sentence the model reads after the description, saying what to use instead, e.g. `note = \"Use version 2, which asks where the refund goes.\"`",
            ),
            (
                parse_quote!(#[tool(deprecated(sunset = "2026-09-30"))]),
                "`deprecated` needs a `note`: `deprecated(sunset = \"2026-09-30\", note = \"Use version 2, which asks where the refund goes.\")`",
            ),
            (
                parse_quote!(#[tool(deprecated(note = "Use version 2."))]),
                "`deprecated` needs a `sunset`: `deprecated(sunset = \"2026-09-30\", note = \"Use version 2, which asks where the refund goes.\")`",
            ),
            (
                parse_quote!(#[tool(deprecated)]),
                "`deprecated` needs the sunset date and a note: `deprecated(sunset = \"2026-09-30\", note = \"Use version 2, which asks where the refund goes.\")`",
            ),
            (
                parse_quote!(#[tool(deprecated(sunset = "2026-09-30", note = "Use version 2.", sunet = "x"))]),
                "unknown key `sunet` in `deprecated` (did you mean `sunset`?); its keys are `sunset`, `note`",
            ),
        ];
        for (attr, expected) in cases {
            let attrs = vec![attr];
            let mut given = true;
            let errors = errors_of(|cx| {
                given = tool_attrs(cx, &attrs).deprecated.is_given();
            });
            assert_eq!(errors, vec![expected]);
            assert!(!given, "a refused deprecation is not given: {expected}");
        }
    }

    #[test]
    fn unknown_keys_name_the_closest_key_and_the_valid_ones() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(efect = "write", verison = "1.0.0", errors(LATE(meanig = "late")))]
        )];
        let errors = errors_of(|cx| {
            tool_attrs(cx, &attrs);
        });
        assert_eq!(
            errors,
            vec![
                "unknown tool attribute `efect` (did you mean `effect`?); the keys on the struct are `description`, `name`, `title`, `version`, `deprecated`, `effect`, `idempotent`, `approval`, `timeout_ms`, `open_world`, `data`, `output`, `errors`, `example`, `crate`, `allow`",
                "unknown tool attribute `verison` (did you mean `version`?); the keys on the struct are `description`, `name`, `title`, `version`, `deprecated`, `effect`, `idempotent`, `approval`, `timeout_ms`, `open_world`, `data`, `output`, `errors`, `example`, `crate`, `allow`",
                "unknown key `meanig` in error code `LATE` (did you mean `meaning`?); the keys of an error code are `meaning`, `category`, `recovery`",
                "error code `LATE` needs a meaning: `LATE(meaning = \"what it means and what to do\")`",
            ]
        );
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(max_lenght = 5, items(fromat = "email", min_items = 1))]
        )];
        let errors = errors_of(|cx| {
            field_attrs(cx, &attrs, &ON_FIELD);
        });
        assert_eq!(
            errors,
            vec![
                "unknown tool attribute `max_lenght` (did you mean `max_length`?); the keys on a field are `description`, `rename`, `inject`, `default`, `unit`, `idempotency_key`, `min_length`, `max_length`, `pattern`, `minimum`, `maximum`, `min_items`, `max_items`, `format`, `items`, `allow`",
                "unknown key `fromat` in `items(...)` (did you mean `format`?); the keys of `items(...)` are `min_length`, `max_length`, `pattern`, `minimum`, `maximum`, `format`",
                "`min_items` counts the items of the list itself, not something of each item; put it on the field: `#[tool(min_items = ..., items(...))]`",
            ]
        );
    }

    #[test]
    fn items_hold_the_constraints_of_each_item() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(items(format = "email", max_length = 254))]
        )];
        let cx = Ctxt::new();
        let parsed = field_attrs(&cx, &attrs, &ON_FIELD);
        cx.check().unwrap();
        let (items, _) = parsed.items.unwrap();
        let items: Vec<String> = items.iter().map(|c| c.constraint.to_string()).collect();
        assert_eq!(items, vec!["format = \"email\"", "max_length = 254"]);
    }

    #[test]
    fn field_constraints_and_numbers() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(minimum = -5, maximum = 2.5, min_length = 1, pattern = "^a", default = crate::x)]
        )];
        let cx = Ctxt::new();
        let parsed = field_attrs(&cx, &attrs, &ON_FIELD);
        cx.check().unwrap();
        let numbers: Vec<Number> = parsed
            .constraints
            .iter()
            .filter_map(|c| match c.constraint {
                Constraint::Minimum(n) | Constraint::Maximum(n) => Some(n),
                _ => None,
            })
            .collect();
        assert_eq!(numbers, vec![Number::Int(-5), Number::Float(2.5)]);
        assert!(matches!(
            parsed.default,
            Slot::Given((DefaultKind::Path(_), _))
        ));
    }

    #[test]
    fn error_declarations() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(errors(NOT_FOUND = "no such order", rate_limited = "slow down", LATE(category = "timeout")))]
        )];
        let errors = errors_of(|cx| {
            tool_attrs(cx, &attrs);
        });
        assert_eq!(
            errors,
            vec![
                "error code `rate_limited` is not SCREAMING_SNAKE_CASE; write `RATE_LIMITED`",
                "error code `LATE` needs a meaning: `LATE(meaning = \"what it means and what to do\")`",
            ]
        );
    }

    #[test]
    fn each_key_ends_absent_given_or_refused() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(effect = "write", approval = "always", name = "a_b", name = "c_d", timeout_ms = 0)]
        )];
        let cx = Ctxt::new();
        let parsed = tool_attrs(&cx, &attrs);
        let errors: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            errors,
            vec![
                "unknown approval `always`; write `approval = \"required\"` or `approval = \"none\"`",
                "duplicate tool attribute `name`",
                "`timeout_ms = 0` would stop every call at once; give the longest a call may run in milliseconds, e.g. `timeout_ms = 30_000`",
            ]
        );
        assert_eq!(parsed.effect.given().map(|(e, _)| *e), Some(Effect::Write));
        assert!(parsed.approval.is_refused());
        // Given twice, the two names may disagree: neither is trusted.
        assert!(parsed.name.is_refused());
        assert!(parsed.timeout_ms.is_refused());
        assert!(matches!(parsed.data, Slot::Absent));
        assert!(matches!(parsed.allows, Slot::Absent));
    }

    #[test]
    fn a_failed_attribute_refuses_the_keys_it_may_have_hidden() {
        // The missing comma stops the parse at `approval`.
        let attrs: Vec<Attribute> = vec![
            parse_quote!(#[tool(effect = "write" approval = "required")]),
            parse_quote!(#[tool(idempotent)]),
        ];
        let cx = Ctxt::new();
        let parsed = tool_attrs(&cx, &attrs);
        let errors: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(errors, vec!["expected `,`"]);
        assert_eq!(parsed.effect.given().map(|(e, _)| *e), Some(Effect::Write));
        assert_eq!(parsed.idempotent.given().map(|(b, _)| *b), Some(true));
        assert!(parsed.approval.is_refused());
        assert!(parsed.data.is_refused());
        assert!(parsed.allows.is_refused());
    }

    #[test]
    fn a_flag_given_twice_or_with_a_value_stays_given() {
        let attrs: Vec<Attribute> = vec![parse_quote!(#[tool(inject = true, inject)])];
        let cx = Ctxt::new();
        let parsed = field_attrs(&cx, &attrs, &ON_FIELD);
        let errors: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            errors,
            vec![
                "`inject` takes no value; write `#[tool(inject)]`",
                "duplicate tool attribute `inject`",
            ]
        );
        assert!(parsed.inject.is_given());
    }

    #[test]
    fn constraints_keep_their_order_and_drop_refused_keys() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(max_length = 3, format = "email", min_length = 1, max_length = 4, maximum = "x", min_items = 1, format = "mail")]
        )];
        let cx = Ctxt::new();
        let parsed = field_attrs(&cx, &attrs, &ON_FIELD);
        let errors: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            errors,
            vec![
                "duplicate tool attribute `max_length`",
                "expected a number: `maximum = 0`, `maximum = -1` or `maximum = 0.5`",
                "unknown format `mail`; write one of `date-time`, `date`, `time`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`, `uri`",
            ]
        );
        // `max_length` given twice and `format` given again with a refused
        // value are refused; `maximum` never had a value.
        let constraints: Vec<String> = parsed
            .constraints
            .iter()
            .map(|c| c.constraint.to_string())
            .collect();
        assert_eq!(constraints, vec!["min_length = 1", "min_items = 1"]);
    }
}
