//! What Anthropic's strict mode keeps, what goes into the description and
//! which `pattern`s it compiles (structured-outputs guide, "JSON Schema
//! limitations").

/// The string formats strict mode supports; any other `format` is stated
/// in the description.
pub const SUPPORTED_FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The largest bound of a `{n,m}` repetition kept in a `pattern`; larger
/// ones ("complex `{n,m}` with large ranges") go into the description.
pub const MAX_PATTERN_REPETITION: u64 = 100;

/// Keywords strict mode does not take but whose meaning the description
/// states in words (the parser still enforces them): numeric bounds,
/// string lengths, array sizes, examples.
pub(crate) fn is_described(key: &str) -> bool {
    matches!(
        key,
        "minimum"
            | "maximum"
            | "exclusiveMinimum"
            | "exclusiveMaximum"
            | "multipleOf"
            | "minLength"
            | "maxLength"
            | "maxItems"
            | "uniqueItems"
            | "examples"
            | "deprecated"
            | "contentEncoding"
            | "contentMediaType"
    )
}

/// Annotations left out of the strict schema: they constrain nothing.
pub(crate) fn is_dropped(key: &str) -> bool {
    matches!(
        key,
        "title" | "$schema" | "$id" | "$comment" | "$anchor" | "readOnly" | "writeOnly"
    ) || key.starts_with("x-")
}

/// A schema whose keywords only annotate (a description, a default,
/// examples, a title): it accepts any JSON value, which has no strict form.
pub(crate) fn is_annotation_only(schema: &serde_json::Map<String, serde_json::Value>) -> bool {
    schema.keys().all(|key| {
        matches!(
            key.as_str(),
            "description" | "default" | "examples" | "deprecated"
        ) || is_dropped(key)
    })
}

/// Keywords strict mode cannot express and that no description could
/// replace without loosening what the model may write.
pub(crate) fn is_refused(key: &str) -> bool {
    matches!(
        key,
        "not"
            | "if"
            | "then"
            | "else"
            | "dependentSchemas"
            | "dependentRequired"
            | "dependencies"
            | "patternProperties"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "prefixItems"
            | "contains"
            | "minContains"
            | "maxContains"
            | "minProperties"
            | "maxProperties"
            | "nullable"
            | "$dynamicRef"
            | "$recursiveRef"
    )
}

/// Whether strict mode compiles `pattern`: no backreferences in any
/// dialect's spelling (`\1`, `\k<name>`, `\g1`, `\g{-1}`, Python's
/// `(?P=name)`), no recursion or subroutine calls (`(?R)`, `(?1)`,
/// `(?&name)`, `(?P>name)`, `\g<name>`), no lookahead or lookbehind, no
/// `\b`/`\B`, and no `{n,m}` bound above [`MAX_PATTERN_REPETITION`].
pub fn pattern_supported(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                if let Some(b'1'..=b'9' | b'k' | b'g' | b'b' | b'B') = bytes.get(i + 1) {
                    return false;
                }
                i += 2;
            }
            b'(' => {
                let rest = &pattern[i + 1..];
                let recursion = rest.strip_prefix('?').is_some_and(|group| {
                    let group = group.strip_prefix(['+', '-']).unwrap_or(group);
                    group.starts_with(|c: char| c.is_ascii_digit() || c == 'R' || c == '&')
                });
                if recursion
                    || ["?=", "?!", "?<=", "?<!", "?P=", "?P>"]
                        .iter()
                        .any(|p| rest.starts_with(p))
                {
                    return false;
                }
                i += 1;
            }
            b'{' => {
                let rest = &pattern[i + 1..];
                let end = rest.find('}').unwrap_or(rest.len());
                let inner = &rest[..end];
                let numbers = inner.split(',').filter(|part| !part.is_empty());
                if inner.chars().all(|c| c.is_ascii_digit() || c == ',')
                    && numbers
                        .map(|n| n.parse::<u64>().unwrap_or(u64::MAX))
                        .any(|n| n > MAX_PATTERN_REPETITION)
                {
                    return false;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_strict_mode_compiles() {
        for ok in [
            "^[A-Z]-[0-9]+$",
            r"\d{3}-\w+",
            "(ab)+c?",
            "^.{1,64}$",
            r"\\b",
            "a{2}",
            "(?:ab)+",
            "(?<name>a)b",
            "(?P<name>a)b",
            "(?i)abc",
        ] {
            assert!(pattern_supported(ok), "{ok}");
        }
        for refused in [
            r"(a)\1",
            r"(?<x>a)\k<x>",
            r"(a)\g1",
            r"(a)\g{-1}",
            r"(?<x>a)\g<x>",
            r#"^(?P<quote>['"]).*(?P=quote)$"#,
            "(?P<x>a)(?P>x)",
            "a(?R)?b",
            "(a)(?1)",
            "(a)(?-1)",
            "(?<x>a)(?&x)",
            "(?=a)b",
            "(?!a)b",
            "(?<=a)b",
            "(?<!a)b",
            r"\bword\b",
            r"\Bx",
            "a{1,1000}",
            "a{5000}",
            "a{99999999999999999999999}",
        ] {
            assert!(!pattern_supported(refused), "{refused}");
        }
    }
}
