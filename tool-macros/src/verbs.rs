//! The verbs of a tool name, and the effect each promises: the
//! `misleading_name` rule. Only the derive judges tool names, so the
//! tables live here, in one place.
//!
//! Verbs are words of the name (`checkout_cart` starts with `checkout`,
//! not `check`). The verb judged is the first word (after a modifier such
//! as `bulk_`); a name that starts with a noun (`order_delete`,
//! `admin_delete_user`) is judged by its first destroying verb, and only
//! by one (`blog_post_list`, `address_book_lookup` promise nothing: a
//! writing or reading word after a noun is too often a noun itself). A
//! verb after `or`, `and` or `then` is judged too (`get_or_create_customer`,
//! `fetch_and_delete_message`), and the strongest effect wins: destroy over
//! write over read. Nouns after the verb are not verbs (`get_post`,
//! `list_posts`). The draft class is a first word (`preview_invoice`) or a
//! last one (`create_refund_draft`); it adds "not destructive" to what the
//! verb promises, so `send_draft` still writes. Drafting is a write:
//! `draft_reply` must not be `read`.
//!
//! The tables are chosen for verbs that are rarely the first word of a
//! reading name. Words that often start one as a noun are left out on
//! purpose (`order`, `log`, `record`, `store`, `tag`, `flag`, `link`,
//! `like`, `pin`, `push`, `lock`, `block`, `stop`: `order_status`,
//! `store_hours`, `stop_times` read). Some kept writing verbs can still
//! start a reading name as a noun (`share_price`, `post_comments`,
//! `charge_status`): such a tool is refused as `read` and is renamed with
//! a reading verb (`get_share_price`), or waives the rule with a reason.

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
    "ban",
    "clear",
    "empty",
    "kill",
    "shred",
    "unpublish",
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
/// The object is any later word: `close_bank_account`.
pub const DESTROY_VERB_OBJECTS: &[(&str, &[&str])] = &[("close", &["account", "accounts"])];

/// Words after a destroying word that make it a noun, in a name that
/// starts with a noun: `order_cancel_reason`, `airport_drop_zones`.
const NOT_A_VERB_AFTER: &[&str] = &[
    "reason", "reasons", "date", "dates", "time", "status", "policy", "policies", "count", "zone",
    "zones", "window", "fee", "fees", "rate", "history", "log", "logs", "link", "url",
];

/// Words that join two verbs: `get_or_create_customer`.
const CONJUNCTIONS: &[&str] = &["or", "and", "then"];

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
    "post",
    "refund",
    "charge",
    "purchase",
    "buy",
    "sell",
    "share",
    "move",
    "copy",
    "ship",
    "deploy",
    "install",
    "provision",
    "activate",
    "start",
    "pause",
    "resume",
    "retry",
    "rotate",
    "renew",
    "extend",
    "upgrade",
    "downgrade",
    "accept",
    "decline",
    "archive",
    "mark",
    "apply",
    "redeem",
    "unblock",
    "suspend",
    "unlock",
    "unlink",
    "attach",
    "detach",
    "connect",
    "disconnect",
    "follow",
    "unfollow",
    "unpin",
    "vote",
    "reply",
    "respond",
    "forward",
    "dispatch",
    "deliver",
    "remind",
    "commit",
    "deposit",
    "withdraw",
    "donate",
    "increment",
    "decrement",
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

/// What `words[at]` promises as a verb, with the words after it (a
/// phrasal particle, the object of `close`).
fn verb_at(words: &[String], at: usize) -> Option<Promise> {
    let word = words.get(at)?.as_str();
    let rest = &words[at + 1..];
    let next = rest.first().map(String::as_str);
    for (verb, particles) in PHRASAL_WRITES {
        if word == *verb && next.is_some_and(|n| particles.contains(&n)) {
            return Some(Promise::Writes(verb));
        }
    }
    if let Some(verb) = find(DESTROY_VERBS, word) {
        return Some(Promise::Destroys(verb));
    }
    for (verb, objects) in DESTROY_VERB_OBJECTS {
        if word == *verb && rest.iter().any(|o| objects.contains(&o.as_str())) {
            return Some(Promise::Destroys(verb));
        }
    }
    if let Some(verb) = find(DRAFT_VERBS, word) {
        return Some(Promise::Drafts(verb));
    }
    if let Some(verb) = find(READ_VERBS, word) {
        return Some(Promise::Reads(verb));
    }
    find(WRITE_VERBS, word).map(Promise::Writes)
}

/// How strongly a promise changes things: destroy over write over read
/// (a draft or preview is judged beside, not against, these).
fn strength(promise: Promise) -> u8 {
    match promise {
        Promise::Drafts(_) => 0,
        Promise::Reads(_) => 1,
        Promise::Writes(_) => 2,
        Promise::Destroys(_) => 3,
    }
}

/// The words of a name without a leading modifier (`bulk_`, `hard_`).
fn unmodified(words: &[String]) -> &[String] {
    match words.split_first() {
        Some((first, rest)) if VERB_MODIFIERS.contains(&first.as_str()) && !rest.is_empty() => rest,
        _ => words,
    }
}

/// What the name's words (snake_case words of the tool name) promise:
/// the strongest of its verbs (the first word, or the first destroying
/// word after a leading noun, and every verb after `or`/`and`/`then`),
/// and "drafts or previews" beside it for a draft name; empty when the
/// name promises nothing. Each promise is judged against the effect.
pub fn promises(words: &[String]) -> Vec<Promise> {
    let words = unmodified(words);
    let head = (0..words.len()).find_map(|at| match verb_at(words, at)? {
        found if at == 0 => Some((at, found)),
        // `soft_delete_account` keeps what it deletes.
        found @ Promise::Destroys(_)
            if words[at - 1] != "soft"
                && !words
                    .get(at + 1)
                    .is_some_and(|n| NOT_A_VERB_AFTER.contains(&n.as_str())) =>
        {
            Some((at, found))
        }
        _ => None,
    });
    let Some((at, head)) = head else {
        return Vec::new();
    };
    let mut verbs = vec![head];
    for next in at + 1..words.len() {
        if CONJUNCTIONS.contains(&words[next - 1].as_str())
            && let Some(found) = verb_at(words, next)
        {
            verbs.push(found);
        }
    }
    let strongest = verbs.iter().map(|p| strength(*p)).max().unwrap_or(0);
    let mut out: Vec<Promise> = verbs
        .iter()
        .copied()
        .filter(|p| strength(*p) == strongest && strength(*p) > 0)
        .take(1)
        .collect();
    if strongest == 3 {
        // A destroyed draft is destroyed: `cancel_order_draft`.
        return out;
    }
    if let Promise::Drafts(verb) = head {
        if verb == "draft" && out.is_empty() {
            // Drafting stores the draft: `draft_reply` writes.
            out.push(Promise::Writes(verb));
        }
        out.push(head);
    } else if let Some(noun) = words.last().and_then(|l| find(DRAFT_NOUNS, l)) {
        out.push(Promise::Drafts(noun));
    }
    out
}

/// The first thing the name's words promise, if they promise anything
/// (see [`promises`]).
#[cfg(test)]
pub fn promise(words: &[String]) -> Option<Promise> {
    promises(words).first().copied()
}

/// How the message places the verb: the first word of the name (after a
/// modifier) or a later one.
fn placed(name: &str, verb: &str) -> String {
    let w = crate::words::words(name);
    if unmodified(&w).first().is_some_and(|first| first == verb) {
        format!("starts with `{verb}`")
    } else {
        format!("says `{verb}`")
    }
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
    let verb = match promise {
        Promise::Reads(v) | Promise::Destroys(v) | Promise::Writes(v) | Promise::Drafts(v) => v,
    };
    // What the verb acts on, for the renames the message suggests: the
    // words after it (`customer` in `get_or_create_customer`), else those
    // before it (`order` in `order_delete`); a draft word stays
    // (`refund_draft` in `create_refund_draft`).
    if !matches!(promise, Promise::Drafts(_))
        && let Some(at) = words.iter().position(|w| *w == verb)
        && at > 0
    {
        let after: Vec<&str> = words[at + 1..].to_vec();
        let kept = if after.is_empty() {
            words[..at].to_vec()
        } else {
            after
        };
        words = std::iter::once(verb).chain(kept).collect();
    }
    let object = match words.as_slice() {
        [_, rest @ ..] if !rest.is_empty() => rest.join("_"),
        _ => "...".to_owned(),
    };
    let placed = placed(name, verb);
    let declared = match effect {
        Effect::Read if !given => "is `read` (the default when `effect` is not given)",
        Effect::Read => "is declared `effect = \"read\"`",
        Effect::Write => "is declared `effect = \"write\"`",
        Effect::Destructive => "is declared `effect = \"destructive\"`",
    };
    match (promise, effect) {
        (Promise::Reads(_), Effect::Write | Effect::Destructive) => Some(format!(
            "tool name `{name}` {placed}, a reading verb, but the tool {declared}: a model calls a reading tool freely, expecting nothing to change; rename it for what it changes (e.g. `update_{object}`, `create_{object}`), or declare `effect = \"read\"` if it only reads"
        )),
        (Promise::Destroys(_), Effect::Read | Effect::Write) => Some(format!(
            "tool name `{name}` {placed}, which destroys or revokes, but the tool {declared}: declare `effect = \"destructive\", approval = \"required\"`, or rename it for what it does if nothing is lost (e.g. `archive_{object}`, `update_{object}`)"
        )),
        (Promise::Drafts(word), Effect::Destructive) => Some(format!(
            "tool name `{name}` says it drafts or previews (`{word}`), but the tool {declared}: a draft or preview must change nothing for good; declare `effect = \"write\"` (or `\"read\"` if it stores nothing), or rename it for what it destroys (e.g. `delete_{object}`)"
        )),
        (Promise::Writes(_), Effect::Read) => Some(format!(
            "tool name `{name}` {placed}, a writing verb, but the tool {declared}: the name says it changes something; declare `effect = \"write\"` (or `\"destructive\"`) if it does, or rename it with a reading verb (e.g. `get_{object}`, `list_{object}`) if it only reads"
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
        assert_eq!(p("create_refund_draft"), Some(Promise::Writes("create")));
        assert_eq!(p("preview_invoice"), Some(Promise::Drafts("preview")));
        assert_eq!(p("estimate_shipping"), Some(Promise::Drafts("estimate")));
        assert_eq!(p("send_password_reset"), Some(Promise::Writes("send")));
        assert_eq!(p("GetWeather"), Some(Promise::Reads("get")));
        assert_eq!(p("get_post"), Some(Promise::Reads("get")));
        assert_eq!(p("list_posts"), Some(Promise::Reads("list")));
        assert_eq!(p("blog_post_list"), None);
        assert_eq!(p("address_book_lookup"), None);
        assert_eq!(p("order_cancel_reason"), None);
    }

    fn all(name: &str) -> Vec<Promise> {
        promises(&words(name))
    }

    #[test]
    fn a_draft_name_keeps_its_verb() {
        use Promise::*;
        assert_eq!(all("send_draft"), [Writes("send"), Drafts("draft")]);
        assert_eq!(
            all("publish_post_draft"),
            [Writes("publish"), Drafts("draft")]
        );
        assert_eq!(
            all("create_refund_draft"),
            [Writes("create"), Drafts("draft")]
        );
        assert_eq!(all("draft_reply"), [Writes("draft"), Drafts("draft")]);
        assert_eq!(all("preview_invoice"), [Drafts("preview")]);
        assert_eq!(
            all("get_shipping_estimate"),
            [Reads("get"), Drafts("estimate")]
        );
        assert_eq!(all("cancel_order_draft"), [Destroys("cancel")]);
    }

    #[test]
    fn every_joined_verb_is_judged_and_the_strongest_wins() {
        use Promise::*;
        assert_eq!(all("get_or_create_customer"), [Writes("create")]);
        assert_eq!(all("fetch_and_delete_message"), [Destroys("delete")]);
        assert_eq!(all("find_or_list_orders"), [Reads("find")]);
        assert_eq!(all("order_delete"), [Destroys("delete")]);
        assert_eq!(all("admin_delete_user"), [Destroys("delete")]);
        assert_eq!(all("close_bank_account"), [Destroys("close")]);
        assert_eq!(all("ban_customer"), [Destroys("ban")]);
        assert_eq!(all("clear_cart"), [Destroys("clear")]);
        for (name, verb) in [
            ("post_message", "post"),
            ("refund_order", "refund"),
            ("charge_card", "charge"),
            ("purchase_ticket", "purchase"),
            ("buy_gift_card", "buy"),
            ("share_document", "share"),
            ("move_file", "move"),
        ] {
            assert_eq!(all(name), [Writes(verb)], "{name}");
        }
    }

    #[test]
    fn a_later_verb_is_named_where_it_stands() {
        let message = mismatch(
            "order_delete",
            Promise::Destroys("delete"),
            Effect::Write,
            true,
        );
        assert_eq!(
            message.as_deref(),
            Some(
                "tool name `order_delete` says `delete`, which destroys or revokes, but the tool is declared `effect = \"write\"`: declare `effect = \"destructive\", approval = \"required\"`, or rename it for what it does if nothing is lost (e.g. `archive_order`, `update_order`)"
            )
        );
        let joined = mismatch(
            "get_or_create_customer",
            Promise::Writes("create"),
            Effect::Read,
            false,
        );
        assert!(
            joined.as_deref().is_some_and(|m| m.starts_with(
                "tool name `get_or_create_customer` says `create`, a writing verb, but the tool is `read` (the default when `effect` is not given): the name says it changes something; declare `effect = \"write\"` (or `\"destructive\"`) if it does, or rename it with a reading verb (e.g. `get_customer`, `list_customer`)"
            )),
            "{joined:?}"
        );
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
            for promised in all(name) {
                assert_eq!(mismatch(name, promised, effect, true), None, "{name}");
            }
        }
        let bad = [
            ("get_order", Effect::Write),
            ("delete_address", Effect::Write),
            ("create_refund_draft", Effect::Destructive),
            ("create_order", Effect::Read),
        ];
        for (name, effect) in bad {
            let refused = all(name)
                .into_iter()
                .any(|promised| mismatch(name, promised, effect, true).is_some());
            assert!(refused, "{name}");
        }
    }
}
