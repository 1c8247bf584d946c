//! The application's recipient policy: where an open-world write may send
//! data.
//!
//! A tool that is `open_world` and not `read` sends the application's data
//! to a system the application does not control. Its destination fields
//! (`to`, `recipient`, `cc`, `webhook_url`, ... at any depth: see
//! [`FieldContract::destination`](tool_core::contract::FieldContract::destination))
//! are checked against the [`RecipientPolicy`] in the call's [`Session`]
//! after the arguments parse and before the idempotency key is claimed,
//! the approval consumed or the handler run. A refused recipient answers the
//! model with [`RECIPIENT_NOT_ALLOWED`], the JSON path of the value and
//! what this session allows. A session without a policy checks nothing.
//!
//! ```
//! use tool_contract::Session;
//! use tool_contract::recipients::{RecipientAllowList, RecipientPolicy};
//!
//! let policy = RecipientAllowList::new()
//!     .domain("example.com")
//!     .address("+15550100");
//! assert!(policy.allows("ana@example.com"));
//! assert!(policy.allows("https://hooks.eu.example.com/T1"));
//! assert!(!policy.allows("ana@example.com.evil.io"));
//! assert!(!policy.allows("https://example.com@evil.io/"));
//! let session = Session::new().with(RecipientPolicy::new(policy));
//! # let _ = session;
//! ```

use std::fmt;
use std::sync::Arc;

use serde_json::Value;
use tool_core::words::echo;
use tool_core::words::judge::{DESTINATION_PARTS, destination_name, words};
use tool_core::{Effect, ErrorCategory, Recovery, Session, ToolContract, ToolError};

/// The error code of a refused recipient.
pub const RECIPIENT_NOT_ALLOWED: &str = "RECIPIENT_NOT_ALLOWED";

/// The most refused recipients one answer names.
const MAX_NAMED: usize = 5;

/// A rule that decides whether data may go to one recipient.
pub trait RecipientRule: Send + Sync + 'static {
    /// Whether `recipient` (an email address, a URL, a host name or a phone
    /// number, exactly as the model wrote it) may receive the call's data.
    fn allows(&self, recipient: &str) -> bool;

    /// What this rule allows, in words the model can act on: "addresses
    /// and URLs at example.com".
    fn allowed(&self) -> String;
}

/// The recipient policy of a session: put one into the [`Session`] with
/// `Session::with(RecipientPolicy::new(rule))`.
#[derive(Clone)]
pub struct RecipientPolicy {
    rule: Arc<dyn RecipientRule>,
}

impl RecipientPolicy {
    /// A policy that asks `rule`.
    pub fn new(rule: impl RecipientRule) -> Self {
        RecipientPolicy {
            rule: Arc::new(rule),
        }
    }

    /// Whether `recipient` may receive data.
    pub fn allows(&self, recipient: &str) -> bool {
        self.rule.allows(recipient)
    }
}

impl fmt::Debug for RecipientPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecipientPolicy")
            .field("allowed", &self.rule.allowed())
            .finish()
    }
}

/// An allow-list of domains (with their subdomains) and exact addresses.
///
/// An email address is allowed when its domain is; a URL when its host is
/// (a URL with user info, `https://a@b/`, only as an exact address); a host
/// name when it is; anything else (a phone number) only as an exact
/// address. Comparison ignores ASCII case and one trailing dot of a
/// domain. A value that is not plainly one of these (two `@`, a
/// percent-encoded or non-ASCII host) is allowed only as an exact address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecipientAllowList {
    domains: Vec<String>,
    addresses: Vec<String>,
}

impl RecipientAllowList {
    /// Allows nothing yet.
    pub fn new() -> Self {
        RecipientAllowList::default()
    }

    /// Also allows `domain` and its subdomains (`example.com` allows
    /// `eu.example.com`, not `badexample.com`).
    #[must_use]
    pub fn domain(mut self, domain: &str) -> Self {
        self.domains.push(normal_host(domain));
        self
    }

    /// Also allows exactly `address` (an email address, a URL, a phone
    /// number), ignoring ASCII case.
    #[must_use]
    pub fn address(mut self, address: &str) -> Self {
        self.addresses.push(address.to_ascii_lowercase());
        self
    }

    /// Whether `recipient` is allowed.
    pub fn allows(&self, recipient: &str) -> bool {
        if self
            .addresses
            .iter()
            .any(|a| *a == recipient.to_ascii_lowercase())
        {
            return true;
        }
        host_of(recipient).is_some_and(|host| {
            self.domains.iter().any(|d| {
                !d.is_empty()
                    && (host == *d
                        || host
                            .strip_suffix(d.as_str())
                            .is_some_and(|rest| rest.ends_with('.')))
            })
        })
    }
}

impl RecipientRule for RecipientAllowList {
    fn allows(&self, recipient: &str) -> bool {
        RecipientAllowList::allows(self, recipient)
    }

    fn allowed(&self) -> String {
        let mut parts = Vec::new();
        if !self.domains.is_empty() {
            parts.push(format!(
                "addresses and URLs at {} (or a subdomain)",
                self.domains.join(", ")
            ));
        }
        if !self.addresses.is_empty() {
            parts.push(self.addresses.join(", "));
        }
        if parts.is_empty() {
            "no recipient at all".to_owned()
        } else {
            parts.join(", and to ")
        }
    }
}

/// A domain as compared: lowercase, without one trailing dot.
fn normal_host(host: &str) -> String {
    let lower = host.to_ascii_lowercase();
    lower.strip_suffix('.').unwrap_or(&lower).to_owned()
}

/// Whether `host` is plainly a DNS name or an IPv4 address.
fn plain_host(host: &str) -> bool {
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && !host.starts_with('.')
        && !host.contains("..")
}

/// The host a recipient sends to, when it is plainly one: the domain of
/// an email address, the host of a URL, or a host name.
fn host_of(recipient: &str) -> Option<String> {
    let host = if let Some((scheme, rest)) = recipient.split_once("://") {
        if scheme.is_empty()
            || !scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        {
            return None;
        }
        let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
        let authority = &rest[..end];
        if authority.contains('@') {
            return None;
        }
        // A port is digits after the last `:`; brackets (IPv6) are refused.
        match authority.rsplit_once(':') {
            Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
            Some(_) => return None,
            None => authority,
        }
    } else if let Some((local, domain)) = recipient.split_once('@') {
        let local_ok = !local.is_empty()
            && local
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b));
        if !local_ok || domain.contains('@') {
            return None;
        }
        domain
    } else {
        recipient
    };
    let host = normal_host(host);
    plain_host(&host).then_some(host)
}

/// The refusal for the first recipients of `arguments` (the canonical JSON
/// of a parsed call) that the session's policy does not allow, if any.
pub(crate) fn check(
    contract: &ToolContract,
    arguments: Option<&str>,
    session: &Session,
) -> Option<ToolError> {
    if !contract.open_world() || contract.effect() == Effect::Read {
        return None;
    }
    let policy = session.get::<RecipientPolicy>()?;
    // Fail closed: arguments that parsed but cannot be read back here send
    // nothing.
    let fields = match arguments.map(serde_json::from_str::<Value>) {
        Some(Ok(Value::Object(fields))) => fields,
        _ => {
            let message = "The recipients of this call could not be read, so nothing was sent. Ask the user for the recipients again.";
            return Some(
                ToolError::new(RECIPIENT_NOT_ALLOWED, ErrorCategory::Permission, message)
                    .with_recovery(Recovery::AskUser),
            );
        }
    };
    let mut found = Vec::new();
    for (key, value) in &fields {
        let destination = contract
            .field(key)
            .map_or_else(|| destination_name(&words(key)), |f| f.destination());
        collect(
            value,
            &format!("${}", segment(key)),
            destination,
            &mut found,
        );
    }
    let refused: Vec<(String, String)> = found
        .into_iter()
        .filter(|(_, recipient)| !policy.allows(recipient))
        .collect();
    let (first, rest) = refused.split_first()?;
    let mut named: Vec<String> = std::iter::once(first)
        .chain(rest)
        .take(MAX_NAMED)
        .map(|(path, recipient)| format!("{} at `{path}`", echo(recipient)))
        .collect();
    if refused.len() > MAX_NAMED {
        named.push(format!("and {} more", refused.len() - MAX_NAMED));
    }
    let (what, verb, them) = if refused.len() == 1 {
        ("recipient", "is", "this one")
    } else {
        ("recipients", "are", "these")
    };
    let message = format!(
        "The {what} {} {verb} not allowed for this session; it may send only to {}. Ask the user for an allowed recipient, or leave {them} out.",
        named.join(", "),
        policy.rule.allowed()
    );
    Some(
        ToolError::new(RECIPIENT_NOT_ALLOWED, ErrorCategory::Permission, message)
            .with_recovery(Recovery::AskUser),
    )
}

/// One step of a JSON path: `.name` for a plain key, else the key quoted
/// and cut (`["a b"]`), so no key can write into the message.
fn segment(key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain {
        format!(".{key}")
    } else {
        format!("[{}]", echo(key))
    }
}

/// Every string that is a destination in `value`, with its JSON path: the
/// strings of a destination (through lists), and inside an object, those
/// under a destination name (`to`, `email`, ...) or, in an object that is
/// itself a destination (`recipient: {address, name}`), under an address
/// word (`address`, `url`, `number`, ...).
/// A number is read as its text: a phone number typed as an integer is a
/// destination too.
fn collect(value: &Value, path: &str, destination: bool, out: &mut Vec<(String, String)>) {
    match value {
        Value::String(text) if destination => out.push((path.to_owned(), text.clone())),
        Value::Number(number) if destination => out.push((path.to_owned(), number.to_string())),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                collect(item, &format!("{path}[{index}]"), destination, out);
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                let w = words(key);
                let inner = destination_name(&w)
                    || (destination
                        && w.last()
                            .is_some_and(|l| DESTINATION_PARTS.contains(&l.as_str())));
                collect(member, &format!("{path}{}", segment(key)), inner, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_plainly_or_not_at_all() {
        assert_eq!(host_of("Ana@Example.COM."), Some("example.com".into()));
        assert_eq!(
            host_of("https://hooks.example.com:8443/x?y#z"),
            Some("hooks.example.com".into())
        );
        assert_eq!(
            host_of("https://evil.io\\@example.com"),
            Some("evil.io".into())
        );
        assert_eq!(host_of("https://example.com@evil.io/"), None);
        assert_eq!(host_of("a@b@example.com"), None);
        assert_eq!(host_of("\"a@evil.io\"@example.com"), None);
        assert_eq!(host_of("https://%65xample.com/"), None);
        assert_eq!(host_of("https://[::1]/"), None);
        assert_eq!(host_of("+1 555 0100"), None);
        assert_eq!(host_of("example.com"), Some("example.com".into()));
    }

    #[test]
    fn destinations_are_found_by_name_at_every_depth() {
        let value: Value = serde_json::json!({
            "recipient_count": 3,
            "cc": ["a@x.io", 15550100],
            "recipient": {"address": "b@x.io", "name": "c@x.io"},
            "note": {"email": "d@x.io", "body": "e@x.io"},
            "a b": {"to": "f@x.io"}
        });
        let mut found = Vec::new();
        collect(&value, "$", false, &mut found);
        let found: Vec<(&str, &str)> = found
            .iter()
            .map(|(p, v)| (p.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("$.cc[0]", "a@x.io"),
                ("$.cc[1]", "15550100"),
                ("$.recipient.address", "b@x.io"),
                ("$.note.email", "d@x.io"),
                ("$[\"a b\"].to", "f@x.io"),
            ]
        );
    }

    #[test]
    fn domains_match_whole_labels() {
        let list = RecipientAllowList::new().domain("Example.com.");
        assert!(list.allows("ana@example.com"));
        assert!(list.allows("ana@eu.example.com"));
        assert!(!list.allows("ana@badexample.com"));
        assert!(!list.allows("ana@example.com.evil.io"));
        assert!(!list.allows("ana@"));
        assert!(
            !RecipientAllowList::new()
                .domain("")
                .allows("ana@example.com")
        );
    }
}
