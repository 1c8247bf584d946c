//! The generated parser's runtime half: reading the model's JSON arguments
//! into a tool's struct, with strict objects, constraints, formats, JSON
//! paths and messages a model can act on.

mod constraint;
mod error;
mod fast;
mod fold;
pub mod formats;
mod guided;
mod map;
mod object;
mod path;
pub(crate) mod schema;

#[doc(hidden)]
/// Compiles a `pattern` as the parser reads it (ECMA-262 classes on the
/// `regex` crate), for the adapters' checks of `enum` values against it.
#[doc(hidden)]
pub use constraint::ecma_regex;
pub use constraint::{
    ItemsValue, NumberValue, Pattern, StringValue, format, max_items, max_length, maximum,
    min_items, min_length, minimum, pattern,
};
pub use error::{ArgumentError, ArgumentErrorKind};
pub use fold::fold_enum_case;
pub use map::{
    ParseState, inject, inject_optional, last_call_read_fast, next_key, next_value, parse_map,
    session_holds, with_exact_reader_only,
};
pub use object::{EnumCase, arguments_text, object_text};
/// The JSON path of a top-level field (`$.name`, `$["odd name"]`), for the
/// runtime's messages about one argument.
#[doc(hidden)]
pub use path::field_path;
pub use schema::SchemaError;
