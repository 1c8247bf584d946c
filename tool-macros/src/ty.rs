//! Reading field types by their syntax: `Option<T>`, numbers, strings, maps.
//!
//! A derive macro sees tokens, not resolved types, so these helpers judge by
//! the last path segment, as serde does for `Option`.

use syn::{GenericArgument, Ident, PathArguments, Type, TypePath};

/// The type inside `Option<..>`, `Vec<..>` and the like: the single type
/// argument of the last segment named `wrapper`.
pub fn unwrap_named<'a>(ty: &'a Type, wrapper: &str) -> Option<&'a Type> {
    let path = plain_path(ty)?;
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    single_type_argument(&last.arguments)
}

/// `Option<T>` → `T`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    unwrap_named(ty, "Option")
}

fn single_type_argument(arguments: &PathArguments) -> Option<&Type> {
    let PathArguments::AngleBracketed(args) = arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    let first = types.next()?;
    types.next().is_none().then_some(first)
}

fn plain_path(ty: &Type) -> Option<&TypePath> {
    match ty {
        Type::Path(path) if path.qself.is_none() => Some(path),
        Type::Group(group) => plain_path(&group.elem),
        Type::Paren(paren) => plain_path(&paren.elem),
        _ => None,
    }
}

/// The last segment's identifier: `Money` for `tool_contract::Money`.
pub fn last_ident(ty: &Type) -> Option<&Ident> {
    plain_path(ty)?.path.segments.last().map(|s| &s.ident)
}

/// The type a value is made of once `Option`, `Vec`, `Box`, references,
/// slices and arrays are taken off: `f64` for `Option<Vec<f64>>`.
pub fn peel(ty: &Type) -> &Type {
    let mut ty = ty;
    loop {
        ty = match ty {
            Type::Reference(r) => &r.elem,
            Type::Slice(s) => &s.elem,
            Type::Array(a) => &a.elem,
            Type::Group(g) => &g.elem,
            Type::Paren(p) => &p.elem,
            _ => {
                let wrapped = [
                    "Option", "Vec", "Box", "Arc", "Rc", "VecDeque", "HashSet", "BTreeSet",
                ]
                .iter()
                .find_map(|w| unwrap_named(ty, w));
                match wrapped {
                    Some(inner) => inner,
                    None => return ty,
                }
            }
        };
    }
}

/// The item type of a list field: `T` for `Vec<T>`, `Option<Vec<T>>`,
/// `VecDeque<T>`, `BTreeSet<T>`, `HashSet<T>`, `[T; N]` and `Box<[T]>`.
pub fn list_item(ty: &Type) -> Option<&Type> {
    let ty = option_inner(ty).unwrap_or(ty);
    if let Some(boxed) = unwrap_named(ty, "Box") {
        return match boxed {
            Type::Slice(s) => Some(&s.elem),
            _ => None,
        };
    }
    match ty {
        Type::Array(a) => Some(&a.elem),
        _ => ["Vec", "VecDeque", "BTreeSet", "HashSet"]
            .iter()
            .find_map(|w| unwrap_named(ty, w)),
    }
}

/// `Money` or `Option<Money>` (by the last path segment, as everywhere in
/// this crate): `minimum`/`maximum` then bound its `amount_minor`.
pub fn is_money(ty: &Type) -> bool {
    last_ident(option_inner(ty).unwrap_or(ty)).is_some_and(|i| i == "Money")
}

/// What kind of number, text or flag a field's values are, through every
/// shape that holds values: the wrappers [`peel`] takes off, tuples (each
/// element), and maps (their values). A float anywhere wins over text,
/// text over an integer, so `price: (f64,)` and `price_range: (f32, f32)`
/// are floats as `Vec<f64>` is.
pub fn value_kind(ty: &Type) -> Kind {
    fn walk(ty: &Type, depth: usize, found: &mut Vec<Kind>) {
        let ty = peel(ty);
        if depth > 32 {
            return;
        }
        match ty {
            Type::Tuple(tuple) => {
                for element in &tuple.elems {
                    walk(element, depth + 1, found);
                }
            }
            _ => match map_value(ty) {
                Some(value) => walk(value, depth + 1, found),
                None => found.push(kind(ty)),
            },
        }
    }
    let mut found = Vec::new();
    walk(ty, 0, &mut found);
    [Kind::Float, Kind::Text, Kind::Integer, Kind::Bool]
        .into_iter()
        .find(|k| found.contains(k))
        .unwrap_or(Kind::Other)
}

/// The value type of a `HashMap<K, V>`, `BTreeMap<K, V>` or `IndexMap<K, V>`.
fn map_value(ty: &Type) -> Option<&Type> {
    let path = plain_path(ty)?;
    let last = path.path.segments.last()?;
    if !matches!(
        last.ident.to_string().as_str(),
        "HashMap" | "BTreeMap" | "IndexMap"
    ) {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    args.args
        .iter()
        .filter_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .nth(1)
}

/// What kind of value a (peeled) type holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Float,
    Integer,
    Text,
    Bool,
    Other,
}

pub fn kind(ty: &Type) -> Kind {
    let Some(ident) = last_ident(ty) else {
        return Kind::Other;
    };
    let name = ident.to_string();
    match name.as_str() {
        "f32" | "f64" => Kind::Float,
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" => Kind::Integer,
        n if n.starts_with("NonZero") => Kind::Integer,
        "String" | "str" => Kind::Text,
        "Cow" if unwrap_named(ty, "Cow").is_some_and(|t| kind(t) == Kind::Text) => Kind::Text,
        "Cow" => cow_is_str(ty),
        "bool" => Kind::Bool,
        _ => Kind::Other,
    }
}

/// `Cow<'a, str>` has a lifetime and a type argument.
fn cow_is_str(ty: &Type) -> Kind {
    let Some(path) = plain_path(ty) else {
        return Kind::Other;
    };
    let Some(PathArguments::AngleBracketed(args)) = path.path.segments.last().map(|s| &s.arguments)
    else {
        return Kind::Other;
    };
    let is_str = args.args.iter().any(|a| match a {
        GenericArgument::Type(t) => kind(t) == Kind::Text,
        _ => false,
    });
    if is_str { Kind::Text } else { Kind::Other }
}

/// A type that strict providers cannot express, found anywhere inside `ty`.
pub enum Unsupported<'a> {
    /// `HashMap`, `BTreeMap`, `IndexMap`, `serde_json::Map`.
    Map(&'a Type, String),
    /// `serde_json::Value`.
    AnyValue(&'a Type),
    /// `Option<Option<T>>`.
    DoubleOption(&'a Type),
}

pub fn find_unsupported(ty: &Type) -> Option<Unsupported<'_>> {
    if let Some(inner) = option_inner(ty)
        && option_inner(inner).is_some()
    {
        return Some(Unsupported::DoubleOption(ty));
    }
    if let Some(path) = plain_path(ty) {
        let segments: Vec<String> = path
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let last = segments.last().map(String::as_str).unwrap_or("");
        let from_json = segments.len() >= 2 && segments[segments.len() - 2] == "serde_json";
        match last {
            "HashMap" | "BTreeMap" | "IndexMap" => {
                return Some(Unsupported::Map(ty, last.to_owned()));
            }
            "Map" if from_json => return Some(Unsupported::Map(ty, "serde_json::Map".to_owned())),
            "Value" if from_json || segments.len() == 1 => return Some(Unsupported::AnyValue(ty)),
            "JsonValue" => return Some(Unsupported::AnyValue(ty)),
            _ => {}
        }
        for segment in &path.path.segments {
            if let PathArguments::AngleBracketed(args) = &segment.arguments {
                for arg in &args.args {
                    if let GenericArgument::Type(inner) = arg
                        && let Some(found) = find_unsupported(inner)
                    {
                        return Some(found);
                    }
                }
            }
        }
        return None;
    }
    match ty {
        Type::Reference(r) => find_unsupported(&r.elem),
        Type::Slice(s) => find_unsupported(&s.elem),
        Type::Array(a) => find_unsupported(&a.elem),
        Type::Tuple(t) => t.elems.iter().find_map(find_unsupported),
        _ => None,
    }
}

/// The type as a person writes it: `Option<Vec<String>>`, not `Option < Vec < String > >`.
pub fn display(ty: &Type) -> String {
    let raw = quote::quote!(#ty).to_string();
    let mut out = String::with_capacity(raw.len());
    let tokens: Vec<&str> = raw.split(' ').collect();
    for (i, token) in tokens.iter().enumerate() {
        let prev = if i > 0 { tokens[i - 1] } else { "" };
        let glue = i == 0
            || matches!(*token, "<" | ">" | "," | "::" | "]" | ")" | ";")
            || matches!(prev, "<" | "::" | "&" | "[" | "(" | "'");
        if !glue {
            out.push(' ');
        }
        out.push_str(token);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn options_and_peeling() {
        let ty: Type = parse_quote!(::std::option::Option<Vec<f64>>);
        assert!(option_inner(&ty).is_some());
        assert_eq!(kind(peel(&ty)), Kind::Float);
        let ty: Type = parse_quote!(Option<Cow<'static, str>>);
        assert_eq!(kind(peel(&ty)), Kind::Text);
        let ty: Type = parse_quote!(tool_contract::Money);
        assert_eq!(kind(peel(&ty)), Kind::Other);
    }

    #[test]
    fn unsupported_types_are_found_inside_others() {
        let ty: Type = parse_quote!(Vec<std::collections::HashMap<String, u8>>);
        assert!(
            matches!(find_unsupported(&ty), Some(Unsupported::Map(_, name)) if name == "HashMap")
        );
        let ty: Type = parse_quote!(Option<Option<u8>>);
        assert!(matches!(
            find_unsupported(&ty),
            Some(Unsupported::DoubleOption(_))
        ));
        let ty: Type = parse_quote!(serde_json::Value);
        assert!(matches!(
            find_unsupported(&ty),
            Some(Unsupported::AnyValue(_))
        ));
        let ty: Type = parse_quote!(crate::model::Value);
        assert!(find_unsupported(&ty).is_none());
    }

    #[test]
    fn display_is_compact() {
        let ty: Type = parse_quote!(Option<Vec<std::string::String>>);
        assert_eq!(display(&ty), "Option<Vec<std::string::String>>");
        let ty: Type = parse_quote!(&'static [u8; 4]);
        assert_eq!(display(&ty), "&'static [u8; 4]");
        let ty: Type = parse_quote!((u8, String));
        assert_eq!(display(&ty), "(u8, String)");
    }
}
