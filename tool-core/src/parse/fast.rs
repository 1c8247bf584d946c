//! The first try at a call's arguments: a JSON reader of its own that walks
//! the compiled input schema as it reads, with no deserializer wrapped
//! around another.
//!
//! The reader answers only "the arguments hold, here is the value" or "step
//! aside" ([`Miss`]). On a miss the call is read again by the exact path
//! (serde_json's deserializer with the schema walk of `guided.rs` beside
//! it), which gives the error with its path and message, or accepts what
//! this reader leaves to it (a whole float as an integer, `-0`, an integer
//! beyond 64 bits, a lone surrogate, `u128`, bytes, `RawValue`). Whatever
//! this reader accepts, the exact path accepts too, with the same value:
//!
//! - it calls each visitor with the method and the value serde_json calls
//!   it with (`visit_borrowed_str` for a string without escapes,
//!   `visit_str` for one with them, `visit_u64` for a non-negative
//!   integer, `visit_i64` for a negative one, `visit_f64` with the float
//!   serde_json reads, by serde_json itself);
//! - it runs the checks the walk in `guided.rs` runs, at the same places
//!   (the same functions decide), and steps aside where the walk would
//!   rewrite a value;
//! - it refuses (steps aside on) every text serde_json refuses, and some it
//!   accepts.
//!
//! A node the walk reads whole (`anyOf`, `oneOf`, `allOf`, `uniqueItems`,
//! an `enum` of objects) is read whole here too, by the same steps.
//! `tests/parse/fast_agrees.rs` holds the two paths to the same answers.

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use super::guided::RAW_VALUE_TOKEN;
use super::schema::{
    ANY_NODE, ARR, BOOL, CompiledSchema, INT, NEVER_NODE, NULL, NUM, Node, Num, OBJ, STR, bool_ok,
    number_ok, string_ok,
};
use crate::contract::money_de::money_token;

/// The reader steps aside: the exact path reads the call again.
#[derive(Debug)]
pub(crate) struct Miss;

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("read again by the exact path")
    }
}

impl std::error::Error for Miss {}

impl de::Error for Miss {
    #[cold]
    fn custom<T: fmt::Display>(_: T) -> Self {
        Miss
    }
}

type R<T> = Result<T, Miss>;

/// Deeper than this, the exact path reads the call (serde_json's own
/// limit is 128).
const MAX_DEPTH: u32 = 100;

/// The text, where the reader is, and the schema it walks.
pub(crate) struct Reader<'s, 'de> {
    text: &'de str,
    at: usize,
    depth: u32,
    /// A string with escapes, unescaped.
    scratch: String,
    schema: &'s CompiledSchema,
}

/// A string as read: borrowed from the text when it has no escapes.
enum Str<'de, 'x> {
    Borrowed(&'de str),
    Copied(&'x str),
}

impl<'x> Str<'_, 'x> {
    #[inline(always)]
    fn get(&self) -> &str {
        match *self {
            Str::Borrowed(s) => s,
            Str::Copied(s) => s,
        }
    }
}

/// A number as serde_json reads it.
enum Number {
    U(u64),
    I(i64),
    F(f64),
}

impl<'s, 'de> Reader<'s, 'de> {
    pub(crate) fn new(text: &'de str, schema: &'s CompiledSchema) -> Self {
        Reader {
            text,
            at: 0,
            depth: 0,
            scratch: String::new(),
            schema,
        }
    }

    /// Reads the arguments object with `visitor`; nothing but whitespace
    /// may follow it.
    pub(crate) fn read_root<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        let node = self.schema.node(self.schema.root());
        self.ws();
        if self.peek() != Some(b'{') {
            return Err(Miss);
        }
        let value = self.map(node, true, visitor)?;
        self.ws();
        if self.at != self.text.len() {
            return Err(Miss);
        }
        Ok(value)
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    #[inline(always)]
    fn ws(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Consumes `byte`, after whitespace, or misses.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> R<()> {
        self.ws();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(Miss)
        }
    }

    #[inline(always)]
    fn literal(&mut self, word: &str) -> R<()> {
        if self.text.as_bytes()[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(())
        } else {
            Err(Miss)
        }
    }

    /// Reads a string; the reader is at its opening quote.
    #[inline]
    fn string(&mut self) -> R<Str<'de, '_>> {
        self.at += 1;
        let start = self.at;
        let end = self.to_special(start);
        match self.text.as_bytes().get(end) {
            Some(b'"') => {
                self.at = end + 1;
                let s = self.text.get(start..end).ok_or(Miss)?;
                Ok(Str::Borrowed(s))
            }
            Some(b'\\') => self.escaped(start, end),
            _ => Err(Miss),
        }
    }

    /// The index of the first `"`, `\` or control character at or after
    /// `at` (or the text's length), eight bytes at a time.
    #[inline(always)]
    fn to_special(&self, mut at: usize) -> usize {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
        let bytes = self.text.as_bytes();
        while let Some(chunk) = bytes.get(at..at + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let w = u64::from_le_bytes(word);
            let quote = w ^ (ONES * u64::from(b'"'));
            let backslash = w ^ (ONES * u64::from(b'\\'));
            // A byte is flagged when it is zero (after the xor) or below
            // 0x20; the lowest flagged byte is always a true one.
            let found = (quote.wrapping_sub(ONES) & !quote
                | backslash.wrapping_sub(ONES) & !backslash
                | w.wrapping_sub(ONES * 0x20) & !w)
                & HIGH;
            if found != 0 {
                return at + (found.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
        while let Some(&b) = bytes.get(at) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                return at;
            }
            at += 1;
        }
        at
    }

    /// A string with an escape at `end`: unescaped into the scratch.
    #[cold]
    fn escaped(&mut self, start: usize, mut end: usize) -> R<Str<'de, '_>> {
        self.scratch.clear();
        let text = self.text;
        let bytes = text.as_bytes();
        let mut from = start;
        loop {
            self.scratch.push_str(text.get(from..end).ok_or(Miss)?);
            match bytes.get(end) {
                Some(b'"') => {
                    self.at = end + 1;
                    return Ok(Str::Copied(&self.scratch));
                }
                Some(b'\\') => {
                    let (c, len) = unescape(&bytes[end + 1..])?;
                    self.scratch.push(c);
                    from = end + 1 + len;
                }
                _ => return Err(Miss),
            }
            end = self.to_special(from);
        }
    }

    /// Reads a number as serde_json does; the reader is at its first byte.
    #[inline]
    fn number(&mut self, single: bool) -> R<Number> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let mut at = start;
        let negative = bytes[at] == b'-';
        if negative {
            at += 1;
        }
        let mut n: u64 = match bytes.get(at) {
            Some(b'0') => {
                at += 1;
                if bytes.get(at).is_some_and(u8::is_ascii_digit) {
                    return Err(Miss);
                }
                0
            }
            Some(&d @ b'1'..=b'9') => {
                at += 1;
                u64::from(d - b'0')
            }
            _ => return Err(Miss),
        };
        while let Some(&d @ b'0'..=b'9') = bytes.get(at) {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(d - b'0')))
                .ok_or(Miss)?;
            at += 1;
        }
        if let Some(b'.' | b'e' | b'E') = bytes.get(at) {
            return self.float(start, at, single);
        }
        self.at = at;
        if !negative {
            return Ok(Number::U(n));
        }
        // serde_json reads `-0` and integers below -2^63 as floats: the
        // exact path reads those.
        let v = (n as i64).wrapping_neg();
        if v >= 0 {
            return Err(Miss);
        }
        Ok(Number::I(v))
    }

    /// The rest of a number with a fraction or an exponent; its value as
    /// serde_json reads it (by serde_json, so the two paths agree on every
    /// bit).
    #[cold]
    fn float(&mut self, start: usize, mut at: usize, single: bool) -> R<Number> {
        let bytes = self.text.as_bytes();
        let digits = |at: &mut usize| {
            let from = *at;
            while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
                *at += 1;
            }
            *at > from
        };
        if bytes.get(at) == Some(&b'.') {
            at += 1;
            if !digits(&mut at) {
                return Err(Miss);
            }
        }
        if let Some(b'e' | b'E') = bytes.get(at) {
            at += 1;
            if let Some(b'+' | b'-') = bytes.get(at) {
                at += 1;
            }
            if !digits(&mut at) {
                return Err(Miss);
            }
        }
        let text = self.text.get(start..at).ok_or(Miss)?;
        let mut reader = serde_json::Deserializer::from_str(text);
        let v = if single {
            de::Deserializer::deserialize_f32(&mut reader, Float)
        } else {
            de::Deserializer::deserialize_f64(&mut reader, Float)
        };
        self.at = at;
        Ok(Number::F(v.map_err(|_| Miss)?))
    }

    /// Skips one value of any kind, as `IgnoredAny` reads it.
    fn skip(&mut self) -> R<()> {
        self.ws();
        match self.peek().ok_or(Miss)? {
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => self.number(false).map(drop),
            b'n' => self.literal("null"),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            open @ (b'[' | b'{') => {
                self.enter()?;
                self.at += 1;
                let close = if open == b'[' { b']' } else { b'}' };
                let mut first = true;
                while self.more(first, close)? {
                    first = false;
                    if open == b'{' {
                        if self.peek() != Some(b'"') {
                            return Err(Miss);
                        }
                        self.string()?;
                        self.expect(b':')?;
                    }
                    self.skip()?;
                }
                self.at += 1;
                self.depth -= 1;
                Ok(())
            }
            _ => Err(Miss),
        }
    }

    /// Before an entry of an array or object: `false` at the closing byte
    /// (left for the caller to consume), `true` when an entry follows (past
    /// its comma). A comma before the first entry or before the closing
    /// byte misses, as serde_json refuses both.
    #[inline(always)]
    fn more(&mut self, first: bool, close: u8) -> R<bool> {
        self.ws();
        match self.peek() {
            Some(b) if b == close => Ok(false),
            Some(b',') if !first => {
                self.at += 1;
                self.ws();
                if self.peek() == Some(close) {
                    return Err(Miss);
                }
                Ok(true)
            }
            Some(_) if first => Ok(true),
            _ => Err(Miss),
        }
    }

    #[inline(always)]
    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Miss);
        }
        Ok(())
    }

    /// Reads an object with `visitor`; the reader is at its `{`. `root`:
    /// the arguments object itself, whose keys the generated parser judges.
    #[inline]
    fn map<V: Visitor<'de>>(&mut self, node: &'s Node, root: bool, visitor: V) -> R<V::Value> {
        if node.types & OBJ == 0 {
            return Err(Miss);
        }
        self.enter()?;
        self.at += 1;
        let value = visitor.visit_map(Map {
            r: self,
            node,
            root,
            first: true,
            last: 0,
            child: ANY_NODE,
            seen: 0,
            extras: Extras::default(),
            count: 0,
        })?;
        self.expect(b'}')?;
        self.depth -= 1;
        Ok(value)
    }

    /// Reads an array with `visitor`; the reader is at its `[`.
    #[inline]
    fn seq<V: Visitor<'de>>(&mut self, node: &'s Node, visitor: V) -> R<V::Value> {
        if node.types & ARR == 0 {
            return Err(Miss);
        }
        self.enter()?;
        self.at += 1;
        let value = visitor.visit_seq(Seq {
            r: self,
            node,
            first: true,
            count: 0,
        })?;
        self.expect(b']')?;
        self.depth -= 1;
        Ok(value)
    }
}

/// The float serde_json hands a visitor for a number with a fraction or an
/// exponent, for an `f64` or (`deserialize_f32`) an `f32`.
struct Float;

impl Visitor<'_> for Float {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a float")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
}

/// The character of the escape after a `\` and the bytes it takes.
fn unescape(rest: &[u8]) -> R<(char, usize)> {
    let c = match rest.first().ok_or(Miss)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let unit = hex4(rest.get(1..5).ok_or(Miss)?)?;
            if (0xD800..0xDC00).contains(&unit) {
                // A surrogate pair: `\uD83D\uDE00`.
                if rest.get(5..7) != Some(b"\\u") {
                    return Err(Miss);
                }
                let low = hex4(rest.get(7..11).ok_or(Miss)?)?;
                if !(0xDC00..0xE000).contains(&low) {
                    return Err(Miss);
                }
                let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return Ok((char::from_u32(c).ok_or(Miss)?, 11));
            }
            return Ok((char::from_u32(unit).ok_or(Miss)?, 5));
        }
        _ => return Err(Miss),
    };
    Ok((c, 1))
}

fn hex4(digits: &[u8]) -> R<u32> {
    digits.iter().try_fold(0u32, |n, &d| {
        let v = (d as char).to_digit(16).ok_or(Miss)?;
        Ok(n * 16 + v)
    })
}

/// One value, read by the reader against its schema node.
pub(crate) struct Value<'r, 's, 'de> {
    r: &'r mut Reader<'s, 'de>,
    node: &'s Node,
}

impl<'s, 'de> Value<'_, 's, 'de> {
    /// A node the walk reads whole (`anyOf`, `oneOf`, `allOf`,
    /// `uniqueItems`, an `enum` of objects): read as the walk reads it,
    /// into a `serde_json::Value` checked against the node, its whole
    /// floats made integers where the schema asks for integers, and the
    /// type read from it.
    #[cold]
    fn buffered<T>(
        self,
        read: impl FnOnce(serde_json::Value) -> Result<T, serde_json::Error>,
    ) -> R<T> {
        let schema = self.r.schema;
        let any = schema.node(ANY_NODE);
        let mut value: serde_json::Value = de::Deserialize::deserialize(Value {
            r: self.r,
            node: any,
        })?;
        schema
            .check_whole(self.node.id, &mut value, &mut String::new())
            .map_err(|_| Miss)?;
        read(value).map_err(|_| Miss)
    }

    #[inline(always)]
    fn string<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let node = self.node;
        if node.types & STR == 0 {
            return Err(Miss);
        }
        let out = match self.r.string()? {
            Str::Borrowed(s) => {
                if !string_ok(node, s) {
                    return Err(Miss);
                }
                visitor.visit_borrowed_str(s)?
            }
            Str::Copied(s) => {
                if !string_ok(node, s) {
                    return Err(Miss);
                }
                visitor.visit_str(s)?
            }
        };
        Ok(out)
    }

    /// A number; `single`: read for an `f32`, which serde_json reads in
    /// single precision when its `float_roundtrip` feature is on.
    #[inline(always)]
    fn number<V: Visitor<'de>>(self, visitor: V, single: bool) -> R<V::Value> {
        let node = self.node;
        match self.r.number(single)? {
            Number::U(u) if node.types & INT != 0 && number_ok(node, Num::U(u)) => {
                visitor.visit_u64(u)
            }
            Number::I(i) if node.types & INT != 0 && number_ok(node, Num::I(i)) => {
                visitor.visit_i64(i)
            }
            // The walk hands a whole float to an integer node as the
            // integer it is: the exact path reads it.
            Number::F(f) if node.types & NUM != 0 && number_ok(node, Num::F(f)) => {
                visitor.visit_f64(f)
            }
            _ => Err(Miss),
        }
    }

    #[inline(always)]
    fn boolean<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        let b = self.r.peek() == Some(b't');
        self.r.literal(if b { "true" } else { "false" })?;
        if self.node.types & BOOL == 0 || !bool_ok(self.node, b) {
            return Err(Miss);
        }
        visitor.visit_bool(b)
    }

    #[inline(always)]
    fn next(&mut self) -> R<u8> {
        self.r.ws();
        self.r.peek().ok_or(Miss)
    }
}

/// The walk reads a node it cannot check while streaming whole: so does
/// this reader.
macro_rules! whole {
    ($self:ident, |$v:ident| $read:expr) => {
        if !$self.node.streamable {
            return $self.buffered(|$v| $read);
        }
    };
}

macro_rules! numbers {
    ($($method:ident => $single:expr),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
            whole!(self, |v| v.$method(visitor));
            match self.next()? {
                b'-' | b'0'..=b'9' => self.number(visitor, $single),
                _ => Err(Miss),
            }
        }
    )*};
}

macro_rules! strings {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
            whole!(self, |v| v.$method(visitor));
            match self.next()? {
                b'"' => self.string(visitor),
                _ => Err(Miss),
            }
        }
    )*};
}

macro_rules! miss {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, _: V) -> R<V::Value> {
            Err(Miss)
        }
    )*};
}

impl<'de> Deserializer<'de> for Value<'_, '_, 'de> {
    type Error = Miss;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_any(visitor));
        match self.next()? {
            b'"' => self.string(visitor),
            b'-' | b'0'..=b'9' => self.number(visitor, false),
            b't' | b'f' => self.boolean(visitor),
            b'n' => {
                self.r.literal("null")?;
                if self.node.types & NULL == 0 {
                    return Err(Miss);
                }
                visitor.visit_unit()
            }
            b'[' => self.r.seq(self.node, visitor),
            b'{' => self.r.map(self.node, false, visitor),
            _ => Err(Miss),
        }
    }

    numbers!(
        deserialize_i8 => false,
        deserialize_i16 => false,
        deserialize_i32 => false,
        deserialize_i64 => false,
        deserialize_u8 => false,
        deserialize_u16 => false,
        deserialize_u32 => false,
        deserialize_u64 => false,
        deserialize_f32 => true,
        deserialize_f64 => false
    );

    strings!(
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_identifier
    );

    miss!(
        deserialize_i128,
        deserialize_u128,
        deserialize_bytes,
        deserialize_byte_buf
    );

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_bool(visitor));
        match self.next()? {
            b't' | b'f' => self.boolean(visitor),
            _ => Err(Miss),
        }
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_option(visitor));
        if self.next()? == b'n' {
            self.r.literal("null")?;
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_unit(visitor));
        if self.next()? != b'n' || self.node.types & NULL == 0 {
            return Err(Miss);
        }
        self.r.literal("null")?;
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> R<V::Value> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        if name == RAW_VALUE_TOKEN {
            return Err(Miss);
        }
        whole!(self, |v| v.deserialize_newtype_struct(name, visitor));
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_seq(visitor));
        match self.next()? {
            b'[' => self.r.seq(self.node, visitor),
            _ => Err(Miss),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> R<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> R<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(mut self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_map(visitor));
        match self.next()? {
            b'{' => self.r.map(self.node, false, visitor),
            _ => Err(Miss),
        }
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        whole!(self, |v| v.deserialize_struct(name, fields, visitor));
        // A struct is read from an object only (the walk refuses the array
        // form serde also accepts).
        if self.next()? != b'{' {
            return Err(Miss);
        }
        // `Money` and `SignedMoney` enforce their whole schema themselves,
        // as in the walk.
        let node = match self.node.money {
            Some(signed) if money_token(name) == Some(signed) => self.r.schema.node(ANY_NODE),
            _ => self.node,
        };
        self.r.map(node, false, visitor)
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        whole!(self, |v| v.deserialize_enum(name, variants, visitor));
        match self.next()? {
            b'"' => visitor.visit_enum(Enum {
                r: self.r,
                node: self.node,
                tagged: false,
            }),
            // The schema of a unit-only enum says string.
            b'{' if !self.node.refuses_objects() => {
                self.r.enter()?;
                self.r.at += 1;
                let value = visitor.visit_enum(Enum {
                    r: &mut *self.r,
                    node: self.node,
                    tagged: true,
                })?;
                self.r.expect(b'}')?;
                self.r.depth -= 1;
                Ok(value)
            }
            _ => Err(Miss),
        }
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        whole!(self, |v| v.deserialize_ignored_any(visitor));
        self.r.skip()?;
        visitor.visit_unit()
    }
}

/// An object's entries, walked against its node as the walk's `Map` does.
struct Map<'r, 's, 'de> {
    r: &'r mut Reader<'s, 'de>,
    node: &'s Node,
    root: bool,
    first: bool,
    /// Where the search for the next key starts: models write keys in order.
    last: usize,
    /// The node of the value after the key just read.
    child: usize,
    /// Which of the first 64 properties were given.
    seen: u64,
    /// A hash of each key that is not one of the first 64 properties: a
    /// key given twice (or two that hash alike) steps aside for the exact
    /// path to judge.
    extras: Extras,
    count: usize,
}

/// The hashes of an object's keys beyond its first 64 properties: a list
/// while short, a set from [`Extras::FEW`] on, so a map of many keys is
/// read in one pass.
#[derive(Default)]
struct Extras {
    few: Vec<u64>,
    many: std::collections::HashSet<u64>,
}

impl Extras {
    const FEW: usize = 16;

    /// Notes `hash`; `false` when it was noted before.
    #[inline]
    fn insert(&mut self, hash: u64) -> bool {
        if self.few.len() < Self::FEW {
            if self.few.contains(&hash) {
                return false;
            }
            self.few.push(hash);
            return true;
        }
        !self.few.contains(&hash) && self.many.insert(hash)
    }
}

impl<'de> MapAccess<'de> for Map<'_, '_, 'de> {
    type Error = Miss;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        if !self.r.more(self.first, b'}')? {
            return self.finish();
        }
        self.first = false;
        if self.r.peek() != Some(b'"') {
            return Err(Miss);
        }
        let node = self.node;
        let key = self.r.string()?;
        let props = &node.properties;
        let found = match props.get(self.last) {
            Some((name, id)) if super::guided::same_key(name, key.get()) => Some((self.last, *id)),
            _ => props
                .iter()
                .position(|(name, _)| name == key.get())
                .map(|i| (i, props[i].1)),
        };
        self.child = match found {
            Some((i, id)) => {
                if i < 64 {
                    if self.seen & (1 << i) != 0 {
                        return Err(Miss);
                    }
                    self.seen |= 1 << i;
                } else {
                    // Past the first 64: kept beside the extra keys.
                    if !self.extras.insert(key_hash(key.get())) {
                        return Err(Miss);
                    }
                }
                self.last = i + 1;
                id
            }
            // serde_json's `Value` reads an object with this one key as the
            // JSON text of its string; the exact path refuses it.
            None if key.get() == RAW_VALUE_TOKEN => return Err(Miss),
            None => {
                if node.pattern_properties.len() > 1 {
                    // Several patterns may hold one value: read whole.
                    return Err(Miss);
                }
                let Some(child) = node.extra_child(Some(key.get())) else {
                    return Err(Miss);
                };
                if !self.extras.insert(key_hash(key.get())) {
                    return Err(Miss);
                }
                child
            }
        };
        self.count += 1;
        seed.deserialize(Key { key }).map(Some)
    }

    #[inline]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> R<S::Value> {
        self.r.expect(b':')?;
        let node = self.r.schema.node(self.child);
        seed.deserialize(Value { r: self.r, node })
    }
}

impl<'de> Map<'_, '_, 'de> {
    /// The end of the object: the required keys and the number of keys,
    /// as the walk judges them (the arguments object's are the generated
    /// parser's to judge).
    #[inline(always)]
    fn finish<T>(&self) -> R<Option<T>> {
        let node = self.node;
        if self.root
            || (node.required_mask & !self.seen == 0
                && node
                    .min_properties
                    .is_none_or(|min| self.count as u64 >= min)
                && node
                    .max_properties
                    .is_none_or(|max| self.count as u64 <= max))
        {
            return Ok(None);
        }
        Err(Miss)
    }
}

/// A key's hash, to notice one given twice.
fn key_hash(key: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(key)
}

/// A key already read, handed to the key's seed as serde_json's map keys
/// are: as a string.
struct Key<'de, 'x> {
    key: Str<'de, 'x>,
}

impl<'de> Key<'de, '_> {
    #[inline(always)]
    fn visit<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        match self.key {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Copied(s) => visitor.visit_str(s),
        }
    }
}

macro_rules! key_string {
    ($($method:ident),*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
            self.visit(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'de, '_> {
    type Error = Miss;

    key_string!(
        deserialize_any,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_identifier,
        deserialize_ignored_any,
        deserialize_unit,
        deserialize_seq,
        deserialize_map
    );

    miss!(
        deserialize_bool,
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
        deserialize_bytes,
        deserialize_byte_buf
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> R<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> R<V::Value> {
        self.visit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> R<V::Value> {
        if name == RAW_VALUE_TOKEN {
            return Err(Miss);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> R<V::Value> {
        self.visit(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> R<V::Value> {
        self.visit(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        self.visit(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> R<V::Value> {
        Err(Miss)
    }
}

/// An array's items, walked against its node as the walk's `Seq` does.
struct Seq<'r, 's, 'de> {
    r: &'r mut Reader<'s, 'de>,
    node: &'s Node,
    first: bool,
    count: usize,
}

impl<'de> SeqAccess<'de> for Seq<'_, '_, 'de> {
    type Error = Miss;

    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> R<Option<S::Value>> {
        if !self.r.more(self.first, b']')? {
            return self.end();
        }
        self.first = false;
        let node = self.node;
        let child = node
            .prefix_items
            .get(self.count)
            .copied()
            .unwrap_or(node.items);
        if child == NEVER_NODE || node.max_items.is_some_and(|max| self.count as u64 >= max) {
            return Err(Miss);
        }
        let node = self.r.schema.node(child);
        let value = seed.deserialize(Value { r: self.r, node })?;
        self.count += 1;
        Ok(Some(value))
    }
}

impl Seq<'_, '_, '_> {
    #[inline(always)]
    fn end<T>(&self) -> R<Option<T>> {
        if self
            .node
            .min_items
            .is_none_or(|min| self.count as u64 >= min)
        {
            return Ok(None);
        }
        Err(Miss)
    }
}

/// An enum: a string (a unit variant) or an object of one key (`tagged`).
/// The variant's name is checked against the enum's node, what it holds
/// against nothing, as in the walk.
struct Enum<'r, 's, 'de> {
    r: &'r mut Reader<'s, 'de>,
    node: &'s Node,
    tagged: bool,
}

impl<'r, 's, 'de> EnumAccess<'de> for Enum<'r, 's, 'de> {
    type Error = Miss;
    type Variant = Variant<'r, 's, 'de>;

    #[inline]
    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> R<(S::Value, Self::Variant)> {
        let value = seed.deserialize(Value {
            r: &mut *self.r,
            node: self.node,
        })?;
        if self.tagged {
            self.r.expect(b':')?;
        }
        Ok((
            value,
            Variant {
                r: self.r,
                tagged: self.tagged,
            },
        ))
    }
}

struct Variant<'r, 's, 'de> {
    r: &'r mut Reader<'s, 'de>,
    tagged: bool,
}

impl<'de> Variant<'_, '_, 'de> {
    fn any(self) -> R<Self> {
        if self.tagged { Ok(self) } else { Err(Miss) }
    }
}

impl<'de> VariantAccess<'de> for Variant<'_, '_, 'de> {
    type Error = Miss;

    fn unit_variant(self) -> R<()> {
        if !self.tagged {
            return Ok(());
        }
        let node = self.r.schema.node(ANY_NODE);
        de::Deserialize::deserialize(Value { r: self.r, node })
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> R<S::Value> {
        let this = self.any()?;
        let node = this.r.schema.node(ANY_NODE);
        seed.deserialize(Value { r: this.r, node })
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> R<V::Value> {
        let this = self.any()?;
        let node = this.r.schema.node(ANY_NODE);
        Value { r: this.r, node }.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> R<V::Value> {
        let this = self.any()?;
        let node = this.r.schema.node(ANY_NODE);
        Value { r: this.r, node }.deserialize_struct("", fields, visitor)
    }
}
