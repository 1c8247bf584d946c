//! The keys of `#[tool(...)]`.

use std::fmt::{self, Display};

use syn::{Ident, Path};

#[derive(Copy, Clone)]
pub struct Symbol(pub &'static str);

// Keys on the struct.
pub const TOOL: Symbol = Symbol("tool");
pub const DOC: Symbol = Symbol("doc");
pub const DESCRIPTION: Symbol = Symbol("description");
pub const NAME: Symbol = Symbol("name");
pub const TITLE: Symbol = Symbol("title");
pub const EXAMPLE: Symbol = Symbol("example");
pub const VERSION: Symbol = Symbol("version");
pub const DEPRECATED: Symbol = Symbol("deprecated");
pub const EFFECT: Symbol = Symbol("effect");
pub const IDEMPOTENT: Symbol = Symbol("idempotent");
pub const APPROVAL: Symbol = Symbol("approval");
pub const TIMEOUT_MS: Symbol = Symbol("timeout_ms");
pub const OPEN_WORLD: Symbol = Symbol("open_world");
pub const DATA: Symbol = Symbol("data");
pub const OUTPUT: Symbol = Symbol("output");
pub const ERRORS: Symbol = Symbol("errors");
pub const CRATE: Symbol = Symbol("crate");
pub const ALLOW: Symbol = Symbol("allow");

// Keys inside `deprecated(...)`.
pub const SUNSET: Symbol = Symbol("sunset");
pub const NOTE: Symbol = Symbol("note");

// Keys inside `errors(CODE(...))`.
pub const MEANING: Symbol = Symbol("meaning");
pub const CATEGORY: Symbol = Symbol("category");
pub const RECOVERY: Symbol = Symbol("recovery");

// Keys on a field.
pub const RENAME: Symbol = Symbol("rename");
pub const INJECT: Symbol = Symbol("inject");
pub const MIN_LENGTH: Symbol = Symbol("min_length");
pub const MAX_LENGTH: Symbol = Symbol("max_length");
pub const PATTERN: Symbol = Symbol("pattern");
pub const MINIMUM: Symbol = Symbol("minimum");
pub const MAXIMUM: Symbol = Symbol("maximum");
pub const MIN_ITEMS: Symbol = Symbol("min_items");
pub const MAX_ITEMS: Symbol = Symbol("max_items");
pub const FORMAT: Symbol = Symbol("format");
pub const DEFAULT: Symbol = Symbol("default");
pub const UNIT: Symbol = Symbol("unit");
pub const IDEMPOTENCY_KEY: Symbol = Symbol("idempotency_key");
pub const ITEMS: Symbol = Symbol("items");

// Other derives' attributes that `#[derive(Tool)]` reads to refuse.
pub const SERDE: Symbol = Symbol("serde");
pub const SCHEMARS: Symbol = Symbol("schemars");

/// Keys that belong on the struct, for "belongs on ..." messages.
pub const STRUCT_KEYS: &[Symbol] = &[
    NAME, TITLE, VERSION, DEPRECATED, EFFECT, IDEMPOTENT, APPROVAL, TIMEOUT_MS, OPEN_WORLD, DATA,
    OUTPUT, ERRORS, EXAMPLE, CRATE,
];

/// Keys that belong on a field.
pub const FIELD_KEYS: &[Symbol] = &[
    RENAME,
    INJECT,
    MIN_LENGTH,
    MAX_LENGTH,
    PATTERN,
    MINIMUM,
    MAXIMUM,
    MIN_ITEMS,
    MAX_ITEMS,
    FORMAT,
    DEFAULT,
    UNIT,
    IDEMPOTENCY_KEY,
    ITEMS,
];

/// Every key a tool struct accepts, in the order messages list them.
pub const ALL_STRUCT_KEYS: &[Symbol] = &[
    DESCRIPTION,
    NAME,
    TITLE,
    VERSION,
    DEPRECATED,
    EFFECT,
    IDEMPOTENT,
    APPROVAL,
    TIMEOUT_MS,
    OPEN_WORLD,
    DATA,
    OUTPUT,
    ERRORS,
    EXAMPLE,
    CRATE,
    ALLOW,
];

/// Every key a field accepts, in the order messages list them.
pub const ALL_FIELD_KEYS: &[Symbol] = &[
    DESCRIPTION,
    RENAME,
    INJECT,
    DEFAULT,
    UNIT,
    IDEMPOTENCY_KEY,
    MIN_LENGTH,
    MAX_LENGTH,
    PATTERN,
    MINIMUM,
    MAXIMUM,
    MIN_ITEMS,
    MAX_ITEMS,
    FORMAT,
    ITEMS,
    ALLOW,
];

/// The keys inside `deprecated(...)`.
pub const DEPRECATED_KEYS: &[Symbol] = &[SUNSET, NOTE];

/// The keys inside `errors(CODE(...))`.
pub const ERROR_KEYS: &[Symbol] = &[MEANING, CATEGORY, RECOVERY];

/// The keys inside `items(...)`: the constraints on each item of a list.
pub const ITEM_KEYS: &[Symbol] = &[MIN_LENGTH, MAX_LENGTH, PATTERN, MINIMUM, MAXIMUM, FORMAT];

impl PartialEq<Symbol> for Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for &Ident {
    fn eq(&self, word: &Symbol) -> bool {
        *self == word.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for &Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl Display for Symbol {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self.0)
    }
}
