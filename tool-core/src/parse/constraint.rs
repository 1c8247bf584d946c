//! Checks for the constraints a field declares (`min_length`, `pattern`,
//! `minimum`, `min_items`, `format`, ...), called by the generated parser.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::sync::{Arc, OnceLock};

use regex::Regex;

use super::error::{ArgumentError, ArgumentErrorKind};
use super::formats;
use super::path::field_path;
use crate::contract::NumberBound;
use crate::words::humanize::echo;

/// A type whose value is a string, for `min_length`, `max_length`,
/// `pattern` and `format`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a string, so it cannot have a length, pattern or format constraint",
    label = "not a string",
    note = "`min_length`, `max_length`, `pattern` and `format` apply to `String` (or `Option<String>`); use `min_items`/`max_items` for lists and `minimum`/`maximum` for numbers"
)]
pub trait StringValue {
    /// The string, or `None` when an optional value is absent.
    fn string_value(&self) -> Option<&str>;
}

impl StringValue for String {
    fn string_value(&self) -> Option<&str> {
        Some(self)
    }
}
impl StringValue for str {
    fn string_value(&self) -> Option<&str> {
        Some(self)
    }
}
impl StringValue for Box<str> {
    fn string_value(&self) -> Option<&str> {
        Some(self)
    }
}
impl StringValue for Arc<str> {
    fn string_value(&self) -> Option<&str> {
        Some(self)
    }
}
impl StringValue for Cow<'_, str> {
    fn string_value(&self) -> Option<&str> {
        Some(self)
    }
}
impl<T: StringValue> StringValue for Option<T> {
    fn string_value(&self) -> Option<&str> {
        self.as_ref().and_then(StringValue::string_value)
    }
}

/// A type whose value is a list, for `min_items` and `max_items`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list, so it cannot have an item-count constraint",
    label = "not a list",
    note = "`min_items` and `max_items` apply to `Vec<T>`, sets and `Option` of them; use `min_length`/`max_length` for strings"
)]
pub trait ItemsValue {
    /// The number of items, or `None` when an optional value is absent.
    fn item_count(&self) -> Option<usize>;
}

impl<T> ItemsValue for Vec<T> {
    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T> ItemsValue for [T] {
    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T> ItemsValue for Box<[T]> {
    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T> ItemsValue for VecDeque<T> {
    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T, S> ItemsValue for HashSet<T, S> {
    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T> ItemsValue for BTreeSet<T> {
    fn item_count(&self) -> Option<usize> {
        Some(self.len())
    }
}
impl<T: ItemsValue> ItemsValue for Option<T> {
    fn item_count(&self) -> Option<usize> {
        self.as_ref().and_then(ItemsValue::item_count)
    }
}

/// A number as the range checks see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// Any Rust integer.
    Int(i128),
    /// `f32` or `f64`.
    Float(f64),
}

/// A type whose value is a number, for `minimum` and `maximum`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number, so it cannot have a `minimum` or `maximum`",
    label = "not a number",
    note = "`minimum` and `maximum` apply to integer and float fields (or `Option` of them)"
)]
pub trait NumberValue {
    /// The number, or `None` when an optional value is absent.
    fn number_value(&self) -> Option<Number>;
}

macro_rules! int_number {
    ($($t:ty)*) => {$(
        impl NumberValue for $t {
            fn number_value(&self) -> Option<Number> {
                Some(Number::Int(*self as i128))
            }
        }
    )*};
}
int_number!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 usize);

impl NumberValue for u128 {
    fn number_value(&self) -> Option<Number> {
        Some(match i128::try_from(*self) {
            Ok(n) => Number::Int(n),
            Err(_) => Number::Float(*self as f64),
        })
    }
}
impl NumberValue for f32 {
    fn number_value(&self) -> Option<Number> {
        Some(Number::Float(f64::from(*self)))
    }
}
impl NumberValue for f64 {
    fn number_value(&self) -> Option<Number> {
        Some(Number::Float(*self))
    }
}
impl<T: NumberValue> NumberValue for Option<T> {
    fn number_value(&self) -> Option<Number> {
        self.as_ref().and_then(NumberValue::number_value)
    }
}

fn invalid(field: &str, message: String) -> ArgumentError {
    ArgumentError::invalid(field_path(field), message)
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `min_length`: at least `min` characters.
pub fn min_length<T: StringValue + ?Sized>(
    value: &T,
    min: u64,
    field: &str,
) -> Result<(), ArgumentError> {
    match value.string_value() {
        Some(s) if (s.chars().count() as u64) < min => Err(invalid(
            field,
            format!(
                "expected at least {}, got {}",
                plural(min, "character", "characters"),
                plural(s.chars().count() as u64, "character", "characters")
            ),
        )),
        _ => Ok(()),
    }
}

/// `max_length`: at most `max` characters.
pub fn max_length<T: StringValue + ?Sized>(
    value: &T,
    max: u64,
    field: &str,
) -> Result<(), ArgumentError> {
    match value.string_value() {
        Some(s) if (s.chars().count() as u64) > max => Err(invalid(
            field,
            format!(
                "expected at most {}, got {}",
                plural(max, "character", "characters"),
                plural(s.chars().count() as u64, "character", "characters")
            ),
        )),
        _ => Ok(()),
    }
}

/// `min_items`: at least `min` items.
pub fn min_items<T: ItemsValue + ?Sized>(
    value: &T,
    min: u64,
    field: &str,
) -> Result<(), ArgumentError> {
    match value.item_count() {
        Some(n) if (n as u64) < min => Err(invalid(
            field,
            format!(
                "expected at least {}, got {}",
                plural(min, "item", "items"),
                plural(n as u64, "item", "items")
            ),
        )),
        _ => Ok(()),
    }
}

/// `max_items`: at most `max` items.
pub fn max_items<T: ItemsValue + ?Sized>(
    value: &T,
    max: u64,
    field: &str,
) -> Result<(), ArgumentError> {
    match value.item_count() {
        Some(n) if (n as u64) > max => Err(invalid(
            field,
            format!(
                "expected at most {}, got {}",
                plural(max, "item", "items"),
                plural(n as u64, "item", "items")
            ),
        )),
        _ => Ok(()),
    }
}

/// Compares a value with a bound exactly (integers as integers).
fn compare(value: Number, bound: NumberBound) -> Option<std::cmp::Ordering> {
    match (value, bound) {
        (Number::Int(v), NumberBound::Int(b)) => Some(v.cmp(&i128::from(b))),
        (Number::Int(v), NumberBound::UInt(b)) => Some(v.cmp(&i128::from(b))),
        (Number::Int(v), NumberBound::Float(b)) => (v as f64).partial_cmp(&b),
        (Number::Float(v), NumberBound::Int(b)) => v.partial_cmp(&(b as f64)),
        (Number::Float(v), NumberBound::UInt(b)) => v.partial_cmp(&(b as f64)),
        (Number::Float(v), NumberBound::Float(b)) => v.partial_cmp(&b),
    }
}

fn show(n: Number) -> String {
    match n {
        Number::Int(v) => v.to_string(),
        Number::Float(v) => v.to_string(),
    }
}

/// `minimum`: at least `min`.
pub fn minimum<T: NumberValue + ?Sized>(
    value: &T,
    min: NumberBound,
    field: &str,
) -> Result<(), ArgumentError> {
    match value.number_value() {
        Some(v) if compare(v, min).is_some_and(std::cmp::Ordering::is_ge) => Ok(()),
        Some(v) => Err(invalid(
            field,
            format!("expected a number of at least {min}, got {}", show(v)),
        )),
        None => Ok(()),
    }
}

/// `maximum`: at most `max`.
pub fn maximum<T: NumberValue + ?Sized>(
    value: &T,
    max: NumberBound,
    field: &str,
) -> Result<(), ArgumentError> {
    match value.number_value() {
        Some(v) if compare(v, max).is_some_and(std::cmp::Ordering::is_le) => Ok(()),
        Some(v) => Err(invalid(
            field,
            format!("expected a number of at most {max}, got {}", show(v)),
        )),
        None => Ok(()),
    }
}

/// A field's `pattern`, compiled on first use and kept for the process.
///
/// Patterns run on the `regex` crate's linear-time engines, so a check
/// takes time linear in the string whatever the pattern. `#[derive(Tool)]`
/// checks the same syntax at compile time (with `regex-syntax`, the
/// `regex` crate's parser); `\d`, `\w` and `\b` are ASCII-only and `\s` is
/// Unicode whitespace and the line terminators (U+2028, U+2029), and `.`
/// matches any character but a line terminator, as in ECMA-262, while `.`
/// and classes match whole Unicode characters.
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<Regex, String>>,
}

impl Pattern {
    /// A pattern from its source (compiled lazily).
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern's source text.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled expression, or why it does not compile.
    pub fn regex(&self) -> Result<&Regex, &str> {
        self.compiled
            .get_or_init(|| ecma_regex(self.source).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }
}

/// Compiles a JSON Schema (ECMA-262) `pattern` for the `regex` crate's
/// linear-time engines, with the classes ECMA-262 means (see
/// [`ascii_classes`]); unanchored, as JSON Schema matches.
pub fn ecma_regex(source: &str) -> Result<Regex, regex::Error> {
    Regex::new(&ascii_classes(source))
}

/// Rewrites the Perl classes `\d \D \w \W` into ASCII classes, `\s \S`
/// into ECMA-262's whitespace (its `WhiteSpace` and `LineTerminator`:
/// Unicode spaces, U+FEFF, U+2028 and U+2029) and `\b \B` into ASCII word
/// boundaries, inside and outside `[...]`, and `.` into any character but
/// ECMA-262's line terminators (`\n`, `\r`, U+2028, U+2029; the engine's
/// `.` stops only at `\n`) unless the pattern sets the `s` flag, so the
/// Unicode-aware engine reads them as ECMA-262 does.
fn ascii_classes(source: &str) -> String {
    const DOT: &str = "[^\\n\\r\\x{2028}\\x{2029}]";
    let dot_all = sets_dot_all(source);
    const DIGIT: &str = "0-9";
    const WORD: &str = "0-9A-Za-z_";
    const SPACE: &str = "\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
    let mut out = String::with_capacity(source.len() + 16);
    let mut depth = 0_usize;
    // Just after `[` or `[^`, where `]` is a literal.
    let mut class_start = false;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        let at_start = std::mem::take(&mut class_start);
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                let class = match next.to_ascii_lowercase() {
                    'd' => Some(DIGIT),
                    'w' => Some(WORD),
                    's' => Some(SPACE),
                    _ => None,
                };
                match (class, next.is_ascii_uppercase(), depth) {
                    (Some(set), false, 0) => out.push_str(&format!("[{set}]")),
                    (Some(set), false, _) => out.push_str(set),
                    (Some(set), true, _) => out.push_str(&format!("[^{set}]")),
                    (None, _, 0) if next == 'b' || next == 'B' => {
                        out.push_str(&format!("(?-u:\\{next})"));
                    }
                    (None, _, _) => {
                        out.push(c);
                        out.push(next);
                    }
                }
            }
            '[' => {
                depth += 1;
                out.push(c);
                class_start = true;
            }
            '^' if at_start && depth > 0 => {
                out.push(c);
                class_start = true;
            }
            ']' if depth > 0 && !at_start => {
                depth -= 1;
                out.push(c);
            }
            '.' if depth == 0 && !dot_all => out.push_str(DOT),
            _ => out.push(c),
        }
    }
    out
}

/// Whether a flag group of `source` (`(?s)`, `(?is:...)`) turns the `s`
/// flag on, so that `.` is meant to match every character.
fn sets_dot_all(source: &str) -> bool {
    source.match_indices("(?").any(|(at, _)| {
        let flags = &source[at + 2..];
        let end = flags.find([')', ':']).unwrap_or(flags.len());
        let flags = &flags[..end];
        // A named group (`(?P<sky>`, `(?<s>`) is not a flag group.
        let is_flags = flags.chars().all(|c| "imsxuR-".contains(c));
        is_flags && flags.split('-').next().unwrap_or("").contains('s')
    })
}

/// `pattern`: the string matches the regular expression (anywhere, as in JSON Schema).
pub fn pattern<T: StringValue + ?Sized>(
    value: &T,
    pattern: &Pattern,
    field: &str,
) -> Result<(), ArgumentError> {
    let Some(s) = value.string_value() else {
        return Ok(());
    };
    match pattern.regex() {
        Ok(re) if re.is_match(s) => Ok(()),
        Ok(_) => Err(invalid(
            field,
            format!(
                "expected a string matching the pattern {:?}, got {}",
                pattern.source,
                echo(s)
            ),
        )),
        Err(why) => Err(ArgumentError::new(
            ArgumentErrorKind::InvalidContract,
            field_path(field),
            format!(
                "the contract's pattern {:?} is not a valid regular expression: {why}",
                pattern.source
            ),
        )),
    }
}

/// `format`: the string is a valid value of the format.
pub fn format<T: StringValue + ?Sized>(
    value: &T,
    format: &str,
    field: &str,
) -> Result<(), ArgumentError> {
    let Some(s) = value.string_value() else {
        return Ok(());
    };
    match formats::is_valid(format, s) {
        Some(true) => Ok(()),
        Some(false) => Err(invalid(
            field,
            format!("expected {}, got {}", formats::describe(format), echo(s)),
        )),
        None => Err(ArgumentError::new(
            ArgumentErrorKind::InvalidContract,
            field_path(field),
            format!("the contract's format {format:?} is not one this library checks"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_count_characters() {
        assert_eq!(min_length("é", 1, "a"), Ok(()));
        let err = min_length("", 1, "order_ref").unwrap_err();
        assert_eq!(
            err.to_string(),
            "$.order_ref: expected at least 1 character, got 0 characters"
        );
        let err = max_length(&Some("abcd".to_string()), 3, "a").unwrap_err();
        assert_eq!(
            err.message(),
            "expected at most 3 characters, got 4 characters"
        );
        assert_eq!(max_length(&None::<String>, 3, "a"), Ok(()));
    }

    #[test]
    fn ranges_compare_exactly() {
        assert_eq!(minimum(&1u32, NumberBound::UInt(1), "q"), Ok(()));
        assert_eq!(
            minimum(&0u32, NumberBound::UInt(1), "q")
                .unwrap_err()
                .message(),
            "expected a number of at least 1, got 0"
        );
        assert_eq!(
            maximum(&i64::MAX, NumberBound::Int(-1), "q")
                .unwrap_err()
                .message(),
            "expected a number of at most -1, got 9223372036854775807"
        );
        assert_eq!(
            maximum(&0.51f64, NumberBound::Float(0.5), "r")
                .unwrap_err()
                .message(),
            "expected a number of at most 0.5, got 0.51"
        );
        assert!(minimum(&Some(f64::NAN), NumberBound::Float(0.0), "r").is_err());
        assert_eq!(minimum(&None::<u8>, NumberBound::UInt(3), "r"), Ok(()));
    }

    #[test]
    fn items() {
        assert_eq!(
            min_items(&Vec::<u8>::new(), 1, "tags")
                .unwrap_err()
                .message(),
            "expected at least 1 item, got 0 items"
        );
        assert_eq!(max_items(&vec![1, 2], 2, "tags"), Ok(()));
    }

    #[test]
    fn patterns_and_bad_patterns() {
        static SKU: Pattern = Pattern::new("^[A-Z]-\\d+$");
        assert_eq!(pattern("A-10293", &SKU, "sku"), Ok(()));
        assert_eq!(
            pattern("a-1", &SKU, "sku").unwrap_err().message(),
            "expected a string matching the pattern \"^[A-Z]-\\\\d+$\", got \"a-1\""
        );
        static BAD: Pattern = Pattern::new("(");
        let err = pattern("x", &BAD, "sku").unwrap_err();
        assert_eq!(err.code(), "INVALID_CONTRACT");
    }

    #[test]
    fn perl_classes_and_boundaries_stay_ascii() {
        assert_eq!(ascii_classes(r"^\d+$"), "^[0-9]+$");
        assert_eq!(ascii_classes(r"[\d_]\W"), "[0-9_][^0-9A-Za-z_]");
        assert_eq!(
            ascii_classes(r"[^\s][\D]"),
            r"[^\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}][[^0-9]]"
        );
        assert_eq!(ascii_classes(r"\bx\B\\d"), r"(?-u:\b)x(?-u:\B)\\d");
        assert_eq!(
            ascii_classes(r"[]\d][[:alpha:]\w]"),
            "[]0-9][[:alpha:]0-9A-Za-z_]"
        );
        static DIGITS: Pattern = Pattern::new(r"^[A-Z]-\d+$");
        assert_eq!(pattern("A-123", &DIGITS, "sku"), Ok(()));
        // U+0661..U+0663, ARABIC-INDIC DIGITs: not digits in JSON Schema.
        assert!(pattern("A-\u{661}\u{662}\u{663}", &DIGITS, "sku").is_err());
        static WORD: Pattern = Pattern::new(r"^\w+\b$");
        assert_eq!(pattern("ab_9", &WORD, "w"), Ok(()));
        assert!(pattern("\u{e9}t\u{e9}", &WORD, "w").is_err());
        static ANY: Pattern = Pattern::new("^.{3}$");
        assert_eq!(pattern("\u{e9}\u{e9}\u{e9}", &ANY, "a"), Ok(()));
        // `.` stops at ECMA-262's line terminators, unless `s` is set.
        static LINE: Pattern = Pattern::new("^.+$");
        assert_eq!(pattern("a\u{e9}\t", &LINE, "l"), Ok(()));
        for c in ['\n', '\r', '\u{2028}', '\u{2029}'] {
            assert!(pattern(&format!("a{c}b"), &LINE, "l").is_err(), "{c:?}");
        }
        static NAMED: Pattern = Pattern::new("^(?P<sku>.+)$");
        assert!(pattern("a\u{2028}b", &NAMED, "l").is_err());
        static ALL: Pattern = Pattern::new("(?s)^.+$");
        assert_eq!(pattern("a\u{2028}\rb", &ALL, "l"), Ok(()));
        assert_eq!(
            ascii_classes(r"a.[.]\.(?-s:.)"),
            r"a[^\n\r\x{2028}\x{2029}][.]\.(?-s:[^\n\r\x{2028}\x{2029}])"
        );
        static CASE: Pattern = Pattern::new("(?i)^sku-[a-z]+$");
        assert_eq!(pattern("SKU-ab", &CASE, "a"), Ok(()));
    }

    #[test]
    fn an_unanchored_pattern_checks_a_mebibyte() {
        static TAIL: Pattern = Pattern::new("[a-z]+[0-9]{3}x");
        let mut long = "a".repeat(1 << 20);
        assert!(pattern(&long, &TAIL, "note").is_err());
        long.push_str("123x");
        assert_eq!(pattern(&long, &TAIL, "note"), Ok(()));
    }

    #[test]
    fn formats_are_enforced() {
        assert_eq!(format("ana@example.com", "email", "to"), Ok(()));
        assert_eq!(
            format("ana", "email", "to").unwrap_err().to_string(),
            "$.to: expected an email address such as \"ana@example.com\", got \"ana\""
        );
    }
}
