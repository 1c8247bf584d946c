//! Every list and parser that exists on both sides of the proc-macro
//! boundary is checked here against the other side (version parsing and
//! edit distance have one source, in tool-words, which both use): the macro crate's
//! vocabularies and leaf parsers are included with `#[path]` (they use
//! nothing else of that crate) and compared with tool-core and the OpenAI
//! adapter.
//!
//! - vocabularies: each spelling round-trips, names exactly one runtime
//!   variant (the one whose serde name is the spelling), and every runtime
//!   variant has a spelling; the expansion's tokens name that variant;
//! - formats: the macro's list is tool-core's `formats::SUPPORTED`, and the
//!   OpenAI adapter accepts exactly those but `uri`;
//! - tool names: the rule the macro applies (tool-words' `name_problem`) is
//!   the shared `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`, and every name it accepts
//!   the OpenAI adapter accepts;
//! - patterns: the macro accepts exactly what the `regex` crate compiles.

use crate::pattern;
use crate::vocab;

use std::collections::BTreeSet;
use std::fmt::Debug;

use proptest::prelude::*;
use quote::{ToTokens, quote};
use serde::Serialize;
use serde_json::{Value, json};
use tool_contract::__private::{
    Approval, ContractParts, ContractRule, DataClass, Effect, ErrorCategory, Idempotency,
    OutputContract, Policy, Recovery, ToolContract, Version, root_schema_of,
};
use tool_contract::contract::formats;
use tool_contract::openai::{StrictRule, ToolSetError, check_strict_schema};

use tool_words::{MAX_NAME_CHARS as MAX_CHARS, NameProblem, name_problem};

use vocab::Vocabulary;

/// Every variant of a runtime enum; a variant added there fails to compile
/// here (the `match` is exhaustive) until it is listed.
macro_rules! every {
    ($ty:ident { $($variant:ident $({ $($field:ident: $value:expr),* })?),+ $(,)? }) => {{
        let all = [$($ty::$variant $({ $($field: $value),* })?),+];
        for value in all {
            match value {
                $($ty::$variant { .. } => {})+
            }
        }
        all
    }};
}

/// A runtime value's serde name: the string, or an internally tagged enum's
/// `kind`.
fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value).unwrap() {
        Value::String(name) => name,
        Value::Object(map) => map["kind"].as_str().unwrap().to_owned(),
        other => panic!("unexpected serde form {other}"),
    }
}

/// The variant's name: `Keyed` for `Keyed { field: "k" }`.
fn variant_name<T: Debug>(value: &T) -> String {
    let debug = format!("{value:?}");
    debug.split([' ', '(', '{']).next().unwrap().to_owned()
}

/// Checks a vocabulary against the runtime enum it stands for, named
/// `core_type` in `__private`, and returns its spellings.
fn check_vocabulary<V, C>(core_type: &str, core: &[C]) -> Vec<&'static str>
where
    V: Vocabulary + ToTokens + Debug,
    C: Serialize + Debug,
{
    let spellings: Vec<&'static str> = V::ALL.iter().map(|(_, s)| *s).collect();
    let distinct: BTreeSet<&str> = spellings.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        spellings.len(),
        "{core_type}: a spelling twice"
    );
    let core_names: BTreeSet<String> = core.iter().map(serde_name).collect();
    assert_eq!(core_names.len(), core.len());
    assert_eq!(
        distinct
            .iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<_>>(),
        core_names,
        "{core_type}: the spellings are not the runtime's names"
    );
    for (value, spelling) in V::ALL {
        assert_eq!(value.spelling(), *spelling);
        assert_eq!(V::from_spelling(spelling), Some(*value));
        let variant = core.iter().find(|c| serde_name(*c) == *spelling).unwrap();
        assert_eq!(
            quote!(#value).to_string(),
            format!("_tool :: {core_type} :: {}", variant_name(variant)),
            "{spelling}"
        );
    }
    assert_eq!(V::from_spelling("Read"), None);
    assert_eq!(V::from_spelling(""), None);
    spellings
}

#[test]
fn every_vocabulary_names_exactly_the_runtime_variants() {
    let effects = every!(Effect {
        Read,
        Write,
        Destructive
    });
    assert_eq!(
        check_vocabulary::<vocab::Effect, _>("Effect", &effects),
        ["read", "write", "destructive"]
    );
    let approvals = every!(Approval { None, Required });
    assert_eq!(
        check_vocabulary::<vocab::Approval, _>("Approval", &approvals),
        ["required", "none"]
    );
    let classes = every!(DataClass {
        Public,
        Internal,
        Confidential,
        Restricted
    });
    assert_eq!(
        check_vocabulary::<vocab::DataClass, _>("DataClass", &classes),
        ["public", "internal", "confidential", "restricted"]
    );
    let idempotency = every!(Idempotency {
        Unspecified,
        Idempotent,
        NotIdempotent,
        Keyed { field: "request_id" },
    });
    assert_eq!(
        check_vocabulary::<vocab::Idempotency, _>("Idempotency", &idempotency),
        ["unspecified", "idempotent", "not_idempotent", "keyed"]
    );
    let categories = every!(ErrorCategory {
        InvalidArguments,
        NotFound,
        Permission,
        Approval,
        Conflict,
        RateLimit,
        Timeout,
        Aborted,
        Upstream,
        Internal,
    });
    for category in categories {
        assert_eq!(category.as_str(), serde_name(&category));
    }
    assert_eq!(
        check_vocabulary::<vocab::ErrorCategory, _>("ErrorCategory", &categories),
        [
            "invalid_arguments",
            "not_found",
            "permission",
            "approval",
            "conflict",
            "rate_limit",
            "timeout",
            "aborted",
            "upstream",
            "internal",
        ]
    );
    let recoveries = every!(Recovery {
        FixArguments,
        Retry,
        RetryLater,
        RequestApproval,
        AskUser,
        None,
    });
    for recovery in recoveries {
        assert_eq!(recovery.as_str(), serde_name(&recovery));
    }
    assert_eq!(
        check_vocabulary::<vocab::Recovery, _>("Recovery", &recoveries),
        [
            "fix_arguments",
            "retry",
            "retry_later",
            "request_approval",
            "ask_user",
            "none"
        ]
    );
    let rules = every!(ContractRule {
        UntypedAmount,
        UntypedQuantity,
        ModelIdentity,
        BooleanPair,
        VagueName,
        MisleadingName,
        FreeFormCommand,
        OpenWorldWrite,
        UntypedDestination,
    });
    for rule in rules {
        assert_eq!(rule.as_str(), serde_name(&rule));
    }
    assert_eq!(
        check_vocabulary::<vocab::Rule, _>("ContractRule", &rules),
        [
            "untyped_amount",
            "untyped_quantity",
            "model_identity",
            "boolean_pair",
            "vague_name",
            "misleading_name",
            "free_form_command",
            "open_world_write",
            "untyped_destination"
        ]
    );
}

#[test]
fn messages_name_each_vocabulary() {
    let names = [
        <vocab::Effect as Vocabulary>::WHAT,
        <vocab::Approval as Vocabulary>::WHAT,
        <vocab::DataClass as Vocabulary>::WHAT,
        <vocab::Idempotency as Vocabulary>::WHAT,
        <vocab::ErrorCategory as Vocabulary>::WHAT,
        <vocab::Recovery as Vocabulary>::WHAT,
        <vocab::Rule as Vocabulary>::WHAT,
        <vocab::Format as Vocabulary>::WHAT,
    ];
    assert_eq!(
        names,
        [
            "effect",
            "approval",
            "data class",
            "idempotency",
            "category",
            "recovery",
            "rule",
            "format"
        ]
    );
}

/// The formats the OpenAI adapter accepts, read from its message for one it
/// does not (the adapter keeps its list private).
fn openai_formats() -> Vec<String> {
    let refused = openai_refuses_format("no-such-format").expect("refused");
    let (_, list) = refused
        .split_once("use one of ")
        .expect("the message lists the formats");
    list.split(", ").map(str::to_owned).collect()
}

/// Why the OpenAI adapter refuses a string property of this `format`, or
/// `None` when it accepts it.
fn openai_refuses_format(format: &str) -> Option<String> {
    let schema = json!({
        "type": "object",
        "properties": {"value": {"type": "string", "format": format}},
        "required": ["value"],
        "additionalProperties": false,
    });
    match check_strict_schema(&schema) {
        Ok(()) => None,
        Err(violations) => {
            assert_eq!(violations.len(), 1, "{violations:?}");
            assert_eq!(violations[0].rule(), StrictRule::UnsupportedFormat);
            assert_eq!(violations[0].path(), "#/properties/value/format");
            Some(violations[0].message().to_owned())
        }
    }
}

#[test]
fn formats_are_tool_cores_and_openai_takes_all_but_uri() {
    let spellings: Vec<&str> = <vocab::Format as Vocabulary>::ALL
        .iter()
        .map(|(_, s)| *s)
        .collect();
    assert_eq!(spellings, formats::SUPPORTED);
    for (format, spelling) in <vocab::Format as Vocabulary>::ALL {
        // The runtime keeps a format as its spelling.
        assert_eq!(quote!(#format).to_string(), format!("{spelling:?}"));
        assert_eq!(
            <vocab::Format as Vocabulary>::from_spelling(spelling),
            Some(*format)
        );
        assert!(formats::is_valid(spelling, "").is_some(), "{spelling}");
    }
    let openai = openai_formats();
    assert_eq!(
        openai,
        [
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid"
        ]
    );
    let core: BTreeSet<&str> = formats::SUPPORTED.iter().copied().collect();
    let adapter: BTreeSet<&str> = openai.iter().map(String::as_str).collect();
    assert!(adapter.is_subset(&core));
    assert_eq!(core.difference(&adapter).collect::<Vec<_>>(), [&"uri"]);
    for format in formats::SUPPORTED {
        assert_eq!(
            openai_refuses_format(format).is_none(),
            adapter.contains(format),
            "{format}"
        );
    }
}

/// Whether the OpenAI adapter offers a tool with this name.
fn openai_accepts(name: &str) -> bool {
    let name: &'static str = Box::leak(name.to_owned().into_boxed_str());
    let contract: &'static ToolContract = Box::leak(Box::new(ToolContract::__new(ContractParts {
        name,
        rust_name: "Probe",
        title: None,
        description: "Probe the name rule.",
        version: Version::new(1, 0, 0),
        deprecation: None,
        policy: Policy::__new(
            Effect::Read,
            Idempotency::Unspecified,
            Approval::None,
            None,
            false,
            DataClass::Internal,
        ),
        fields: &[],
        output: OutputContract::__new("String", false, root_schema_of::<String>),
        errors: &[],
        waivers: &[],
        examples: &[],
        parse_example: tool_contract::__private::no_examples,
    })));
    match tool_contract::openai::tools_for_chat_completions(&[contract]) {
        Ok(tools) => {
            assert_eq!(tools[0]["function"]["name"], name);
            true
        }
        Err(ToolSetError::InvalidName { name: refused }) => {
            assert_eq!(refused, name);
            false
        }
        Err(other) => panic!("{other}"),
    }
}

/// The rule every provider accepts: `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
fn shared_rule(name: &str) -> bool {
    regex::Regex::new("^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
        .unwrap()
        .is_match(name)
}

#[test]
fn tool_names_follow_the_rule_every_provider_accepts() {
    let longest = "a".repeat(MAX_CHARS);
    let too_long = "a".repeat(MAX_CHARS + 1);
    let table: Vec<(&str, Option<NameProblem>)> = vec![
        ("get_weather", None),
        ("Get-Weather-2", None),
        (&longest, None),
        ("", Some(NameProblem::Empty)),
        (&too_long, Some(NameProblem::TooLong(65))),
        ("get weather", Some(NameProblem::Characters(vec![' ']))),
        (
            "get.weather/now",
            Some(NameProblem::Characters(vec!['.', '/'])),
        ),
        ("météo", Some(NameProblem::Characters(vec!['é', 'é']))),
    ];
    for (name, problem) in table {
        assert_eq!(name_problem(name), problem, "{name:?}");
        assert_eq!(openai_accepts(name), problem.is_none(), "{name:?}");
    }
    // OpenAI takes a leading digit or `-`; Gemini does not, so neither does
    // the shared rule.
    for (name, first) in [("2fa_check", '2'), ("-get_weather", '-'), ("9", '9')] {
        assert_eq!(
            name_problem(name),
            Some(NameProblem::Start(first)),
            "{name:?}"
        );
        assert!(openai_accepts(name), "{name:?}");
    }
    assert_eq!(name_problem("_private_lookup"), None);
}

proptest! {
    #[test]
    fn tool_names_agree_on_any_text(name in "[a-zA-Z0-9_-]{0,70}|[0-9-][a-z_]{0,8}|[a-z_ .é-]{0,8}|\\PC{0,70}") {
        prop_assert_eq!(name_problem(&name).is_none(), shared_rule(&name));
        // Whatever the shared rule accepts, OpenAI accepts.
        prop_assert!(name_problem(&name).is_some() || openai_accepts(&name));
    }
}

/// Whether the `regex` crate, the runtime's engine, compiles `pattern`; a
/// pattern too big to compile is well formed.
fn regex_accepts(pattern: &str) -> bool {
    match regex::Regex::new(pattern) {
        Ok(_) | Err(regex::Error::CompiledTooBig(_)) => true,
        Err(regex::Error::Syntax(_)) => false,
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn patterns_are_checked_as_the_regex_crate_parses_them() {
    // Both take at most 250 nested groups.
    let nested = |depth: usize| format!("{}a{}", "(".repeat(depth), ")".repeat(depth));
    let (deepest, too_deep) = (nested(250), nested(251));
    for (pattern, accepted) in [
        ("^[A-Z]-[0-9]+$", true),
        ("\\p{Greek}+", true),
        ("(?i)sku-\\d{4}", true),
        ("(?<year>\\d{4})", true),
        ("", true),
        ("^[A-Z]-([0-9]+$", false),
        ("(?=a)", false),
        ("(a)\\1", false),
        ("\\p{Elvish}", false),
        ("a{3,1}", false),
        ("\\8", false),
        (deepest.as_str(), true),
        (too_deep.as_str(), false),
    ] {
        assert_eq!(pattern::check(pattern).is_none(), accepted, "{pattern:?}");
        assert_eq!(regex_accepts(pattern), accepted, "{pattern:?}");
    }
}

proptest! {
    #[test]
    fn patterns_agree_with_the_regex_crate(pattern in "[a-c0-9()\\[\\]{}|*+?.^$\\\\,:<>=!#PpdswbBxuU&~-]{0,12}") {
        prop_assert_eq!(pattern::check(&pattern).is_none(), regex_accepts(&pattern));
    }
}
