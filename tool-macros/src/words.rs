//! The vocabularies the naming rules judge by, and snake_case helpers.

pub use tool_words::judge::{
    DURATION, IDENTITY_TYPES, NOT_A_DURATION, TIME_UNIT, boolean_pair, currency_name,
    identity_name_on, money_name, snake_case, words,
};

/// Verbs that say nothing about what a tool does.
pub const VAGUE_VERBS: &[&str] = &[
    "do", "process", "handle", "execute", "run", "manage", "perform", "invoke", "call", "make",
    "go", "use", "trigger", "apply", "work",
];

/// Verbs that often start a tool name; a one-word name that is one of them
/// lacks its object.
pub const COMMON_VERBS: &[&str] = &[
    "get",
    "list",
    "search",
    "find",
    "create",
    "update",
    "delete",
    "remove",
    "add",
    "set",
    "send",
    "fetch",
    "read",
    "write",
    "book",
    "cancel",
    "submit",
    "approve",
    "reserve",
    "check",
    "lookup",
    "query",
    "schedule",
    "refund",
    "transfer",
    "upload",
    "download",
    "translate",
    "summarize",
    "calculate",
    "convert",
    "notify",
    "order",
    "pay",
    "charge",
    "close",
    "open",
];

/// Objects that say nothing about what a tool acts on.
pub const GENERIC_OBJECTS: &[&str] = &[
    "action",
    "actions",
    "request",
    "requests",
    "data",
    "task",
    "tasks",
    "thing",
    "things",
    "stuff",
    "item",
    "items",
    "operation",
    "operations",
    "command",
    "commands",
    "input",
    "job",
    "jobs",
    "it",
    "object",
    "objects",
    "entity",
    "entities",
    "function",
    "tool",
    "step",
    "event",
    "events",
    "work",
    "logic",
    "info",
    "something",
    "all",
];

/// Why a tool name is not a clear `verb_object` name, if it is not.
pub fn vague_name(name: &str) -> Option<String> {
    if name.chars().any(|c| c.is_ascii_uppercase() || c == '-') {
        return Some(format!(
            "tool name `{name}` is not verb_object snake_case; write it as `{}`",
            snake_case(&name.replace('-', "_"))
        ));
    }
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let all_generic = |ws: &[&str]| ws.iter().all(|w| GENERIC_OBJECTS.contains(w));
    match words.as_slice() {
        [] => None,
        [one] if VAGUE_VERBS.contains(one) || GENERIC_OBJECTS.contains(one) => Some(format!(
            "tool name `{name}` is vague: it does not say what the tool does or to what; name the action and its object, e.g. `search_orders` or `cancel_subscription`"
        )),
        [one] if COMMON_VERBS.contains(one) => Some(format!(
            "tool name `{name}` is one word; add what it acts on in verb_object form, e.g. `{one}_orders` or `{one}_products`"
        )),
        [one] => Some(format!(
            "tool name `{name}` is one word; name the action and its object in verb_object form, e.g. `get_{one}` or `update_{one}`"
        )),
        [verb, rest @ ..] if VAGUE_VERBS.contains(verb) && all_generic(rest) => Some(format!(
            "tool name `{name}` is vague: `{verb}` and `{}` do not say what the tool does; name the specific action and object, e.g. `search_orders` or `cancel_subscription`",
            rest.join("_")
        )),
        _ => None,
    }
}

/// Whether a description only repeats the name it describes: the same
/// words, ignoring case, punctuation and articles.
pub fn repeats_name(description: &str, name: &str) -> bool {
    let filler = ["the", "a", "an", "this", "tool", "field", "to"];
    let clean = |text: &str| -> Vec<String> {
        words(
            &text
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { ' ' })
                .collect::<String>(),
        )
        .into_iter()
        .filter(|w| !filler.contains(&w.as_str()))
        .collect()
    };
    let described = clean(description);
    !described.is_empty() && described == clean(&name.replace('_', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_handles_acronyms_and_digits() {
        assert_eq!(snake_case("CreateRefundDraft"), "create_refund_draft");
        assert_eq!(snake_case("GetHTTPStatus"), "get_http_status");
        assert_eq!(snake_case("Get2faCode"), "get2fa_code");
        assert_eq!(snake_case("r#Type"), "type");
        assert_eq!(snake_case("already_snake"), "already_snake");
    }

    #[test]
    fn antonym_pairs() {
        let w = |s: &str| words(s);
        assert!(boolean_pair(&w("show_details"), &w("hide_details")));
        assert!(boolean_pair(&w("is_open"), &w("is_closed")));
        assert!(boolean_pair(&w("lock_account"), &w("unlock_account")));
        assert!(boolean_pair(&w("cache"), &w("no_cache")));
        assert!(boolean_pair(&w("enableLogging"), &w("disableLogging")));
        assert!(!boolean_pair(&w("include_drafts"), &w("include_archived")));
        assert!(!boolean_pair(&w("notify"), &w("dry_run")));
        assert!(!boolean_pair(&w("is_a"), &w("is_in")));
    }

    #[test]
    fn vague_names() {
        assert!(vague_name("process").is_some());
        assert!(vague_name("do_action").is_some());
        assert!(vague_name("handle_request").is_some());
        assert!(vague_name("inventory").is_some());
        assert!(vague_name("getInventory").is_some());
        assert_eq!(vague_name("get_inventory"), None);
        assert_eq!(vague_name("run_sql_query"), None);
        assert_eq!(vague_name("execute_trade"), None);
    }

    #[test]
    fn repeated_names() {
        assert!(repeats_name("Order id.", "order_id"));
        assert!(repeats_name("The order ID", "order_id"));
        assert!(repeats_name("Get weather", "get_weather"));
        assert!(!repeats_name(
            "Order reference exactly as the app shows it.",
            "order_ref"
        ));
    }
}
