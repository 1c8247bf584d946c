//! The syntax check of `pattern = "..."`, so a malformed regular expression
//! is a compile error instead of a failure on the first call.
//!
//! It parses with regex-syntax, the parser of the `regex` crate, with that
//! crate's defaults (Unicode on, nesting limit 250, no octal escapes), so the
//! derive accepts exactly the patterns the runtime's engine compiles. The
//! message keeps regex-syntax's words for what is wrong, says where (the
//! character, counted from 1) and what to write instead; fixes show escapes
//! as they are written inside a Rust string literal (`\\(`).
//!
//! Uses nothing else of the crate: the facade's `tests/contract/vocabulary.rs`
//! includes this file and checks it against the `regex` crate.

use regex_syntax::ast::ErrorKind as SyntaxError;
use regex_syntax::hir::ErrorKind as MeaningError;

/// What is wrong with `pattern` and what to write instead, or `None` when
/// the `regex` crate accepts it.
pub fn check(pattern: &str) -> Option<String> {
    let error = regex_syntax::Parser::new().parse(pattern).err()?;
    let (what, span, fix) = match &error {
        regex_syntax::Error::Parse(e) => (e.kind().to_string(), e.span(), syntax_fix(e.kind())),
        regex_syntax::Error::Translate(e) => {
            (e.kind().to_string(), e.span(), meaning_fix(e.kind()))
        }
        // A kind of error added to regex-syntax after this was written.
        other => return Some(format!("{other}; {SYNTAX}")),
    };
    let at = pattern
        .get(..span.start.offset)
        .map_or(span.start.column, |before| before.chars().count() + 1);
    Some(format!("{what} at character {at}; {fix}"))
}

/// Where the accepted syntax is described, for errors without a better fix.
const SYNTAX: &str = "write the pattern in the syntax of the `regex` crate: https://docs.rs/regex/latest/regex/#syntax";

fn syntax_fix(kind: &SyntaxError) -> &'static str {
    match kind {
        SyntaxError::GroupUnclosed => {
            r"close the group with `)`, or escape a literal parenthesis as `\\(`"
        }
        SyntaxError::GroupUnopened => r"remove the `)`, or escape a literal one as `\\)`",
        SyntaxError::ClassUnclosed => {
            r"close the class with `]`, or escape a literal bracket as `\\[`"
        }
        SyntaxError::ClassRangeInvalid => "write the range from low to high, e.g. `a-z`",
        SyntaxError::ClassRangeLiteral | SyntaxError::ClassEscapeInvalid => {
            r"a range runs between two characters, e.g. `a-z`; a literal `-` goes first or last in the class, or escaped as `\\-`"
        }
        SyntaxError::RepetitionMissing => {
            r"put the operator after what it repeats, or escape a literal one as `\\*`, `\\+` or `\\?`"
        }
        SyntaxError::RepetitionCountInvalid => "write `{n,m}` with `n` at most `m`",
        SyntaxError::RepetitionCountUnclosed
        | SyntaxError::RepetitionCountDecimalEmpty
        | SyntaxError::DecimalEmpty
        | SyntaxError::DecimalInvalid => {
            r"write `{n}`, `{n,}` or `{n,m}`, or escape a literal brace as `\\{`"
        }
        SyntaxError::EscapeUnrecognized => {
            r"escape only punctuation (`\\.`, `\\*`), or write a class such as `\\d`, `\\w` or `\\s`"
        }
        SyntaxError::EscapeUnexpectedEof => r"a literal backslash is written `\\\\`",
        SyntaxError::EscapeHexEmpty
        | SyntaxError::EscapeHexInvalid
        | SyntaxError::EscapeHexInvalidDigit => {
            r"write a code point as `\\x41`, `\\u0041` or `\\x{1F600}`"
        }
        SyntaxError::UnsupportedLookAround => {
            "the `regex` crate has no look-around; match the surrounding text itself, or check it in the handler"
        }
        SyntaxError::UnsupportedBackreference => {
            "the `regex` crate has no backreferences; repeat the group's pattern instead"
        }
        SyntaxError::FlagDanglingNegation
        | SyntaxError::FlagDuplicate { .. }
        | SyntaxError::FlagRepeatedNegation { .. }
        | SyntaxError::FlagUnexpectedEof
        | SyntaxError::FlagUnrecognized => {
            "the flags are `i`, `m`, `s`, `R`, `U`, `u` and `x`, each at most once, e.g. `(?i)` or `(?i-s:...)`"
        }
        SyntaxError::GroupNameDuplicate { .. } => "give each named group its own name",
        SyntaxError::GroupNameEmpty
        | SyntaxError::GroupNameInvalid
        | SyntaxError::GroupNameUnexpectedEof => {
            "write a named group as `(?<name>...)`, the name made of letters, digits and `_`"
        }
        SyntaxError::NestLimitExceeded(_) => "nest fewer groups and classes",
        SyntaxError::CaptureLimitExceeded => "use non-capturing groups `(?:...)`",
        SyntaxError::SpecialWordBoundaryUnclosed
        | SyntaxError::SpecialWordBoundaryUnrecognized
        | SyntaxError::SpecialWordOrRepetitionUnexpectedEof => {
            r"write `\\b{start}`, `\\b{end}`, `\\b{start-half}` or `\\b{end-half}`, or escape a literal brace as `\\{`"
        }
        SyntaxError::UnicodeClassInvalid => {
            r"write a Unicode class as `\\p{L}`, `\\p{Greek}` or `\\p{Script=Greek}`"
        }
        // A kind of error added to regex-syntax after this was written.
        _ => SYNTAX,
    }
}

fn meaning_fix(kind: &MeaningError) -> &'static str {
    match kind {
        MeaningError::UnicodePropertyNotFound | MeaningError::UnicodePropertyValueNotFound => {
            r"name a Unicode property the `regex` crate knows, e.g. `\\p{L}`, `\\p{Greek}` or `\\p{Script=Greek}`"
        }
        MeaningError::UnicodeNotAllowed | MeaningError::InvalidUtf8 => {
            "keep Unicode mode on: the value is text, so remove the `(?-u)`"
        }
        _ => SYNTAX,
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_what_the_runtime_compiles() {
        for ok in [
            "^[A-Z]-[0-9]+$",
            "^PO-\\d{3,}$",
            "^\\+[1-9][0-9]{6,14}$",
            "(?i)^sku-[a-z0-9]{4}$",
            "^(?:https?|ftp)://[^\\s/$.?#].[^\\s]*$",
            "^(?P<year>\\d{4})-(?<month>\\d{2})$",
            "[[:alpha:]_][[:alnum:]_]*",
            "a|b|",
            "[]a]",
            "[a-]",
            "\\x41\\u0042\\u{43}",
            "x*?y+?z??",
            "\\.\\*\\{\\}",
            "[z-\\x7F]",
            "[\\x00-\\x7F]",
            "\\p{L}+",
            "\\p{Greek}",
            "",
        ] {
            assert_eq!(check(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn refuses_malformed_patterns_with_the_place_and_the_fix() {
        let cases = [
            (
                "(ab",
                r"unclosed group at character 1; close the group with `)`, or escape a literal parenthesis as `\\(`",
            ),
            (
                "ab)",
                r"unopened group at character 3; remove the `)`, or escape a literal one as `\\)`",
            ),
            (
                "[a-z",
                r"unclosed character class at character 1; close the class with `]`, or escape a literal bracket as `\\[`",
            ),
            (
                "*a",
                r"repetition operator missing expression at character 1; put the operator after what it repeats, or escape a literal one as `\\*`, `\\+` or `\\?`",
            ),
            (
                "a{3,1}",
                "invalid repetition count range, the start must be <= the end at character 2; write `{n,m}` with `n` at most `m`",
            ),
            (
                "a{x}",
                r"repetition quantifier expects a valid decimal at character 3; write `{n}`, `{n,}` or `{n,m}`, or escape a literal brace as `\\{`",
            ),
            (
                "[z-a]",
                "invalid character class range, the start must be <= the end at character 2; write the range from low to high, e.g. `a-z`",
            ),
            (
                "(?=a)",
                "look-around, including look-ahead and look-behind, is not supported at character 1; the `regex` crate has no look-around; match the surrounding text itself, or check it in the handler",
            ),
            (
                "(a)\\1",
                "backreferences are not supported at character 4; the `regex` crate has no backreferences; repeat the group's pattern instead",
            ),
            (
                "\\q",
                r"unrecognized escape sequence at character 1; escape only punctuation (`\\.`, `\\*`), or write a class such as `\\d`, `\\w` or `\\s`",
            ),
            (
                "ab\\",
                r"incomplete escape sequence, reached end of pattern prematurely at character 3; a literal backslash is written `\\\\`",
            ),
            (
                "\\p{Elvish}",
                r"Unicode property not found at character 1; name a Unicode property the `regex` crate knows, e.g. `\\p{L}`, `\\p{Greek}` or `\\p{Script=Greek}`",
            ),
            (
                "é(",
                r"unclosed group at character 2; close the group with `)`, or escape a literal parenthesis as `\\(`",
            ),
        ];
        for (pattern, why) in cases {
            assert_eq!(check(pattern).as_deref(), Some(why), "{pattern:?}");
        }
    }
}
