//! Writes `impl Tool`: the static contract and the argument parser.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr, Path};

use crate::ast::{Field, Input, Presence};
use crate::attr::{
    self, Approval, ConstraintKind, ConstraintValue, DataClass, DefaultKind, Effect, Number,
};
use crate::ctxt::Ctxt;
use crate::doc_section::doc_section;
use crate::{fallback, ty, valid};

/// A span that resolves names at the call site but points at `tokens`, so a
/// missing trait impl is reported at the field type while the generated
/// locals (`__tool_map`, `self`, `_tool`) stay visible even when the field
/// came from a `macro_rules!` expansion with its own hygiene.
fn at<T: Spanned>(tokens: &T) -> Span {
    Span::call_site().located_at(tokens.span())
}

/// Expands `#[derive(Tool)]`: the impl, or every error found plus a stub impl.
pub fn derive(node: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let input = Input::from_syn(&cx, node);
    if let Some(input) = &input {
        valid::check(&cx, input);
    }
    let crate_path = input.as_ref().and_then(|i| i.attrs.crate_path.clone());
    match (cx.check(), input) {
        (Ok(()), Some(input)) => impl_tool(&input),
        (result, _) => {
            let errors = result.err().map(|e| e.to_compile_error());
            let dummy = fallback::dummy(node, crate_path.as_ref());
            quote!(#errors #dummy)
        }
    }
}

/// `use ::tool_contract::__private as _tool;` or the `crate = "..."` path.
pub fn private_use(crate_path: Option<&Path>) -> TokenStream {
    match crate_path {
        Some(path) => quote!(use #path::__private as _tool;),
        None => quote!(
            use ::tool_contract::__private as _tool;
        ),
    }
}

fn impl_tool(input: &Input) -> TokenStream {
    let ident = input.ident;
    let use_private = private_use(input.attrs.crate_path.as_ref());
    let contract = contract(input);
    let from_arguments = from_arguments(input);
    let idempotency_key = idempotency_key(input);
    let output_ty = match &input.attrs.output {
        Some(ty) => quote_spanned!(at(&ty)=> #ty),
        None => quote!(::std::string::String),
    };
    let doc = doc_section(input);
    let declared_codes = declared_codes(input);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all)]
        const _: () = {
            #use_private

            #[doc = #doc]
            #[automatically_derived]
            impl _tool::Tool for #ident {
                type Output = #output_ty;

                fn contract() -> &'static _tool::ToolContract {
                    #contract
                }

                #from_arguments

                #idempotency_key
            }

            #declared_codes
        };
    }
}

/// One associated constant per declared error code, so a handler names a
/// declared error as `Tool::CODE` and a misspelled code does not compile:
/// `ToolError::declared(GetOrder::ORDER_NOT_FOUND, "...")`.
fn declared_codes(input: &Input) -> TokenStream {
    if input.attrs.errors.is_empty() {
        return TokenStream::new();
    }
    let ident = input.ident;
    let consts = input.attrs.errors.iter().map(|e| {
        let name = &e.code;
        let code = e.code.to_string();
        let meaning = e.meaning.value();
        let doc = format!("The declared error `{code}`: {meaning}");
        let category = option(e.category.as_deref().map(|c| {
            let variant = format_ident!("{}", camel(c));
            quote!(_tool::ErrorCategory::#variant)
        }));
        let recovery = option(e.recovery.as_deref().map(|r| {
            let variant = format_ident!("{}", camel(r));
            quote!(_tool::Recovery::#variant)
        }));
        quote! {
            #[doc = #doc]
            pub const #name: _tool::DeclaredError = _tool::DeclaredError {
                code: #code, meaning: #meaning, category: #category, recovery: #recovery,
            };
        }
    });
    quote! {
        #[automatically_derived]
        impl #ident {
            #(#consts)*
        }
    }
}

fn contract(input: &Input) -> TokenStream {
    let attrs = &input.attrs;
    let name = &input.name;
    let rust_name = input.ident.to_string();
    let description = input
        .description()
        .map(|(text, _)| text)
        .unwrap_or_default();
    let (major, minor, patch) = attrs.version.as_ref().map_or((1, 0, 0), |(v, _)| *v);

    let effect = match attrs.effect.as_ref().map(|(e, _)| *e) {
        None | Some(Effect::Read) => quote!(_tool::Effect::Read),
        Some(Effect::Write) => quote!(_tool::Effect::Write),
        Some(Effect::Destructive) => quote!(_tool::Effect::Destructive),
    };
    let key_field = input
        .fields
        .iter()
        .find(|f| f.attrs.idempotency_key.is_some());
    let idempotency = match (key_field, &attrs.idempotent) {
        (Some(field), _) => {
            let key = &field.name;
            quote!(_tool::Idempotency::Keyed { field: #key })
        }
        (None, Some((true, _))) => quote!(_tool::Idempotency::Idempotent),
        (None, Some((false, _))) => quote!(_tool::Idempotency::NotIdempotent),
        (None, None) => quote!(_tool::Idempotency::Unspecified),
    };
    let approval = match attrs.approval.as_ref().map(|(a, _)| *a) {
        Some(Approval::Required) => quote!(_tool::Approval::Required),
        None | Some(Approval::None) => quote!(_tool::Approval::None),
    };
    let timeout_ms = option(attrs.timeout_ms.as_ref().map(|(n, _)| quote!(#n)));
    let open_world = attrs.open_world.as_ref().is_some_and(|(b, _)| *b);
    let data_class = match attrs.data.as_ref().map(|(d, _)| *d) {
        Some(DataClass::Public) => quote!(_tool::DataClass::Public),
        None | Some(DataClass::Internal) => quote!(_tool::DataClass::Internal),
        Some(DataClass::Confidential) => quote!(_tool::DataClass::Confidential),
        Some(DataClass::Restricted) => quote!(_tool::DataClass::Restricted),
    };

    let fields: Vec<TokenStream> = input.fields.iter().map(field_contract).collect();
    let field_count = fields.len();
    let (output_ty, output_name, declared) = match &attrs.output {
        Some(ty) => (quote_spanned!(at(&ty)=> #ty), ty::display(ty), true),
        None => (quote!(::std::string::String), "String".to_owned(), false),
    };
    let output_schema = quote_spanned!(at(&output_ty)=> _tool::root_schema_of::<#output_ty>);
    let errors = attrs.errors.iter().map(|e| {
        let code = e.code.to_string();
        let meaning = e.meaning.value();
        let category = option(e.category.as_deref().map(|c| {
            let variant = format_ident!("{}", camel(c));
            quote!(_tool::ErrorCategory::#variant)
        }));
        let recovery = option(e.recovery.as_deref().map(|r| {
            let variant = format_ident!("{}", camel(r));
            quote!(_tool::Recovery::#variant)
        }));
        quote! {
            _tool::DeclaredError { code: #code, meaning: #meaning, category: #category, recovery: #recovery }
        }
    });
    let error_count = attrs.errors.len();
    let tool_waivers = attrs.allows.iter().map(|a| waiver(a, None));
    let field_waivers = input
        .fields
        .iter()
        .flat_map(|f| f.attrs.allows.iter().map(move |a| waiver(a, Some(&f.name))));
    let waivers: Vec<TokenStream> = tool_waivers.chain(field_waivers).collect();
    let waiver_count = waivers.len();

    quote! {
        static __TOOL_FIELDS: [_tool::FieldContract; #field_count] = [#(#fields),*];
        static __TOOL_ERRORS: [_tool::DeclaredError; #error_count] = [#(#errors),*];
        static __TOOL_WAIVERS: [_tool::Waiver; #waiver_count] = [#(#waivers),*];
        static __TOOL_CONTRACT: _tool::ToolContract = _tool::ToolContract::__new(_tool::ContractParts {
            name: #name,
            rust_name: #rust_name,
            description: #description,
            version: _tool::Version::new(#major, #minor, #patch),
            policy: _tool::Policy {
                effect: #effect,
                idempotency: #idempotency,
                approval: #approval,
                timeout_ms: #timeout_ms,
                open_world: #open_world,
                data_class: #data_class,
            },
            fields: &__TOOL_FIELDS,
            output: _tool::OutputContract {
                rust_type: #output_name,
                declared: #declared,
                schema: #output_schema,
            },
            errors: &__TOOL_ERRORS,
            waivers: &__TOOL_WAIVERS,
        });
        &__TOOL_CONTRACT
    }
}

fn field_contract(field: &Field) -> TokenStream {
    let name = &field.name;
    let rust_name = field.ident.to_string();
    let rust_type = ty::display(field.ty);
    let description = field
        .description()
        .map(|(text, _)| text)
        .unwrap_or_default();
    let presence = match field.presence {
        Presence::Required => quote!(_tool::Presence::Required),
        Presence::Optional => quote!(_tool::Presence::Optional),
        Presence::Defaulted => quote!(_tool::Presence::Defaulted),
    };
    let injected = field.is_injected();
    let unit = option(field.attrs.unit.as_ref().map(|u| quote!(#u)));
    let constraints = field
        .attrs
        .constraints
        .iter()
        .map(|c| match (&c.kind, &c.value) {
            (ConstraintKind::MinLength, ConstraintValue::Count(n)) => {
                quote!(_tool::Constraint::MinLength(#n))
            }
            (ConstraintKind::MaxLength, ConstraintValue::Count(n)) => {
                quote!(_tool::Constraint::MaxLength(#n))
            }
            (ConstraintKind::MinItems, ConstraintValue::Count(n)) => {
                quote!(_tool::Constraint::MinItems(#n))
            }
            (ConstraintKind::MaxItems, ConstraintValue::Count(n)) => {
                quote!(_tool::Constraint::MaxItems(#n))
            }
            (ConstraintKind::Pattern, ConstraintValue::Text(s)) => {
                quote!(_tool::Constraint::Pattern(#s))
            }
            (ConstraintKind::Format, ConstraintValue::Text(s)) => {
                quote!(_tool::Constraint::Format(#s))
            }
            (ConstraintKind::Minimum, ConstraintValue::Number(n)) => {
                let bound = bound(*n);
                quote!(_tool::Constraint::Minimum(#bound))
            }
            (ConstraintKind::Maximum, ConstraintValue::Number(n)) => {
                let bound = bound(*n);
                quote!(_tool::Constraint::Maximum(#bound))
            }
            _ => unreachable_constraint(),
        });
    let idempotency_key = field.attrs.idempotency_key.is_some();
    let schema = if injected {
        quote!(::core::option::Option::None)
    } else {
        let ty = field.ty;
        let schema_fn = quote_spanned!(at(&ty)=> _tool::schema_of::<#ty>);
        quote!(::core::option::Option::Some(#schema_fn))
    };
    quote! {
        _tool::FieldContract {
            name: #name,
            rust_name: #rust_name,
            rust_type: #rust_type,
            description: #description,
            presence: #presence,
            injected: #injected,
            unit: #unit,
            constraints: &[#(#constraints),*],
            idempotency_key: #idempotency_key,
            schema: #schema,
        }
    }
}

/// Attribute parsing pairs each kind with its value type; this is never reached.
fn unreachable_constraint() -> TokenStream {
    quote!(::core::compile_error!(
        "tool-macros: constraint kind and value do not match"
    ))
}

fn bound(n: Number) -> TokenStream {
    match n {
        Number::Int(v) => quote!(_tool::Bound::Int(#v)),
        Number::UInt(v) => quote!(_tool::Bound::UInt(#v)),
        Number::Float(v) => quote!(_tool::Bound::Float(#v)),
    }
}

fn waiver(allow: &attr::Allow, field: Option<&str>) -> TokenStream {
    let rule = format_ident!("{}", camel(&allow.rule));
    let field = option(field.map(|f| quote!(#f)));
    let reason = &allow.reason;
    quote!(_tool::Waiver { rule: _tool::Rule::#rule, field: #field, reason: #reason })
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// `retry_later` → `RetryLater`.
fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
        })
        .collect()
}

fn slot(index: usize) -> syn::Ident {
    format_ident!("__tool_v{}", index)
}

/// The type the parser reads for a field: `T` when required, `Option<T>`
/// (the declared type) when optional, `Option<T>` around a defaulted `T`.
fn read_type(field: &Field) -> TokenStream {
    let ty = field.ty;
    match field.presence {
        Presence::Required | Presence::Optional => quote_spanned!(at(&ty)=> #ty),
        Presence::Defaulted => quote_spanned!(at(&ty)=> ::core::option::Option<#ty>),
    }
}

fn from_arguments(input: &Input) -> TokenStream {
    let model: Vec<(usize, &Field)> = input.model_fields().collect();
    let slots: Vec<syn::Ident> = model.iter().map(|(i, _)| slot(*i)).collect();
    let read_types: Vec<TokenStream> = model.iter().map(|(_, f)| read_type(f)).collect();
    let arms = model.iter().map(|(i, f)| {
        let slot = slot(*i);
        let read_ty = read_type(f);
        let span = at(f.ty);
        // The turbofish, spanned at the field type, puts a missing
        // `Deserialize` impl on that type rather than on the derive.
        quote_spanned! {span=>
            #i => _tool::next_value::<_, #read_ty>(&mut __tool_map, self.0, #i, &mut #slot)?,
        }
    });

    let required: Vec<(usize, &Field)> = model
        .iter()
        .copied()
        .filter(|(_, f)| f.presence == Presence::Required)
        .collect();
    let unwrap_required = if required.is_empty() {
        TokenStream::new()
    } else {
        let slots: Vec<syn::Ident> = required.iter().map(|(i, _)| slot(*i)).collect();
        let bound: Vec<syn::Ident> = required
            .iter()
            .map(|(i, _)| format_ident!("__tool_r{}", i))
            .collect();
        let indexes = required.iter().map(|(i, _)| *i);
        quote! {
            let (#(#slots,)*) = match (#(#slots,)*) {
                (#(::core::option::Option::Some(#bound),)*) => (#(#bound,)*),
                (#(#bound,)*) => {
                    return ::core::result::Result::Err(
                        __tool_state.missing_fields(&[#((#indexes, #bound.is_none())),*]),
                    );
                }
            };
        }
    };

    let finish = input
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| finish_field(i, f));
    let checks = input
        .fields
        .iter()
        .enumerate()
        .flat_map(|(i, f)| constraint_checks(i, f));
    let idents = input.fields.iter().map(|f| f.ident);
    let values = (0..input.fields.len()).map(slot);

    quote! {
        fn from_arguments(
            __tool_arguments: &str,
            __tool_session: &_tool::Session,
        ) -> ::core::result::Result<Self, _tool::ArgumentError> {
            struct __ToolVisitor<'__tool_s>(&'__tool_s _tool::ParseState);

            impl<'de, '__tool_s> _tool::de::Visitor<'de> for __ToolVisitor<'__tool_s> {
                type Value = (#(::core::option::Option<#read_types>,)*);

                fn expecting(&self, __tool_f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __tool_f.write_str("the tool's arguments as a JSON object")
                }

                fn visit_map<__ToolA>(
                    self,
                    mut __tool_map: __ToolA,
                ) -> ::core::result::Result<Self::Value, __ToolA::Error>
                where
                    __ToolA: _tool::de::MapAccess<'de>,
                {
                    #(let mut #slots = ::core::option::Option::None;)*
                    while let ::core::option::Option::Some(__tool_key) = _tool::next_key(&mut __tool_map, self.0)? {
                        match __tool_key {
                            #(#arms)*
                            _ => {}
                        }
                    }
                    ::core::result::Result::Ok((#(#slots,)*))
                }
            }

            let __tool_state = _tool::ParseState::new(<Self as _tool::Tool>::contract());
            let (#(#slots,)*) = _tool::parse_map(
                __tool_arguments,
                __tool_session,
                &__tool_state,
                __ToolVisitor(&__tool_state),
            )?;
            #unwrap_required
            #(#finish)*
            #(#checks)*
            ::core::result::Result::Ok(Self { #(#idents: #values),* })
        }
    }
}

/// Turns a field's slot into its value: optional and defaulted fields are
/// resolved, injected ones are read from the session.
fn finish_field(index: usize, field: &Field) -> TokenStream {
    let slot = slot(index);
    if field.is_injected() {
        let ty = field.ty;
        return match ty::option_inner(ty) {
            Some(inner) => quote_spanned! {at(&ty)=>
                let #slot: #ty = _tool::inject_optional::<#inner>(__tool_session);
            },
            None => quote_spanned! {at(&ty)=>
                let #slot: #ty = _tool::inject::<#ty>(__tool_session, &__tool_state, #index)?;
            },
        };
    }
    match (&field.presence, &field.attrs.default) {
        (Presence::Optional, _) => quote! {
            let #slot = ::core::option::Option::flatten(#slot);
        },
        (Presence::Defaulted, Some((DefaultKind::Path(path), _))) => quote_spanned! {at(&path)=>
            let #slot = match #slot {
                ::core::option::Option::Some(::core::option::Option::Some(__tool_value)) => __tool_value,
                _ => #path(),
            };
        },
        (Presence::Defaulted, _) => {
            let ty = field.ty;
            quote_spanned! {at(&ty)=>
                let #slot = match #slot {
                    ::core::option::Option::Some(::core::option::Option::Some(__tool_value)) => __tool_value,
                    _ => <#ty as ::core::default::Default>::default(),
                };
            }
        }
        (Presence::Required, _) => TokenStream::new(),
    }
}

/// The calls that enforce a field's constraints after it is read.
fn constraint_checks(index: usize, field: &Field) -> Vec<TokenStream> {
    let slot = slot(index);
    let name = &field.name;
    let ty = field.ty;
    let span = at(ty);
    field
        .attrs
        .constraints
        .iter()
        .map(|c| match (&c.kind, &c.value) {
            (ConstraintKind::MinLength, ConstraintValue::Count(n)) => {
                quote_spanned!(span=> _tool::min_length::<#ty>(&#slot, #n, #name)?;)
            }
            (ConstraintKind::MaxLength, ConstraintValue::Count(n)) => {
                quote_spanned!(span=> _tool::max_length::<#ty>(&#slot, #n, #name)?;)
            }
            (ConstraintKind::MinItems, ConstraintValue::Count(n)) => {
                quote_spanned!(span=> _tool::min_items::<#ty>(&#slot, #n, #name)?;)
            }
            (ConstraintKind::MaxItems, ConstraintValue::Count(n)) => {
                quote_spanned!(span=> _tool::max_items::<#ty>(&#slot, #n, #name)?;)
            }
            (ConstraintKind::Minimum, ConstraintValue::Number(n)) => {
                let bound = bound(*n);
                quote_spanned!(span=> _tool::minimum::<#ty>(&#slot, #bound, #name)?;)
            }
            (ConstraintKind::Maximum, ConstraintValue::Number(n)) => {
                let bound = bound(*n);
                quote_spanned!(span=> _tool::maximum::<#ty>(&#slot, #bound, #name)?;)
            }
            (ConstraintKind::Pattern, ConstraintValue::Text(source)) => {
                pattern_check(&slot, ty, source, name)
            }
            (ConstraintKind::Format, ConstraintValue::Text(format)) => {
                quote_spanned!(span=> _tool::format::<#ty>(&#slot, #format, #name)?;)
            }
            _ => unreachable_constraint(),
        })
        .collect()
}

fn pattern_check(slot: &syn::Ident, ty: &syn::Type, source: &LitStr, name: &str) -> TokenStream {
    quote_spanned! {at(&ty)=>
        {
            static __TOOL_PATTERN: _tool::Pattern = _tool::Pattern::new(#source);
            _tool::pattern::<#ty>(&#slot, &__TOOL_PATTERN, #name)?;
        }
    }
}

fn idempotency_key(input: &Input) -> TokenStream {
    let Some(field) = input
        .fields
        .iter()
        .find(|f| f.attrs.idempotency_key.is_some())
    else {
        return TokenStream::new();
    };
    let ident = field.ident;
    let ty = field.ty;
    let key_text = quote_spanned!(at(&ty)=> <#ty as _tool::IdempotencyKey>::key_text);
    quote! {
        fn idempotency_key(&self) -> ::core::option::Option<::std::string::String> {
            #key_text(&self.#ident)
        }
    }
}
