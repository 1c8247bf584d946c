//! Parses `#[tool(...)]` and doc comments on the struct and its fields.
//!
//! Every key is parsed by hand with `parse_nested_meta`; a bad key or value is
//! recorded in the [`Ctxt`] and parsing goes on with the next key.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitInt, LitStr, Meta, Path, Token, Type};

use crate::ctxt::Ctxt;
use crate::doc_comment::doc;
use crate::nested::{misplaced_or_unknown, parse_allows, parse_error_decl};
use crate::symbol::*;
use crate::value::{
    flag, lit_count, lit_number, lit_str, no_value, parse_version, path_to_string, skip_value,
    unknown_value,
};

/// Collected doc comment text and the tokens it came from.
pub struct Doc {
    pub text: String,
    pub tokens: TokenStream,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    Read,
    Write,
    Destructive,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Approval {
    None,
    Required,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum DataClass {
    Public,
    Internal,
    Confidential,
    Restricted,
}

pub const CATEGORIES: &[&str] = &[
    "invalid_arguments",
    "not_found",
    "permission",
    "approval",
    "conflict",
    "rate_limit",
    "timeout",
    "aborted",
    "upstream",
    "internal",
];

pub const RECOVERIES: &[&str] = &[
    "fix_arguments",
    "retry",
    "retry_later",
    "request_approval",
    "ask_user",
    "none",
];

pub const RULES: &[&str] = &[
    "untyped_amount",
    "untyped_quantity",
    "model_identity",
    "boolean_pair",
    "vague_name",
];

/// `errors(CODE = "meaning")` or `errors(CODE(meaning = "...", category = "...", recovery = "..."))`.
pub struct ErrorDecl {
    pub code: syn::Ident,
    pub meaning: LitStr,
    pub category: Option<String>,
    pub recovery: Option<String>,
}

/// `allow(rule = "reason")`.
pub struct Allow {
    pub rule: String,
    pub rule_tokens: TokenStream,
    pub reason: LitStr,
}

/// The keys on the struct.
#[derive(Default)]
pub struct ToolAttrs {
    pub doc: Option<Doc>,
    pub description: Option<LitStr>,
    pub name: Option<LitStr>,
    pub version: Option<((u64, u64, u64), LitStr)>,
    pub effect: Option<(Effect, LitStr)>,
    pub idempotent: Option<(bool, TokenStream)>,
    pub approval: Option<(Approval, LitStr)>,
    pub timeout_ms: Option<(u64, LitInt)>,
    pub open_world: Option<(bool, TokenStream)>,
    pub data: Option<(DataClass, LitStr)>,
    pub output: Option<Type>,
    pub errors: Vec<ErrorDecl>,
    pub crate_path: Option<Path>,
    pub allows: Vec<Allow>,
    /// Keys whose value was refused (already reported): the rules that
    /// depend on them stay quiet, so one mistake gives one error.
    pub invalid: BTreeSet<String>,
}

impl ToolAttrs {
    /// Whether `key` was given with a value that was refused.
    pub fn is_invalid(&self, key: Symbol) -> bool {
        self.invalid.contains(key.0) || self.invalid.contains(ANY_KEY)
    }
}

/// A numeric bound as written.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Number {
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(n) => n as f64,
            Number::UInt(n) => n as f64,
            Number::Float(n) => n,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ConstraintKind {
    MinLength,
    MaxLength,
    Pattern,
    Minimum,
    Maximum,
    MinItems,
    MaxItems,
    Format,
}

impl ConstraintKind {
    pub fn key(self) -> &'static str {
        match self {
            ConstraintKind::MinLength => "min_length",
            ConstraintKind::MaxLength => "max_length",
            ConstraintKind::Pattern => "pattern",
            ConstraintKind::Minimum => "minimum",
            ConstraintKind::Maximum => "maximum",
            ConstraintKind::MinItems => "min_items",
            ConstraintKind::MaxItems => "max_items",
            ConstraintKind::Format => "format",
        }
    }
}

pub enum ConstraintValue {
    Count(u64),
    Text(LitStr),
    Number(Number),
}

pub struct ConstraintAttr {
    pub kind: ConstraintKind,
    pub value: ConstraintValue,
    /// The key and value, for errors about the constraint.
    pub tokens: TokenStream,
}

pub enum DefaultKind {
    /// `#[tool(default)]`: `Default::default()`.
    Trait,
    /// `#[tool(default = path)]`: a function returning the value.
    Path(Path),
}

/// The keys on a field.
#[derive(Default)]
pub struct FieldAttrs {
    pub doc: Option<Doc>,
    pub description: Option<LitStr>,
    pub rename: Option<LitStr>,
    pub inject: Option<TokenStream>,
    pub constraints: Vec<ConstraintAttr>,
    pub default: Option<(DefaultKind, TokenStream)>,
    pub unit: Option<LitStr>,
    pub idempotency_key: Option<TokenStream>,
    pub allows: Vec<Allow>,
    /// Keys whose value was refused (already reported).
    pub invalid: BTreeSet<String>,
}

impl FieldAttrs {
    /// Whether `key` was given with a value that was refused.
    pub fn is_invalid(&self, key: Symbol) -> bool {
        self.invalid.contains(key.0) || self.invalid.contains(ANY_KEY)
    }
}

/// Stands for every key when a whole `#[tool(...)]` failed to parse.
const ANY_KEY: &str = "*";

/// One key, set at most once.
struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: Symbol,
    value: Option<T>,
}

impl<'c, T> Attr<'c, T> {
    fn none(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr {
            cx,
            name,
            value: None,
        }
    }

    fn set<A: ToTokens>(&mut self, obj: A, value: T) {
        if self.value.is_some() {
            self.cx
                .error_spanned_by(obj, format!("duplicate tool attribute `{}`", self.name));
        } else {
            self.value = Some(value);
        }
    }
}

/// Parses the struct's attributes.
pub fn tool_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ToolAttrs {
    let mut description = Attr::none(cx, DESCRIPTION);
    let mut name = Attr::none(cx, NAME);
    let mut version = Attr::none(cx, VERSION);
    let mut effect = Attr::none(cx, EFFECT);
    let mut idempotent = Attr::none(cx, IDEMPOTENT);
    let mut approval = Attr::none(cx, APPROVAL);
    let mut timeout_ms = Attr::none(cx, TIMEOUT_MS);
    let mut open_world = Attr::none(cx, OPEN_WORLD);
    let mut data = Attr::none(cx, DATA);
    let mut output = Attr::none(cx, OUTPUT);
    let mut crate_path = Attr::none(cx, CRATE);
    let mut errors = Vec::new();
    let mut allows = Vec::new();

    let invalid = each_key(cx, attrs, "#[tool(effect = \"write\")]", |meta| {
        if meta.path == DESCRIPTION {
            if let Some(s) = lit_str(cx, meta, DESCRIPTION)? {
                description.set(&meta.path, s);
            }
        } else if meta.path == NAME {
            if let Some(s) = lit_str(cx, meta, NAME)? {
                name.set(&meta.path, s);
            }
        } else if meta.path == VERSION {
            if let Some(s) = lit_str(cx, meta, VERSION)? {
                match parse_version(&s.value()) {
                        Some(v) => version.set(&meta.path, (v, s)),
                        None => cx.error_spanned_by(
                            &s,
                            format!(
                                "malformed version `{}`; write `MAJOR.MINOR.PATCH` with unsigned integers, e.g. `version = \"1.2.0\"`",
                                s.value()
                            ),
                        ),
                    }
            }
        } else if meta.path == EFFECT {
            if let Some(s) = lit_str(cx, meta, EFFECT)? {
                let value = match s.value().as_str() {
                    "read" => Some(Effect::Read),
                    "write" => Some(Effect::Write),
                    "destructive" => Some(Effect::Destructive),
                    _ => None,
                };
                match value {
                    Some(v) => effect.set(&meta.path, (v, s)),
                    None => unknown_value(cx, &s, EFFECT, &["read", "write", "destructive"]),
                }
            }
        } else if meta.path == IDEMPOTENT {
            if let Some(flag) = flag(cx, meta, IDEMPOTENT)? {
                idempotent.set(&meta.path, flag);
            }
        } else if meta.path == APPROVAL {
            if let Some(s) = lit_str(cx, meta, APPROVAL)? {
                match s.value().as_str() {
                    "required" => approval.set(&meta.path, (Approval::Required, s)),
                    "none" => approval.set(&meta.path, (Approval::None, s)),
                    _ => unknown_value(cx, &s, APPROVAL, &["required", "none"]),
                }
            }
        } else if meta.path == TIMEOUT_MS {
            if let Some((n, lit)) = lit_count(cx, meta, TIMEOUT_MS)? {
                if n == 0 {
                    cx.error_spanned_by(
                            &lit,
                            "`timeout_ms = 0` would stop every call at once; give the longest a call may run in milliseconds, e.g. `timeout_ms = 30_000`",
                        );
                } else {
                    timeout_ms.set(&meta.path, (n, lit));
                }
            }
        } else if meta.path == OPEN_WORLD {
            if let Some(flag) = flag(cx, meta, OPEN_WORLD)? {
                open_world.set(&meta.path, flag);
            }
        } else if meta.path == DATA {
            if let Some(s) = lit_str(cx, meta, DATA)? {
                let value = match s.value().as_str() {
                    "public" => Some(DataClass::Public),
                    "internal" => Some(DataClass::Internal),
                    "confidential" => Some(DataClass::Confidential),
                    "restricted" => Some(DataClass::Restricted),
                    _ => None,
                };
                match value {
                    Some(v) => data.set(&meta.path, (v, s)),
                    None => unknown_value(
                        cx,
                        &s,
                        Symbol("data class"),
                        &["public", "internal", "confidential", "restricted"],
                    ),
                }
            }
        } else if meta.path == OUTPUT {
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
            } else {
                match value.parse::<Type>() {
                    Ok(ty) => output.set(&meta.path, ty),
                    Err(err) => {
                        cx.error_at(
                            err.span(),
                            "`output` takes the type a call returns, e.g. `output = OrderStatus`",
                        );
                        skip_value(meta)?;
                    }
                }
            }
        } else if meta.path == ERRORS {
            meta.parse_nested_meta(|entry| parse_error_decl(cx, entry, &mut errors))?;
        } else if meta.path == CRATE {
            if let Some(s) = lit_str(cx, meta, CRATE)? {
                match s.parse::<Path>() {
                        Ok(path) => crate_path.set(&meta.path, path),
                        Err(_) => cx.error_spanned_by(
                            &s,
                            "`crate` must be a path to the tool-contract crate, e.g. `crate = \"my_app::tool_contract\"`",
                        ),
                    }
            }
        } else if meta.path == ALLOW {
            parse_allows(cx, meta, &mut allows)?;
        } else {
            misplaced_or_unknown(cx, meta, FIELD_KEYS, "a field")?;
        }
        Ok(())
    });

    ToolAttrs {
        doc: doc(attrs),
        description: description.value,
        name: name.value,
        version: version.value,
        effect: effect.value,
        idempotent: idempotent.value,
        approval: approval.value,
        timeout_ms: timeout_ms.value,
        open_world: open_world.value,
        data: data.value,
        output: output.value,
        errors,
        crate_path: crate_path.value,
        allows,
        invalid,
    }
}

/// Parses a field's attributes.
pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut description = Attr::none(cx, DESCRIPTION);
    let mut rename = Attr::none(cx, RENAME);
    let mut inject = Attr::none(cx, INJECT);
    let mut default = Attr::none(cx, DEFAULT);
    let mut unit = Attr::none(cx, UNIT);
    let mut idempotency_key = Attr::none(cx, IDEMPOTENCY_KEY);
    let mut constraints: Vec<ConstraintAttr> = Vec::new();
    let mut allows = Vec::new();

    let invalid = each_key(cx, attrs, "#[tool(inject)]", |meta| {
        if meta.path == DESCRIPTION {
            if let Some(s) = lit_str(cx, meta, DESCRIPTION)? {
                description.set(&meta.path, s);
            }
        } else if meta.path == RENAME {
            if let Some(s) = lit_str(cx, meta, RENAME)? {
                if s.value().is_empty() {
                    cx.error_spanned_by(&s, "`rename` needs a non-empty JSON property name");
                } else {
                    rename.set(&meta.path, s);
                }
            }
        } else if meta.path == INJECT {
            no_value(cx, meta, INJECT)?;
            inject.set(&meta.path, meta.path.to_token_stream());
        } else if meta.path == IDEMPOTENCY_KEY {
            no_value(cx, meta, IDEMPOTENCY_KEY)?;
            idempotency_key.set(&meta.path, meta.path.to_token_stream());
        } else if meta.path == UNIT {
            if let Some(s) = lit_str(cx, meta, UNIT)? {
                if s.value().trim().is_empty() {
                    cx.error_spanned_by(
                        &s,
                        "`unit` needs the unit's name, e.g. `unit = \"milliseconds\"`",
                    );
                } else {
                    unit.set(&meta.path, s);
                }
            }
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
                if let Some(path) = path {
                    default.set(
                        tokens,
                        (DefaultKind::Path(path.clone()), path.to_token_stream()),
                    );
                }
            } else {
                default.set(&meta.path, (DefaultKind::Trait, tokens));
            }
        } else if let Some(kind) = constraint_kind(&meta.path) {
            let key = Symbol(kind.key());
            let value = match kind {
                ConstraintKind::MinLength
                | ConstraintKind::MaxLength
                | ConstraintKind::MinItems
                | ConstraintKind::MaxItems => lit_count(cx, meta, key)?
                    .map(|(n, lit)| (ConstraintValue::Count(n), lit.to_token_stream())),
                ConstraintKind::Pattern | ConstraintKind::Format => lit_str(cx, meta, key)?
                    .map(|lit| (ConstraintValue::Text(lit.clone()), lit.to_token_stream())),
                ConstraintKind::Minimum | ConstraintKind::Maximum => lit_number(cx, meta, key)?
                    .map(|(n, tokens)| (ConstraintValue::Number(n), tokens)),
            };
            if let Some((value, value_tokens)) = value {
                if constraints.iter().any(|c| c.kind == kind) {
                    cx.error_spanned_by(&meta.path, format!("duplicate tool attribute `{key}`"));
                } else {
                    let path = &meta.path;
                    let tokens = quote::quote!(#path = #value_tokens);
                    constraints.push(ConstraintAttr {
                        kind,
                        value,
                        tokens,
                    });
                }
            }
        } else if meta.path == ALLOW {
            parse_allows(cx, meta, &mut allows)?;
        } else {
            misplaced_or_unknown(cx, meta, STRUCT_KEYS, "the struct")?;
        }
        Ok(())
    });

    FieldAttrs {
        doc: doc(attrs),
        description: description.value,
        rename: rename.value,
        inject: inject.value,
        constraints,
        default: default.value,
        unit: unit.value,
        idempotency_key: idempotency_key.value,
        allows,
        invalid,
    }
}

/// Runs `parse_key` on every key of every `#[tool(...)]` attribute and
/// returns the keys whose value was refused: a key is refused when parsing it
/// recorded an error, and every key is when a whole attribute failed to parse.
fn each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    example: &str,
    mut parse_key: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) -> BTreeSet<String> {
    let mut invalid = BTreeSet::new();
    for attr in tool_attributes(cx, attrs, example) {
        let result = attr.parse_nested_meta(|meta| {
            let errors_before = cx.error_count();
            parse_key(&meta)?;
            if cx.error_count() > errors_before {
                invalid.insert(path_to_string(&meta.path));
            }
            Ok(())
        });
        if let Err(err) = result {
            invalid.insert(ANY_KEY.to_owned());
            cx.syn_error(err);
        }
    }
    invalid
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

fn constraint_kind(path: &Path) -> Option<ConstraintKind> {
    [
        (MIN_LENGTH, ConstraintKind::MinLength),
        (MAX_LENGTH, ConstraintKind::MaxLength),
        (PATTERN, ConstraintKind::Pattern),
        (MINIMUM, ConstraintKind::Minimum),
        (MAXIMUM, ConstraintKind::Maximum),
        (MIN_ITEMS, ConstraintKind::MinItems),
        (MAX_ITEMS, ConstraintKind::MaxItems),
        (FORMAT, ConstraintKind::Format),
    ]
    .into_iter()
    .find(|(symbol, _)| path == *symbol)
    .map(|(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;
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
                "unknown tool attribute `bogus`",
                "unknown effect `delete`; write `effect = \"read\"`, `effect = \"write\"` or `effect = \"destructive\"`",
                "malformed version `1.0`; write `MAJOR.MINOR.PATCH` with unsigned integers, e.g. `version = \"1.2.0\"`",
                "`#[tool(inject)]` is not expected here; it belongs on a field",
                "duplicate tool attribute `name`",
            ]
        );
    }

    #[test]
    fn field_constraints_and_numbers() {
        let attrs: Vec<Attribute> = vec![parse_quote!(
            #[tool(minimum = -5, maximum = 2.5, min_length = 1, pattern = "^a", default = crate::x)]
        )];
        let cx = Ctxt::new();
        let parsed = field_attrs(&cx, &attrs);
        cx.check().unwrap();
        let numbers: Vec<Number> = parsed
            .constraints
            .iter()
            .filter_map(|c| match c.value {
                ConstraintValue::Number(n) => Some(n),
                _ => None,
            })
            .collect();
        assert_eq!(numbers, vec![Number::Int(-5), Number::Float(2.5)]);
        assert!(matches!(parsed.default, Some((DefaultKind::Path(_), _))));
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
}
