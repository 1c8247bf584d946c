//! Writes `#[derive(ToolArgs)]`: `Deserialize` and `JsonSchema` for a nested
//! argument type.
//!
//! serde and schemars do the reading and the schema: the expansion declares
//! a hidden twin of the type (`__ToolArgs`, inside the `const _` block) with
//! the same fields and variants, its doc comments and serde attributes, the
//! `#[tool(...)]` keys that serde reads turned into serde attributes
//! (`rename`, `default`) and `deny_unknown_fields`, and derives both traits
//! on the twin through the facade's re-exports. The type's own impls
//! delegate to the twin: `Deserialize` moves the fields over, `JsonSchema`
//! takes the twin's schema and lets tool-core add each field's description,
//! unit, constraints and `items(...)` constraints (the same code that writes
//! a tool's input schema) and write the type's waivers under `"x-tool-allow"`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, DeriveInput, Fields};

use crate::args::{self, Args, Shape};
use crate::ast::{Field, Input};
use crate::attr::DefaultKind;
use crate::ctxt::Ctxt;
use crate::expand::{constraint_checks, field_contract, slot, waiver};
use crate::symbol::{SCHEMARS, SERDE};

/// Expands `#[derive(ToolArgs)]`: the impls, or the errors plus stub impls.
pub fn derive(node: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let parsed = Args::from_syn(&cx, node);
    if let Some(parsed) = &parsed {
        args::check(&cx, parsed);
    }
    match (cx.check(), parsed) {
        (Ok(()), Some(parsed)) => impl_args(&parsed),
        (result, parsed) => {
            let errors = result.err().map(|e| e.to_compile_error());
            let private = parsed
                .as_ref()
                .map_or_else(|| quote!(::tool_contract::__private), args::private_path);
            let dummy = dummy(node, &private);
            quote!(#errors #dummy)
        }
    }
}

/// Stub impls so uses of the type add no errors of their own.
fn dummy(node: &DeriveInput, private: &TokenStream) -> TokenStream {
    let ident = &node.ident;
    let (impl_generics, ty_generics, where_clause) = node.generics.split_for_impl();
    quote! {
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            use #private as _tool;

            #[automatically_derived]
            impl<'de> _tool::serde::Deserialize<'de> for #ident #ty_generics #where_clause {
                fn deserialize<__D>(_: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: _tool::serde::Deserializer<'de>,
                {
                    ::core::unimplemented!()
                }
            }

            #[automatically_derived]
            impl #impl_generics _tool::schemars::JsonSchema for #ident #ty_generics #where_clause {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::core::unimplemented!()
                }

                fn json_schema(_: &mut _tool::schemars::SchemaGenerator) -> _tool::schemars::Schema {
                    ::core::unimplemented!()
                }
            }
        };
    }
}

/// The attributes the twin keeps: doc comments, serde and schemars.
fn kept(attrs: &[Attribute]) -> Vec<&Attribute> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc") || a.path() == SERDE || a.path() == SCHEMARS)
        .filter(|a| !is_deny_unknown_fields(a))
        .collect()
}

fn is_deny_unknown_fields(attr: &Attribute) -> bool {
    attr.path() == SERDE
        && attr
            .parse_args::<syn::Path>()
            .is_ok_and(|p| p.is_ident("deny_unknown_fields"))
}

/// A field of the twin: its doc comments and serde attributes, and the
/// `#[tool(...)]` keys serde reads, as serde attributes.
fn twin_field(field: &Field) -> TokenStream {
    let attrs = kept(&field.original.attrs);
    let ident = field.ident;
    let ty = field.ty;
    let rename = field
        .attrs
        .rename
        .given()
        .map(|lit| quote!(#[serde(rename = #lit)]));
    let default = match field.attrs.default.given() {
        Some((DefaultKind::Trait, _)) => Some(quote!(#[serde(default)])),
        Some((DefaultKind::Path(path), _)) => {
            let path = quote!(#path).to_string().replace(' ', "");
            Some(quote!(#[serde(default = #path)]))
        }
        None => None,
    };
    quote! {
        #(#attrs)*
        #rename
        #default
        #ident: #ty
    }
}

/// `FieldContract`s that tell tool-core what to add to each property.
fn field_contracts(input: &Input) -> Vec<TokenStream> {
    input
        .fields
        .iter()
        .map(|field| field_contract(field, false))
        .collect()
}

/// The constraint checks a tool runs on its own fields, run by
/// `Deserialize` on the value it read: each constraint key is type-checked
/// against its field as on a tool (`minimum` on a `String` is an error at
/// the field's type), and a value that breaks one is a serde error naming
/// the field, whichever parser reads the type.
fn kind_checks(input: &Input) -> TokenStream {
    let ident = input.ident;
    let idents = input.fields.iter().map(|f| f.ident);
    let slots = (0..input.fields.len()).map(slot);
    let checks = input
        .fields
        .iter()
        .enumerate()
        .flat_map(|(i, f)| constraint_checks(i, f));
    quote! {
        #[allow(unused_variables, unreachable_code)]
        fn __tool_kinds(__tool_value: &#ident) -> ::core::result::Result<(), _tool::ArgumentError> {
            let #ident { #(#idents: #slots,)* } = __tool_value;
            #(#checks)*
            ::core::result::Result::Ok(())
        }
    }
}

/// The waivers of the type (once) and of each field, for the schema.
fn waivers(parsed: &Args) -> Vec<TokenStream> {
    let inputs = parsed.inputs();
    let type_level = inputs
        .first()
        .map(|input| input.attrs.allows().iter().map(|a| waiver(a, None)));
    let fields = inputs.iter().flat_map(|input| {
        input.fields.iter().flat_map(|f| {
            f.attrs
                .allows()
                .iter()
                .map(move |a| waiver(a, Some(&f.name)))
        })
    });
    type_level.into_iter().flatten().chain(fields).collect()
}

fn impl_args(parsed: &Args) -> TokenStream {
    let node = parsed.original;
    let ident = &node.ident;
    let private = args::private_path(parsed);
    let private_text = private.to_string().replace(' ', "");
    let serde_crate = format!("{private_text}::serde");
    let schemars_crate = format!("{private_text}::schemars");
    let type_attrs = kept(&node.attrs);
    let twin = format_ident!("__ToolArgs");

    let mut kinds = TokenStream::new();
    let mut check = TokenStream::new();
    let (twin_body, moved, fields) = match &parsed.shape {
        Shape::Struct(input) => {
            let twin_fields = input.fields.iter().map(twin_field);
            let idents: Vec<_> = input.fields.iter().map(|f| f.ident).collect();
            kinds = kind_checks(input);
            check = quote! {
                if let ::core::result::Result::Err(__tool_error) = __tool_kinds(&__tool_result) {
                    let __tool_at = __tool_error.path().trim_start_matches("$.");
                    return ::core::result::Result::Err(<__D::Error as _tool::serde::de::Error>::custom(
                        ::core::format_args!("{}: {}", __tool_at, __tool_error.message()),
                    ));
                }
            };
            (
                quote!(struct #twin { #(#twin_fields,)* }),
                quote!(#ident { #(#idents: __tool_value.#idents,)* }),
                field_contracts(input),
            )
        }
        Shape::Enum(variants) => {
            let mut twin_variants = Vec::new();
            let mut arms = Vec::new();
            for variant in variants {
                let original = variant.original;
                let name = &original.ident;
                let attrs = kept(&original.attrs);
                match (&original.fields, &variant.fields) {
                    (Fields::Named(_), Some(input)) => {
                        let twin_fields = input.fields.iter().map(twin_field);
                        let idents: Vec<_> = input.fields.iter().map(|f| f.ident).collect();
                        twin_variants.push(quote!(#(#attrs)* #name { #(#twin_fields,)* }));
                        arms.push(
                            quote!(#twin::#name { #(#idents,)* } => #ident::#name { #(#idents,)* }),
                        );
                    }
                    (Fields::Unnamed(unnamed), _) => {
                        let inner = unnamed.unnamed.iter().map(|f| {
                            let ty = &f.ty;
                            let attrs = kept(&f.attrs);
                            quote!(#(#attrs)* #ty)
                        });
                        twin_variants.push(quote!(#(#attrs)* #name(#(#inner),*)));
                        arms.push(
                            quote!(#twin::#name(__tool_inner) => #ident::#name(__tool_inner)),
                        );
                    }
                    _ => {
                        twin_variants.push(quote!(#(#attrs)* #name));
                        arms.push(quote!(#twin::#name => #ident::#name));
                    }
                }
            }
            (
                quote!(enum #twin { #(#twin_variants,)* }),
                quote!(match __tool_value { #(#arms,)* }),
                Vec::new(),
            )
        }
    };
    let name = ident.to_string();
    let field_count = fields.len();
    let waivers = waivers(parsed);
    let waiver_count = waivers.len();

    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, non_camel_case_types, unused_attributes, unused_qualifications, dead_code, clippy::all)]
        const _: () = {
            use #private as _tool;

            #[derive(_tool::serde::Deserialize, _tool::schemars::JsonSchema)]
            #[serde(crate = #serde_crate, deny_unknown_fields)]
            #[schemars(crate = #schemars_crate)]
            #(#type_attrs)*
            #twin_body

            #[automatically_derived]
            impl<'de> _tool::serde::Deserialize<'de> for #ident {
                fn deserialize<__D>(__tool_deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: _tool::serde::Deserializer<'de>,
                {
                    let __tool_value = <#twin as _tool::serde::Deserialize<'de>>::deserialize(__tool_deserializer)?;
                    let __tool_result = #moved;
                    #check
                    ::core::result::Result::Ok(__tool_result)
                }
            }

            #kinds

            static __TOOL_FIELDS: [_tool::FieldContract; #field_count] = [#(#fields),*];
            static __TOOL_WAIVERS: [_tool::Waiver; #waiver_count] = [#(#waivers),*];

            #[automatically_derived]
            impl _tool::schemars::JsonSchema for #ident {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(#name)
                }

                fn schema_id() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", #name))
                }

                fn json_schema(__tool_generator: &mut _tool::schemars::SchemaGenerator) -> _tool::schemars::Schema {
                    let mut __tool_schema = <#twin as _tool::schemars::JsonSchema>::json_schema(__tool_generator);
                    _tool::args_schema(&mut __tool_schema, __tool_generator, &__TOOL_FIELDS, &__TOOL_WAIVERS);
                    __tool_schema
                }
            }
        };
    }
}
