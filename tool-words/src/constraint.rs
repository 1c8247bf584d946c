//! What a value's schema says about it, typed: the constraints a field
//! declares and the other keywords a schema may carry.

use crate::number::NumberBound;

/// A constraint on a field's value: declared on the field
/// (`#[tool(min_length = 1)]`), checked by the parser and stated in the
/// schema (`"minLength": 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Constraint<'a> {
    /// At least this many characters (Unicode scalar values).
    MinLength(u64),
    /// At most this many characters.
    MaxLength(u64),
    /// Matches this regular expression (unanchored, as in JSON Schema).
    Pattern(&'a str),
    /// At least this value.
    Minimum(NumberBound),
    /// At most this value.
    Maximum(NumberBound),
    /// At least this many items.
    MinItems(u64),
    /// At most this many items.
    MaxItems(u64),
    /// A JSON Schema `format`, such as `uuid` or `date-time`.
    Format(&'a str),
}

impl Constraint<'_> {
    /// The JSON Schema keyword for this constraint (`minLength`, `format`, ...).
    pub fn keyword(&self) -> &'static str {
        match self {
            Constraint::MinLength(_) => "minLength",
            Constraint::MaxLength(_) => "maxLength",
            Constraint::Pattern(_) => "pattern",
            Constraint::Minimum(_) => "minimum",
            Constraint::Maximum(_) => "maximum",
            Constraint::MinItems(_) => "minItems",
            Constraint::MaxItems(_) => "maxItems",
            Constraint::Format(_) => "format",
        }
    }
}

/// A JSON Schema keyword that no field attribute declares but a type's
/// schema may carry (schemars, pydantic, hand-written schemas), stated in
/// words beside the [`Constraint`]s.
#[derive(Clone, Debug, PartialEq)]
pub enum Keyword<'a> {
    /// `exclusiveMinimum`: more than this value.
    ExclusiveMinimum(NumberBound),
    /// `exclusiveMaximum`: less than this value.
    ExclusiveMaximum(NumberBound),
    /// `multipleOf`: a multiple of this value.
    MultipleOf(NumberBound),
    /// `uniqueItems: true`: no item repeats.
    UniqueItems,
    /// `contentEncoding`, such as `base64`.
    ContentEncoding(&'a str),
    /// `contentMediaType`, such as `image/png`.
    ContentMediaType(&'a str),
    /// `examples`, each written as JSON (`"SKU-1"`, `3`).
    Examples(Vec<String>),
    /// `deprecated: true`.
    Deprecated,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_constraint_names_its_keyword() {
        let cases = [
            (Constraint::MinLength(1), "minLength"),
            (Constraint::MaxLength(1), "maxLength"),
            (Constraint::Pattern("^a"), "pattern"),
            (Constraint::Minimum(NumberBound::UInt(1)), "minimum"),
            (Constraint::Maximum(NumberBound::Int(-1)), "maximum"),
            (Constraint::MinItems(1), "minItems"),
            (Constraint::MaxItems(1), "maxItems"),
            (Constraint::Format("uuid"), "format"),
        ];
        for (constraint, keyword) in cases {
            assert_eq!(constraint.keyword(), keyword);
        }
    }
}
