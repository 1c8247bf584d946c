//! `#[serde(...)]` and `#[schemars(...)]` on a tool: the generated parser and
//! the input schema do not read them, so an attribute that would change what
//! the model may send is refused, with the `#[tool(...)]` key to write
//! instead. Attributes that only change serialization (`skip_serializing`,
//! `serialize_with`, `rename(serialize = "..")`, `crate`, `bound`) stay
//! allowed, so a tool struct can also derive `Serialize`.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, LitStr, Token};

use crate::ast::{Field, Input};
use crate::ctxt::Ctxt;
use crate::symbol::{SCHEMARS, SERDE};
use crate::value::{path_to_string, skip_value};

// Rule: serde and schemars attributes do not change a tool's arguments
// behind the contract's back: the schema and the parser read `#[tool(..)]`.
//   #[serde(rename = "orderRef")] order_ref: String
//   #[schemars(length(max = 5))] brand: String
pub fn check(cx: &Ctxt, input: &Input) {
    for attr in serde_attrs(&input.original.attrs) {
        each(cx, attr, |m| {
            let key = path_to_string(&m.path);
            let fix = match key.as_str() {
                "rename_all" if serialize_only(m)? => return Ok(()),
                "rename_all" => "give each field its JSON name with `#[tool(rename = \"...\")]`",
                "default" => "mark each field that may be left out with `#[tool(default)]`",
                "from" | "try_from" | "transparent" | "remote" | "untagged" | "tag" | "content"
                | "variant_identifier" | "field_identifier" => {
                    "a tool's arguments are always the struct's own fields as one JSON object; declare them as fields"
                }
                _ => return skip_value(m),
            };
            refuse(cx, m, "serde", "struct", &key, fix)
        });
    }
    for field in &input.fields {
        check_field(cx, field);
    }
}

fn check_field(cx: &Ctxt, field: &Field) {
    for attr in serde_attrs(&field.original.attrs) {
        each(cx, attr, |m| {
            let key = path_to_string(&m.path);
            let name = &field.name;
            let owned;
            let fix = match key.as_str() {
                "rename" if m.input.peek(Token![=]) => {
                    let lit: LitStr = m.value()?.parse()?;
                    if lit.value() == *name {
                        // Says what `#[tool(rename)]` or the field name says.
                        return Ok(());
                    }
                    owned = format!("write `#[tool(rename = \"{}\")]`", lit.value());
                    &owned
                }
                "rename" if serialize_only(m)? => return Ok(()),
                "rename" => "write `#[tool(rename = \"...\")]`",
                "alias" => {
                    "a field has one JSON name, the one the schema shows; write `#[tool(rename = \"...\")]`"
                }
                "default" => "write `#[tool(default)]` or `#[tool(default = path::to_fn)]`",
                "skip" | "skip_deserializing" => {
                    "a field the model does not send is `#[tool(inject)]` (from the session) or `#[tool(default)]`"
                }
                "flatten" => {
                    "a tool's arguments are one flat object; declare the nested fields on the tool, or keep the struct as one field"
                }
                "with" | "deserialize_with" => {
                    "give the field a newtype that implements `Deserialize` and `JsonSchema` the same way, so the schema says what is parsed"
                }
                "borrow"
                | "bound"
                | "skip_serializing"
                | "skip_serializing_if"
                | "serialize_with"
                | "getter" => return skip_value(m),
                _ => "say it with a `#[tool(...)]` key on the field",
            };
            refuse(cx, m, "serde", "field", &key, fix)
        });
    }
    for attr in field.original.attrs.iter().filter(|a| a.path() == SCHEMARS) {
        each(cx, attr, |m| {
            let key = path_to_string(&m.path);
            let fix = match key.as_str() {
                "length" => {
                    "write `#[tool(min_length = ..., max_length = ...)]` (or `min_items`/`max_items` on a list)"
                }
                "range" => "write `#[tool(minimum = ..., maximum = ...)]`",
                "regex" | "pattern" => "write `#[tool(pattern = \"...\")]`",
                "email" => "write `#[tool(format = \"email\")]`",
                "url" => "write `#[tool(format = \"uri\")]`",
                "inner" => "write `#[tool(items(...))]`",
                "description" | "title" => {
                    "describe the field with a `///` doc comment or `#[tool(description = \"...\")]`"
                }
                "rename" => "write `#[tool(rename = \"...\")]`",
                _ => "say it with a `#[tool(...)]` key on the field",
            };
            refuse(cx, m, "schemars", "field", &key, fix)
        });
    }
}

fn serde_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path() == SERDE)
}

/// Runs `f` on every key of `attr`; an attribute that does not parse as
/// keys is left to the derive it belongs to.
fn each(cx: &Ctxt, attr: &Attribute, mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>) {
    if !matches!(attr.meta, syn::Meta::List(_)) {
        return;
    }
    if let Err(err) = attr.parse_nested_meta(|m| f(&m)) {
        cx.syn_error(err);
    }
}

/// `rename_all(serialize = "..")`: only the serialized name changes.
fn serialize_only(m: &ParseNestedMeta) -> syn::Result<bool> {
    if !m.input.peek(syn::token::Paren) {
        return Ok(false);
    }
    let mut only = true;
    m.parse_nested_meta(|inner| {
        only &= inner.path.is_ident("serialize");
        skip_value(&inner)
    })?;
    Ok(only)
}

fn refuse(
    cx: &Ctxt,
    m: &ParseNestedMeta,
    attribute: &str,
    on: &str,
    key: &str,
    fix: &str,
) -> syn::Result<()> {
    cx.error_spanned_by(
        &m.path,
        format!(
            "`#[{attribute}({key})]` on a tool {on} is not read by `#[derive(Tool)]`, so the schema and the parser would disagree with it; {fix}"
        ),
    );
    skip_value(m)
}

// Rule: a nested argument type (`#[derive(ToolArgs)]`) may use the serde
// attributes that schemars reads the same way serde does; the others would
// make the schema and the parser disagree.
//   #[serde(alias = "q")] query: String       #[serde(flatten)] extra: Extra
pub fn check_nested(cx: &Ctxt, input: &Input) {
    for attr in serde_attrs(&input.original.attrs) {
        each(cx, attr, |m| {
            let key = path_to_string(&m.path);
            let fix = match key.as_str() {
                "from" | "try_from" | "into" | "remote" => {
                    "the schema would describe this type while serde reads another; derive `ToolArgs` on the type the model sends"
                }
                "transparent" => "use the inner type as the field's type",
                _ => return skip_value(m),
            };
            refuse_nested(cx, m, &key, fix)
        });
    }
    for field in &input.fields {
        for attr in serde_attrs(&field.original.attrs) {
            each(cx, attr, |m| {
                let key = path_to_string(&m.path);
                let fix = match key.as_str() {
                    "alias" => {
                        "a field has one JSON name, the one the schema shows; write `#[serde(rename = \"...\")]` or `#[tool(rename = \"...\")]`"
                    }
                    "flatten" => {
                        "a flattened field cannot be a closed object; declare the fields here, or keep the struct as one field"
                    }
                    "with" | "deserialize_with" => {
                        "give the field a type that implements `Deserialize` and `JsonSchema` the same way, so the schema says what is parsed"
                    }
                    _ => return skip_value(m),
                };
                refuse_nested(cx, m, &key, fix)
            });
        }
    }
}

fn refuse_nested(cx: &Ctxt, m: &ParseNestedMeta, key: &str, fix: &str) -> syn::Result<()> {
    cx.error_spanned_by(
        &m.path,
        format!(
            "`#[serde({key})]` is not supported on a `#[derive(ToolArgs)]` type, because the schema and the parser would disagree; {fix}"
        ),
    );
    skip_value(m)
}
