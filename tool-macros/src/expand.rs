//! Writes `impl Tool`: the static contract and the argument parser.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr, Path};

use crate::ast::{Field, Input, Presence};
use crate::attr::DefaultKind;
use crate::constraint::{Constraint, Number};
use crate::ctxt::Ctxt;
use crate::doc_section::doc_section;
use crate::nested::Allow;
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
    let crate_path = input
        .as_ref()
        .and_then(|i| i.attrs.crate_path.given().cloned());
    match (cx.check(), input) {
        (Ok(()), Some(input)) => impl_tool(&input),
        (result, _) => {
            let errors = result.err().map(|e| e.to_compile_error());
            let dummy = fallback::dummy(node, &private_use(crate_path.as_ref()));
            quote!(#errors #dummy)
        }
    }
}

/// `use ::tool_contract::__private as _tool;` or the `crate = "..."` path.
fn private_use(crate_path: Option<&Path>) -> TokenStream {
    match crate_path {
        Some(path) => quote!(use #path::__private as _tool;),
        None => quote!(
            use ::tool_contract::__private as _tool;
        ),
    }
}

fn impl_tool(input: &Input) -> TokenStream {
    let ident = input.ident;
    let use_private = private_use(input.attrs.crate_path.given());
    let contract = contract(input);
    let from_arguments = from_arguments(input);
    let idempotency_key = idempotency_key(input);
    let output_ty = match input.attrs.output.given() {
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
        let category = option(e.category.map(|c| quote!(#c)));
        let recovery = option(e.recovery.map(|r| quote!(#r)));
        quote! {
            #[doc = #doc]
            pub const #name: _tool::DeclaredError =
                _tool::DeclaredError::__new(#code, #meaning, #category, #recovery);
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
    let title = option(attrs.title.given().map(|s| {
        let text = s.value();
        quote!(#text)
    }));
    let (major, minor, patch) = attrs.version.given().map_or((1, 0, 0), |(v, _)| *v);
    // A deprecated version's description ends with the notice the model
    // reads (the shared words of tool-words), written here once.
    let (description, deprecation) = match attrs.deprecated.given() {
        Some(deprecated) => {
            let (year, month, day) = deprecated.sunset;
            let sunset = format!("{year:04}-{month:02}-{day:02}");
            let note = deprecated.note.value().trim().to_owned();
            let description = tool_words::deprecated_description(&description, &sunset, &note);
            let deprecation = quote! {
                ::core::option::Option::Some(_tool::Deprecation::__new(
                    _tool::Date::__new(#year, #month, #day),
                    #note,
                ))
            };
            (description, deprecation)
        }
        None => (description, quote!(::core::option::Option::None)),
    };

    let effect = input.effect();
    // `Keyed` is the one variant with data: the key field's JSON name.
    let idempotency = match (input.idempotency(), input.key_field()) {
        (keyed, Some(field)) => {
            let key = &field.name;
            quote!(#keyed { field: #key })
        }
        (declared, None) => quote!(#declared),
    };
    let approval = input.approval();
    let timeout_ms = option(attrs.timeout_ms.given().map(|(n, _)| quote!(#n)));
    let open_world = attrs.open_world.given().is_some_and(|(b, _)| *b);
    let data_class = input.data_class();

    let fields: Vec<TokenStream> = input
        .fields
        .iter()
        .map(|f| field_contract(f, true))
        .collect();
    let field_count = fields.len();
    let (output_ty, output_name, declared) = match attrs.output.given() {
        Some(ty) => (quote_spanned!(at(&ty)=> #ty), ty::display(ty), true),
        None => (quote!(::std::string::String), "String".to_owned(), false),
    };
    let output_schema = quote_spanned!(at(&output_ty)=> _tool::root_schema_of::<#output_ty>);
    let errors = attrs.errors.iter().map(|e| {
        let code = e.code.to_string();
        let meaning = e.meaning.value();
        let category = option(e.category.map(|c| quote!(#c)));
        let recovery = option(e.recovery.map(|r| quote!(#r)));
        quote! {
            _tool::DeclaredError::__new(#code, #meaning, #category, #recovery)
        }
    });
    let error_count = attrs.errors.len();
    let tool_waivers = attrs.allows().iter().map(|a| waiver(a, None));
    let field_waivers = input.fields.iter().flat_map(|f| {
        f.attrs
            .allows()
            .iter()
            .map(move |a| waiver(a, Some(&f.name)))
    });
    let waivers: Vec<TokenStream> = tool_waivers.chain(field_waivers).collect();
    let waiver_count = waivers.len();
    let examples: Vec<String> = attrs.examples.iter().map(LitStr::value).collect();
    let ident = input.ident;
    let parse_example = if examples.is_empty() {
        quote!(_tool::no_examples)
    } else {
        quote! {{
            fn __tool_parse_example(
                __tool_text: &str,
            ) -> ::core::result::Result<(), _tool::ArgumentError> {
                <#ident as _tool::Tool>::from_arguments(__tool_text, &_tool::Session::new())
                    .map(|_| ())
            }
            __tool_parse_example
        }}
    };

    quote! {
        static __TOOL_FIELDS: [_tool::FieldContract; #field_count] = [#(#fields),*];
        static __TOOL_ERRORS: [_tool::DeclaredError; #error_count] = [#(#errors),*];
        static __TOOL_WAIVERS: [_tool::Waiver; #waiver_count] = [#(#waivers),*];
        static __TOOL_CONTRACT: _tool::ToolContract = _tool::ToolContract::__new(_tool::ContractParts {
            name: #name,
            rust_name: #rust_name,
            title: #title,
            description: #description,
            version: _tool::Version::new(#major, #minor, #patch),
            deprecation: #deprecation,
            policy: _tool::Policy::__new(
                #effect,
                #idempotency,
                #approval,
                #timeout_ms,
                #open_world,
                #data_class,
            ),
            fields: &__TOOL_FIELDS,
            output: _tool::OutputContract::__new(#output_name, #declared, #output_schema),
            errors: &__TOOL_ERRORS,
            waivers: &__TOOL_WAIVERS,
            examples: &[#(#examples),*],
            parse_example: #parse_example,
        });
        &__TOOL_CONTRACT
    }
}

/// A field's `FieldContract`. `with_schema` is false for the fields of a
/// `ToolArgs` type, whose schema its own `JsonSchema` impl builds.
pub fn field_contract(field: &Field, with_schema: bool) -> TokenStream {
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
    let unit = option(field.attrs.unit.given().map(|u| quote!(#u)));
    let constraints = field
        .attrs
        .constraints
        .iter()
        .map(|c| constraint_tokens(&c.constraint));
    let item_constraints = field
        .attrs
        .items
        .iter()
        .flat_map(|(items, _)| items)
        .map(|c| constraint_tokens(&c.constraint));
    let idempotency_key = field.attrs.idempotency_key.is_given();
    let schema = if injected || !with_schema {
        quote!(::core::option::Option::None)
    } else {
        let ty = field.ty;
        let schema_fn = quote_spanned!(at(&ty)=> _tool::schema_of::<#ty>);
        quote!(::core::option::Option::Some(#schema_fn))
    };
    // A required injected field can be looked for in a session before any
    // call (`Toolbox::check`); an optional one may be absent.
    let session_probe = match (injected, ty::option_inner(field.ty)) {
        (true, None) => {
            let ty = field.ty;
            let probe = quote_spanned!(at(&ty)=> _tool::session_holds::<#ty>);
            quote!(::core::option::Option::Some(#probe))
        }
        _ => quote!(::core::option::Option::None),
    };
    quote! {
        // name, rust_name, rust_type, description, presence, injected,
        // unit, constraints, item_constraints, idempotency_key, schema,
        // session_probe
        _tool::FieldContract::__new(
            #name,
            #rust_name,
            #rust_type,
            #description,
            #presence,
            #injected,
            #unit,
            &[#(#constraints),*],
            &[#(#item_constraints),*],
            #idempotency_key,
            #schema,
            #session_probe,
        )
    }
}

/// A constraint as the runtime's `Constraint`.
fn constraint_tokens(constraint: &Constraint) -> TokenStream {
    match constraint {
        Constraint::MinLength(n) => quote!(_tool::Constraint::MinLength(#n)),
        Constraint::MaxLength(n) => quote!(_tool::Constraint::MaxLength(#n)),
        Constraint::MinItems(n) => quote!(_tool::Constraint::MinItems(#n)),
        Constraint::MaxItems(n) => quote!(_tool::Constraint::MaxItems(#n)),
        Constraint::Pattern(s) => quote!(_tool::Constraint::Pattern(#s)),
        Constraint::Format(f) => quote!(_tool::Constraint::Format(#f)),
        Constraint::Minimum(n) => {
            let bound = bound(*n);
            quote!(_tool::Constraint::Minimum(#bound))
        }
        Constraint::Maximum(n) => {
            let bound = bound(*n);
            quote!(_tool::Constraint::Maximum(#bound))
        }
    }
}

fn bound(n: Number) -> TokenStream {
    match n {
        Number::Int(v) => quote!(_tool::NumberBound::Int(#v)),
        Number::UInt(v) => quote!(_tool::NumberBound::UInt(#v)),
        Number::Float(v) => quote!(_tool::NumberBound::Float(#v)),
    }
}

pub fn waiver(allow: &Allow, field: Option<&str>) -> TokenStream {
    let rule = allow.rule;
    let field = option(field.map(|f| quote!(#f)));
    let reason = &allow.reason;
    quote!(_tool::Waiver::__new(#rule, #field, #reason))
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

pub fn slot(index: usize) -> syn::Ident {
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
        .filter(|(_, f)| f.presence != Presence::Defaulted)
        .flat_map(|(i, f)| constraint_checks(i, f));
    let idents = input.fields.iter().map(|f| f.ident);
    let values = (0..input.fields.len()).map(slot);
    // Every field's name, injected ones too (the parser refuses those with
    // their own message), matched as serde's derive matches identifiers.
    let names = input.fields.iter().map(|f| f.name.as_str());
    let indexes = 0..input.fields.len();

    quote! {
        fn from_arguments(
            __tool_arguments: &str,
            __tool_session: &_tool::Session,
        ) -> ::core::result::Result<Self, _tool::ArgumentError> {
            #[derive(::core::clone::Clone, ::core::marker::Copy)]
            struct __ToolVisitor<'__tool_s>(&'__tool_s _tool::ParseState);

            fn __tool_field(__tool_key: &str) -> ::core::option::Option<usize> {
                match __tool_key {
                    #(#names => ::core::option::Option::Some(#indexes),)*
                    _ => ::core::option::Option::None,
                }
            }

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
                    while let ::core::option::Option::Some(__tool_key) = _tool::next_key(&mut __tool_map, self.0, __tool_field)? {
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
            // Never called: it names each constraint's check on its field
            // for the trait bounds (a constraint on a type it cannot apply
            // to does not compile). The values were checked against the
            // input schema, which states every constraint, as they were read.
            let _ = || -> ::core::result::Result<(), _tool::ArgumentError> {
                #(#checks)*
                ::core::result::Result::Ok(())
            };
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
    match (&field.presence, field.attrs.default.given()) {
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

/// The calls that enforce a field's constraints after it is read, and
/// those of `items(...)` on each item of a list.
pub fn constraint_checks(index: usize, field: &Field) -> Vec<TokenStream> {
    let slot = slot(index);
    let name = &field.name;
    let ty = field.ty;
    let money = ty::is_money(ty);
    let mut checks: Vec<TokenStream> = field
        .attrs
        .constraints
        .iter()
        .map(|c| match &c.constraint {
            Constraint::Minimum(_) | Constraint::Maximum(_) if money => {
                money_check(&c.constraint, &slot, ty, name)
            }
            constraint => check_call(constraint, &quote!(&#slot), ty, &quote!(#name)),
        })
        .collect();
    let Some((items, _)) = &field.attrs.items else {
        return checks;
    };
    let Some(item_ty) = ty::list_item(ty) else {
        return checks;
    };
    let item_checks = items
        .iter()
        .map(|c| check_call(&c.constraint, &quote!(__tool_item), item_ty, &quote!(#name)));
    let list = match ty::option_inner(ty) {
        Some(_) => quote!(#slot.iter().flatten()),
        None => quote!(#slot.iter()),
    };
    // Each check reports at the field; the item's index is added to the path.
    checks.push(quote! {
        for (__tool_index, __tool_item) in #list.enumerate() {
            (|| -> ::core::result::Result<(), _tool::ArgumentError> {
                #(#item_checks)*
                ::core::result::Result::Ok(())
            })()
            .map_err(|__tool_error| _tool::ArgumentError::invalid(
                ::std::format!("{}[{}]", __tool_error.path(), __tool_index),
                __tool_error.message(),
            ))?;
        }
    });
    checks
}

/// `minimum`/`maximum` on a `Money` field bound its `amount_minor`.
fn money_check(
    constraint: &Constraint,
    slot: &syn::Ident,
    ty: &syn::Type,
    name: &str,
) -> TokenStream {
    let amount = syn::parse_quote!(i64);
    let check = check_call(
        constraint,
        &quote!(&__tool_money.amount_minor),
        &amount,
        &quote!(#name),
    );
    let value = match ty::option_inner(ty) {
        Some(_) => quote!(#slot),
        None => quote!(::core::option::Option::Some(&#slot)),
    };
    quote! {
        if let ::core::option::Option::Some(__tool_money) = ::core::option::Option::as_ref(&#value) {
            (|| -> ::core::result::Result<(), _tool::ArgumentError> {
                #check
                ::core::result::Result::Ok(())
            })()
            .map_err(|__tool_error| _tool::ArgumentError::invalid(
                ::std::format!("{}.amount_minor", __tool_error.path()),
                __tool_error.message(),
            ))?;
        }
    }
}

/// One constraint check on `value` (a reference to a `ty`), reported at
/// `name`.
fn check_call(
    constraint: &Constraint,
    value: &TokenStream,
    ty: &syn::Type,
    name: &TokenStream,
) -> TokenStream {
    let span = at(ty);
    match constraint {
        Constraint::MinLength(n) => {
            quote_spanned!(span=> _tool::min_length::<#ty>(#value, #n, #name)?;)
        }
        Constraint::MaxLength(n) => {
            quote_spanned!(span=> _tool::max_length::<#ty>(#value, #n, #name)?;)
        }
        Constraint::MinItems(n) => {
            quote_spanned!(span=> _tool::min_items::<#ty>(#value, #n, #name)?;)
        }
        Constraint::MaxItems(n) => {
            quote_spanned!(span=> _tool::max_items::<#ty>(#value, #n, #name)?;)
        }
        Constraint::Minimum(n) => {
            let bound = bound(*n);
            quote_spanned!(span=> _tool::minimum::<#ty>(#value, #bound, #name)?;)
        }
        Constraint::Maximum(n) => {
            let bound = bound(*n);
            quote_spanned!(span=> _tool::maximum::<#ty>(#value, #bound, #name)?;)
        }
        Constraint::Pattern(source) => pattern_check(value, ty, source, name),
        Constraint::Format(format) => {
            quote_spanned!(span=> _tool::format::<#ty>(#value, #format, #name)?;)
        }
    }
}

fn pattern_check(
    value: &TokenStream,
    ty: &syn::Type,
    source: &LitStr,
    name: &TokenStream,
) -> TokenStream {
    quote_spanned! {at(&ty)=>
        {
            static __TOOL_PATTERN: _tool::Pattern = _tool::Pattern::new(#source);
            _tool::pattern::<#ty>(#value, &__TOOL_PATTERN, #name)?;
        }
    }
}

fn idempotency_key(input: &Input) -> TokenStream {
    let Some(field) = input.key_field() else {
        return TokenStream::new();
    };
    let ident = field.ident;
    let ty = field.ty;
    let key_text = quote_spanned!(at(&ty)=> <#ty as _tool::AsIdempotencyKey>::key_text);
    quote! {
        fn idempotency_key(&self) -> ::core::option::Option<::std::string::String> {
            #key_text(&self.#ident)
        }
    }
}
