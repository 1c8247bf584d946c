//! The injection rules: a value injected from the session is found by its
//! type alone, so each injected field needs a type of its own that says
//! what it is.

use crate::ast::{Field, Input};
use crate::ctxt::Ctxt;
use crate::ty;

/// Std types a session cannot tell apart by meaning: injecting one asks for
/// a newtype.
const STD_TYPES: &[&str] = &[
    "String",
    "str",
    "bool",
    "char",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "Vec",
    "PathBuf",
    "Duration",
    "SystemTime",
    "Instant",
    "IpAddr",
    "Box",
    "Arc",
    "Rc",
    "Cow",
    "HashMap",
    "BTreeMap",
    "HashSet",
    "BTreeSet",
];

// Rule: an injected value is found by its type alone, so its type says
// what it is: a newtype, and one field per type.
//   #[tool(inject)] tenant: String
//   #[tool(inject)] tenant: Principal, #[tool(inject)] user: Principal
pub fn check_injection(cx: &Ctxt, input: &Input) {
    let injected: Vec<(&Field, &syn::Type)> = input
        .fields
        .iter()
        .filter(|f| f.is_injected())
        .map(|f| (f, ty::option_inner(f.ty).unwrap_or(f.ty)))
        .collect();
    for (i, (field, inner)) in injected.iter().enumerate() {
        let shown = ty::display(inner);
        let bare = ty::last_ident(inner).is_none_or(|id| STD_TYPES.iter().any(|s| id == s));
        if bare {
            cx.error_spanned_by(
                inner,
                format!(
                    "`{}` injects a bare `{shown}`: the session holds one value per type, so every injected `{shown}` would get the same value; declare a newtype such as `pub struct {}({shown});`, put that in the `Session`, and write `{}: {}`",
                    field.ident,
                    newtype_name(&field.name),
                    field.ident,
                    newtype_name(&field.name)
                ),
            );
            continue;
        }
        if let Some((first, _)) = injected[..i]
            .iter()
            .find(|(_, other)| ty::display(other) == shown)
        {
            cx.error_spanned_by(
                inner,
                format!(
                    "`{}` and `{}` are both injected as `{shown}`, so both would receive the same session value; give each its own newtype (e.g. `{}` and `{}`)",
                    first.ident,
                    field.ident,
                    newtype_name(&first.name),
                    newtype_name(&field.name)
                ),
            );
        }
    }
}

/// `customer_id` -> `CustomerId`, `tenant` -> `TenantId`.
fn newtype_name(name: &str) -> String {
    let words = crate::words::words(name);
    let mut out: String = words
        .iter()
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect();
    if words.last().is_none_or(|w| w != "id") {
        out.push_str("Id");
    }
    out
}
