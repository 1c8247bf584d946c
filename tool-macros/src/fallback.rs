//! The stub impl emitted next to errors, so that uses of the tool elsewhere
//! do not add a cascade of "`Tool` is not implemented" errors.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// The stub impl; `use_private` brings the runtime in as `_tool`.
pub fn dummy(node: &DeriveInput, use_private: &TokenStream) -> TokenStream {
    let ident = &node.ident;
    let (impl_generics, ty_generics, where_clause) = node.generics.split_for_impl();
    quote! {
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            #use_private

            #[automatically_derived]
            impl #impl_generics _tool::Tool for #ident #ty_generics #where_clause {
                type Output = ::std::string::String;

                fn contract() -> &'static _tool::ToolContract {
                    ::core::unimplemented!()
                }

                fn from_arguments(
                    _: &str,
                    _: &_tool::Session,
                ) -> ::core::result::Result<Self, _tool::ArgumentError> {
                    ::core::unimplemented!()
                }
            }
        };
    }
}
