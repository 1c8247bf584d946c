//! A deserializer wrapper that walks the compiled input schema beside serde's
//! visitor, the way `serde_path_to_error` wraps a deserializer: every value
//! is read straight from the JSON text and checked against the schema node
//! it belongs to, so the contract holds at every depth.
//!
//! What it enforces while streaming:
//! - objects: unknown keys are refused with their full path (`$.filters.bogus`)
//!   when the schema closes the object, required keys must be present;
//! - structs are read from JSON objects only. serde's derived `Deserialize`
//!   also accepts a struct written as an array of its fields in declaration
//!   order (`["Main St 1", "Berlin"]`); a model that lists values in another
//!   order would fill the wrong fields without an error, and the schema says
//!   `object`;
//! - strings: `minLength`/`maxLength` in Unicode scalar values, `pattern`,
//!   `format`, `enum`/`const`;
//! - numbers: `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//!   `multipleOf`, compared exactly (integers never through `f64`); a whole
//!   number written as a float (`-0`, `2.0`) is an integer, as in JSON Schema;
//! - arrays: `minItems`/`maxItems`, and each item against `items`/`prefixItems`.
//!
//! A node the walker cannot check alone (`anyOf`, `oneOf`, `allOf`,
//! `uniqueItems`, an `enum` of objects) is read into a `serde_json::Value`,
//! checked whole, and deserialized from it. serde buffers internally tagged
//! and untagged enums into its own content type anyway, so this costs little
//! there, and a struct inside such an enum is held to its schema too.

use std::cell::Cell;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize as _;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::Value;
use serde_json::value::RawValue;

use super::error::ArgumentError;
use super::path::push_key;
use super::schema::{
    ANY_NODE, ARR, Additional, BOOL, CompiledSchema, INT, NEVER_NODE, NULL, NUM, Node, NodeId, Num,
    OBJ, STR, bounded_words, check_count, check_number, check_string, enum_message,
    got as schema_got, integer_type_range, json_equal, number_ok, string_ok, type_words,
};
use crate::contract::money_de::money_token;
use crate::words::humanize::{self, Humanized, echo};

/// The key serde_json's `RawValue` travels under (feature `raw_value`).
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The refusal of [`RAW_VALUE_TOKEN`] as a key: serde_json's `Value` reads
/// an object with this one key as the JSON text of its string, so the value
/// would change after it was checked.
fn reserved_key() -> String {
    format!("the key \"{RAW_VALUE_TOKEN}\" is reserved by serde_json; use another name")
}

/// The deepest path an error names; deeper levels are shown as `…`.
const MAX_PATH_DEPTH: usize = 64;

/// What every wrapper of one parse shares: the schema and the error slot.
pub(crate) struct Cx<'a> {
    pub schema: &'a CompiledSchema,
    pub error: &'a Cell<Option<ArgumentError>>,
    /// serde_json's error in a value read again from its text, placed in
    /// the arguments (see [`read_text`]).
    pub located: &'a Cell<Option<Located>>,
}

impl Cx<'_> {
    /// Records `error` and returns a placeholder serde error that unwinds
    /// the deserializer; the parse returns the recorded error instead.
    fn fail<E: de::Error>(&self, error: ArgumentError) -> E {
        self.error.set(Some(error));
        E::custom("tool argument error")
    }
}

/// One step of a JSON path, kept on the stack: no allocation while parsing.
#[derive(Clone, Copy)]
pub(crate) enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A JSON path as a linked list of steps on the stack.
#[derive(Clone, Copy)]
pub(crate) struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Seg<'a>,
}

impl<'a> Path<'a> {
    /// `$`.
    pub(crate) const ROOT: Path<'static> = Path {
        parent: None,
        seg: Seg::Root,
    };

    /// The path one step below this one.
    pub(crate) fn child(&'a self, seg: Seg<'a>) -> Path<'a> {
        Path {
            parent: Some(self),
            seg,
        }
    }

    /// How many steps below `$` the path is: the number of objects and
    /// arrays around its value, the arguments object included.
    pub(crate) fn depth(&self) -> usize {
        let mut depth = 0;
        let mut at = self;
        while let Some(parent) = at.parent {
            depth += 1;
            at = parent;
        }
        depth
    }

    /// `$.filters.brands[2]`, capped at [`MAX_PATH_DEPTH`] steps.
    pub(crate) fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            steps.push(p.seg);
            at = p.parent;
        }
        let mut out = String::new();
        for (i, seg) in steps.iter().rev().enumerate() {
            if i > MAX_PATH_DEPTH {
                out.push_str(".…");
                break;
            }
            match seg {
                Seg::Root => out.push('$'),
                Seg::Key(k) => push_key(&mut out, &k.chars().take(256).collect::<String>()),
                Seg::Index(n) => out.push_str(&format!("[{n}]")),
            }
        }
        out
    }
}

/// Where a wrapper is: the shared context, the schema node, the path.
#[derive(Clone, Copy)]
pub(crate) struct G<'a> {
    pub cx: &'a Cx<'a>,
    /// The node, looked up once where the wrapper is made (its id, for the
    /// buffered path's `validate`, is in it).
    pub node: &'a Node,
    pub path: &'a Path<'a>,
}

impl<'a> G<'a> {
    /// Where node `id` of `cx`'s schema checks the value at `path`.
    #[inline(always)]
    pub(crate) fn new(cx: &'a Cx<'a>, id: NodeId, path: &'a Path<'a>) -> Self {
        G {
            cx,
            node: cx.schema.node(id),
            path,
        }
    }

    /// The same place, another node.
    #[inline(always)]
    fn with_node(self, id: NodeId) -> Self {
        G::new(self.cx, id, self.path)
    }

    #[inline(always)]
    fn node(&self) -> &'a Node {
        self.node
    }

    fn fail<E: de::Error>(&self, message: String) -> E {
        self.cx
            .fail(ArgumentError::invalid(self.path.render(), message))
    }

    /// serde_json's refusal of a number its type cannot hold (beyond a
    /// 64-bit float, or a 32-bit one where the type is `f32`) named as the
    /// value's error: the text is valid JSON, the number is what is wrong.
    #[cold]
    fn beyond_range<E: de::Error>(&self, error: E) -> E {
        match beyond_range_message(Some(self.node), &error, self.cx) {
            Some(message) => self.fail(message),
            None => error,
        }
    }
}

/// The message for serde_json's "number out of range" at `node`, unless an
/// error of the walk's own is already recorded.
fn beyond_range_message(
    node: Option<&Node>,
    error: &dyn fmt::Display,
    cx: &Cx<'_>,
) -> Option<String> {
    let own = cx.error.take();
    let recorded = own.is_some();
    cx.error.set(own);
    if recorded || !error.to_string().starts_with("number out of range") {
        return None;
    }
    Some(beyond_range_words(node))
}

/// "expected ..., got a number beyond what a 64-bit float can hold" for
/// `node` (or for a value read whole, whose node is not known part by part).
fn beyond_range_words(node: Option<&Node>) -> String {
    match node {
        Some(node) if node.single => format!(
            "expected a number a 32-bit float can hold (between -{max} and {max}), got a number beyond it",
            max = f32::MAX
        ),
        Some(node) => format!(
            "expected {}, got a number beyond what a 64-bit float can hold",
            bounded_words(node, None).unwrap_or_else(|| type_words(node.types))
        ),
        None => format!(
            "expected a number a 64-bit float can hold (between -{max:e} and {max:e}), got a number beyond it",
            max = f64::MAX
        ),
    }
}

/// Deserializes a `T` guided by a schema node.
pub(crate) struct GuidedSeed<'a, T>(pub G<'a>, pub PhantomData<T>);

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for GuidedSeed<'_, T> {
    type Value = T;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize(Guided(deserializer, self.0))
    }
}

/// Wraps a seed so that what it deserializes goes through [`Guided`].
struct Seed<'a, S>(S, G<'a>);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Guided(deserializer, self.1))
    }
}

struct Guided<'a, D>(D, G<'a>);

impl<'a, 'de, D: Deserializer<'de>> Guided<'a, D> {
    /// The buffered path: reads the value whole, checks it against the node
    /// and deserializes from it.
    ///
    /// serde reads the type from the value through `serde_path_to_error`,
    /// so an error it finds below the node (a `deserialize_with` field, a
    /// variant's content) is named at its own path, where serde does not
    /// buffer the part again (internally tagged and untagged enums and
    /// `flatten` do, and their errors are named at the part's start).
    #[cold]
    fn buffered<T>(
        self,
        read: impl FnOnce(Tracked<'_, '_>) -> Result<T, serde_json::Error>,
    ) -> Result<T, D::Error> {
        let g = self.1;
        let mut path = g.path.render();
        let mut value = Whole {
            cx: g.cx,
            path: &mut path,
        }
        .deserialize(self.0)
        .map_err(|e| g.beyond_range(e))?;
        if let Err(error) = g.cx.schema.check_whole(g.node.id, &mut value, &mut path) {
            return Err(g.cx.fail(error));
        }
        let mut track = serde_path_to_error::Track::new();
        let read = read(serde_path_to_error::Deserializer::new(value, &mut track));
        read.map_err(|e| {
            let (message, missing) = match humanize::data_error(&e.to_string()) {
                Humanized::Message(m) => (m, None),
                Humanized::MissingField { field, message } => (message, Some(field)),
            };
            for segment in track.path().iter() {
                match segment {
                    serde_path_to_error::Segment::Seq { index } => {
                        path.push_str(&format!("[{index}]"));
                    }
                    serde_path_to_error::Segment::Map { key }
                    | serde_path_to_error::Segment::Enum { variant: key } => {
                        push_key(&mut path, key)
                    }
                    serde_path_to_error::Segment::Unknown => break,
                }
            }
            if let Some(field) = missing {
                push_key(&mut path, &field);
            }
            g.cx.fail(ArgumentError::invalid(path, message))
        })
    }
}

/// A value read whole, handed to serde with its path tracked.
type Tracked<'a, 'b> = serde_path_to_error::Deserializer<'a, 'b, Value>;

/// The visitor of a `RawValue` kept as written, and what it is handed on
/// the way to the text (serde_json gives the text as the value of a map of
/// one key): the text is refused when a key is given twice in it.
struct RawText<'a, T>(T, G<'a>);

impl<'de, V: Visitor<'de>> Visitor<'de> for RawText<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(RawText(map, self.1))
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for RawText<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(RawText(seed, self.1))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for RawText<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(RawText(deserializer, self.1))
    }
}

/// The text's deserializer: it hands over a string, checked first.
impl<'de, D: Deserializer<'de>> Deserializer<'de> for RawText<'_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(RawString(visitor, self.1))
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_str(RawString(visitor, self.1))
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_string(RawString(visitor, self.1))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        enum identifier ignored_any
    }
}

/// The visitor of the text itself.
struct RawString<'a, V>(V, G<'a>);

impl<V> RawString<'_, V> {
    fn check<E: de::Error>(&self, text: &str) -> Result<(), E> {
        let Some((end, key)) = super::path::first_repeated_key(text) else {
            return Ok(());
        };
        let mut path = self.1.path.render();
        path.push_str(&super::path::locate(text, end).value[1..]);
        Err(self
            .1
            .cx
            .fail(ArgumentError::invalid(path, humanize::given_twice(&key))))
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for RawString<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check(v)?;
        self.0.visit_borrowed_str(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check(v)?;
        self.0.visit_str(v)
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.check(&v)?;
        self.0.visit_string(v)
    }
}

/// Reads a value whole into a [`Value`] as serde_json does, except that a
/// key given twice in any of its objects is refused with its path
/// (serde_json's `Value` keeps the last one, which would hide the first
/// from the checks and let a repeated tag choose the variant).
struct Whole<'p, 'c> {
    cx: &'p Cx<'c>,
    /// The path of the value being read; restored after each part.
    path: &'p mut String,
}

impl Whole<'_, '_> {
    /// serde_json's "number out of range" for the part at `path`.
    #[cold]
    fn beyond_range<E: de::Error>(&self, error: E) -> E {
        match beyond_range_message(None, &error, self.cx) {
            Some(message) => self
                .cx
                .fail(ArgumentError::invalid(self.path.clone(), message)),
            None => error,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Whole<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Whole<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        Value::deserialize(v.into_deserializer())
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        Value::deserialize(v.into_deserializer())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let len = self.path.len();
            self.path.push_str(&format!("[{}]", items.len()));
            let item = seq.next_element_seed(Whole {
                cx: self.cx,
                path: &mut *self.path,
            });
            let item = item.map_err(|e| self.beyond_range(e));
            self.path.truncate(len);
            match item? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let len = self.path.len();
            push_key(self.path, &key.chars().take(256).collect::<String>());
            if key == RAW_VALUE_TOKEN {
                // Read into a `Value` later, it would be another value.
                let error = ArgumentError::invalid(self.path.clone(), reserved_key());
                return Err(self.cx.fail(error));
            }
            if object.contains_key(&key) {
                let error = ArgumentError::invalid(self.path.clone(), humanize::given_twice(&key));
                return Err(self.cx.fail(error));
            }
            let value = map
                .next_value_seed(Whole {
                    cx: self.cx,
                    path: &mut *self.path,
                })
                .map_err(|e| self.beyond_range(e));
            self.path.truncate(len);
            object.insert(key, value?);
        }
        Ok(Value::Object(object))
    }
}

impl<'de, D: Deserializer<'de>> Guided<'_, D> {
    /// A `u128` or `i128`: serde_json reads one from the digits alone, so
    /// a whole float (`100.0`, `1e2`, which JSON Schema counts as integers)
    /// was left half read and called invalid JSON. The number is read as
    /// written (every deserializer this runs on is serde_json's, which
    /// gives its raw text) and handed over as the integer it is: digits as
    /// a 128-bit integer, exactly; a whole float below 2^53 as the integer
    /// it holds (as for the other integer types); a fraction as a float,
    /// which the type refuses with a type error.
    #[cold]
    fn integer_128<V: Visitor<'de>>(
        self,
        visitor: V,
        expected: &'static str,
    ) -> Result<V::Value, D::Error> {
        let g = self.1;
        let raw = Box::<RawValue>::deserialize(self.0)?;
        let text = raw.get().trim();
        if text.contains(['.', 'e', 'E']) && text.parse::<f64>().is_ok_and(f64::is_infinite) {
            // A fraction or an exponent beyond a 64-bit float (`1e400`):
            // valid JSON, the number is what is wrong, as for the other
            // integer types.
            return Err(g.fail(beyond_range_words(Some(g.node))));
        }
        let read = Self::integer_128_text(text, Visit(visitor, g, false), expected);
        // The value was read whole, so serde's errors carry no place in the
        // text: they are named here, at the value's path (an error of the
        // walk's own already is).
        read.map_err(|e: D::Error| match g.cx.error.take() {
            Some(own) => {
                g.cx.error.set(Some(own));
                e
            }
            None => {
                let message = match humanize::data_error(&e.to_string()) {
                    Humanized::Message(m) | Humanized::MissingField { message: m, .. } => m,
                };
                g.fail(message)
            }
        })
    }

    fn integer_128_text<V: Visitor<'de>, E: de::Error>(
        text: &str,
        visit: V,
        expected: &'static str,
    ) -> Result<V::Value, E> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            // Beyond the type: the type's range in the message, the number
            // itself only when it is short.
            let got = || {
                if text.len() <= 48 {
                    format!("integer `{text}`")
                } else {
                    format!("a number of {} digits", digits.len())
                }
            };
            if text.starts_with('-') && expected == "u128" && digits.bytes().any(|b| b != b'0') {
                return Err(de::Error::invalid_value(
                    Unexpected::Other(&got()),
                    &expected,
                ));
            }
            let read = if text.starts_with('-') {
                text.parse::<i128>().map(|v| visit.visit_i128(v))
            } else {
                text.parse::<u128>().map(|v| visit.visit_u128(v))
            };
            read.unwrap_or_else(|_| {
                Err(de::Error::invalid_value(
                    Unexpected::Other(&got()),
                    &expected,
                ))
            })
        } else if text.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            // A JSON number with a fraction or an exponent: Rust reads
            // every one (a too large one as infinity).
            let v: f64 = text.parse().unwrap_or(f64::NAN);
            visit.visit_f64(v)
        } else {
            // Not a number: the type's own error ("invalid type: string
            // ..., expected u128").
            let value: Value = serde_json::from_str(text).map_err(de::Error::custom)?;
            value.deserialize_any(visit).map_err(de::Error::custom)
        }
    }
}

macro_rules! forward {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            if !self.1.node().streamable {
                return self.buffered(|v| v.$method(visitor));
            }
            let g = self.1;
            self.0
                .$method(Visit(visitor, g, false))
                .map_err(|e| g.refused_by_serde(g.beyond_range(e)))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guided<'_, D> {
    type Error = D::Error;

    forward!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );

    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_i128(visitor));
        }
        self.integer_128(visitor, "i128")
    }

    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_u128(visitor));
        }
        self.integer_128(visitor, "u128")
    }

    #[inline(always)]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_unit_struct(name, visitor));
        }
        let g = self.1;
        self.0
            .deserialize_unit_struct(name, Visit(visitor, g, false))
    }

    #[inline(always)]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if name == RAW_VALUE_TOKEN {
            // serde_json's `RawValue` keeps the text as written: read whole
            // when its node says nothing (the key serde_json hands it under
            // is no key of the arguments), else read into a value, checked
            // and written again.
            if self.1.node().allows_anything() {
                // Kept as written, a key given twice in it would reach the
                // application: its text is scanned on its way.
                return self
                    .0
                    .deserialize_newtype_struct(name, RawText(visitor, self.1));
            }
            return self.buffered(|v| v.deserialize_newtype_struct(name, visitor));
        }
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_newtype_struct(name, visitor));
        }
        let g = self.1;
        self.0
            .deserialize_newtype_struct(name, Visit(visitor, g, false))
    }

    #[inline(always)]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_tuple(len, visitor));
        }
        let g = self.1;
        self.0.deserialize_tuple(len, Visit(visitor, g, false))
    }

    #[inline(always)]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_tuple_struct(name, len, visitor));
        }
        let g = self.1;
        self.0
            .deserialize_tuple_struct(name, len, Visit(visitor, g, false))
    }

    #[inline(always)]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let node = self.1.node();
        if !node.streamable {
            // The schema's `type: object` holds the struct to an object.
            return self.buffered(|v| v.deserialize_struct(name, fields, visitor));
        }
        // `Money` and `SignedMoney` enforce their whole schema themselves:
        // when the node is exactly that schema and the type is ours (the
        // name's address says so), the walk has nothing to add.
        if let Some(signed) = node.money
            && money_token(name) == Some(signed)
        {
            return self.0.deserialize_struct(name, fields, visitor);
        }
        let g = self.1;
        self.0
            .deserialize_struct(name, fields, Visit(visitor, g, true))
    }

    #[inline(always)]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if !self.1.node().streamable {
            return self.buffered(|v| v.deserialize_enum(name, variants, visitor));
        }
        let g = self.1;
        if g.node().refuses_objects() {
            // The schema says string (a unit-only enum): serde_json would
            // also read `{"variant": null}`.
            return self.0.deserialize_any(UnitEnum(visitor, g));
        }
        self.0
            .deserialize_enum(name, variants, Visit(visitor, g, false))
    }

    #[inline(always)]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// A visitor that checks what it is given against the node, then forwards.
/// The flag refuses a JSON array (a struct is read from an object only).
struct Visit<'a, V>(V, G<'a>, bool);

impl<'a> G<'a> {
    /// serde refused a value (of the wrong kind, or a number beyond its
    /// type): at a node whose declared bounds narrow the type's range the
    /// message names them
    /// (`expected an integer from 1 to 50`), not the Rust type's range;
    /// elsewhere serde's message stands.
    #[cold]
    fn refused_by_serde<E: de::Error>(&self, error: E) -> E {
        let own = self.cx.error.take();
        let recorded = own.is_some();
        self.cx.error.set(own);
        if recorded {
            return error;
        }
        // serde names the type it expected last: "invalid type: string
        // \"x\", expected u32 at line 1 column 9".
        let text = error.to_string();
        let Some((_, expected)) = text.rsplit_once(", expected ") else {
            return error;
        };
        let expected = expected.split(" at line ").next().unwrap_or(expected);
        let within = match integer_type_range(expected) {
            Some(range) => Some(range),
            None if matches!(expected, "f32" | "f64") => None,
            None => return error,
        };
        let Some(expected) = bounded_words(self.node(), within) else {
            return error;
        };
        // What was given, in the words serde's message is put in.
        let (Humanized::Message(message) | Humanized::MissingField { message, .. }) =
            humanize::data_error(&text);
        match message.split_once(", got ") {
            Some((_, given)) => self.fail(format!("expected {expected}, got {given}")),
            None => error,
        }
    }

    /// Checks a number against the node, after serde has accepted it (so a
    /// value out of the Rust type's range keeps serde's message).
    /// The gate, inlined at every visit: most nodes have nothing to check.
    #[inline(always)]
    fn number<E: de::Error>(&self, v: Num) -> Result<(), E> {
        if number_ok(self.node(), v) {
            return Ok(());
        }
        self.number_failure(v)
    }

    #[cold]
    #[inline(never)]
    fn number_failure<E: de::Error>(&self, v: Num) -> Result<(), E> {
        let node = self.node();
        if let Some(allowed) = &node.enumeration {
            let value = match v {
                Num::U(u) => Value::from(u),
                Num::I(i) => Value::from(i),
                Num::F(f) => Value::from(f),
            };
            if !allowed.iter().any(|a| json_equal(a, &value)) {
                return Err(self.fail(enum_message(allowed, &format!("the number {v}"))));
            }
        }
        check_number(node, v).map_err(|m| self.fail(m))
    }

    /// Checks a string against the node, after serde has accepted it.
    /// The gate, inlined at every visit: most nodes have nothing to check.
    #[inline(always)]
    fn string<E: de::Error>(&self, s: &str) -> Result<(), E> {
        if string_ok(self.node(), s) {
            return Ok(());
        }
        self.string_failure(s)
    }

    #[cold]
    #[inline(never)]
    fn string_failure<E: de::Error>(&self, s: &str) -> Result<(), E> {
        let node = self.node();
        if let Some(allowed) = &node.enumeration
            && !allowed.iter().any(|a| a.as_str() == Some(s))
        {
            let got = format!("the string {}", echo(s));
            return Err(self.fail(enum_message(allowed, &got)));
        }
        check_string(node, s).map_err(|m| self.fail(m))
    }

    /// Checks that the node allows a value of JSON kind `kind` (`STR`,
    /// `INT`, ...): serde's type decides most kinds, but a type may take more
    /// than its schema says (`#[schemars(with = "String")]` on a `Value`,
    /// a field read from a `#[serde(flatten)]` buffer).
    #[inline(always)]
    fn kind<E: de::Error>(&self, kind: u8, got: impl FnOnce() -> Value) -> Result<(), E> {
        if self.node().types & kind != 0 {
            return Ok(());
        }
        Err(self.wrong_kind(&got()))
    }

    #[cold]
    #[inline(never)]
    fn wrong_kind<E: de::Error>(&self, got: &Value) -> E {
        let expected = type_words(self.node().types);
        self.fail(format!("expected {expected}, got {}", schema_got(got)))
    }

    /// Whether the node says integer (not number): a whole float is then
    /// handed to serde as the integer it is.
    #[inline(always)]
    fn integer_only(&self) -> bool {
        let types = self.node().types;
        types & INT != 0 && types & NUM == 0
    }
}

/// A 128-bit integer as a number to check: exact within 64 bits, else the
/// float nearest to it (bounds beyond 64 bits are compared as floats).
fn wide_signed(v: i128) -> Num {
    if let Ok(u) = u64::try_from(v) {
        Num::U(u)
    } else if let Ok(i) = i64::try_from(v) {
        Num::I(i)
    } else {
        Num::F(v as f64)
    }
}

/// The integer visits: serde's value first, then the number checked
/// against the schema node (`Num::I` for signed, `Num::U` for unsigned).
macro_rules! checked_integers {
    ($($visit:ident($ty:ty) => $num:ident,)+) => {
        $(
            #[inline]
            fn $visit<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                let g = self.1;
                let out = self
                    .0
                    .$visit(v)
                    .map_err(|e| g.refused_by_serde(e))?;
                g.kind(INT, || Value::from(v))?;
                g.number(Num::$num(v.into()))?;
                Ok(out)
            }
        )+
    };
}

impl<'a, 'de, V: Visitor<'de>> Visitor<'de> for Visit<'a, V> {
    type Value = V::Value;

    #[inline(always)]
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    #[inline(always)]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self.0.visit_bool(v).map_err(|e| g.refused_by_serde(e))?;
        g.kind(BOOL, || Value::Bool(v))?;
        if let Some(allowed) = &g.node().enumeration
            && !allowed.iter().any(|a| a.as_bool() == Some(v))
        {
            return Err(g.fail(enum_message(allowed, &format!("the boolean {v}"))));
        }
        Ok(out)
    }
    checked_integers! {
        visit_i8(i8) => I,
        visit_i16(i16) => I,
        visit_i32(i32) => I,
        visit_i64(i64) => I,
        visit_u8(u8) => U,
        visit_u16(u16) => U,
        visit_u32(u32) => U,
        visit_u64(u64) => U,
    }
    #[inline(always)]
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self.0.visit_i128(v).map_err(|e| g.refused_by_serde(e))?;
        g.kind(INT, || Value::from(v as f64))?;
        g.number(wide_signed(v))?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self.0.visit_u128(v).map_err(|e| g.refused_by_serde(e))?;
        g.kind(INT, || Value::from(v as f64))?;
        g.number(u64::try_from(v).map_or(Num::F(v as f64), Num::U))?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_f32<E: de::Error>(self, v: f32) -> Result<Self::Value, E> {
        self.visit_f64(f64::from(v))
    }
    #[inline(always)]
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        let g = self.1;
        // JSON Schema counts `-0` and `2.0` as integers. Only floats that
        // hold their integer exactly (below 2^53) are handed over: a larger
        // one may be a rounded literal beyond the Rust type's range.
        // A whole float is an integer to JSON Schema, any float a number.
        let kind = if v.is_finite() && v.fract() == 0.0 {
            INT | NUM
        } else {
            NUM
        };
        let out = if g.integer_only() && v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
            if v >= 0.0 {
                self.0.visit_u64(v as u64)
            } else {
                self.0.visit_i64(v as i64)
            }
        } else {
            self.0.visit_f64(v)
        }
        .map_err(|e| g.refused_by_serde(e))?;
        g.kind(kind, || Value::from(v))?;
        g.number(Num::F(v))?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_char<E: de::Error>(self, v: char) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self.0.visit_char(v)?;
        g.kind(STR, || Value::from(v.to_string()))?;
        g.string(v.encode_utf8(&mut [0; 4]))?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self.0.visit_str(v).map_err(|e| g.refused_by_serde(e))?;
        g.kind(STR, || Value::from(v))?;
        g.string(v)?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self
            .0
            .visit_borrowed_str(v)
            .map_err(|e| g.refused_by_serde(e))?;
        g.kind(STR, || Value::from(v))?;
        g.string(v)?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        if self.1.node().has_scalar_checks || self.1.node().types & STR == 0 {
            return self.visit_str(&v);
        }
        self.0.visit_string(v)
    }
    #[inline(always)]
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        self.0.visit_bytes(v)
    }
    #[inline(always)]
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
        self.0.visit_borrowed_bytes(v)
    }
    #[inline(always)]
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
        self.0.visit_byte_buf(v)
    }
    #[inline(always)]
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.0.visit_none()
    }
    #[inline(always)]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.visit_some(Guided(deserializer, self.1))
    }
    #[inline(always)]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        let g = self.1;
        let out = self.0.visit_unit().map_err(|e| g.refused_by_serde(e))?;
        g.kind(NULL, || Value::Null)?;
        Ok(out)
    }
    #[inline(always)]
    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.0.visit_newtype_struct(Guided(deserializer, self.1))
    }
    #[inline(always)]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.1.kind(OBJ, || Value::Object(serde_json::Map::new()))?;
        self.0.visit_map(Map {
            map,
            g: self.1,
            key: KEY_NONE,
            look: Look {
                last: 0,
                hit: HIT_UNREAD,
                extra: String::new(),
                extras: HashSet::new(),
                extra_whole: String::new(),
                repeated: false,
            },
            extra_node: ANY_NODE,
            seen: 0,
            seen_beyond: Vec::new(),
            pending: None,
            count: 0,
        })
    }
    #[inline(always)]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        if self.2 {
            return Err(de::Error::invalid_type(Unexpected::Seq, &self));
        }
        self.1.kind(ARR, || Value::Array(Vec::new()))?;
        let mut seq = Seq {
            seq,
            g: self.1,
            count: 0,
        };
        let value = self.0.visit_seq(&mut seq)?;
        let node = self.1.node();
        if node.items == NEVER_NODE || node.max_items.is_some_and(|max| seq.count as u64 >= max) {
            // A tuple's visitor stops after its own items; one more read
            // refuses any item past them with the count (serde_json would
            // call the rest "trailing characters").
            seq.next_element::<IgnoredAny>()?;
        }
        Ok(value)
    }
    #[inline(always)]
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.0.visit_enum(Enum(data, self.1))
    }
}

/// A unit-only enum read from a string only, as its schema says: the
/// variant is the string, checked against the node after serde read it;
/// any other value is refused with what it is.
struct UnitEnum<'a, V>(V, G<'a>);

impl<V> UnitEnum<'_, V> {
    #[cold]
    fn refuse<E: de::Error>(self, got: &str) -> E {
        self.1.fail(humanize::enum_not_a_string(got))
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for UnitEnum<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let out = self.0.visit_enum(v.into_deserializer())?;
        self.1.string(v)?;
        Ok(out)
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        let out = self
            .0
            .visit_enum(de::value::BorrowedStrDeserializer::new(v))?;
        self.1.string(v)?;
        Ok(out)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Err(self.refuse("a boolean"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Err(self.refuse("a number"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Err(self.refuse("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Err(self.refuse("a number"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Err(self.refuse("null"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.refuse("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(self.refuse("an object"))
    }
}

/// No key was read yet: a value read now is checked against nothing.
const KEY_NONE: usize = usize::MAX;
/// The key just read is not a property (or was not seen as a string): its
/// value is checked against the node of the object's `additionalProperties`.
const KEY_EXTRA: usize = usize::MAX - 1;

struct Map<'a, 'de, A> {
    map: A,
    g: G<'a>,
    /// The key just read: the index of its property, [`KEY_EXTRA`] or
    /// [`KEY_NONE`]; so the node of the value that follows.
    key: usize,
    /// What the key seed is given and finds.
    look: Look,
    /// The node of the extra key's value.
    extra_node: NodeId,
    /// Which of the first 64 properties were given, for `required` and
    /// to refuse one given twice.
    seen: u64,
    /// The properties past the first 64 that were given.
    seen_beyond: Vec<usize>,
    /// The text of the value of the key just read, when it was read with
    /// its key (see [`Map::next_key_or_absent`]).
    pending: Option<&'de RawValue>,
    count: usize,
}

/// The key seed's state, one pointer for it to carry.
struct Look {
    /// Where the search for the next key starts: models write keys in order.
    last: usize,
    /// What the key seed saw: the index of a property, [`HIT_UNKNOWN`] or
    /// [`HIT_UNREAD`].
    hit: usize,
    /// The name of the extra key just read (at most 256 characters, for
    /// its path; empty when the key was not seen as a string).
    extra: String,
    /// Every extra key read so far, whole (allocated by the first).
    extras: HashSet<Box<str>>,
    /// The extra key just read, whole, for `patternProperties` (only
    /// kept for a node that has them).
    extra_whole: String,
    /// Whether the extra key just read was read before.
    repeated: bool,
}

impl<'a, 'de, A: MapAccess<'de>> MapAccess<'de> for Map<'a, 'de, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let node = self.g.node();
        if !node.absent_nulls.is_empty() {
            return self.next_key_or_absent(seed);
        }
        self.look.hit = HIT_UNREAD;
        let key = self.map.next_key_seed(KeySeed {
            seed,
            node,
            look: &mut self.look,
        })?;
        let Some(key) = key else {
            self.finish()?;
            return Ok(None);
        };
        self.count += 1;
        let hit = self.look.hit;
        if hit < HIT_UNKNOWN {
            self.mark_given(hit)?;
            self.look.last = hit + 1;
            self.key = hit;
        } else {
            self.extra_key(hit)?;
        }
        Ok(Some(key))
    }

    #[inline(always)]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let node = self.g.node();
        let i = self.key;
        if let Some((name, id)) = node.properties.get(i) {
            let path = self.g.path.child(Seg::Key(name));
            let g = G::new(self.g.cx, *id, &path);
            if let Some(text) = self.pending.take() {
                return read_text(seed, g, text.get());
            }
            return self.map.next_value_seed(Seed(seed, g));
        }
        if i == KEY_EXTRA {
            let path = self.g.path.child(Seg::Key(&self.look.extra));
            let g = G::new(self.g.cx, self.extra_node, &path);
            return self.map.next_value_seed(Seed(seed, g));
        }
        self.map
            .next_value_seed(Seed(seed, self.g.with_node(ANY_NODE)))
    }

    #[inline(always)]
    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }

    // serde's derive calls these; written out so they inline into the
    // struct's visitor like the two methods above.
    #[inline(always)]
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>, A::Error> {
        self.next_key_seed(PhantomData)
    }

    #[inline(always)]
    fn next_value<V: de::Deserialize<'de>>(&mut self) -> Result<V, A::Error> {
        self.next_value_seed(PhantomData)
    }
}

/// Reads the value at `g` from `text`, its text as it stands in the
/// arguments (a slice of them, read ahead by [`Map::next_key_or_absent`]):
/// by serde_json, as the rest of the arguments are, with the depth
/// already spent above it counted. serde_json's errors are placed in the
/// arguments' text ([`Located`]), so they name the same path and position
/// as when the value is read in place.
#[cold]
fn read_text<'de, S: DeserializeSeed<'de>, E: de::Error>(
    seed: S,
    g: G<'_>,
    text: &'de str,
) -> Result<S::Value, E> {
    // serde_json refuses the 128th level of nesting: the value's own
    // containers are below the ones around it.
    let cut = super::path::too_deep(text, MAX_NESTING.saturating_sub(g.path.depth()));
    let read = match cut {
        Some(at) => &text[..at],
        None => text,
    };
    let mut deserializer = serde_json::Deserializer::from_str(read);
    let error = match Seed(seed, g).deserialize(&mut deserializer) {
        Ok(value) if cut.is_none() => return Ok(value),
        Ok(_) => None,
        Err(error) => Some(error),
    };
    // An error of the walk's own, or one already placed by a value read
    // from its text inside this one, is the error.
    let own = g.cx.error.take();
    let placed = g.cx.located.take();
    let recorded = own.is_some() || placed.is_some();
    g.cx.error.set(own);
    g.cx.located.set(placed);
    if !recorded {
        let located = match (cut, error) {
            // The text read ends where the depth does: the limit's refusal
            // is the first thing wrong.
            (Some(at), None) => Located::depth(text, at),
            (Some(at), Some(e)) if e.classify() == serde_json::error::Category::Eof => {
                Located::depth(text, at)
            }
            (_, Some(e)) => Located::of(text, &e),
            (None, None) => return Err(E::custom("tool argument error")),
        };
        g.cx.located.set(Some(located));
    }
    Err(E::custom("tool argument error"))
}

/// The deepest nesting serde_json reads: its 128th level is refused.
const MAX_NESTING: usize = 127;

/// A serde_json error in a value read again from its own text, placed in
/// the arguments' text: the address of the byte it stands at (the text
/// is a slice of the arguments), what it says and what kind it is. The
/// parse turns it into the error serde_json gives for that place.
pub(crate) struct Located {
    /// The address of the byte serde_json reports (as `line`/`column`
    /// name it within the text).
    pub address: usize,
    /// serde_json's message, without its place.
    pub message: String,
    /// What kind of error serde_json says it is.
    pub category: serde_json::error::Category,
}

impl Located {
    /// The error `error` gave while reading `text`.
    fn of(text: &str, error: &serde_json::Error) -> Located {
        let whole = error.to_string();
        let place = format!(" at line {} column {}", error.line(), error.column());
        let message = whole.strip_suffix(&place).unwrap_or(&whole).to_owned();
        let at = super::path::offset_of(text, error.line(), error.column());
        Located {
            address: text.as_ptr() as usize + at,
            message,
            category: error.classify(),
        }
    }

    /// The refusal of the container that opens at `at` in `text`, one
    /// level too deep (serde_json names the byte after the bracket).
    fn depth(text: &str, at: usize) -> Located {
        Located {
            address: text.as_ptr() as usize + at + 1,
            message: "recursion limit exceeded".to_owned(),
            category: serde_json::error::Category::Syntax,
        }
    }
}

impl<'de, A: MapAccess<'de>> Map<'_, 'de, A> {
    /// [`MapAccess::next_key_seed`] for an object with optional properties
    /// whose schema refuses `null` ([`Node::absent_nulls`]): each key is
    /// read as text first, and such a property's value is read with it (as
    /// its text, a slice of the arguments), so that a `null` one is passed
    /// over as an absent key (serde then gives its default) and any other is
    /// read from its text when serde asks for it ([`read_text`]).
    #[inline(never)]
    fn next_key_or_absent<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let node = self.g.node();
        loop {
            let Some(name) = self.map.next_key::<String>()? else {
                self.finish()?;
                return Ok(None);
            };
            let hit = match node.properties.iter().position(|(n, _)| *n == name) {
                Some(i) => i,
                None => {
                    self.look.extra.clear();
                    self.look.extra.extend(name.chars().take(256));
                    self.look.repeated = !self.look.extras.insert(name.as_str().into());
                    self.look.extra_whole.clear();
                    self.look.extra_whole.push_str(&name);
                    HIT_UNKNOWN
                }
            };
            if hit < HIT_UNKNOWN && node.null_is_absent(hit) {
                self.mark_given(hit)?;
                let text = self.map.next_value::<&'de RawValue>()?;
                if text.get() == "null" {
                    continue;
                }
                self.count += 1;
                self.look.last = hit + 1;
                self.key = hit;
                self.pending = Some(text);
            } else {
                self.count += 1;
                if hit < HIT_UNKNOWN {
                    self.mark_given(hit)?;
                    self.look.last = hit + 1;
                    self.key = hit;
                } else {
                    self.extra_key(hit)?;
                }
            }
            return seed.deserialize(name.into_deserializer()).map(Some);
        }
    }

    /// Notes property `hit` as given, refusing it when it was already.
    fn mark_given(&mut self, hit: usize) -> Result<(), A::Error> {
        let again = if hit < 64 {
            let again = self.seen & (1 << hit) != 0;
            self.seen |= 1 << hit;
            again
        } else if self.seen_beyond.contains(&hit) {
            true
        } else {
            self.seen_beyond.push(hit);
            false
        };
        if again {
            return Err(self.given_twice(&self.g.node().properties[hit].0));
        }
        Ok(())
    }

    /// The refusal of a key given twice in one object (serde_json's own
    /// reading keeps the last value, which would hide the first from the
    /// checks, a tag included).
    #[cold]
    fn given_twice(&self, name: &str) -> A::Error {
        let path = self.g.path.child(Seg::Key(name));
        let g = G {
            path: &path,
            ..self.g
        };
        g.fail(humanize::given_twice(name))
    }

    /// A key that is not a property (its name is in `extra`) or that was
    /// not seen as a string: the node of its value, or the refusal of a
    /// closed object.
    #[inline(never)]
    fn extra_key(&mut self, hit: usize) -> Result<(), A::Error> {
        self.key = KEY_EXTRA;
        let node = self.g.node();
        if hit == HIT_UNREAD {
            // The key was read as something other than a string (a map
            // keyed by an enum or a newtype): its name is not known here.
            // A map's schema holds every value to one schema whatever the
            // key; an object that names its properties is read by its keys.
            self.look.extra.clear();
            self.extra_node = match node.additional {
                _ if node.properties.is_empty() && node.pattern_properties.len() == 1 => {
                    node.pattern_properties[0].1
                }
                Additional::Schema(id) if node.properties.is_empty() => id,
                _ => ANY_NODE,
            };
            return Ok(());
        }
        if self.look.repeated {
            let name = self.look.extra.clone();
            return Err(self.given_twice(&name));
        }
        if self.look.extra == RAW_VALUE_TOKEN {
            // serde_json's `Value` reads an object with this one key as the
            // JSON text of its string: the value would change after it was
            // checked.
            let path = self.g.path.child(Seg::Key(&self.look.extra));
            let g = G {
                path: &path,
                ..self.g
            };
            return Err(g.fail(reserved_key()));
        }
        let key = (!node.pattern_properties.is_empty()).then_some(self.look.extra_whole.as_str());
        self.extra_node = match node.extra_child(key) {
            Some(id) => id,
            None => {
                let name = &self.look.extra;
                let allowed: Vec<&str> = node.properties.iter().map(|(n, _)| n.as_str()).collect();
                let path = self.g.path.child(Seg::Key(name));
                let g = G {
                    path: &path,
                    ..self.g
                };
                return Err(g.fail(humanize::unknown_field_message(name, &allowed)));
            }
        };
        Ok(())
    }

    /// At the end of the object: required keys and the number of keys.
    #[inline(always)]
    fn finish(&self) -> Result<(), A::Error> {
        let node = self.g.node();
        if node.required_mask & !self.seen == 0
            && node.min_properties.is_none()
            && node.max_properties.is_none()
        {
            return Ok(());
        }
        self.finish_checks()
    }

    #[inline(never)]
    fn finish_checks(&self) -> Result<(), A::Error> {
        let node = self.g.node();
        for &i in &node.required {
            if i < 64 && self.seen & (1 << i) == 0 {
                let name = &node.properties[i].0;
                let path = self.g.path.child(Seg::Key(name));
                let g = G {
                    path: &path,
                    ..self.g
                };
                return Err(g.fail(format!("missing required field \"{name}\"")));
            }
        }
        check_count(
            node.min_properties,
            node.max_properties,
            self.count,
            "field",
            "fields",
        )
        .map_err(|m| self.g.fail(m))
    }
}

/// What the key seed saw: the index of a property, or one of these.
const HIT_UNKNOWN: usize = usize::MAX - 1;
/// The key was not given to the visitor as a string.
const HIT_UNREAD: usize = usize::MAX;

/// Sees the key on its way to the struct's field identifier.
struct KeySeed<'h, K> {
    seed: K,
    node: &'h Node,
    look: &'h mut Look,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, K> {
    type Value = K::Value;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<K::Value, D::Error> {
        self.seed.deserialize(KeyDe {
            de: deserializer,
            node: self.node,
            look: self.look,
        })
    }
}

struct KeyDe<'h, D> {
    de: D,
    node: &'h Node,
    look: &'h mut Look,
}

macro_rules! forward_key {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.de.$method(KeyVisit {
                v: visitor,
                node: self.node,
                look: self.look,
            })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDe<'_, D> {
    type Error = D::Error;

    forward_key!(
        deserialize_any,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        // serde_json reads a boolean key from its text, but calls a key
        // that starts like `true` or `false` and is neither invalid JSON,
        // and echoes any other without its first letter: the key is read
        // as text and judged here, as serde_json judges it.
        self.de.deserialize_str(BoolKey(KeyVisit {
            v: visitor,
            node: self.node,
            look: self.look,
        }))
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_unit_struct(name, visitor)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // A key such as `struct Name(String)`: its string is seen inside.
        self.de.deserialize_newtype_struct(
            name,
            KeyVisit {
                v: visitor,
                node: self.node,
                look: self.look,
            },
        )
    }
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_tuple(len, visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_tuple_struct(name, len, visitor)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_struct(name, fields, visitor)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // A key that is a unit variant: its string is seen as the variant.
        self.de.deserialize_enum(
            name,
            variants,
            KeyVisit {
                v: visitor,
                node: self.node,
                look: self.look,
            },
        )
    }
    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

struct KeyVisit<'h, V> {
    v: V,
    node: &'h Node,
    look: &'h mut Look,
}

impl<V> KeyVisit<'_, V> {
    /// Finds the key among the node's properties: first where the last key
    /// was followed (models write keys in order), then everywhere.
    #[inline(always)]
    fn see(&mut self, key: &str) {
        let props = &self.node.properties;
        let start = self.look.last;
        if let Some((name, _)) = props.get(start)
            && same_key(name, key)
        {
            self.look.hit = start;
            return;
        }
        self.search(key);
    }

    #[inline(never)]
    fn search(&mut self, key: &str) {
        let props = &self.node.properties;
        let start = self.look.last.min(props.len());
        let found = props[start..]
            .iter()
            .position(|(n, _)| n == key)
            .map(|i| start + i)
            .or_else(|| props[..start].iter().position(|(n, _)| n == key));
        self.look.hit = match found {
            Some(i) => i,
            None => {
                self.look.extra.clear();
                self.look.extra.extend(key.chars().take(256));
                self.look.repeated = !self.look.extras.insert(key.into());
                if !self.node.pattern_properties.is_empty() {
                    self.look.extra_whole.clear();
                    self.look.extra_whole.push_str(key);
                }
                HIT_UNKNOWN
            }
        };
    }
}

/// Whether two keys are the same text, compared in words without a call
/// for the short keys of a schema.
#[inline(always)]
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    };
    let half = |s: &[u8], at: usize| -> u32 {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(w)
    };
    // Two reads that overlap cover every byte of a key of 4 to 16 bytes.
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisit<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline(always)]
    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<Self::Value, E> {
        self.see(v);
        self.v.visit_str(v)
    }
    #[inline(always)]
    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<Self::Value, E> {
        self.see(v);
        self.v.visit_borrowed_str(v)
    }
    #[inline(always)]
    fn visit_string<E: de::Error>(mut self, v: String) -> Result<Self::Value, E> {
        self.see(&v);
        self.v.visit_string(v)
    }
    // serde_json reads a map key typed as a boolean or a number from the
    // key's text (`"true"`, `"7"`): the key is seen as that text, so one
    // given twice is refused and a value under it is named at it.
    fn visit_bool<E: de::Error>(mut self, v: bool) -> Result<Self::Value, E> {
        self.see(if v { "true" } else { "false" });
        self.v.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<Self::Value, E> {
        self.see(&v.to_string());
        self.v.visit_i64(v)
    }
    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<Self::Value, E> {
        self.see(&v.to_string());
        self.v.visit_u64(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        self.v.visit_f64(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        self.v.visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
        self.v.visit_borrowed_bytes(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.v.visit_none()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.v.visit_some(d)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.v.visit_unit()
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.v.visit_newtype_struct(KeyDe {
            de: d,
            node: self.node,
            look: self.look,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        self.v.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.v.visit_map(map)
    }
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.v.visit_enum(KeyEnum {
            data,
            node: self.node,
            look: self.look,
        })
    }
}

/// A map key of a boolean type, read as its text: `"true"` and `"false"`
/// are the booleans, any other key is refused with what it is.
struct BoolKey<'h, V>(KeyVisit<'h, V>);

impl<'de, V: Visitor<'de>> Visitor<'de> for BoolKey<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        match v {
            "true" => self.0.visit_bool(true),
            "false" => self.0.visit_bool(false),
            _ => Err(de::Error::invalid_type(Unexpected::Str(v), &self)),
        }
    }
}

/// A key read as an enum's variant: the variant's name is the key.
struct KeyEnum<'h, A> {
    data: A,
    node: &'h Node,
    look: &'h mut Look,
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for KeyEnum<'_, A> {
    type Error = A::Error;
    type Variant = A::Variant;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, A::Variant), A::Error> {
        self.data.variant_seed(KeySeed {
            seed,
            node: self.node,
            look: self.look,
        })
    }
}

struct Seq<'a, A> {
    seq: A,
    g: G<'a>,
    count: usize,
}

impl<'a, 'de, A: SeqAccess<'de>> SeqAccess<'de> for Seq<'a, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let node = self.g.node();
        let child = node
            .prefix_items
            .get(self.count)
            .copied()
            .unwrap_or(node.items);
        let over = node.max_items.is_some_and(|max| self.count as u64 >= max);
        if over || child == NEVER_NODE {
            // Count the rest, so the message says how many there were.
            let mut total = self.count;
            while self.seq.next_element::<IgnoredAny>()?.is_some() {
                total += 1;
            }
            if total > self.count {
                let max = if over {
                    node.max_items.unwrap_or(0)
                } else {
                    self.count as u64
                };
                return Err(self.g.fail(
                    check_count(None, Some(max), total, "item", "items")
                        .err()
                        .unwrap_or_default(),
                ));
            }
            return self.end();
        }
        let path = self.g.path.child(Seg::Index(self.count));
        let g = G::new(self.g.cx, child, &path);
        let element = self.seq.next_element_seed(Seed(seed, g))?;
        match element {
            Some(value) => {
                self.count += 1;
                Ok(Some(value))
            }
            None => self.end(),
        }
    }

    #[inline(always)]
    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }

    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>, A::Error> {
        self.next_element_seed(PhantomData)
    }
}

impl<'de, A: SeqAccess<'de>> Seq<'_, A> {
    #[inline(always)]
    fn end<T>(&self) -> Result<Option<T>, A::Error> {
        let node = self.g.node();
        if node.min_items.is_none_or(|min| self.count as u64 >= min) {
            return Ok(None);
        }
        check_count(node.min_items, None, self.count, "item", "items")
            .map_err(|m| self.g.fail(m))?;
        Ok(None)
    }
}

/// An enum read while streaming (its node has no `oneOf`: a unit-only enum
/// or a node that allows anything); its parts keep the object-only rule.
struct Enum<'a, A>(A, G<'a>);

impl<'a, 'de, A: EnumAccess<'de>> EnumAccess<'de> for Enum<'a, A> {
    type Error = A::Error;
    type Variant = Variant<'a, A::Variant>;

    #[inline(always)]
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let g = self.1;
        let (value, variant) = self.0.variant_seed(Seed(seed, g))?;
        Ok((value, Variant(variant, g.with_node(ANY_NODE))))
    }
}

struct Variant<'a, A>(A, G<'a>);

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Variant<'_, A> {
    type Error = A::Error;

    #[inline(always)]
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    #[inline(always)]
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed, self.1))
    }

    #[inline(always)]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Visit(visitor, self.1, false))
    }

    #[inline(always)]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Visit(visitor, self.1, true))
    }
}
