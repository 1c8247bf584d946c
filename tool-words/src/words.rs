//! The renderer: what a value's schema says besides its description, in
//! sentences, always in the same words and the same order.

use std::cmp::Ordering;

use crate::constraint::{Constraint, Keyword};
use crate::format::{FormatWords, format_words};
use crate::number::NumberBound;
use crate::text::{code, sentence, unit_sentence};

/// A value's unit, constraints and other schema keywords, gathered to be
/// said in sentences: `Unit: minutes.`, `Between 1 and 64 characters.`,
/// ``Matches the regular expression `^[A-Z]+$`.``, `A whole number from 0
/// to 255.`
///
/// The Markdown docs, the rustdoc section of `#[derive(Tool)]` and the
/// notes a provider adapter adds to a schema's description all say a
/// value's limits with it, so they use the same words. A later constraint
/// of one kind replaces an earlier one, as a field's own constraint
/// replaces its type's in the schema.
///
/// ```
/// use tool_contract::contract::{Constraint, NumberBound};
/// use tool_contract::docs::Words;
///
/// let bounds = [
///     Constraint::Minimum(NumberBound::UInt(5)),
///     Constraint::Maximum(NumberBound::UInt(1440)),
/// ];
/// let text = Words::new().field(Some("minutes"), &bounds).text();
/// assert_eq!(text, "Unit: minutes. From 5 to 1440.");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Words<'a> {
    unit: Option<&'a str>,
    format: Option<&'a str>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<&'a str>,
    minimum: Option<NumberBound>,
    maximum: Option<NumberBound>,
    exclusive_minimum: Option<NumberBound>,
    exclusive_maximum: Option<NumberBound>,
    multiple_of: Option<NumberBound>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    content_encoding: Option<&'a str>,
    content_media_type: Option<&'a str>,
    examples: Vec<String>,
    deprecated: bool,
    lower_apart: Option<NumberBound>,
    upper_apart: Option<NumberBound>,
}

impl<'a> Words<'a> {
    /// Nothing to say yet.
    pub fn new() -> Self {
        Words::default()
    }

    /// A field's unit (`#[tool(unit = "...")]`) and constraints.
    pub fn field(&mut self, unit: Option<&'a str>, constraints: &[Constraint<'a>]) -> &mut Self {
        if let Some(unit) = unit {
            self.unit(unit);
        }
        for constraint in constraints {
            self.constraint(*constraint);
        }
        self
    }

    /// The unit of a quantity, said first: `Unit: minutes.`
    pub fn unit(&mut self, unit: &'a str) -> &mut Self {
        self.unit = Some(unit);
        self
    }

    /// One constraint.
    pub fn constraint(&mut self, constraint: Constraint<'a>) -> &mut Self {
        match constraint {
            Constraint::MinLength(n) => self.min_length = Some(n),
            Constraint::MaxLength(n) => self.max_length = Some(n),
            Constraint::Pattern(pattern) => self.pattern = Some(pattern),
            Constraint::Minimum(n) => self.minimum = Some(n),
            Constraint::Maximum(n) => self.maximum = Some(n),
            Constraint::MinItems(n) => self.min_items = Some(n),
            Constraint::MaxItems(n) => self.max_items = Some(n),
            Constraint::Format(format) => self.format = Some(format),
        }
        self
    }

    /// One other keyword of the value's schema.
    pub fn keyword(&mut self, keyword: Keyword<'a>) -> &mut Self {
        match keyword {
            Keyword::ExclusiveMinimum(n) => self.exclusive_minimum = Some(n),
            Keyword::ExclusiveMaximum(n) => self.exclusive_maximum = Some(n),
            Keyword::MultipleOf(n) => self.multiple_of = Some(n),
            Keyword::UniqueItems => self.unique_items = true,
            Keyword::ContentEncoding(encoding) => self.content_encoding = Some(encoding),
            Keyword::ContentMediaType(media_type) => self.content_media_type = Some(media_type),
            Keyword::Examples(examples) => self.examples = examples,
            Keyword::Deprecated => self.deprecated = true,
        }
        self
    }

    /// Bounds that are stated apart from these words (a provider keeps
    /// `minimum` and `maximum` as keywords): they are not said again, but
    /// an integer format whose range they fall within says nothing more.
    pub fn bounds_apart(
        &mut self,
        lower: Option<NumberBound>,
        upper: Option<NumberBound>,
    ) -> &mut Self {
        self.lower_apart = lower;
        self.upper_apart = upper;
        self
    }

    /// The sentences, in a fixed order: unit, format, length, pattern,
    /// bounds, step, item count, content, examples, deprecation.
    ///
    /// An integer format (`uint32`) is said as its range, `A whole number
    /// from 0 to 4294967295.`, unless both bounds fall within it; a bound
    /// the range already implies (`minimum` 0 for `uint32`) is then left out.
    pub fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(unit) = self.unit {
            out.push(unit_sentence(unit));
        }
        let implied = self
            .format
            .and_then(|format| self.say_format(format, &mut out));
        out.extend(count_range(self.min_length, self.max_length, "character"));
        if let Some(pattern) = self.pattern {
            out.push(format!("Matches the regular expression {}.", code(pattern)));
        }
        let (minimum, maximum) = match implied {
            Some((low, high)) => (
                self.minimum
                    .filter(|n| n.cmp_signed(low) == Ordering::Greater),
                self.maximum
                    .filter(|n| n.cmp_unsigned(high) == Ordering::Less),
            ),
            None => (self.minimum, self.maximum),
        };
        match (minimum, maximum) {
            (Some(min), Some(max)) => out.push(format!("From {min} to {max}.")),
            (Some(min), None) => out.push(format!("At least {min}.")),
            (None, Some(max)) => out.push(format!("At most {max}.")),
            (None, None) => {}
        }
        if let Some(min) = self.exclusive_minimum {
            out.push(format!("Greater than {min}."));
        }
        if let Some(max) = self.exclusive_maximum {
            out.push(format!("Less than {max}."));
        }
        if let Some(step) = self.multiple_of {
            out.push(format!("A multiple of {step}."));
        }
        out.extend(count_range(self.min_items, self.max_items, "item"));
        if self.unique_items {
            out.push("No duplicate items.".to_owned());
        }
        if let Some(encoding) = self.content_encoding {
            out.push(format!("Encoded as {encoding}."));
        }
        if let Some(media_type) = self.content_media_type {
            out.push(format!("Media type {media_type}."));
        }
        match self.examples.as_slice() {
            [] => {}
            [one] => out.push(format!("Example: {one}.")),
            many => out.push(format!("Examples: {}.", many.join(", "))),
        }
        if self.deprecated {
            out.push("Deprecated.".to_owned());
        }
        out
    }

    /// The sentences joined by spaces; empty when there is nothing to say.
    pub fn text(&self) -> String {
        self.sentences().join(" ")
    }

    /// Says `format`; returns the integer range it stated, if any.
    fn say_format(&self, format: &str, out: &mut Vec<String>) -> Option<(i128, u128)> {
        match format_words(format) {
            FormatWords::Nothing => None,
            FormatWords::Words(words) => {
                out.push(sentence(&words));
                None
            }
            FormatWords::Integers(low, high) => {
                let lower = self.minimum.or(self.exclusive_minimum).or(self.lower_apart);
                let upper = self.maximum.or(self.exclusive_maximum).or(self.upper_apart);
                let within = lower.is_some_and(|n| n.cmp_signed(low) != Ordering::Less)
                    && upper.is_some_and(|n| n.cmp_unsigned(high) != Ordering::Greater);
                if within {
                    return None;
                }
                out.push(format!("A whole number from {low} to {high}."));
                Some((low, high))
            }
        }
    }
}

/// `At least 1 character.`, `Between 2 and 5 items.`; nothing for a lower
/// bound of 0 alone.
fn count_range(min: Option<u64>, max: Option<u64>, noun: &str) -> Option<String> {
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    Some(match (min, max) {
        (Some(a), Some(b)) if a == b => format!("Exactly {a} {noun}{}.", plural(a)),
        (Some(a), Some(b)) => format!("Between {a} and {b} {noun}s."),
        (Some(0), None) | (None, None) => return None,
        (Some(a), None) => format!("At least {a} {noun}{}.", plural(a)),
        (None, Some(b)) => format!("At most {b} {noun}{}.", plural(b)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use NumberBound::{Float, Int, UInt};

    fn said(constraints: &[Constraint<'_>]) -> Vec<String> {
        Words::new().field(None, constraints).sentences()
    }

    fn said_of(keyword: Keyword<'_>) -> Vec<String> {
        Words::new().keyword(keyword).sentences()
    }

    #[test]
    fn nothing_to_say() {
        assert!(Words::new().sentences().is_empty());
        assert_eq!(Words::new().text(), "");
    }

    #[test]
    fn the_unit_is_its_own_sentence() {
        assert_eq!(
            Words::new().field(Some("minutes"), &[]).sentences(),
            ["Unit: minutes."]
        );
    }

    #[test]
    fn lengths() {
        assert_eq!(said(&[Constraint::MinLength(1)]), ["At least 1 character."]);
        assert_eq!(
            said(&[Constraint::MinLength(2)]),
            ["At least 2 characters."]
        );
        assert!(said(&[Constraint::MinLength(0)]).is_empty());
        assert_eq!(said(&[Constraint::MaxLength(1)]), ["At most 1 character."]);
        assert_eq!(
            said(&[Constraint::MaxLength(64)]),
            ["At most 64 characters."]
        );
        assert_eq!(
            said(&[Constraint::MinLength(1), Constraint::MaxLength(64)]),
            ["Between 1 and 64 characters."]
        );
        assert_eq!(
            said(&[Constraint::MinLength(0), Constraint::MaxLength(64)]),
            ["Between 0 and 64 characters."]
        );
        assert_eq!(
            said(&[Constraint::MinLength(3), Constraint::MaxLength(3)]),
            ["Exactly 3 characters."]
        );
        assert_eq!(
            said(&[Constraint::MinLength(1), Constraint::MaxLength(1)]),
            ["Exactly 1 character."]
        );
    }

    #[test]
    fn patterns_are_code() {
        assert_eq!(
            said(&[Constraint::Pattern("^[A-Z]+$")]),
            ["Matches the regular expression `^[A-Z]+$`."]
        );
        assert_eq!(
            said(&[Constraint::Pattern("a`b")]),
            ["Matches the regular expression ``a`b``."]
        );
    }

    #[test]
    fn bounds() {
        assert_eq!(said(&[Constraint::Minimum(UInt(5))]), ["At least 5."]);
        assert_eq!(said(&[Constraint::Minimum(Int(-3))]), ["At least -3."]);
        assert_eq!(said(&[Constraint::Maximum(Int(-1))]), ["At most -1."]);
        assert_eq!(
            said(&[
                Constraint::Minimum(UInt(5)),
                Constraint::Maximum(UInt(1440))
            ]),
            ["From 5 to 1440."]
        );
        assert_eq!(
            said(&[
                Constraint::Minimum(Float(0.5)),
                Constraint::Maximum(Float(1.5))
            ]),
            ["From 0.5 to 1.5."]
        );
    }

    #[test]
    fn item_counts() {
        assert_eq!(said(&[Constraint::MinItems(1)]), ["At least 1 item."]);
        assert_eq!(said(&[Constraint::MaxItems(10)]), ["At most 10 items."]);
        assert_eq!(
            said(&[Constraint::MinItems(1), Constraint::MaxItems(3)]),
            ["Between 1 and 3 items."]
        );
        assert_eq!(
            said(&[Constraint::MinItems(2), Constraint::MaxItems(2)]),
            ["Exactly 2 items."]
        );
        assert!(said(&[Constraint::MinItems(0)]).is_empty());
    }

    #[test]
    fn string_formats() {
        let cases = [
            (
                "date-time",
                "An RFC 3339 date-time such as \"2026-11-29T18:30:00Z\".",
            ),
            ("date", "An RFC 3339 date such as \"2026-11-29\"."),
            (
                "time",
                "An RFC 3339 time with offset such as \"18:30:00Z\".",
            ),
            ("duration", "An ISO 8601 duration such as \"PT15M\"."),
            ("email", "An email address such as \"ana@example.com\"."),
            ("hostname", "A host name such as \"api.example.com\"."),
            ("ipv4", "An IPv4 address such as \"192.0.2.1\"."),
            ("ipv6", "An IPv6 address such as \"2001:db8::1\"."),
            (
                "uuid",
                "A UUID such as \"123e4567-e89b-12d3-a456-426614174000\".",
            ),
            (
                "uri",
                "An absolute URI such as \"https://example.com/path\".",
            ),
            (
                "uri-reference",
                "A URI or a relative reference such as \"/path?q=1\".",
            ),
            ("iri", "An absolute IRI (a URI that may contain Unicode)."),
            ("iri-reference", "An IRI or a relative reference."),
            ("uri-template", "A URI template (RFC 6570)."),
            ("json-pointer", "A JSON Pointer such as \"/items/0\"."),
            (
                "relative-json-pointer",
                "A relative JSON Pointer such as \"1/name\".",
            ),
            ("regex", "A regular expression."),
            ("idn-email", "An email address (may contain Unicode)."),
            ("idn-hostname", "A host name (may contain Unicode)."),
            ("byte", "Base64-encoded bytes."),
            ("binary", "Binary data."),
            ("password", "A password or other secret."),
            ("color", "Format: color."),
        ];
        for (format, sentence) in cases {
            assert_eq!(said(&[Constraint::Format(format)]), [sentence], "{format}");
        }
    }

    #[test]
    fn number_formats() {
        let cases = [
            ("int8", "A whole number from -128 to 127."),
            ("int16", "A whole number from -32768 to 32767."),
            ("int32", "A whole number from -2147483648 to 2147483647."),
            (
                "int64",
                "A whole number from -9223372036854775808 to 9223372036854775807.",
            ),
            (
                "int128",
                "A whole number from -170141183460469231731687303715884105728 to \
                 170141183460469231731687303715884105727.",
            ),
            ("uint8", "A whole number from 0 to 255."),
            ("uint16", "A whole number from 0 to 65535."),
            ("uint32", "A whole number from 0 to 4294967295."),
            ("uint64", "A whole number from 0 to 18446744073709551615."),
            (
                "uint128",
                "A whole number from 0 to 340282366920938463463374607431768211455.",
            ),
            ("int", "A whole number."),
            ("uint", "A whole number, 0 or more."),
        ];
        for (format, sentence) in cases {
            assert_eq!(said(&[Constraint::Format(format)]), [sentence], "{format}");
        }
        assert!(said(&[Constraint::Format("double")]).is_empty());
        assert!(said(&[Constraint::Format("float")]).is_empty());
    }

    #[test]
    fn an_integer_format_within_both_bounds_says_nothing_more() {
        assert_eq!(
            said(&[
                Constraint::Format("uint32"),
                Constraint::Minimum(UInt(1)),
                Constraint::Maximum(UInt(1000)),
            ]),
            ["From 1 to 1000."]
        );
        assert_eq!(
            said(&[
                Constraint::Format("int8"),
                Constraint::Minimum(Int(-128)),
                Constraint::Maximum(UInt(127)),
            ]),
            ["From -128 to 127."]
        );
        assert_eq!(
            said(&[
                Constraint::Format("uint64"),
                Constraint::Minimum(UInt(0)),
                Constraint::Maximum(UInt(u64::MAX)),
            ]),
            ["From 0 to 18446744073709551615."]
        );
    }

    #[test]
    fn an_integer_format_leaves_out_the_bounds_it_implies() {
        // schemars gives every unsigned integer `minimum: 0`.
        assert_eq!(
            said(&[Constraint::Format("uint32"), Constraint::Minimum(UInt(0))]),
            ["A whole number from 0 to 4294967295."]
        );
        assert_eq!(
            said(&[Constraint::Format("uint32"), Constraint::Minimum(UInt(5))]),
            ["A whole number from 0 to 4294967295.", "At least 5."]
        );
        assert_eq!(
            said(&[
                Constraint::Format("int8"),
                Constraint::Minimum(Int(-129)),
                Constraint::Maximum(UInt(0)),
            ]),
            ["A whole number from -128 to 127.", "At most 0."]
        );
        assert_eq!(
            said(&[Constraint::Format("uint8"), Constraint::Maximum(UInt(300))]),
            ["A whole number from 0 to 255."]
        );
    }

    #[test]
    fn bounds_stated_apart_are_weighed_but_not_said() {
        let apart = |format, lower, upper| {
            Words::new()
                .constraint(Constraint::Format(format))
                .bounds_apart(lower, upper)
                .sentences()
        };
        assert!(apart("uint32", Some(UInt(1)), Some(UInt(1000))).is_empty());
        assert!(apart("int8", Some(Int(-128)), Some(UInt(127))).is_empty());
        assert_eq!(
            apart("int8", Some(Int(-129)), Some(UInt(0))),
            ["A whole number from -128 to 127."]
        );
        assert_eq!(
            apart("uint32", Some(UInt(0)), None),
            ["A whole number from 0 to 4294967295."]
        );
        assert_eq!(
            apart("uri", Some(UInt(0)), Some(UInt(1))),
            ["An absolute URI such as \"https://example.com/path\"."]
        );
        assert_eq!(
            Words::new()
                .constraint(Constraint::Format("uint8"))
                .keyword(Keyword::ExclusiveMinimum(UInt(0)))
                .bounds_apart(None, Some(UInt(10)))
                .sentences(),
            ["Greater than 0."]
        );
    }

    #[test]
    fn other_keywords() {
        assert_eq!(
            said_of(Keyword::ExclusiveMinimum(UInt(0))),
            ["Greater than 0."]
        );
        assert_eq!(
            said_of(Keyword::ExclusiveMaximum(Float(1.5))),
            ["Less than 1.5."]
        );
        assert_eq!(
            said_of(Keyword::MultipleOf(Float(0.5))),
            ["A multiple of 0.5."]
        );
        assert_eq!(said_of(Keyword::UniqueItems), ["No duplicate items."]);
        assert_eq!(
            said_of(Keyword::ContentEncoding("base64")),
            ["Encoded as base64."]
        );
        assert_eq!(
            said_of(Keyword::ContentMediaType("image/png")),
            ["Media type image/png."]
        );
        assert_eq!(
            said_of(Keyword::Examples(vec!["\"SKU-1\"".into()])),
            ["Example: \"SKU-1\"."]
        );
        assert_eq!(
            said_of(Keyword::Examples(vec!["\"a\"".into(), "3".into()])),
            ["Examples: \"a\", 3."]
        );
        assert!(said_of(Keyword::Examples(Vec::new())).is_empty());
        assert_eq!(said_of(Keyword::Deprecated), ["Deprecated."]);
    }

    #[test]
    fn everything_at_once_in_a_fixed_order() {
        let mut words = Words::new();
        words
            .keyword(Keyword::Deprecated)
            .keyword(Keyword::Examples(vec!["\"AB-1\"".into()]))
            .keyword(Keyword::ContentMediaType("text/plain"))
            .keyword(Keyword::ContentEncoding("base64"))
            .keyword(Keyword::UniqueItems)
            .keyword(Keyword::MultipleOf(UInt(2)))
            .keyword(Keyword::ExclusiveMaximum(UInt(100)))
            .keyword(Keyword::ExclusiveMinimum(Int(-100)))
            .field(
                Some("boxes"),
                &[
                    Constraint::MaxItems(4),
                    Constraint::MinItems(1),
                    Constraint::Maximum(UInt(90)),
                    Constraint::Minimum(UInt(10)),
                    Constraint::Pattern("^[A-Z]{2}-[0-9]+$"),
                    Constraint::MaxLength(8),
                    Constraint::MinLength(4),
                    Constraint::Format("hostname"),
                ],
            );
        assert_eq!(
            words.text(),
            "Unit: boxes. A host name such as \"api.example.com\". Between 4 and 8 characters. \
             Matches the regular expression `^[A-Z]{2}-[0-9]+$`. From 10 to 90. \
             Greater than -100. Less than 100. A multiple of 2. Between 1 and 4 items. \
             No duplicate items. Encoded as base64. Media type text/plain. Example: \"AB-1\". \
             Deprecated."
        );
    }

    #[test]
    fn a_later_constraint_of_one_kind_replaces_the_earlier() {
        // The type says `minimum: 0` (u32); the field says `minimum = 5`.
        let text = Words::new()
            .constraint(Constraint::Format("uint32"))
            .constraint(Constraint::Minimum(UInt(0)))
            .field(
                Some("minutes"),
                &[
                    Constraint::Minimum(UInt(5)),
                    Constraint::Maximum(UInt(1440)),
                ],
            )
            .text();
        assert_eq!(text, "Unit: minutes. From 5 to 1440.");
    }
}
