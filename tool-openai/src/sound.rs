//! What makes a schema unsatisfiable or rejected by OpenAI although every
//! keyword in it is supported: regular expressions, bounds, and values that
//! do not fit the type. The compiler and the checker share these rules.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use crate::error::{Pointer, StrictRule, StrictSchemaError};
use crate::keywords::{SUPPORTED_FORMATS, type_bit, type_bits, type_has};

/// What strict mode can do with a `pattern`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum PatternVerdict {
    /// OpenAI's regex engine takes it.
    Supported,
    /// A valid regular expression with a construct OpenAI's engine refuses
    /// (named here, e.g. "lookahead"); it moves into the description.
    Unsupported(&'static str),
    /// Not a regular expression at all (why).
    Invalid(String),
}

/// Judges a `pattern`: first the constructs OpenAI refuses (lookahead,
/// lookbehind, backreferences, atomic groups; escapes and character classes
/// are skipped, so `\(?=` and `[(?=]` are not lookahead), then the syntax,
/// with `regex-syntax` (the dialect of the `regex` crate that enforces
/// patterns at run time), the refused constructs replaced by plain groups.
pub(crate) fn judge_pattern(pattern: &str) -> PatternVerdict {
    let chars: Vec<char> = pattern.chars().collect();
    let mut rewritten = String::with_capacity(pattern.len());
    let mut found: Option<&'static str> = None;
    let mut note = |what: &'static str| {
        found.get_or_insert(what);
    };
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\\' {
            match next {
                Some('1'..='9') if !in_class => {
                    note("a backreference");
                    i += 1;
                    while chars.get(i).is_some_and(char::is_ascii_digit) {
                        i += 1;
                    }
                    rewritten.push_str("(?:)");
                    continue;
                }
                Some('k') if !in_class && chars.get(i + 2) == Some(&'<') => {
                    note("a backreference");
                    i += 3;
                    while chars.get(i).is_some_and(|c| *c != '>') {
                        i += 1;
                    }
                    i += 1;
                    rewritten.push_str("(?:)");
                    continue;
                }
                Some(escaped) => {
                    rewritten.push(c);
                    rewritten.push(escaped);
                    i += 2;
                    continue;
                }
                None => {
                    rewritten.push(c);
                    i += 1;
                    continue;
                }
            }
        }
        if in_class {
            if c == ']' {
                in_class = false;
            }
            rewritten.push(c);
            i += 1;
            continue;
        }
        if c == '[' {
            in_class = true;
            rewritten.push(c);
            i += 1;
            // A `]` first in a class (after an optional `^`) is a literal.
            if chars.get(i) == Some(&'^') {
                rewritten.push('^');
                i += 1;
            }
            if chars.get(i) == Some(&']') {
                rewritten.push(']');
                i += 1;
            }
            continue;
        }
        if c == '(' && next == Some('?') {
            let (what, skip) = match (chars.get(i + 2), chars.get(i + 3)) {
                (Some('=' | '!'), _) => (Some("lookahead"), 3),
                (Some('<'), Some('=' | '!')) => (Some("lookbehind"), 4),
                (Some('>'), _) => (Some("an atomic group"), 3),
                _ => (None, 0),
            };
            if let Some(what) = what {
                note(what);
                rewritten.push_str("(?:");
                i += skip;
                continue;
            }
        }
        rewritten.push(c);
        i += 1;
    }
    if let Err(error) = regex_syntax::Parser::new().parse(&rewritten) {
        let why = match &error {
            regex_syntax::Error::Parse(e) => e.kind().to_string(),
            regex_syntax::Error::Translate(e) => e.kind().to_string(),
            other => other.to_string(),
        };
        return PatternVerdict::Invalid(why);
    }
    match found {
        Some(what) => PatternVerdict::Unsupported(what),
        None => PatternVerdict::Supported,
    }
}

/// The error for a `pattern` that is not a regular expression.
pub(crate) fn invalid_pattern(path: &Pointer, why: &str) -> StrictSchemaError {
    path.error(
        StrictRule::InvalidPattern,
        format!(
            "`pattern` is not a valid regular expression ({why}); fix the expression, escaping \
             `\\`, `(`, `[` and other special characters meant literally"
        ),
    )
}

/// Orders two JSON numbers exactly: integers as integers, an integer and a
/// float without rounding the integer to the float's precision
/// (`9007199254740993` is above `9007199254740992.0`).
pub(crate) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        (Some(a), None) => compare_integer_float(a, b.as_f64()?),
        (None, Some(b)) => compare_integer_float(b, a.as_f64()?).map(Ordering::reverse),
        (None, None) => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// A JSON number that is an integer (as serde_json reads it), exactly.
fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// Orders an integer and a float exactly.
fn compare_integer_float(a: i128, b: f64) -> Option<Ordering> {
    if b.is_nan() {
        return None;
    }
    let floor = b.floor();
    // Saturating: beyond the range of i128 no JSON integer reaches it.
    let whole = floor as i128;
    Some(match a.cmp(&whole) {
        Ordering::Equal if b > floor => Ordering::Less,
        order => order,
    })
}

/// Refuses bounds no value can meet: a lower bound above the upper one
/// (numbers, lengths, item counts), equal bounds of which one is exclusive,
/// and a `multipleOf` that is not above 0. Keywords of the wrong JSON type
/// are left to the keyword checks.
pub(crate) fn check_bounds(
    map: &Map<String, Value>,
    path: &Pointer,
) -> Result<(), StrictSchemaError> {
    if let Some(Value::Number(step)) = map.get("multipleOf")
        && compare(step, &Number::from(0)) != Some(Ordering::Greater)
    {
        return Err(path.key("multipleOf").error(
            StrictRule::Malformed,
            format!(
                "`multipleOf` must be greater than 0, got {step}; write a positive step such \
                 as 1 or 0.01, or remove it"
            ),
        ));
    }
    for (low, low_exclusive) in [("minimum", false), ("exclusiveMinimum", true)] {
        for (high, high_exclusive) in [("maximum", false), ("exclusiveMaximum", true)] {
            let (Some(Value::Number(a)), Some(Value::Number(b))) = (map.get(low), map.get(high))
            else {
                continue;
            };
            let empty = match compare(a, b) {
                Some(Ordering::Greater) => true,
                Some(Ordering::Equal) => low_exclusive || high_exclusive,
                _ => false,
            };
            if empty {
                return Err(path.key(low).error(
                    StrictRule::Unsatisfiable,
                    format!(
                        "`{low}` {a} and `{high}` {b} leave no number between them, so no value \
                         is accepted; swap the bounds or correct one of them"
                    ),
                ));
            }
        }
    }
    for (low, high, unit) in [
        ("minLength", "maxLength", "string"),
        ("minItems", "maxItems", "array"),
    ] {
        if let (Some(a), Some(b)) = (
            map.get(low).and_then(Value::as_u64),
            map.get(high).and_then(Value::as_u64),
        ) && a > b
        {
            return Err(path.key(low).error(
                StrictRule::Unsatisfiable,
                format!(
                    "`{low}` {a} is greater than `{high}` {b}, so no {unit} is accepted; swap \
                     them or correct one of them"
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses integer bounds that leave no integer (`"type": "integer"` with
/// `minimum` 1.2 and `maximum` 1.8, or `exclusiveMinimum` 1 and
/// `exclusiveMaximum` 2), and bounds that leave no multiple of an integer
/// `multipleOf` (10 between 1 and 9), when the type admits nothing but
/// numbers. Each bound is rounded exactly; a non-integer step is only
/// checked as far as integers go.
pub(crate) fn check_number_range(
    map: &Map<String, Value>,
    types: &Value,
    path: &Pointer,
) -> Result<(), StrictSchemaError> {
    check_number_range_of(map, type_bits(types), path)
}

/// [`check_number_range`] for the types a schema admits as
/// [`type_bits`](crate::keywords::type_bits) (those of the definition a
/// `$ref` names, or of a union's branches).
pub(crate) fn check_number_range_of(
    map: &Map<String, Value>,
    bits: u8,
    path: &Pointer,
) -> Result<(), StrictSchemaError> {
    let integer_only = bits == type_bit("integer");
    let number_only =
        bits == type_bit("number") || bits == type_bit("number") | type_bit("integer");
    if !integer_only && !number_only {
        return Ok(());
    }
    let step = match map.get("multipleOf") {
        Some(Value::Number(step)) => integer(step).filter(|s| *s > 0),
        _ => None,
    };
    let step = match (step, integer_only) {
        (Some(step), _) => step,
        (None, true) => 1,
        (None, false) => return Ok(()),
    };
    let bound = |key: &str| match map.get(key) {
        Some(Value::Number(n)) => Some(n),
        _ => None,
    };
    // The least and greatest integers the bounds admit, with the keyword
    // that set each.
    let mut low: Option<(i128, &str)> = None;
    for (key, exclusive) in [("minimum", false), ("exclusiveMinimum", true)] {
        if let Some(n) = bound(key).and_then(|n| rounded(n, true, exclusive)) {
            low = Some(match low {
                Some((l, k)) if l >= n => (l, k),
                _ => (n, key),
            });
        }
    }
    let mut high: Option<i128> = None;
    for (key, exclusive) in [("maximum", false), ("exclusiveMaximum", true)] {
        if let Some(n) = bound(key).and_then(|n| rounded(n, false, exclusive)) {
            high = Some(high.map_or(n, |h| h.min(n)));
        }
    }
    let (Some((low, key)), Some(high)) = (low, high) else {
        return Ok(());
    };
    let quotient = low.div_euclid(step);
    let Some(first) = quotient.checked_mul(step).and_then(|q| {
        if q == low {
            Some(q)
        } else {
            q.checked_add(step)
        }
    }) else {
        return Ok(());
    };
    if first <= high {
        return Ok(());
    }
    let what = if step == 1 {
        "no integer".to_owned()
    } else {
        format!("no multiple of {step}")
    };
    Err(path.key(key).error(
        StrictRule::Unsatisfiable,
        format!(
            "the bounds of this schema leave {what} between them, so no value is accepted; \
             widen the bounds or change `type` or `multipleOf`"
        ),
    ))
}

/// The least integer at or above (`up`) or the greatest at or below a
/// bound, one further when the bound is exclusive; exact for integers,
/// saturating for floats beyond any JSON integer.
fn rounded(n: &Number, up: bool, exclusive: bool) -> Option<i128> {
    let (value, exact) = match integer(n) {
        Some(i) => (i, true),
        None => {
            let f = n.as_f64()?;
            let r = if up { f.ceil() } else { f.floor() };
            (r as i128, r == f)
        }
    };
    Some(match (exclusive && exact, up) {
        (true, true) => value.saturating_add(1),
        (true, false) => value.saturating_sub(1),
        (false, _) => value,
    })
}

/// Refuses an `enum` or `const` value that the bounds beside it rule out
/// (a number outside `minimum`/`maximum` or not a multiple of an integer
/// `multipleOf`, a string shorter than `minLength`, longer than
/// `maxLength` or not matching `pattern`): that value could never be sent.
fn check_value_bounds(
    map: &Map<String, Value>,
    value: &Value,
    matches: &dyn Fn(&str) -> bool,
    at: &dyn Fn() -> Pointer,
) -> Result<(), StrictSchemaError> {
    let refuse = |key: &str| {
        Err(at().error(
            StrictRule::Unsatisfiable,
            format!(
                "{} is outside the `{key}` beside it, so this value can never be sent; change \
                 the value or `{key}`",
                shown(value)
            ),
        ))
    };
    match value {
        Value::Number(v) => {
            for (key, allowed) in [
                ("minimum", &[Ordering::Greater, Ordering::Equal][..]),
                ("exclusiveMinimum", &[Ordering::Greater][..]),
                ("maximum", &[Ordering::Less, Ordering::Equal][..]),
                ("exclusiveMaximum", &[Ordering::Less][..]),
            ] {
                if let Some(Value::Number(bound)) = map.get(key)
                    && let Some(order) = compare(v, bound)
                    && !allowed.contains(&order)
                {
                    return refuse(key);
                }
            }
            if let Some(Value::Number(step)) = map.get("multipleOf")
                && let (Some(step), Some(v)) = (integer(step), integer(v))
                && step > 0
                && v % step != 0
            {
                return refuse("multipleOf");
            }
        }
        Value::String(text) => {
            let length = text.chars().count() as u64;
            if map
                .get("minLength")
                .and_then(Value::as_u64)
                .is_some_and(|m| length < m)
            {
                return refuse("minLength");
            }
            if map
                .get("maxLength")
                .and_then(Value::as_u64)
                .is_some_and(|m| length > m)
            {
                return refuse("maxLength");
            }
            if !matches(text) {
                return refuse("pattern");
            }
        }
        _ => {}
    }
    Ok(())
}

/// Whether a value is of one of the types (an integer is a number, and a
/// number without a fraction is an integer).
fn fits(types: &Value, value: &Value) -> bool {
    match value {
        Value::Null => type_has(types, "null"),
        Value::Bool(_) => type_has(types, "boolean"),
        Value::String(_) => type_has(types, "string"),
        Value::Array(_) => type_has(types, "array"),
        Value::Object(_) => type_has(types, "object"),
        Value::Number(n) => {
            let integral = n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
            type_has(types, "number") || (integral && type_has(types, "integer"))
        }
    }
}

/// A value in a message: its JSON text, cut at 60 characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

/// Refuses `enum` and `const` values that are objects or arrays (strict
/// mode takes scalars only), and, when the type is known, values of
/// another type (`{"type": "string", "enum": [1]}` accepts nothing).
pub(crate) fn check_values(
    map: &Map<String, Value>,
    types: Option<&Value>,
    path: &Pointer,
) -> Result<(), StrictSchemaError> {
    let values = match map.get("enum") {
        Some(Value::Array(values)) => values.as_slice(),
        _ => &[],
    };
    // A `pattern` beside string values is compiled once, and only then (as
    // the parser compiles it); one that does not compile is judged elsewhere.
    let has_strings = values.iter().chain(map.get("const")).any(Value::is_string);
    let pattern = match map.get("pattern") {
        Some(Value::String(source)) if has_strings => tool_core::parse::ecma_regex(source).ok(),
        _ => None,
    };
    let matches = |text: &str| pattern.as_ref().is_none_or(|re| re.is_match(text));
    // Pointers are only built for the value refused.
    let enumerated = values.iter().enumerate().map(|(i, v)| (Some(i), v));
    for (index, value) in enumerated.chain(map.get("const").map(|v| (None, v))) {
        let at = || match index {
            Some(i) => path.key("enum").index(i),
            None => path.key("const"),
        };
        if value.is_object() || value.is_array() {
            return Err(at().error(
                StrictRule::UnsupportedKeyword,
                "an `enum` or `const` of objects or arrays cannot be expressed in strict mode; \
                 use string or number values",
            ));
        }
        if let Some(types) = types
            && !fits(types, value)
        {
            return Err(at().error(
                StrictRule::WrongType,
                format!(
                    "{} does not fit `\"type\": {types}`, so this value can never be sent; \
                     change the value or the `type`",
                    shown(value)
                ),
            ));
        }
        check_value_bounds(map, value, &matches, &at)?;
    }
    Ok(())
}

/// Refuses `pattern`, and a `format` strict mode supports (all of them are
/// string formats), on a schema whose type does not admit strings: OpenAI
/// rejects them there.
pub(crate) fn check_string_keywords(
    map: &Map<String, Value>,
    types: &Value,
    path: &Pointer,
) -> Result<(), StrictSchemaError> {
    if type_has(types, "string") {
        return Ok(());
    }
    if map.contains_key("pattern") {
        return Err(path.key("pattern").error(
            StrictRule::WrongType,
            format!(
                "`pattern` applies to strings, and this schema's type is {types}; remove \
                 `pattern` or make the type `\"string\"`"
            ),
        ));
    }
    if let Some(format) = map.get("format").and_then(Value::as_str)
        && SUPPORTED_FORMATS.contains(&format)
    {
        return Err(path.key("format").error(
            StrictRule::WrongType,
            format!(
                "`format` \"{format}\" applies to strings, and this schema's type is {types}; \
                 remove `format` or make the type `\"string\"`"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_classes_are_not_lookaround() {
        assert_eq!(judge_pattern(r"^\(?=a\)$"), PatternVerdict::Supported);
        assert_eq!(judge_pattern("[(?=]"), PatternVerdict::Supported);
        assert_eq!(judge_pattern(r"[\](?=]"), PatternVerdict::Supported);
        assert_eq!(judge_pattern("[](?=]"), PatternVerdict::Supported);
        assert_eq!(judge_pattern("[^](?!]"), PatternVerdict::Supported);
        assert_eq!(
            judge_pattern(r"\\(?=a)"),
            PatternVerdict::Unsupported("lookahead")
        );
        assert_eq!(
            judge_pattern("[a](?=a)"),
            PatternVerdict::Unsupported("lookahead")
        );
        assert_eq!(
            judge_pattern("a(?!b)"),
            PatternVerdict::Unsupported("lookahead")
        );
        assert_eq!(
            judge_pattern("(?<=a)b"),
            PatternVerdict::Unsupported("lookbehind")
        );
        assert_eq!(
            judge_pattern("(?<!a)b"),
            PatternVerdict::Unsupported("lookbehind")
        );
        assert_eq!(judge_pattern("(?<name>a)"), PatternVerdict::Supported);
        assert_eq!(
            judge_pattern(r"(a)\1"),
            PatternVerdict::Unsupported("a backreference")
        );
        assert_eq!(
            judge_pattern(r"(?<n>a)\k<n>"),
            PatternVerdict::Unsupported("a backreference")
        );
        assert_eq!(judge_pattern(r"[\\1]"), PatternVerdict::Supported);
        assert_eq!(
            judge_pattern("(?>a)"),
            PatternVerdict::Unsupported("an atomic group")
        );
    }

    #[test]
    fn invalid_expressions_are_invalid_even_with_lookaround() {
        assert!(matches!(judge_pattern("("), PatternVerdict::Invalid(_)));
        assert!(matches!(judge_pattern("(?=a"), PatternVerdict::Invalid(_)));
        assert!(matches!(
            judge_pattern("a{2,1}"),
            PatternVerdict::Invalid(_)
        ));
        assert!(matches!(judge_pattern("[a"), PatternVerdict::Invalid(_)));
        assert_eq!(
            judge_pattern(r"^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$"),
            PatternVerdict::Unsupported("lookahead")
        );
    }
}
