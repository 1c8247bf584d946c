//! The canonical form of a call's arguments and its SHA-256, which approvals,
//! idempotency records and the audit record are bound to.
//!
//! The canonical text is written by a small tokenizer straight from the
//! argument text the parser has just accepted, never through
//! `serde_json::Value`: a `Value` keeps integers beyond 64 bits only as
//! floats, so `18446744073709551616` and `18446744073709551617` would share
//! a hash. Numbers keep the digits the model wrote.

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;
use std::ops::Range;

use crate::words::humanize::needs_escape;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// The deepest nesting canonicalized, as deep as the parser reads.
const MAX_DEPTH: usize = 128;

/// The canonical arguments of one call of one tool: what an approval shows
/// the user and what the argument hash is taken over.
///
/// Two argument texts the tool's parser reads as the same call give the
/// same canonical text, and two that it reads differently never do:
/// - whitespace is dropped and object keys are sorted (by UTF-16 code
///   units, as in RFC 8785), at every depth; of a key given twice inside a
///   map the last value counts, as the parser keeps it;
/// - a member whose value is `null` is dropped where the input schema says
///   the property is optional (not `required`), at every depth, because the
///   parser reads `null` and an absent key alike there; elsewhere (a map's
///   values, an untyped JSON value, a nested property whose `default` is
///   not `null`, which serde reads as that default when absent but as
///   `None` when `null`) `null` is kept;
/// - strings are written by their value, so `"\u0041"` and `"A"` agree,
///   escaping `"`, `\`, control characters and what could hide in or
///   reorder the text the user approves (the line and paragraph separators,
///   bidirectional controls, invisible format characters, as `\u202e`); a string
///   with a lone surrogate escape (`"\ud800"`, which serde skips unread in
///   an unknown member of a nested struct) has no value and is kept as
///   written;
/// - numbers keep the exact text the model wrote: every integer, however
///   large, stays exact (`1` and `1.0`, or `1e2` and `100`, differ: the
///   stricter side for a float field, never a collision).
///
/// It serializes as the JSON it holds (not as a string).
///
/// ```
/// use tool_contract::audit::CanonicalArguments;
/// use tool_contract::Tool;
///
/// /// Reserve units of an item.
/// ///
/// /// Use it when the customer confirms.
/// #[derive(Tool)]
/// #[tool(effect = "write", idempotent = false)]
/// struct ReservePoints {
///     /// How many points, exactly.
///     points: u128,
///     /// A note for the warehouse; null for none.
///     note: Option<String>,
/// }
///
/// let schema = ReservePoints::input_schema();
/// let a = CanonicalArguments::of(schema, r#"{ "points": 18446744073709551617, "note": null }"#).unwrap();
/// assert_eq!(a.as_str(), r#"{"points":18446744073709551617}"#);
/// let b = CanonicalArguments::of(schema, r#"{"points": 18446744073709551616}"#).unwrap();
/// assert_ne!(a.sha256(), b.sha256());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CanonicalArguments {
    text: String,
}

impl CanonicalArguments {
    /// The canonical form of `arguments` for a call of a tool whose input
    /// schema is `input_schema` (`T::input_schema()`), or `None` when the
    /// text is not one JSON document (or nests deeper than 128 levels). An
    /// empty text is `{}`, as the parser reads it.
    pub fn of(input_schema: &Value, arguments: &str) -> Option<Self> {
        canonicalize(arguments, Some(input_schema))
    }

    /// The canonical JSON text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Its SHA-256, 64 lowercase hex digits.
    pub fn sha256(&self) -> String {
        sha256_hex(self.text.as_bytes())
    }

    /// The canonical JSON text, owned.
    pub fn into_string(self) -> String {
        self.text
    }

    /// The exact JSON text of the top-level member `key`, if the arguments
    /// are an object that has it (e.g. to word an approval for the user).
    ///
    /// ```
    /// use tool_contract::audit::CanonicalArguments;
    ///
    /// let schema = serde_json::json!({"type": "object"});
    /// let arguments = CanonicalArguments::of(&schema, r#"{"sku": "SKU-1", "points": 18446744073709551617}"#).unwrap();
    /// assert_eq!(arguments.member("points"), Some("18446744073709551617"));
    /// assert_eq!(arguments.member("sku"), Some(r#""SKU-1""#));
    /// assert_eq!(arguments.member("hold"), None);
    /// ```
    pub fn member(&self, key: &str) -> Option<&str> {
        let members: std::collections::BTreeMap<String, &RawValue> =
            serde_json::from_str(&self.text).ok()?;
        members.get(key).map(|raw| raw.get())
    }
}

impl fmt::Debug for CanonicalArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Display for CanonicalArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for CanonicalArguments {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = RawValue::from_string(self.text.clone()).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for CanonicalArguments {
    /// Reads any JSON value and keeps it in canonical form (with no schema:
    /// only top-level `null` members are dropped).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        canonicalize(raw.get(), None)
            .ok_or_else(|| serde::de::Error::custom("arguments nested too deeply"))
    }
}

/// The canonical JSON text of a call's arguments without a contract, or
/// `None` when the text is not one JSON document.
///
/// As [`CanonicalArguments::of`], except that with no input schema to say
/// which properties are optional, only top-level `null` members are
/// dropped (the parser reads `null` and absent alike for every optional
/// top-level field).
///
/// ```
/// use tool_contract::audit::canonical_arguments;
///
/// assert_eq!(
///     canonical_arguments(r#"{ "sku": "SKU-1", "warehouse": null, "a": [2, {"y": 1, "x": 0}] }"#).as_deref(),
///     Some(r#"{"a":[2,{"x":0,"y":1}],"sku":"SKU-1"}"#)
/// );
/// assert_eq!(canonical_arguments(r#"{"n": 340282366920938463463374607431768211455}"#).as_deref(),
///     Some(r#"{"n":340282366920938463463374607431768211455}"#));
/// assert_eq!(canonical_arguments("").as_deref(), Some("{}"));
/// assert_eq!(canonical_arguments("{"), None);
/// ```
pub fn canonical_arguments(arguments: &str) -> Option<String> {
    canonicalize(arguments, None).map(CanonicalArguments::into_string)
}

/// SHA-256 of the canonical arguments ([`canonical_arguments`]) as 64
/// lowercase hex digits; of the raw text when it is not one JSON document.
///
/// ```
/// use tool_contract::audit::arguments_sha256;
///
/// let spaced = arguments_sha256(r#"{ "b": 1, "a": null }"#);
/// assert_eq!(spaced, arguments_sha256(r#"{"b":1}"#));
/// assert_eq!(spaced.len(), 64);
/// assert_ne!(spaced, arguments_sha256(r#"{"b":2}"#));
/// ```
pub fn arguments_sha256(arguments: &str) -> String {
    match canonical_arguments(arguments) {
        Some(canonical) => sha256_hex(canonical.as_bytes()),
        None => sha256_hex(arguments.as_bytes()),
    }
}

fn canonicalize(arguments: &str, schema: Option<&Value>) -> Option<CanonicalArguments> {
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    let mut reader = Reader {
        text: text.as_bytes(),
        source: text,
        pos: 0,
        root: schema,
    };
    let mut out = String::with_capacity(text.len());
    reader.value(&mut out, Place::Top(schema), 0)?;
    reader.skip_whitespace();
    (reader.pos == reader.text.len()).then_some(CanonicalArguments { text: out })
}

/// Where a value sits, for what its schema says about `null` members.
#[derive(Clone, Copy)]
enum Place<'s> {
    /// The arguments object; with no schema, every `null` member is dropped.
    Top(Option<&'s Value>),
    /// A value inside, with its schema if one is known.
    Inner(Option<&'s Value>),
}

struct Reader<'a, 's> {
    text: &'a [u8],
    source: &'a str,
    pos: usize,
    root: Option<&'s Value>,
}

impl<'a, 's> Reader<'a, 's> {
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.text.get(self.pos) {
            self.pos += 1;
        }
    }

    fn value(&mut self, out: &mut String, place: Place<'s>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_whitespace();
        match *self.text.get(self.pos)? {
            b'{' => self.object(out, place, depth),
            b'[' => self.array(out, place, depth),
            b'"' => {
                let (text, raw) = self.string()?;
                write_token(out, &text, raw);
                Some(())
            }
            b't' => self.literal(out, "true"),
            b'f' => self.literal(out, "false"),
            b'n' => self.literal(out, "null"),
            _ => self.number(out),
        }
    }

    fn literal(&mut self, out: &mut String, word: &str) -> Option<()> {
        let end = self.pos + word.len();
        (self.text.get(self.pos..end)? == word.as_bytes()).then_some(())?;
        self.pos = end;
        out.push_str(word);
        Some(())
    }

    /// A number as written, after checking it is one JSON allows.
    fn number(&mut self, out: &mut String) -> Option<()> {
        let start = self.pos;
        let digits = |reader: &mut Self| {
            let from = reader.pos;
            while reader.text.get(reader.pos).is_some_and(u8::is_ascii_digit) {
                reader.pos += 1;
            }
            reader.pos > from
        };
        if self.text.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        match self.text.get(self.pos)? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        if self.text.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            digits(self).then_some(())?;
        }
        if let Some(b'e' | b'E') = self.text.get(self.pos) {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.text.get(self.pos) {
                self.pos += 1;
            }
            digits(self).then_some(())?;
        }
        out.push_str(&self.source[start..self.pos]);
        Some(())
    }

    /// A string's value, and whether it is kept as written; the reader is
    /// at its opening quote.
    ///
    /// A string with a lone UTF-16 surrogate escape (`"\ud800"`) has no
    /// `str` value; serde accepts it where it skips a value without reading
    /// it (an unknown member of a nested struct), so it is kept as written,
    /// quotes included, rather than failing the whole canonical form.
    fn string(&mut self) -> Option<(Cow<'a, str>, bool)> {
        let start = self.pos;
        self.pos += 1;
        let mut escaped = false;
        loop {
            match *self.text.get(self.pos)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.pos += 2;
                }
                0x00..=0x1f => return None,
                _ => self.pos += 1,
            }
        }
        self.pos += 1;
        let quoted = self.source.get(start..self.pos)?;
        if !escaped {
            return Some((Cow::Borrowed(&quoted[1..quoted.len() - 1]), false));
        }
        match serde_json::from_str::<String>(quoted) {
            Ok(text) => Some((Cow::Owned(text), false)),
            // Only a lone surrogate makes escapes that are JSON fail to decode.
            Err(_) => valid_escapes(quoted).then_some((Cow::Borrowed(quoted), true)),
        }
    }

    fn array(&mut self, out: &mut String, place: Place<'s>, depth: usize) -> Option<()> {
        let schema = match place {
            Place::Top(schema) | Place::Inner(schema) => schema,
        };
        // The items' schema matters only to objects among them (for their
        // optional members), so it is looked up when one comes.
        let mut items: Option<Option<&'s Value>> = None;
        self.pos += 1;
        out.push('[');
        self.skip_whitespace();
        if self.text.get(self.pos) == Some(&b']') {
            self.pos += 1;
            out.push(']');
            return Some(());
        }
        loop {
            self.skip_whitespace();
            let inner = if matches!(self.text.get(self.pos), Some(b'{' | b'[')) {
                *items.get_or_insert_with(|| {
                    schema.and_then(|s| self.find(s, |node| node.get("items")))
                })
            } else {
                None
            };
            self.value(out, Place::Inner(inner), depth + 1)?;
            self.skip_whitespace();
            match *self.text.get(self.pos)? {
                b',' => {
                    self.pos += 1;
                    out.push(',');
                }
                b']' => {
                    self.pos += 1;
                    out.push(']');
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The object schema (with `properties` or `additionalProperties`)
    /// that `schema` stands for.
    fn shape(&self, schema: Option<&'s Value>) -> Option<&'s Value> {
        schema.and_then(|s| {
            self.find(s, |node| {
                (node.get("properties").is_some() || node.get("additionalProperties").is_some())
                    .then_some(node)
            })
        })
    }

    /// Writes the members straight into `out`; only when the model did not
    /// write the keys in sorted order (or repeated one) are they copied
    /// again in order. The schema is consulted only for a member that is
    /// `null` (is the property optional?) or an object or array (for its
    /// own members), so scalars cost no lookup.
    fn object(&mut self, out: &mut String, place: Place<'s>, depth: usize) -> Option<()> {
        let (schema, top) = match place {
            Place::Top(schema) => (schema, true),
            Place::Inner(schema) => (schema, false),
        };
        let mut shape: Option<Option<&'s Value>> = None;
        self.pos += 1;
        out.push('{');
        let start = out.len();
        let mut members: Vec<(Cow<'a, str>, Range<usize>)> = Vec::new();
        let mut sorted = true;
        self.skip_whitespace();
        if self.text.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            out.push('}');
            return Some(());
        }
        loop {
            self.skip_whitespace();
            if self.text.get(self.pos) != Some(&b'"') {
                return None;
            }
            let (key, raw) = self.string()?;
            self.skip_whitespace();
            (self.text.get(self.pos) == Some(&b':')).then_some(())?;
            self.pos += 1;
            self.skip_whitespace();
            let first = *self.text.get(self.pos)?;
            let before = out.len();
            if !members.is_empty() {
                out.push(',');
            }
            let member = out.len();
            write_token(out, &key, raw);
            out.push(':');
            let inner = if matches!(first, b'{' | b'[') {
                shape
                    .get_or_insert_with(|| self.shape(schema))
                    .and_then(|s| self.property(s, &key))
            } else {
                None
            };
            self.value(out, Place::Inner(inner), depth + 1)?;
            let dropped = first == b'n' && {
                match (*shape.get_or_insert_with(|| self.shape(schema)), schema) {
                    (Some(_), Some(schema)) => self.null_is_absent(schema, &key, top),
                    _ => top,
                }
            };
            if dropped {
                out.truncate(before);
            } else {
                if members
                    .last()
                    .is_some_and(|(last, _)| key_order(last, &key).is_ge())
                {
                    sorted = false;
                }
                members.push((key, member..out.len()));
            }
            self.skip_whitespace();
            match *self.text.get(self.pos)? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
        if !sorted {
            let written = out[start..].to_owned();
            out.truncate(start);
            // Stable: of equal keys the last one given stays last.
            members.sort_by(|(a, _), (b, _)| key_order(a, b));
            let mut first = true;
            for (i, (key, range)) in members.iter().enumerate() {
                if members.get(i + 1).is_some_and(|(next, _)| next == key) {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str(&written[range.start - start..range.end - start]);
            }
        }
        out.push('}');
        Some(())
    }

    /// Follows `$ref`s (to JSON pointers in the root schema) and the
    /// branches of `anyOf`/`oneOf`/`allOf` until `pick` finds something.
    fn find(
        &self,
        schema: &'s Value,
        pick: impl Fn(&'s Value) -> Option<&'s Value> + Copy,
    ) -> Option<&'s Value> {
        self.find_in(schema, pick, 0)
    }

    fn find_in(
        &self,
        schema: &'s Value,
        pick: impl Fn(&'s Value) -> Option<&'s Value> + Copy,
        hops: usize,
    ) -> Option<&'s Value> {
        if hops > 32 {
            return None;
        }
        let map = schema.as_object()?;
        if let Some(found) = pick(schema) {
            return Some(found);
        }
        let target = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| self.root?.pointer(pointer));
        if let Some(found) = target.and_then(|target| self.find_in(target, pick, hops + 1)) {
            return Some(found);
        }
        ["anyOf", "oneOf", "allOf"]
            .iter()
            .filter_map(|k| map.get(*k).and_then(Value::as_array))
            .flatten()
            .find_map(|branch| self.find_in(branch, pick, hops + 1))
    }

    /// The schema of `key`'s value in an object schema: its property, else
    /// `additionalProperties` when that is a schema.
    fn property(&self, shape: &'s Value, key: &str) -> Option<&'s Value> {
        let map = shape.as_object()?;
        map.get("properties")
            .and_then(|p| p.get(key))
            .or_else(|| map.get("additionalProperties").filter(|a| a.is_object()))
    }

    /// Whether the parser reads a `null` member `key` as its absence in an
    /// object of `schema`: every object schema it stands for (each branch
    /// of a union: a variant of an enum) that declares `key` says so
    /// ([`is_optional`](Self::is_optional)), and at least one declares it.
    /// Unions are walked breadth-first up to a fixed number of schemas, so
    /// a recursive schema costs a bounded time; past it, `null` is kept.
    fn null_is_absent(&self, schema: &'s Value, key: &str, top: bool) -> bool {
        const MAX_SCHEMAS: usize = 256;
        let mut queue = std::collections::VecDeque::from([schema]);
        let mut seen = 0;
        let mut declared = false;
        while let Some(node) = queue.pop_front() {
            seen += 1;
            if seen > MAX_SCHEMAS {
                return false;
            }
            let Some(map) = node.as_object() else {
                continue;
            };
            if map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key(key))
            {
                if !self.is_optional(node, key, top) {
                    return false;
                }
                declared = true;
            }
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| self.root?.pointer(pointer));
            queue.extend(target);
            for union in ["anyOf", "oneOf", "allOf"] {
                if let Some(branches) = map.get(union).and_then(Value::as_array) {
                    queue.extend(branches.iter());
                }
            }
        }
        declared
    }

    /// Whether `key` is a declared property that is not `required`, and
    /// whose `null` the parser reads as its absence.
    ///
    /// Below the top level, a property with a `default` other than `null`
    /// (serde's `#[serde(default = "...")]` on an `Option`) reads an absent
    /// key as that default but `null` as `None`, so its `null` is kept. At
    /// the top level the derive's parser reads `null` as the default too.
    fn is_optional(&self, shape: &'s Value, key: &str, top: bool) -> bool {
        let Some(map) = shape.as_object() else {
            return false;
        };
        let property = map
            .get("properties")
            .and_then(Value::as_object)
            .and_then(|p| p.get(key));
        let declared = property.is_some_and(|property| {
            top || property
                .get("default")
                .is_none_or(|default| default.is_null())
        });
        let required = map
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|name| name.as_str() == Some(key)));
        declared && !required
    }
}

/// Writes a string: its value escaped as JSON, or as written when `raw`.
fn write_token(out: &mut String, text: &str, raw: bool) {
    if raw {
        out.push_str(text);
    } else {
        write_string(out, text);
    }
}

/// Whether every escape of a quoted JSON string is one JSON allows
/// (`\uXXXX` with four hex digits, or one of `"\/bfnrt`).
fn valid_escapes(quoted: &str) -> bool {
    let bytes = quoted.as_bytes();
    let mut i = 1;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' {
            match bytes[i + 1] {
                b'u' => {
                    let hex = bytes.get(i + 2..i + 6);
                    if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                        return false;
                    }
                    i += 6;
                }
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                _ => return false,
            }
        } else {
            i += 1;
        }
    }
    true
}

/// Writes a string as JSON: `"` and `\\` escaped, C0 controls as
/// `serde_json` writes them, and the other characters that could hide in or
/// reorder the text a user approves (DEL, C1 controls including NEL, the
/// line and paragraph separators, bidirectional controls, invisible format
/// characters: those [`echo`](crate::words::echo) escapes) as `\\uXXXX`.
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    if text
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.push_str(text);
    } else {
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if needs_escape(c) => {
                    // Every such character is in the Basic Multilingual Plane.
                    let _ = write!(out, "\\u{:04x}", u32::from(c));
                }
                c => out.push(c),
            }
        }
    }
    out.push('"');
}

/// SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digest = hmac_sha256::Hash::hash(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push(char::from(DIGITS[usize::from(byte >> 4)]));
        hex.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    hex
}

/// JSON text in canonical form: no whitespace, object keys sorted by their
/// UTF-16 code units at every depth (as in RFC 8785), arrays in their order,
/// strings and numbers as `serde_json` writes them. Argument hashes and
/// contract fingerprints are both taken over this form.
///
/// ```
/// use serde_json::json;
///
/// let a = json!({"b": 1, "a": {"d": [2, 1], "c": null}});
/// assert_eq!(tool_contract::audit::canonical_json(&a), r#"{"a":{"c":null,"d":[2,1]},"b":1}"#);
/// ```
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// The order of object keys in canonical JSON: by UTF-16 code units.
pub fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Writes `value` without whitespace and with sorted keys. The depth is
/// bounded by serde_json's recursion limit when the value was parsed.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|(a, _), (b, _)| key_order(a, b));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                // A string, a number, a bool or null always serializes.
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push(':');
                write_canonical(item, out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_known_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn canonical_form_sorts_keys_by_utf16_and_keeps_nested_nulls() {
        // U+1F600 (surrogates D83D DE00) sorts before U+FF61 in UTF-16 code
        // units, though after it in UTF-8 bytes.
        let text =
            "{\"\u{1F600}\": 1, \"\u{FF61}\": 2, \"n\": {\"z\": null}, \"s\": \"a\\u0001\\\"\"}";
        assert_eq!(
            canonical_arguments(text).unwrap(),
            "{\"n\":{\"z\":null},\"s\":\"a\\u0001\\\"\",\"\u{1F600}\":1,\"\u{FF61}\":2}"
        );
        assert_eq!(canonical_arguments("  \n").unwrap(), "{}");
        assert_eq!(canonical_arguments("[1, 2.0, -0]").unwrap(), "[1,2.0,-0]");
    }

    #[test]
    fn integers_stay_exact_and_strings_are_decoded() {
        let a = canonical_arguments(r#"{"points": 18446744073709551616}"#).unwrap();
        let b = canonical_arguments(r#"{"points": 18446744073709551617}"#).unwrap();
        let c = canonical_arguments(r#"{"points": 18446744073709552000}"#).unwrap();
        assert_eq!(a, r#"{"points":18446744073709551616}"#);
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            canonical_arguments(r#"{"n": -170141183460469231731687303715884105729}"#).unwrap(),
            r#"{"n":-170141183460469231731687303715884105729}"#
        );
        assert_eq!(
            canonical_arguments(r#"{"s": "\u0041\n\u2028"}"#).unwrap(),
            "{\"s\":\"A\\n\\u2028\"}"
        );
        // What could hide in or reorder the text the user approves is
        // escaped; the value stays the same.
        let text = "{\"s\": \"1\u{202E}2\u{7f}\u{85}\u{200B}\\u0001\\b\\f\u{1F600}\"}";
        assert_eq!(
            canonical_arguments(text).unwrap(),
            "{\"s\":\"1\\u202e2\\u007f\\u0085\\u200b\\u0001\\b\\f\u{1F600}\"}"
        );
        // A map's duplicate key keeps the last value, as serde's maps do.
        assert_eq!(
            canonical_arguments(r#"{"m": {"a": 1, "b": 2, "a": 3}}"#).unwrap(),
            r#"{"m":{"a":3,"b":2}}"#
        );
        for bad in [
            "{\"a\": 01}",
            "{\"a\": 1.}",
            "{\"a\": -}",
            "{\"a\": tru}",
            "[1,]",
            "{\"a\" 1}",
        ] {
            assert_eq!(canonical_arguments(bad), None, "{bad}");
        }
        assert_eq!(canonical_arguments(&"[".repeat(200)), None);
        // A lone surrogate escape has no `str` value: kept as written (also
        // as a key); an escape JSON does not allow is not JSON.
        assert_eq!(
            canonical_arguments(r#"{"b": "x\uD800y", "\udc00": 1}"#).unwrap(),
            r#"{"\udc00":1,"b":"x\uD800y"}"#
        );
        assert_eq!(canonical_arguments(r#"{"a": "\ud800\x"}"#), None);
        assert_eq!(canonical_arguments(r#"{"a": "\ud80"}"#), None);
    }

    #[test]
    fn the_schema_says_which_nulls_are_absent_at_every_depth() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "address": {"$ref": "#/$defs/Address"},
                "lines": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]}},
                "tags": {"type": "object", "additionalProperties": {"type": ["string", "null"]}},
                "raw": true
            },
            "required": ["id", "raw"],
            "$defs": {
                "Address": {
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "unit": {"type": ["string", "null"]}},
                    "required": ["street"]
                }
            }
        });
        let of = |text: &str| CanonicalArguments::of(&schema, text).unwrap().into_string();
        assert_eq!(
            of(
                r#"{"id": "1", "raw": null, "address": {"street": "Main", "unit": null}, "lines": [{"street": "A", "unit": null}], "tags": {"a": null}}"#
            ),
            r#"{"address":{"street":"Main"},"id":"1","lines":[{"street":"A"}],"raw":null,"tags":{"a":null}}"#
        );
        assert_eq!(
            of(
                r#"{"id": "1", "raw": null, "address": {"street": "Main"}, "lines": [{"street": "A"}], "tags": {"a": null}}"#
            ),
            of(
                r#"{"id": "1", "raw": null, "address": {"street": "Main", "unit": null}, "lines": [{"street": "A", "unit": null}], "tags": {"a": null}}"#
            )
        );
        // A required member's null, a map value's null and an untyped
        // value's inner nulls are values, not absences.
        assert_ne!(of(r#"{"id": "1", "raw": null}"#), of(r#"{"id": "1"}"#));
        assert_ne!(
            of(r#"{"id": "1", "raw": {"x": null}}"#),
            of(r#"{"id": "1", "raw": {}}"#)
        );
        assert_ne!(
            of(r#"{"id": "1", "tags": {"a": null}}"#),
            of(r#"{"id": "1", "tags": {}}"#)
        );
    }

    #[test]
    fn text_that_is_not_json_is_hashed_raw() {
        assert_eq!(arguments_sha256("abc"), sha256_hex(b"abc"));
        assert_eq!(arguments_sha256("{} {}"), sha256_hex(b"{} {}"));
        assert_eq!(arguments_sha256(""), sha256_hex(b"{}"));
    }
}
