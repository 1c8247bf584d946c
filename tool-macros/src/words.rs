//! The vocabularies the naming rules judge by, and snake_case helpers.

/// `CreateRefundDraft` → `create_refund_draft`; `GetHTTPStatus` → `get_http_status`.
pub fn snake_case(ident: &str) -> String {
    let chars: Vec<char> = ident.trim_start_matches("r#").chars().collect();
    let mut out = String::with_capacity(chars.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1);
            let boundary = match prev {
                Some(p) if p.is_lowercase() || p.is_ascii_digit() => true,
                Some(p) if p.is_uppercase() => next.is_some_and(|n| n.is_lowercase()),
                _ => false,
            };
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The lowercase words of a snake_case or camelCase name.
pub fn words(name: &str) -> Vec<String> {
    snake_case(name)
        .split(['_', '-', ' '])
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Words that name an amount of money when they end a field name.
pub const MONEY: &[&str] = &[
    "amount",
    "amounts",
    "price",
    "prices",
    "cost",
    "costs",
    "fee",
    "fees",
    "total",
    "subtotal",
    "balance",
    "refund",
    "payment",
    "payments",
    "charge",
    "charges",
    "tax",
    "discount",
    "salary",
    "wage",
    "wages",
    "budget",
    "revenue",
    "deposit",
    "payout",
    "tip",
    "fare",
    "rent",
    "credit",
    "debit",
    "spend",
    "income",
    "premium",
    "surcharge",
    "penalty",
    "bonus",
];

/// Suffixes that say the integer is in minor units (`*_minor`, `*_cents`).
pub const MINOR_UNIT: &[&str] = &["minor", "cents", "cent", "pennies"];

/// Currency codes that may end a money field name (`price_usd`).
pub const CURRENCY_SUFFIX: &[&str] = &[
    "usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "cny", "inr", "brl", "mxn", "sek", "nok",
    "dkk", "pln", "zar", "krw", "sgd", "hkd", "nzd",
];

/// Words that make a number a duration.
pub const DURATION: &[&str] = &[
    "timeout",
    "delay",
    "duration",
    "interval",
    "ttl",
    "wait",
    "expiry",
    "expiration",
    "lifetime",
    "period",
    "backoff",
    "cooldown",
    "retention",
    "latency",
    "elapsed",
    "deadline",
    "age",
    "sleep",
    "grace",
    "lease",
    "uptime",
    "downtime",
    "runtime",
];

/// Last words that make a duration-like name something else: `lease_id`,
/// `timeout_count`, `retry_attempts`.
pub const NOT_A_DURATION: &[&str] = &[
    "id",
    "ids",
    "count",
    "counts",
    "number",
    "num",
    "attempts",
    "retries",
    "index",
    "idx",
    "version",
    "pct",
    "percent",
    "ratio",
    "factor",
    "multiplier",
    "code",
    "type",
    "kind",
];

/// Words that state a time unit when they end a name (`timeout_ms`).
pub const TIME_UNIT: &[&str] = &[
    "ns",
    "nanos",
    "nanoseconds",
    "us",
    "micros",
    "microseconds",
    "ms",
    "msec",
    "msecs",
    "millis",
    "milliseconds",
    "s",
    "sec",
    "secs",
    "second",
    "seconds",
    "min",
    "mins",
    "minute",
    "minutes",
    "h",
    "hr",
    "hrs",
    "hour",
    "hours",
    "d",
    "day",
    "days",
    "wk",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
];

/// Field names that carry who is acting or what they may do.
pub const IDENTITY_NAMES: &[&str] = &[
    "user",
    "user_id",
    "userid",
    "tenant",
    "tenant_id",
    "account_id",
    "customer_id",
    "org_id",
    "organization_id",
    "organisation_id",
    "workspace_id",
    "owner_id",
    "caller_id",
    "principal",
    "principal_id",
    "actor_id",
    "requester_id",
    "subject_id",
    "role",
    "roles",
    "is_admin",
    "admin",
    "is_superuser",
    "superuser",
    "is_staff",
    "permissions",
    "permission",
    "scopes",
    "privileges",
    "access_level",
    "acting_as",
    "on_behalf_of",
    "impersonate",
    "api_key",
    "auth_token",
    "access_token",
];

/// Type names that carry an identity.
pub const IDENTITY_TYPES: &[&str] = &[
    "UserId",
    "TenantId",
    "AccountId",
    "CustomerId",
    "OrgId",
    "OrganizationId",
    "WorkspaceId",
    "OwnerId",
    "PrincipalId",
    "Principal",
    "CallerId",
    "ActorId",
    "Role",
    "Roles",
    "Permissions",
    "Permission",
    "Scopes",
];

/// Pairs of words that name the two sides of one state.
pub const ANTONYMS: &[(&str, &str)] = &[
    ("on", "off"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("open", "close"),
    ("open", "closed"),
    ("opened", "closed"),
    ("show", "hide"),
    ("shown", "hidden"),
    ("visible", "hidden"),
    ("start", "stop"),
    ("started", "stopped"),
    ("active", "inactive"),
    ("activate", "deactivate"),
    ("include", "exclude"),
    ("included", "excluded"),
    ("allow", "deny"),
    ("allowed", "denied"),
    ("lock", "unlock"),
    ("locked", "unlocked"),
    ("public", "private"),
    ("online", "offline"),
    ("yes", "no"),
    ("ascending", "descending"),
    ("asc", "desc"),
    ("accept", "reject"),
    ("approve", "reject"),
    ("approved", "rejected"),
    ("connect", "disconnect"),
    ("connected", "disconnected"),
    ("subscribe", "unsubscribe"),
    ("subscribed", "unsubscribed"),
    ("pause", "resume"),
    ("paused", "resumed"),
    ("mute", "unmute"),
    ("muted", "unmuted"),
    ("read", "unread"),
    ("valid", "invalid"),
    ("success", "failure"),
    ("pass", "fail"),
];

/// Negating prefixes: `lock`/`unlock`, `active`/`inactive`.
const NEGATING_PREFIXES: &[&str] = &["un", "in", "dis", "de", "non"];

/// Whether `a` and `b` name the two sides of one state.
pub fn are_antonyms(a: &str, b: &str) -> bool {
    if ANTONYMS
        .iter()
        .any(|&(x, y)| (a == x && b == y) || (a == y && b == x))
    {
        return true;
    }
    let negates = |long: &str, short: &str| {
        short.len() >= 3
            && NEGATING_PREFIXES
                .iter()
                .any(|p| long.strip_prefix(p) == Some(short))
    };
    negates(a, b) || negates(b, a)
}

/// Whether two boolean field names stand for the two sides of one state:
/// they differ in one word that are antonyms (`show_details` /
/// `hide_details`), or one is the other with `no`/`not` (`cache` / `no_cache`).
pub fn boolean_pair(a: &[String], b: &[String]) -> bool {
    if a.len() == b.len() {
        let diffs: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        return diffs.len() == 1 && are_antonyms(&a[diffs[0]], &b[diffs[0]]);
    }
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    if long.len() != short.len() + 1 {
        return false;
    }
    (0..long.len()).any(|i| {
        matches!(long[i].as_str(), "no" | "not" | "non" | "dont" | "skip")
            && long[..i] == short[..i]
            && long[i + 1..] == short[i..]
    })
}

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
