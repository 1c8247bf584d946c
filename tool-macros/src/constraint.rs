//! A field's constraints as data: each key with its typed value, so every
//! stage matches them without a case that cannot happen.

use std::fmt::{self, Display};

use proc_macro2::TokenStream;
use syn::LitStr;

use crate::symbol::{
    FORMAT, MAX_ITEMS, MAX_LENGTH, MAXIMUM, MIN_ITEMS, MIN_LENGTH, MINIMUM, PATTERN, Symbol,
};
use crate::vocab::{Format, Vocabulary};

/// A numeric bound as written.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Number {
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// A number with a fraction or an exponent.
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(n) => n as f64,
            Number::UInt(n) => n as f64,
            Number::Float(n) => n,
        }
    }
}

impl Display for Number {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Number::Int(n) => n.fmt(formatter),
            Number::UInt(n) => n.fmt(formatter),
            Number::Float(n) => n.fmt(formatter),
        }
    }
}

/// One constraint key with its value.
#[derive(Clone)]
pub enum Constraint {
    MinLength(u64),
    MaxLength(u64),
    /// The literal, for errors about the expression.
    Pattern(LitStr),
    Minimum(Number),
    Maximum(Number),
    MinItems(u64),
    MaxItems(u64),
    Format(Format),
}

impl Constraint {
    /// The key it is written with.
    pub fn key(&self) -> Symbol {
        match self {
            Constraint::MinLength(_) => MIN_LENGTH,
            Constraint::MaxLength(_) => MAX_LENGTH,
            Constraint::Pattern(_) => PATTERN,
            Constraint::Minimum(_) => MINIMUM,
            Constraint::Maximum(_) => MAXIMUM,
            Constraint::MinItems(_) => MIN_ITEMS,
            Constraint::MaxItems(_) => MAX_ITEMS,
            Constraint::Format(_) => FORMAT,
        }
    }
}

/// `min_length = 1`, `pattern = "^a"`: the key and its value as a user
/// writes them.
impl Display for Constraint {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        let key = self.key();
        match self {
            Constraint::MinLength(n)
            | Constraint::MaxLength(n)
            | Constraint::MinItems(n)
            | Constraint::MaxItems(n) => write!(formatter, "{key} = {n}"),
            Constraint::Minimum(n) | Constraint::Maximum(n) => write!(formatter, "{key} = {n}"),
            Constraint::Pattern(lit) => write!(formatter, "{key} = \"{}\"", lit.value()),
            Constraint::Format(format) => write!(formatter, "{key} = \"{}\"", format.spelling()),
        }
    }
}

/// A constraint and the tokens it was written with.
pub struct ConstraintAttr {
    pub constraint: Constraint,
    /// The key and value, for errors about the constraint.
    pub tokens: TokenStream,
}
