//! `#[derive(ToolArgs)]`: a nested argument type (a struct, or an enum whose
//! variants are unit, newtype or struct-like) as data, and its checks.
//!
//! Each struct (and each struct-like variant) becomes an [`Input`] whose
//! fields are read with the same `#[tool(...)]` field keys as a tool's, so
//! the same field rules run on it (descriptions, untyped amounts and
//! quantities, model identity, boolean pairs, field types, constraints,
//! JSON names, waivers), its fields named `Type.field` in messages. On the
//! type itself only `description`, `crate` and `allow(...)` are keys: a
//! nested type has no name, version or policy of its own.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::{Attribute, Data, DeriveInput, Fields, LitStr, Path, Token};

use crate::ast::{Field, Input};
use crate::attr::{ToolAttrs, each_key};
use crate::ctxt::Ctxt;
use crate::doc_comment::doc;
use crate::nested::{AllowList, Position, did_you_mean, key_list};
use crate::slot::{Attr, Slot};
use crate::symbol::*;
use crate::valid;
use crate::value::{lit_str, path_to_string, skip_value};

/// The keys on a `#[derive(ToolArgs)]` type.
pub const ARGS_KEYS: &[Symbol] = &[DESCRIPTION, CRATE, ALLOW];

/// The keys a field of a nested struct accepts: a tool field's but
/// `inject` and `idempotency_key`.
const ARGS_FIELD_KEYS: &[Symbol] = &[
    DESCRIPTION,
    RENAME,
    DEFAULT,
    UNIT,
    MIN_LENGTH,
    MAX_LENGTH,
    PATTERN,
    MINIMUM,
    MAXIMUM,
    MIN_ITEMS,
    MAX_ITEMS,
    FORMAT,
    ITEMS,
    ALLOW,
];

/// The keys a field of an enum variant accepts: the constraint keys need a
/// struct of their own (see [`check_variant_field`]).
const VARIANT_FIELD_KEYS: &[Symbol] = &[DESCRIPTION, RENAME, DEFAULT, UNIT, ALLOW];

/// A nested argument type.
pub struct Args<'a> {
    pub original: &'a DeriveInput,
    pub crate_path: Option<Path>,
    pub shape: Shape<'a>,
}

/// What the type is made of.
pub enum Shape<'a> {
    /// A struct with named fields.
    Struct(Box<Input<'a>>),
    /// An enum: each variant, with its fields when it has named ones.
    Enum(Vec<Variant<'a>>),
}

pub struct Variant<'a> {
    pub original: &'a syn::Variant,
    /// The named fields as a struct, `None` for unit and tuple variants.
    pub fields: Option<Input<'a>>,
}

impl<'a> Args<'a> {
    pub fn from_syn(cx: &Ctxt, node: &'a DeriveInput) -> Option<Self> {
        let attrs = args_attrs(cx, &node.attrs);
        let crate_path = attrs.crate_path.given().cloned();
        if !node.generics.params.is_empty() || node.generics.where_clause.is_some() {
            cx.error_spanned_by(
                &node.generics,
                "`#[derive(ToolArgs)]` does not support generic parameters or lifetimes; the schema of an argument type is one fixed schema, so declare a concrete type with owned field types",
            );
        }
        let ident = node.ident.to_string();
        let shape = match &node.data {
            Data::Struct(data) => match &data.fields {
                Fields::Named(named) => {
                    // `rename_all` on the struct names its fields.
                    let rule = crate::ast::serde_rename_rule(&node.attrs, "rename_all");
                    let fields = fields_of(cx, named.named.iter(), &ident, false, rule.as_deref());
                    Shape::Struct(Box::new(input(node, attrs, fields)))
                }
                _ => {
                    cx.error_spanned_by(
                        &node.ident,
                        format!(
                            "`#[derive(ToolArgs)]` needs a struct with named fields, which the model fills as a JSON object; write `struct {ident} {{ field: Type }}`, or use an enum for a choice"
                        ),
                    );
                    return None;
                }
            },
            Data::Enum(data) => {
                let mut variants = Vec::new();
                for variant in &data.variants {
                    let fields = match &variant.fields {
                        Fields::Named(named) => {
                            let owner = format!("{ident}::{}", variant.ident);
                            // A variant's `rename_all` names its fields, else
                            // the enum's `rename_all_fields`.
                            let rule = crate::ast::serde_rename_rule(&variant.attrs, "rename_all")
                                .or_else(|| {
                                    crate::ast::serde_rename_rule(&node.attrs, "rename_all_fields")
                                });
                            let fields =
                                fields_of(cx, named.named.iter(), &owner, true, rule.as_deref());
                            Some(input(node, variant_attrs(&attrs), fields))
                        }
                        Fields::Unnamed(unnamed) if unnamed.unnamed.len() > 1 => {
                            cx.error_spanned_by(
                                unnamed,
                                "a variant with several unnamed fields is a JSON array, which tool arguments never are; name the fields: `Variant { a: A, b: B }`",
                            );
                            None
                        }
                        _ => None,
                    };
                    variants.push(Variant {
                        original: variant,
                        fields,
                    });
                }
                // The enum's own waivers are checked once, on the enum.
                Shape::Enum(variants)
            }
            Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "`#[derive(ToolArgs)]` does not support unions",
                );
                return None;
            }
        };
        Some(Args {
            original: node,
            crate_path,
            shape,
        })
    }

    /// Every struct of fields: the struct, or each struct-like variant.
    pub fn inputs(&self) -> Vec<&Input<'a>> {
        match &self.shape {
            Shape::Struct(input) => vec![input],
            Shape::Enum(variants) => variants.iter().filter_map(|v| v.fields.as_ref()).collect(),
        }
    }
}

fn fields_of<'a>(
    cx: &Ctxt,
    fields: impl Iterator<Item = &'a syn::Field>,
    owner: &str,
    in_variant: bool,
    rename_all: Option<&str>,
) -> Vec<Field<'a>> {
    fields
        .filter_map(|original| {
            if in_variant {
                check_variant_field(cx, original);
            }
            let here = if in_variant {
                Position {
                    keys: VARIANT_FIELD_KEYS,
                    name: "a field of an enum variant",
                }
            } else {
                Position {
                    keys: ARGS_FIELD_KEYS,
                    name: "a field of a `#[derive(ToolArgs)]` type",
                }
            };
            let mut field = Field::from_syn_at(cx, original, &here)?;
            // The twin keeps `#[serde(rename = "mail")]`: the property is
            // `mail`, and the field's constraints and rules go there.
            if !field.attrs.rename.is_given() {
                if let Some(name) = crate::ast::serde_rename(&original.attrs) {
                    field.name = name;
                } else if let Some(name) =
                    rename_all.and_then(|rule| crate::ast::apply_rename_rule(rule, &field.name))
                {
                    // `#[serde(rename_all = "camelCase")]` on the type.
                    field.name = name;
                }
            }
            field.owner = Some(owner.to_owned());
            Some(field)
        })
        .collect()
}

/// The model of one struct of fields, with the type's waivers.
fn input<'a>(node: &'a DeriveInput, attrs: ToolAttrs, fields: Vec<Field<'a>>) -> Input<'a> {
    Input {
        original: node,
        ident: &node.ident,
        attrs,
        fields,
        name: node.ident.to_string(),
        name_tokens: node.ident.to_token_stream(),
    }
}

/// The keys of the type again for a variant: only the waivers matter there.
fn variant_attrs(attrs: &ToolAttrs) -> ToolAttrs {
    let mut copy = empty_attrs();
    copy.allows = match &attrs.allows {
        Slot::Given(allows) => Slot::Given(
            allows
                .iter()
                .map(|a| crate::nested::Allow {
                    rule: a.rule,
                    rule_tokens: a.rule_tokens.clone(),
                    reason: a.reason.clone(),
                })
                .collect(),
        ),
        Slot::Absent => Slot::Absent,
        Slot::Refused => Slot::Refused,
    };
    copy
}

fn empty_attrs() -> ToolAttrs {
    ToolAttrs {
        doc: None,
        description: Slot::Absent,
        name: Slot::Absent,
        title: Slot::Absent,
        version: Slot::Absent,
        deprecated: Slot::Absent,
        effect: Slot::Absent,
        idempotent: Slot::Absent,
        approval: Slot::Absent,
        timeout_ms: Slot::Absent,
        open_world: Slot::Absent,
        data: Slot::Absent,
        output: Slot::Absent,
        errors: Vec::new(),
        examples: Vec::new(),
        crate_path: Slot::Absent,
        allows: Slot::Absent,
    }
}

/// The keys on the type: `description`, `crate` and `allow(...)`.
fn args_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ToolAttrs {
    let mut description = Attr::none(cx, DESCRIPTION);
    let mut crate_path = Attr::none(cx, CRATE);
    let mut allows = AllowList::default();
    let here = Position {
        keys: ARGS_KEYS,
        name: "a `#[derive(ToolArgs)]` type",
    };
    let failed = each_key(
        cx,
        attrs,
        "#[tool(allow(model_identity = \"why\"))]",
        |meta| {
            if meta.path == DESCRIPTION {
                description.set(&meta.path, lit_str(cx, meta, DESCRIPTION)?);
            } else if meta.path == CRATE {
                let value: Option<LitStr> = lit_str(cx, meta, CRATE)?;
                let path = value.and_then(|s| match s.parse::<Path>() {
                Ok(path) => Some(path),
                Err(_) => {
                    cx.error_spanned_by(
                        &s,
                        "`crate` must be a path to the tool-contract crate, e.g. `crate = \"my_app::tool_contract\"`",
                    );
                    None
                }
            });
                crate_path.set(&meta.path, path);
            } else if meta.path == ALLOW {
                allows.parse(cx, meta)?;
            } else if STRUCT_KEYS.iter().any(|k| meta.path == *k) {
                let key = path_to_string(&meta.path);
                cx.error_spanned_by(
                &meta.path,
                format!(
                    "`#[tool({key})]` belongs on a `#[derive(Tool)]` struct; a nested argument type has no name, version or policy of its own, only {}",
                    key_list(ARGS_KEYS)
                ),
            );
                skip_value(meta)?;
            } else {
                let key = path_to_string(&meta.path);
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "unknown tool attribute `{key}`{}; the keys on {} are {}",
                        did_you_mean(&key, here.keys),
                        here.name,
                        key_list(here.keys)
                    ),
                );
                skip_value(meta)?;
            }
            Ok(())
        },
    );
    let mut attrs_out = empty_attrs();
    attrs_out.doc = doc(attrs);
    attrs_out.description = description.finish(failed);
    attrs_out.crate_path = crate_path.finish(failed);
    attrs_out.allows = allows.finish(failed);
    attrs_out
}

/// A field of an enum variant takes the keys that do not change its schema
/// beyond its name and description; a constraint there asks for a struct.
fn check_variant_field(cx: &Ctxt, original: &syn::Field) {
    for attr in original.attrs.iter().filter(|a| a.path() == TOOL) {
        let _ = attr.parse_nested_meta(|meta| {
            if !VARIANT_FIELD_KEYS.iter().any(|k| meta.path == *k)
                && ALL_FIELD_KEYS.iter().any(|k| meta.path == *k)
            {
                let key = path_to_string(&meta.path);
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "`#[tool({key})]` is not supported on a field of an enum variant; move the fields into a `#[derive(ToolArgs)]` struct and make the variant hold it (`Variant(VariantArgs)`)"
                    ),
                );
            }
            if meta.input.peek(syn::token::Paren) {
                let _ = meta.parse_nested_meta(|m| skip_value(&m));
            } else if meta.input.peek(Token![=]) {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
}

// Rule: a nested type is all from the model: no field is injected or an
// idempotency key (those belong to the tool's own fields).
//   #[tool(inject)] tenant: TenantId      (inside a #[derive(ToolArgs)])
pub fn check(cx: &Ctxt, args: &Args) {
    for input in args.inputs() {
        for field in &input.fields {
            if let Some(tokens) = field.attrs.inject.given() {
                cx.error_spanned_by(
                    tokens,
                    "`inject` takes a value from the session into the tool's own fields; a nested argument type is filled by the model, so move the field to the `#[derive(Tool)]` struct",
                );
            }
            if let Some(tokens) = field.attrs.idempotency_key.given() {
                cx.error_spanned_by(
                    tokens,
                    "`idempotency_key` marks one of the tool's own fields; move it to the `#[derive(Tool)]` struct",
                );
            }
        }
        // An enum's waivers are shared by its variants: one variant may not
        // need a waiver that another does, so none is called unused.
        valid::check_nested(cx, input, matches!(args.shape, Shape::Struct(_)));
    }
}

/// The tokens of `#[tool(crate = "...")]`, or the facade's path.
pub fn private_path(args: &Args) -> TokenStream {
    match &args.crate_path {
        Some(path) => quote::quote!(#path::__private),
        None => quote::quote!(::tool_contract::__private),
    }
}
