//! The tool as data: the struct, its fields and their parsed attributes.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, FieldAttrs, ToolAttrs};
use crate::ctxt::Ctxt;
use crate::doc_comment::Doc;
use crate::nested::{ON_FIELD, Position};
use crate::slot::Slot;
use crate::ty;
use crate::vocab::{Approval, DataClass, Effect, Idempotency};
use crate::words::snake_case;

pub struct Input<'a> {
    pub original: &'a DeriveInput,
    pub ident: &'a Ident,
    pub attrs: ToolAttrs,
    pub fields: Vec<Field<'a>>,
    /// The tool name the model sees.
    pub name: String,
    /// Where errors about the name point: the `name = "..."` literal or the struct name.
    pub name_tokens: TokenStream,
}

pub struct Field<'a> {
    pub original: &'a syn::Field,
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    /// The JSON property name.
    pub name: String,
    pub presence: Presence,
    /// The nested type (or enum variant) that holds the field, for
    /// messages: `Filters` in "`Filters.price` is an amount of money".
    pub owner: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Presence {
    Required,
    /// `Option<T>`.
    Optional,
    /// `#[tool(default)]`.
    Defaulted,
}

impl<'a> Input<'a> {
    /// The tool, or `None` when the item is not a struct with named fields
    /// (after recording why).
    pub fn from_syn(cx: &Ctxt, node: &'a DeriveInput) -> Option<Self> {
        let attrs = attr::tool_attrs(cx, &node.attrs);
        if !node.generics.params.is_empty() || node.generics.where_clause.is_some() {
            // `Generics` prints without its where clause, so span that separately.
            let tokens = if node.generics.params.is_empty() {
                node.generics.where_clause.to_token_stream()
            } else {
                node.generics.to_token_stream()
            };
            cx.error_spanned_by(
                tokens,
                "`#[derive(Tool)]` does not support generic parameters or lifetimes; a tool's contract is one fixed schema, so declare a concrete struct with owned field types",
            );
        }
        let fields = match &node.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => &named.named,
                Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        unnamed,
                        "`#[derive(Tool)]` needs a struct with named fields; tuple fields have no names for the model, so write `struct Name { field: Type }`",
                    );
                    return None;
                }
                Fields::Unit => {
                    cx.error_spanned_by(
                        &node.ident,
                        format!(
                            "`#[derive(Tool)]` needs a struct with named fields; a tool without arguments is written `struct {} {{}}`",
                            node.ident
                        ),
                    );
                    return None;
                }
            },
            Data::Enum(data) => {
                cx.error_spanned_by(
                    data.enum_token,
                    "`#[derive(Tool)]` does not support enums; declare the tool as a struct with named fields, and use the enum as a field's type",
                );
                return None;
            }
            Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "`#[derive(Tool)]` does not support unions",
                );
                return None;
            }
        };
        let fields = fields
            .iter()
            .filter_map(|field| Field::from_syn(cx, field))
            .collect();
        let (name, name_tokens) = match attrs.name.given() {
            Some(lit) => (lit.value(), lit.to_token_stream()),
            None => (
                snake_case(&node.ident.to_string()),
                node.ident.to_token_stream(),
            ),
        };
        Some(Input {
            original: node,
            ident: &node.ident,
            attrs,
            fields,
            name,
            name_tokens,
        })
    }

    /// The tool's description: `description = "..."` or the doc comment.
    pub fn description(&self) -> Option<(String, TokenStream)> {
        description(&self.attrs.description, &self.attrs.doc)
    }

    /// What the tool does: `effect = "..."`, `read` when not given.
    pub fn effect(&self) -> Effect {
        self.attrs.effect.given().map_or(Effect::Read, |(e, _)| *e)
    }

    /// `approval = "..."`, `none` when not given.
    pub fn approval(&self) -> Approval {
        self.attrs
            .approval
            .given()
            .map_or(Approval::None, |(a, _)| *a)
    }

    /// `data = "..."`, `internal` when not given.
    pub fn data_class(&self) -> DataClass {
        self.attrs
            .data
            .given()
            .map_or(DataClass::Internal, |(d, _)| *d)
    }

    /// The field marked `#[tool(idempotency_key)]` (the first, if several are).
    pub fn key_field(&self) -> Option<&Field<'a>> {
        self.fields
            .iter()
            .find(|f| f.attrs.idempotency_key.is_given())
    }

    /// Whether a repeated call is safe: keyed by a field, or as declared
    /// with `idempotent`.
    pub fn idempotency(&self) -> Idempotency {
        match (self.key_field(), self.attrs.idempotent.given()) {
            (Some(_), _) => Idempotency::Keyed,
            (None, Some((true, _))) => Idempotency::Idempotent,
            (None, Some((false, _))) => Idempotency::NotIdempotent,
            (None, None) => Idempotency::Unspecified,
        }
    }

    /// The fields the model supplies.
    pub fn model_fields(&self) -> impl Iterator<Item = (usize, &Field<'a>)> {
        self.fields
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.is_injected())
    }
}

/// The name of `#[serde(rename = "...")]` among `attrs`, if one is there.
/// A `#[derive(ToolArgs)]` field keeps its serde attributes, so its JSON
/// name is serde's; a tool field's `#[serde(rename)]` is refused instead
/// (`foreign`).
/// The rule of `#[serde(rename_all = "...")]` (or `key = "..."`, e.g.
/// `rename_all_fields`; the deserialize side of `rename_all(deserialize =
/// "...")`) among `attrs`, as serde applies it to a snake_case field name.
pub fn serde_rename_rule(attrs: &[syn::Attribute], key: &str) -> Option<String> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident(key) {
                if meta.input.peek(syn::Token![=]) {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    found = Some(lit.value());
                } else if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|side| {
                        let lit: syn::LitStr = side.value()?.parse()?;
                        if side.path.is_ident("deserialize") {
                            found = Some(lit.value());
                        }
                        Ok(())
                    })?;
                }
            } else if meta.input.peek(syn::Token![=]) {
                let _ = meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _ = meta.parse_nested_meta(|_| Ok(()));
            }
            Ok(())
        });
    }
    found
}

/// A snake_case field name under a serde rename rule, as serde's
/// `RenameRule::apply_to_field` writes it; `None` for a rule serde does not
/// know (serde itself refuses it).
pub fn apply_rename_rule(rule: &str, field: &str) -> Option<String> {
    let pascal = || {
        let mut out = String::new();
        let mut upper = true;
        for c in field.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.extend(c.to_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    };
    Some(match rule {
        "lowercase" | "snake_case" => field.to_owned(),
        "UPPERCASE" | "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "PascalCase" => pascal(),
        "camelCase" => {
            let p = pascal();
            let mut chars = p.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => String::new(),
            }
        }
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_ascii_uppercase().replace('_', "-"),
        _ => return None,
    })
}

pub fn serde_rename(attrs: &[syn::Attribute]) -> Option<String> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename")
                && let Ok(value) = meta.value()
                && let Ok(lit) = value.parse::<syn::LitStr>()
            {
                found = Some(lit.value());
            } else if meta.input.peek(syn::Token![=]) {
                // Skip any other `key = value`.
                let _ = meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let _ = meta.parse_nested_meta(|_| Ok(()));
            }
            Ok(())
        });
    }
    found
}

impl<'a> Field<'a> {
    pub fn from_syn(cx: &Ctxt, original: &'a syn::Field) -> Option<Self> {
        Self::from_syn_at(cx, original, &ON_FIELD)
    }

    /// The field, its keys read as valid at `here`.
    pub fn from_syn_at(cx: &Ctxt, original: &'a syn::Field, here: &Position) -> Option<Self> {
        let ident = original.ident.as_ref()?;
        let attrs = attr::field_attrs(cx, &original.attrs, here);
        let name = match attrs.rename.given() {
            Some(lit) => lit.value(),
            None => ident.to_string().trim_start_matches("r#").to_owned(),
        };
        let presence = if attrs.default.is_given() {
            Presence::Defaulted
        } else if ty::option_inner(&original.ty).is_some() {
            Presence::Optional
        } else {
            Presence::Required
        };
        Some(Field {
            original,
            ident,
            ty: &original.ty,
            attrs,
            name,
            presence,
            owner: None,
        })
    }

    /// Where errors about the JSON name point: the `rename` literal, or the
    /// field's name.
    pub fn name_tokens(&self) -> TokenStream {
        self.attrs
            .rename
            .given()
            .map_or_else(|| self.ident.to_token_stream(), |r| r.to_token_stream())
    }

    pub fn is_injected(&self) -> bool {
        self.attrs.inject.is_given()
    }

    /// The field's description: `description = "..."` or the doc comment.
    pub fn description(&self) -> Option<(String, TokenStream)> {
        description(&self.attrs.description, &self.attrs.doc)
    }
}

fn description(explicit: &Slot<syn::LitStr>, doc: &Option<Doc>) -> Option<(String, TokenStream)> {
    match (explicit.given(), doc) {
        (Some(lit), _) => Some((lit.value().trim().to_owned(), lit.to_token_stream())),
        (None, Some(doc)) => Some((doc.text.clone(), doc.tokens.clone())),
        (None, None) => None,
    }
}
