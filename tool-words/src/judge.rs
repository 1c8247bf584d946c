//! The names the contract rules judge: money, identity, boolean state,
//! programs in strings and destinations.
//!
//! Both sides of the proc-macro boundary read names the same way:
//! `#[derive(Tool)]` and `#[derive(ToolArgs)]` judge field names at compile
//! time, and tool-core judges the property names of a plain
//! `#[derive(Deserialize, JsonSchema)]` type from its schema when a
//! contract is checked. One list, one answer.
//!
//! ```
//! use tool_contract::docs::judge::{identity_name, money_name, words};
//!
//! assert_eq!(money_name(&words("refund_amount")), Some(false));
//! assert_eq!(money_name(&words("fee_minor")), Some(true));
//! assert!(identity_name(&words("sudo")));
//! assert!(!identity_name(&words("order_ref")));
//! ```

mod reach;

pub use reach::{
    CODE_LANGUAGES, COMMAND_DESCRIPTION_WORDS, COMMAND_WORDS, DESTINATION_FORMATS,
    DESTINATION_OWNERS, DESTINATION_PARTS, DESTINATION_WORDS, NOT_THE_PROGRAM, RUN_NAMES,
    RUN_OBJECTS, RUN_VERBS, command_description, command_name, command_word, destination_format,
    destination_name, free_form_command_message, untyped_destination_message, waiver_hint,
};

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

/// Words after a money word that name a span or bound of amounts, not
/// another thing (`price_range`, `amount_max`, `cost_limit`): the field
/// still holds money.
pub const AMOUNT_SPAN_SUFFIX: &[&str] = &[
    "range", "ranges", "min", "max", "minimum", "maximum", "low", "high", "limit", "limits",
    "floor", "ceiling", "cap", "bound", "bounds", "band", "bracket", "from", "to",
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
/// `hide_details`) or two lifecycle states (`is_active` / `is_cancelled`),
/// or one is the other with `no`/`not` (`cache` / `no_cache`).
pub fn boolean_pair(a: &[String], b: &[String]) -> bool {
    if a.len() == b.len() {
        let diffs: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        return diffs.len() == 1
            && (are_antonyms(&a[diffs[0]], &b[diffs[0]])
                || (LIFECYCLE.contains(&a[diffs[0]].as_str())
                    && LIFECYCLE.contains(&b[diffs[0]].as_str())));
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

/// Lifecycle states that exclude one another: two booleans named for two of
/// them (`is_active` and `is_cancelled`) are one state in two fields.
pub const LIFECYCLE: &[&str] = &[
    "active",
    "inactive",
    "cancelled",
    "canceled",
    "archived",
    "deleted",
    "suspended",
    "expired",
    "draft",
    "published",
    "pending",
    "completed",
    "terminated",
    "closed",
];

/// Words that make any name an identity wherever they stand: `login`,
/// `sudo_mode`, `impersonate_user`.
pub const IDENTITY_WORDS: &[&str] = &[
    "login",
    "logins",
    "username",
    "sudo",
    "impersonate",
    "impersonation",
    "superuser",
];

/// Words that name an account by its public handle. On a tool that only
/// reads, such a field is what is looked up (`get_member_profile {
/// username }`), not who is acting, and the model may give it; on a tool
/// that changes anything it says whom the change acts as, and is identity.
pub const HANDLE_WORDS: &[&str] = &["username", "usernames", "login", "logins"];

/// [`identity_name`] for a field of a tool whose effect is known: on a
/// `read` tool a name that is an identity only by a handle word
/// ([`HANDLE_WORDS`]: `username`, `member_login`) is a lookup, not an
/// identity; `sudo_login` or `user_id` still are.
///
/// ```
/// use tool_contract::docs::judge::{identity_name_on, words};
///
/// assert!(!identity_name_on(&words("username"), true));
/// assert!(identity_name_on(&words("username"), false));
/// assert!(identity_name_on(&words("sudo_login"), true));
/// assert!(identity_name_on(&words("user_id"), true));
/// ```
pub fn identity_name_on(w: &[String], read: bool) -> bool {
    if read && w.iter().any(|word| HANDLE_WORDS.contains(&word.as_str())) {
        let rest: Vec<String> = w
            .iter()
            .filter(|word| !HANDLE_WORDS.contains(&word.as_str()))
            .cloned()
            .collect();
        return identity_name(&rest);
    }
    identity_name(w)
}

/// The owners of an id that identify who is acting: `user` in `user_id`.
pub const IDENTITY_OWNERS: &[&str] = &[
    "user",
    "tenant",
    "account",
    "customer",
    "org",
    "organization",
    "organisation",
    "workspace",
    "owner",
    "caller",
    "principal",
    "actor",
    "requester",
    "subject",
];

/// Whether a name (as [`words`]) says who is acting or what they may do:
/// `user_id`, `tenant_id`, `role`, `is_admin`, `permissions`, `login`,
/// `sudo`, ...
pub fn identity_name(w: &[String]) -> bool {
    let joined = w.join("_");
    IDENTITY_NAMES.contains(&joined.as_str())
        || matches!(w, [.., owner, id] if id == "id" && IDENTITY_OWNERS.contains(&owner.as_str()))
        || w.last().is_some_and(|l| {
            matches!(
                l.as_str(),
                "role" | "roles" | "permissions" | "scopes" | "privileges"
            )
        })
        || joined.starts_with("is_admin")
        || w.iter().any(|word| IDENTITY_WORDS.contains(&word.as_str()))
}

/// The money word a name (as [`words`]) ends with: `Some(true)` when it
/// says minor units (`refund_minor`, `price_cents`), `Some(false)` for a
/// plain amount (`price`, `refund_amount`, `price_range`), `None` for no
/// money name. Currency codes and span words ([`AMOUNT_SPAN_SUFFIX`]) after
/// the money word are read past.
pub fn money_name(words: &[String]) -> Option<bool> {
    let mut end = words.len();
    let mut minor = false;
    while end > 0 {
        let w = words[end - 1].as_str();
        if MINOR_UNIT.contains(&w) {
            minor = true;
        } else if !(CURRENCY_SUFFIX.contains(&w) || (end > 1 && AMOUNT_SPAN_SUFFIX.contains(&w))) {
            break;
        }
        end -= 1;
    }
    let head = words[..end].last()?;
    MONEY.contains(&head.as_str()).then_some(minor)
}

/// Whether a name (as [`words`]) is the currency companion of a minor-unit
/// amount: `currency`, or `<prefix>_currency` (`fee_currency`), but not a
/// name where `currency` is a word among others (`show_currency` is a flag,
/// `currency_symbol` is text).
///
/// The companion must also hold a currency: the derive asks for a
/// `Currency`-like type or a string enum (not a `bool`), and the schema
/// check for a string or an enum of strings.
pub fn currency_name(words: &[String]) -> bool {
    match words {
        [only] => only == "currency",
        [prefix @ .., last] => {
            last == "currency"
                && !prefix.iter().any(|w| {
                    matches!(
                        w.as_str(),
                        "show" | "hide" | "display" | "is" | "has" | "use" | "with" | "include"
                    )
                })
        }
        [] => false,
    }
}

/// What is wrong with a value named like money.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmountProblem {
    /// A float (`f64`, JSON `number`).
    Float,
    /// Text (`String`, JSON `string`).
    Text,
    /// Integer minor units with no currency beside them.
    MinorWithoutCurrency,
    /// A bare integer: neither the unit nor the currency is stated.
    BareInteger,
}

/// The message of the `untyped_amount` rule: `who` names the field (in
/// backticks), `ty` its type as the reader knows it (`f64`, `number`),
/// `name` its JSON name. The same words at compile time and when a
/// contract's schema is checked.
pub fn untyped_amount_message(who: &str, ty: &str, name: &str, problem: AmountProblem) -> String {
    let problem = match problem {
        AmountProblem::Float => format!(
            "{who} is an amount of money typed `{ty}`: a float cannot hold cents exactly and says nothing of the currency"
        ),
        AmountProblem::Text => format!(
            "{who} is an amount of money typed `{ty}`: the model can write any text (\"$12\", \"12,50\") and the currency is unstated"
        ),
        AmountProblem::MinorWithoutCurrency => format!(
            "{who} counts minor units but the struct has no `currency` field, so the currency is unstated"
        ),
        AmountProblem::BareInteger => format!(
            "{who} is an amount of money typed as a bare `{ty}`: it states neither the unit (cents or whole units?) nor the currency"
        ),
    };
    let mut base = words(name);
    while base
        .last()
        .is_some_and(|l| MINOR_UNIT.contains(&l.as_str()))
    {
        base.pop();
    }
    format!(
        "{problem}; use `Money` (integer minor units + ISO 4217 currency), or an integer `{}_minor` field next to a `currency` field{}",
        base.join("_"),
        waiver_hint("untyped_amount")
    )
}

/// The message of the `model_identity` rule for the field `who`; `nested`
/// when the field is in a nested type, which the model fills whole.
pub fn model_identity_message(who: &str, nested: bool) -> String {
    let fix = if nested {
        "move it out of this type onto the tool's own struct and mark it `#[tool(inject)]` there, to take it from the trusted `Session`"
    } else {
        "mark it `#[tool(inject)]` to take it from the trusted `Session`"
    };
    format!(
        "{who} identifies who is acting or what they may do, so the model must not choose it (a prompt injection could set it); {fix}{}",
        waiver_hint("model_identity")
    )
}

/// The message of the `boolean_pair` rule for the fields `first` and
/// `second`.
pub fn boolean_pair_message(first: &str, second: &str) -> String {
    format!(
        "{first} and {second} are two booleans for one state: they can contradict each other and double the cases; use one enum field with a variant per state{}",
        waiver_hint("boolean_pair")
    )
}
