//! The application's recipient policy: where an open-world write may send
//! data.
//!
//! A tool that is not `read` and has a destination sends the application's
//! data somewhere: whether or not it says `open_world` (a `send_receipt`
//! with a `to` field mails out either way), its destinations are checked
//! against the [`RecipientPolicy`] in the call's [`Session`] after the
//! arguments parse and before the idempotency key is claimed, the approval
//! consumed or the handler run. A `read` tool sends nothing and is not
//! checked.
//!
//! A destination is found at every depth from the tool's input schema,
//! walked beside the parsed arguments:
//! - a string (or a list's string item) whose schema carries a destination
//!   format (`email`, `uri`, `hostname`, `ipv4`, `ipv6`, `idn-email`,
//!   `iri`, ...) whatever it is called, so a nested field renamed by serde
//!   is found by its schema;
//! - a value under a destination name (`to`, `recipient`, `cc`, `mail_to`,
//!   `webhook_url`, ...: see
//!   [`FieldContract::destination`](tool_core::contract::FieldContract::destination));
//! - inside an object (or a list of objects) under a destination name
//!   (`recipients: [{mail, name}]`), every string that could be an address
//!   (it has an `@`, a `:`, a `/`, a dotted host or a phone number's
//!   digits): a display name ("Eve") is no address and passes, an address
//!   under any key is checked.
//!
//! A refused recipient answers the model with [`RECIPIENT_NOT_ALLOWED`], the JSON path of the value and
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

use serde_json::Map;
use serde_json::Value;
use tool_core::words::echo;
use tool_core::words::judge::{DESTINATION_PARTS, destination_format, destination_name, words};
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
    if contract.effect() == Effect::Read {
        return None;
    }
    let policy = session.get::<RecipientPolicy>()?;
    let root = contract.input_schema();
    let empty = Map::new();
    let schemas = Schemas {
        defs: root
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or(&empty),
    };
    // A closed-world write without any destination sends nothing out.
    if !contract.open_world()
        && !contract.model_fields().any(|f| f.destination())
        && !schemas.mentions_destination(root, 0)
    {
        return None;
    }
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
        let member = root.get("properties").and_then(|p| p.get(key));
        schemas.collect(
            member,
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

/// How deep a schema is followed (`$ref` chains, recursive types).
const MAX_DEPTH: usize = 32;

/// The definitions of a tool's input schema, to follow `$ref`s.
struct Schemas<'a> {
    defs: &'a Map<String, Value>,
}

impl<'a> Schemas<'a> {
    /// The concrete schemas `schema` stands for: itself, the definition it
    /// refers to, and the branches of `anyOf`/`oneOf`/`allOf` (an
    /// `Option<T>` is `T` or null), each followed.
    fn resolve(&self, schema: &'a Value, depth: usize, out: &mut Vec<&'a Value>) {
        if depth > MAX_DEPTH || !schema.is_object() {
            return;
        }
        out.push(schema);
        if let Some(def) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.rsplit('/').next())
            .and_then(|name| self.defs.get(name))
        {
            self.resolve(def, depth + 1, out);
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for branch in schema
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.resolve(branch, depth + 1, out);
            }
        }
    }

    fn resolved(&self, schema: Option<&'a Value>) -> Vec<&'a Value> {
        let mut out = Vec::new();
        if let Some(schema) = schema {
            self.resolve(schema, 0, &mut out);
        }
        out
    }

    /// Whether a schema holds a destination anywhere: a destination format,
    /// or a property under a destination name.
    fn mentions_destination(&self, schema: &'a Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match schema {
            Value::Object(members) => members.iter().any(|(key, member)| {
                (key == "format" && member.as_str().is_some_and(destination_format))
                    || (key == "properties"
                        && member.as_object().is_some_and(|properties| {
                            properties.keys().any(|name| destination_name(&words(name)))
                        }))
                    || self.mentions_destination(member, depth + 1)
            }),
            Value::Array(items) => items
                .iter()
                .any(|item| self.mentions_destination(item, depth + 1)),
            _ => false,
        }
    }

    /// Every string in `value` (whose schema is `schema`, if known) that is
    /// a destination, with its JSON path: see the module docs. `destination`
    /// says whether `value` is under a destination name. A number is read
    /// as its text: a phone number typed as an integer is a destination too.
    fn collect(
        &self,
        schema: Option<&'a Value>,
        value: &Value,
        path: &str,
        destination: bool,
        out: &mut Vec<(String, String)>,
    ) {
        self.collect_at(schema, value, path, destination, false, out, 0);
    }

    /// As [`Schemas::collect`]; `inside` says whether `value` is inside an
    /// object under a destination name, where any address-like string is
    /// checked.
    #[allow(clippy::too_many_arguments)]
    fn collect_at(
        &self,
        schema: Option<&'a Value>,
        value: &Value,
        path: &str,
        destination: bool,
        inside: bool,
        out: &mut Vec<(String, String)>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let schemas = self.resolved(schema);
        let formatted = schemas.iter().any(|s| {
            s.get("format")
                .and_then(Value::as_str)
                .is_some_and(destination_format)
        });
        match value {
            Value::String(text) if destination || formatted || (inside && address_like(text)) => {
                out.push((path.to_owned(), text.clone()));
            }
            Value::Number(number) if destination || formatted => {
                out.push((path.to_owned(), number.to_string()));
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let item_schema = schemas.iter().find_map(|s| {
                        s.get("prefixItems")
                            .and_then(|p| p.get(index))
                            .or_else(|| s.get("items").filter(|i| i.is_object()))
                    });
                    self.collect_at(
                        item_schema,
                        item,
                        &format!("{path}[{index}]"),
                        destination,
                        inside,
                        out,
                        depth + 1,
                    );
                }
            }
            Value::Object(members) => {
                // Every string of an object under a destination name that
                // could be an address: `recipients: [{"mail": ...}]`.
                let inside = inside || destination;
                for (key, member) in members {
                    let w = words(key);
                    // An address part of a recipient object is one whatever
                    // its type: `{"number": 15550100}`.
                    let named = destination_name(&w)
                        || (inside
                            && w.last()
                                .is_some_and(|l| DESTINATION_PARTS.contains(&l.as_str())));
                    let member_schema = schemas.iter().find_map(|s| {
                        s.get("properties")
                            .and_then(|p| p.get(key))
                            .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
                    });
                    self.collect_at(
                        member_schema,
                        member,
                        &format!("{path}{}", segment(key)),
                        named,
                        inside,
                        out,
                        depth + 1,
                    );
                }
            }
            _ => {}
        }
    }
}

/// Whether a string inside a recipient object could be an address the
/// handler sends to: it has an `@` (email), a `:` or a `/` (a URL, a
/// `mailto:`), is a dotted host name without spaces, or is a phone
/// number's digits. A display name ("Eve Li") is none of these.
fn address_like(text: &str) -> bool {
    let text = text.trim();
    let digits = text.bytes().filter(u8::is_ascii_digit).count();
    text.contains(['@', ':', '/', '\\'])
        || (text.contains('.') && !text.contains(char::is_whitespace))
        || (digits >= 5
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || b" +-().".contains(&b)))
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
            "recipient": {"address": "b@x.io", "name": "c@x.io", "greeting": "Li"},
            "note": {"email": "d@x.io", "body": "e@x.io"},
            "a b": {"to": "f@x.io"}
        });
        let mut found = Vec::new();
        let defs = Map::new();
        Schemas { defs: &defs }.collect(None, &value, "$", false, &mut found);
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
                // Inside a recipient object any address is checked,
                // whatever its key.
                ("$.recipient.name", "c@x.io"),
                ("$.note.email", "d@x.io"),
                ("$[\"a b\"].to", "f@x.io"),
            ]
        );
    }

    #[test]
    fn a_destination_format_is_found_through_refs_options_and_lists() {
        let root = serde_json::json!({
            "type": "object",
            "properties": {
                "guests": {"type": "array", "items": {"$ref": "#/$defs/Guest"}},
                "backup": {"anyOf": [{"type": "string", "format": "idn-email"}, {"type": "null"}]},
                "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string", "format": "hostname"}]}
            },
            "$defs": {
                "Guest": {
                    "type": "object",
                    "properties": {"mail": {"type": "string", "format": "email"}, "name": {"type": "string"}}
                }
            }
        });
        let value = serde_json::json!({
            "guests": [{"mail": "a@x.io", "name": "b@x.io"}],
            "backup": "c@x.io",
            "pair": ["d.x.io", "e.x.io"]
        });
        let schemas = Schemas {
            defs: root["$defs"].as_object().unwrap(),
        };
        let mut found = Vec::new();
        for (key, member) in value.as_object().unwrap() {
            schemas.collect(
                root["properties"].get(key),
                member,
                &format!("$.{key}"),
                false,
                &mut found,
            );
        }
        let found: Vec<(&str, &str)> = found
            .iter()
            .map(|(p, v)| (p.as_str(), v.as_str()))
            .collect();
        // `guests` is no destination name: only the formatted `mail` is
        // read, not an address-like `name`.
        assert_eq!(
            found,
            [
                ("$.guests[0].mail", "a@x.io"),
                ("$.backup", "c@x.io"),
                ("$.pair[1]", "e.x.io"),
            ]
        );
    }

    #[test]
    fn inside_a_recipient_object_only_what_could_be_an_address_is_read() {
        for address in [
            "eve@evil.io",
            "mailto:eve",
            "https://evil.io",
            "evil.io",
            "+1 (555) 0100",
        ] {
            assert!(address_like(address), "{address}");
        }
        for label in ["Eve", "Eve Li", "Dr. Eve Li", "Q3 numbers", "1234"] {
            assert!(!address_like(label), "{label}");
        }
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
