//! The verbs a tool name starts with, and the effect each promises: the
//! `misleading_name` rule. Only the derive judges tool names, so the
//! tables live here, in one place.
//!
//! Verbs are words of the name (`checkout_cart` starts with `checkout`,
//! not `check`), judged on the first word, except the draft class, which
//! is also a last word (`create_refund_draft`, `invoice_preview`).

use crate::vocab::Effect;

/// Verbs that only read: a tool named with one is `read`.
pub const READ_VERBS: &[&str] = &[
    "get", "list", "search", "find", "lookup", "look", "fetch", "read", "check", "show", "count",
    "describe", "view", "query", "retrieve", "browse", "inspect", "locate", "explain",
];

/// A verb and the words after it that make it a write: `check_in_guest`
/// (not a check), `drop_off_parcel` (nothing dropped).
const PHRASAL_WRITES: &[(&str, &[&str])] = &[("check", &["in", "out"]), ("drop", &["off"])];

/// Verbs that destroy or revoke: a tool named with one is `destructive`.
pub const DESTROY_VERBS: &[&str] = &[
    "delete",
    "remove",
    "cancel",
    "revoke",
    "purge",
    "erase",
    "terminate",
    "destroy",
    "drop",
    "wipe",
    "void",
    "discard",
    "expunge",
    "truncate",
    "deprovision",
    "uninstall",
    "deactivate",
];

/// Verbs that destroy only what follows: `close_account` ends an account,
/// `close_ticket` only changes a ticket's state.
pub const DESTROY_VERB_OBJECTS: &[(&str, &[&str])] = &[("close", &["account", "accounts"])];

/// First words of a tool that drafts or previews: it must not be `destructive`.
pub const DRAFT_VERBS: &[&str] = &["draft", "preview", "estimate", "simulate"];

/// Last words of a tool that drafts or previews.
pub const DRAFT_NOUNS: &[&str] = &["draft", "drafts", "preview", "previews", "estimate"];

/// Verbs that change something: a `read` tool must not start with one.
pub const WRITE_VERBS: &[&str] = &[
    "create",
    "update",
    "set",
    "send",
    "submit",
    "book",
    "reserve",
    "add",
    "insert",
    "put",
    "patch",
    "edit",
    "modify",
    "save",
    "upload",
    "write",
    "assign",
    "schedule",
    "register",
    "enroll",
    "approve",
    "reject",
    "confirm",
    "pay",
    "transfer",
    "rename",
    "publish",
    "invite",
    "notify",
    "grant",
    "enable",
    "disable",
    "restart",
    "reset",
    "import",
    "sync",
    "subscribe",
    "unsubscribe",
    "checkout",
    "replace",
    "merge",
    "restore",
];

/// First words that qualify the verb after them: `bulk_delete_orders`,
/// `hard_delete_account` are judged by `delete`.
pub const VERB_MODIFIERS: &[&str] = &["bulk", "batch", "mass", "hard", "force", "permanently"];

/// What a tool name promises about its effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promise {
    /// It only reads (`get_order`).
    Reads(&'static str),
    /// It destroys or revokes (`delete_address`, `close_account`).
    Destroys(&'static str),
    /// It drafts or previews (`create_refund_draft`, `preview_invoice`).
    Drafts(&'static str),
    /// It changes something (`create_order`).
    Writes(&'static str),
}

fn find(list: &'static [&'static str], word: &str) -> Option<&'static str> {
    list.iter().find(|w| **w == word).copied()
}

/// What the name's words (snake_case words of the tool name) promise,
/// if they promise anything.
pub fn promise(words: &[String]) -> Option<Promise> {
    let words = match words.split_first() {
        Some((first, rest)) if VERB_MODIFIERS.contains(&first.as_str()) && !rest.is_empty() => rest,
        _ => words,
    };
    let (first, rest) = words.split_first()?;
    let first = first.as_str();
    let next = rest.first().map(String::as_str);
    for (verb, particles) in PHRASAL_WRITES {
        if first == *verb && next.is_some_and(|n| particles.contains(&n)) {
            return Some(Promise::Writes(verb));
        }
    }
    if let Some(verb) = find(DESTROY_VERBS, first) {
        return Some(Promise::Destroys(verb));
    }
    for (verb, objects) in DESTROY_VERB_OBJECTS {
        if first == *verb && next.is_some_and(|o| objects.contains(&o)) {
            return Some(Promise::Destroys(verb));
        }
    }
    if let Some(verb) = find(DRAFT_VERBS, first) {
        return Some(Promise::Drafts(verb));
    }
    if let Some(noun) = words.last().and_then(|l| find(DRAFT_NOUNS, l)) {
        return Some(Promise::Drafts(noun));
    }
    if let Some(verb) = find(READ_VERBS, first) {
        return Some(Promise::Reads(verb));
    }
    find(WRITE_VERBS, first).map(Promise::Writes)
}

/// Why a tool named `name` (whose words promise `promise`) must not have
/// `effect`, if it must not: the message without the waiver hint.
/// `given` says whether `effect = "..."` was written (else `read` is the
/// default).
pub fn mismatch(name: &str, promise: Promise, effect: Effect, given: bool) -> Option<String> {
    // The object, for the renames the message suggests: `order` in `get_order`.
    let mut words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    if words.len() > 1 && VERB_MODIFIERS.contains(&words[0]) {
        words.remove(0);
    }
    let object = match words.as_slice() {
        [_, rest @ ..] if !rest.is_empty() => rest.join("_"),
        _ => "...".to_owned(),
    };
    let declared = match effect {
        Effect::Read if !given => "is `read` (the default when `effect` is not given)",
        Effect::Read => "is declared `effect = \"read\"`",
        Effect::Write => "is declared `effect = \"write\"`",
        Effect::Destructive => "is declared `effect = \"destructive\"`",
    };
    match (promise, effect) {
        (Promise::Reads(verb), Effect::Write | Effect::Destructive) => Some(format!(
            "tool name `{name}` starts with `{verb}`, a reading verb, but the tool {declared}: a model calls a reading tool freely, expecting nothing to change; rename it for what it changes (e.g. `update_{object}`, `create_{object}`), or declare `effect = \"read\"` if it only reads"
        )),
        (Promise::Destroys(verb), Effect::Read | Effect::Write) => Some(format!(
            "tool name `{name}` starts with `{verb}`, which destroys or revokes, but the tool {declared}: declare `effect = \"destructive\", approval = \"required\"`, or rename it for what it does if nothing is lost (e.g. `archive_{object}`, `update_{object}`)"
        )),
        (Promise::Drafts(word), Effect::Destructive) => Some(format!(
            "tool name `{name}` says it drafts or previews (`{word}`), but the tool {declared}: a draft or preview must change nothing for good; declare `effect = \"write\"` (or `\"read\"` if it stores nothing), or rename it for what it destroys (e.g. `delete_{object}`)"
        )),
        (Promise::Writes(verb), Effect::Read) => Some(format!(
            "tool name `{name}` starts with `{verb}`, a writing verb, but the tool {declared}: the name says it changes something; declare `effect = \"write\"` (or `\"destructive\"`) if it does, or rename it with a reading verb (e.g. `get_{object}`, `list_{object}`) if it only reads"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::words;

    fn p(name: &str) -> Option<Promise> {
        promise(&words(name))
    }

    #[test]
    fn verbs_are_words_not_substrings() {
        assert_eq!(p("get_order"), Some(Promise::Reads("get")));
        assert_eq!(p("check_order_status"), Some(Promise::Reads("check")));
        assert_eq!(p("checkout_cart"), Some(Promise::Writes("checkout")));
        assert_eq!(p("check_in_guest"), Some(Promise::Writes("check")));
        assert_eq!(p("getaway_planner"), None);
        assert_eq!(p("settle_invoice"), None);
        assert_eq!(p("delete_address"), Some(Promise::Destroys("delete")));
        assert_eq!(p("close_account"), Some(Promise::Destroys("close")));
        assert_eq!(p("close_ticket"), None);
        assert_eq!(p("drop_off_parcel"), Some(Promise::Writes("drop")));
        assert_eq!(p("drop_table"), Some(Promise::Destroys("drop")));
        assert_eq!(p("order_status"), None);
        assert_eq!(p("bulk_delete_orders"), Some(Promise::Destroys("delete")));
        assert_eq!(p("hard_delete_account"), Some(Promise::Destroys("delete")));
        assert_eq!(p("soft_delete_account"), None);
        assert_eq!(p("cancel_order_draft"), Some(Promise::Destroys("cancel")));
        assert_eq!(p("create_refund_draft"), Some(Promise::Drafts("draft")));
        assert_eq!(p("preview_invoice"), Some(Promise::Drafts("preview")));
        assert_eq!(p("estimate_shipping"), Some(Promise::Drafts("estimate")));
        assert_eq!(p("send_password_reset"), Some(Promise::Writes("send")));
        assert_eq!(p("GetWeather"), Some(Promise::Reads("get")));
    }

    #[test]
    fn only_mismatches_are_refused() {
        let ok = [
            ("get_order", Effect::Read),
            ("delete_address", Effect::Destructive),
            ("create_refund_draft", Effect::Write),
            ("preview_invoice", Effect::Read),
            ("send_password_reset", Effect::Write),
            ("update_order", Effect::Destructive),
        ];
        for (name, effect) in ok {
            let promised = p(name).unwrap();
            assert_eq!(mismatch(name, promised, effect, true), None, "{name}");
        }
        let bad = [
            ("get_order", Effect::Write),
            ("delete_address", Effect::Write),
            ("create_refund_draft", Effect::Destructive),
            ("create_order", Effect::Read),
        ];
        for (name, effect) in bad {
            let promised = p(name).unwrap();
            assert!(mismatch(name, promised, effect, true).is_some(), "{name}");
        }
    }
}
