//! The closed vocabularies of `#[tool(...)]`: effect, approval, data class,
//! idempotency, error category, recovery, waivable rule and string format.
//!
//! Each is one enum with one table of spellings, written once in a
//! `vocabulary!` below: parsing reads a spelling into the enum, messages list
//! the table, validation compares enums, and the expansion writes the enum as
//! the runtime's variant (`_tool::Effect::Write`). No other file spells a
//! value.
//!
//! This file uses nothing else of the crate, only `proc_macro2` and `quote`,
//! so the facade's `tests/contract/vocabulary.rs` includes it with `#[path]` and checks
//! every table against tool-core's enums and format list.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// A closed set of values, each with the one spelling users write.
pub trait Vocabulary: Copy + Eq + 'static {
    /// What messages call a value: "effect", "data class".
    const WHAT: &'static str;
    /// Every value with its spelling, in the order messages list them.
    const ALL: &'static [(Self, &'static str)];

    /// The spelling users write.
    fn spelling(self) -> &'static str;

    /// The value spelled `text`, if there is one.
    fn from_spelling(text: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, spelling)| *spelling == text)
            .map(|(value, _)| *value)
    }
}

/// Declares a vocabulary: the enum, its table of spellings and how the
/// expansion writes a value. `=> Core` writes `_tool::Core::Variant` (the
/// runtime enum through the expansion's alias); `=> "literal"` writes the
/// spelling as a string literal, for values the runtime keeps as text.
macro_rules! vocabulary {
    (
        $(#[$doc:meta])*
        pub enum $name:ident ($what:literal) => $core:tt {
            $($(#[$variant_doc:meta])* $variant:ident = $spelling:literal,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum $name {
            $($(#[$variant_doc])* $variant,)+
        }

        impl Vocabulary for $name {
            const WHAT: &'static str = $what;
            const ALL: &'static [(Self, &'static str)] = &[$(($name::$variant, $spelling),)+];

            fn spelling(self) -> &'static str {
                match self {
                    $($name::$variant => $spelling,)+
                }
            }
        }

        vocabulary!(@tokens $name $core $($variant)+);
    };
    (@tokens $name:ident "literal" $($variant:ident)+) => {
        impl ToTokens for $name {
            fn to_tokens(&self, tokens: &mut TokenStream) {
                self.spelling().to_tokens(tokens);
            }
        }
    };
    (@tokens $name:ident $core:ident $($variant:ident)+) => {
        impl ToTokens for $name {
            fn to_tokens(&self, tokens: &mut TokenStream) {
                tokens.extend(match self {
                    $($name::$variant => quote!(_tool::$core::$variant),)+
                });
            }
        }
    };
}

vocabulary! {
    /// What a tool does to the world: `effect = "..."`.
    pub enum Effect ("effect") => Effect {
        Read = "read",
        Write = "write",
        Destructive = "destructive",
    }
}

vocabulary! {
    /// Whether a call needs an approval first: `approval = "..."`.
    pub enum Approval ("approval") => Approval {
        Required = "required",
        None = "none",
    }
}

vocabulary! {
    /// The most sensitive data a tool touches: `data = "..."`.
    pub enum DataClass ("data class") => DataClass {
        Public = "public",
        Internal = "internal",
        Confidential = "confidential",
        Restricted = "restricted",
    }
}

vocabulary! {
    /// Whether a repeated call is safe. Users write no spelling (they write
    /// `idempotent`, `idempotent = false` or `#[tool(idempotency_key)]`);
    /// the spellings are the runtime's names. `Keyed` writes only the
    /// variant's path: the expansion adds its `{ field: .. }`.
    pub enum Idempotency ("idempotency") => Idempotency {
        Unspecified = "unspecified",
        Idempotent = "idempotent",
        NotIdempotent = "not_idempotent",
        Keyed = "keyed",
    }
}

vocabulary! {
    /// The kind of failure behind an error code: `category = "..."`.
    pub enum ErrorCategory ("category") => ErrorCategory {
        InvalidArguments = "invalid_arguments",
        NotFound = "not_found",
        Permission = "permission",
        Approval = "approval",
        Conflict = "conflict",
        RateLimit = "rate_limit",
        Timeout = "timeout",
        Aborted = "aborted",
        Upstream = "upstream",
        Internal = "internal",
    }
}

vocabulary! {
    /// What to do after an error: `recovery = "..."`.
    pub enum Recovery ("recovery") => Recovery {
        FixArguments = "fix_arguments",
        Retry = "retry",
        RetryLater = "retry_later",
        RequestApproval = "request_approval",
        AskUser = "ask_user",
        None = "none",
    }
}

vocabulary! {
    /// The rules that judge names and reach, which `allow(rule = "reason")` waives.
    pub enum Rule ("rule") => ContractRule {
        UntypedAmount = "untyped_amount",
        UntypedQuantity = "untyped_quantity",
        ModelIdentity = "model_identity",
        BooleanPair = "boolean_pair",
        VagueName = "vague_name",
        MisleadingName = "misleading_name",
        FreeFormCommand = "free_form_command",
        OpenWorldWrite = "open_world_write",
        UntypedDestination = "untyped_destination",
    }
}

vocabulary! {
    /// The string formats `format = "..."` accepts; the runtime keeps a
    /// format as its spelling and enforces each.
    pub enum Format ("format") => "literal" {
        DateTime = "date-time",
        Date = "date",
        Time = "time",
        Duration = "duration",
        Email = "email",
        Hostname = "hostname",
        Ipv4 = "ipv4",
        Ipv6 = "ipv6",
        Uuid = "uuid",
        Uri = "uri",
    }
}
