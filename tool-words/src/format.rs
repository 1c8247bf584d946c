//! The one table of `format`s in words: string formats with an example,
//! and the range of each integer format.

/// The integers an integer `format` allows, as (lowest, highest): `uint8`
/// gives (0, 255), `int64` gives (-2^63, 2^63 - 1); `None` for any other
/// format.
pub fn integer_range(format: &str) -> Option<(i128, u128)> {
    let signed = |bits: u32| {
        let high = (1u128 << (bits - 1)) - 1;
        (-(high as i128) - 1, high)
    };
    let unsigned = |bits: u32| {
        let high = if bits == 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        (0, high)
    };
    Some(match format {
        "int8" => signed(8),
        "int16" => signed(16),
        "int32" => signed(32),
        "int64" => signed(64),
        "int128" => signed(128),
        "uint8" => unsigned(8),
        "uint16" => unsigned(16),
        "uint32" => unsigned(32),
        "uint64" => unsigned(64),
        "uint128" => unsigned(128),
        _ => return None,
    })
}

/// A string `format` in words, with an example where one helps: `a UUID
/// such as "123e4567-e89b-12d3-a456-426614174000"`. The parser's messages
/// (`expected a UUID such as ...`) and the docs say the same. `None` for a
/// format this table does not know, and for number formats.
pub fn string_format(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "an RFC 3339 date-time such as \"2026-11-29T18:30:00Z\"",
        "date" => "an RFC 3339 date such as \"2026-11-29\"",
        "time" => "an RFC 3339 time with offset such as \"18:30:00Z\"",
        "duration" => "an ISO 8601 duration such as \"PT15M\"",
        "email" => "an email address such as \"ana@example.com\"",
        "hostname" => "a host name such as \"api.example.com\"",
        "ipv4" => "an IPv4 address such as \"192.0.2.1\"",
        "ipv6" => "an IPv6 address such as \"2001:db8::1\"",
        "uuid" => "a UUID such as \"123e4567-e89b-12d3-a456-426614174000\"",
        "uri" => "an absolute URI such as \"https://example.com/path\"",
        "uri-reference" => "a URI or a relative reference such as \"/path?q=1\"",
        "iri" => "an absolute IRI (a URI that may contain Unicode)",
        "iri-reference" => "an IRI or a relative reference",
        "uri-template" => "a URI template (RFC 6570)",
        "json-pointer" => "a JSON Pointer such as \"/items/0\"",
        "relative-json-pointer" => "a relative JSON Pointer such as \"1/name\"",
        "regex" => "a regular expression",
        "idn-email" => "an email address (may contain Unicode)",
        "idn-hostname" => "a host name (may contain Unicode)",
        "byte" => "Base64-encoded bytes",
        "binary" => "binary data",
        "password" => "a password or other secret",
        _ => return None,
    })
}

/// How a `format` is said, before the bounds beside it are weighed.
pub(crate) enum FormatWords {
    /// Says nothing a JSON number does not (`double`, `float`).
    Nothing,
    /// An integer format: a whole number in this range.
    Integers(i128, u128),
    /// Words of their own.
    Words(String),
}

pub(crate) fn format_words(format: &str) -> FormatWords {
    if let Some((low, high)) = integer_range(format) {
        return FormatWords::Integers(low, high);
    }
    FormatWords::Words(match format {
        "double" | "float" => return FormatWords::Nothing,
        "int" => "a whole number".to_owned(),
        "uint" => "a whole number, 0 or more".to_owned(),
        other => match string_format(other) {
            Some(words) => words.to_owned(),
            None => format!("format: {other}"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_formats_span_their_bits() {
        assert_eq!(integer_range("int8"), Some((-128, 127)));
        assert_eq!(integer_range("uint8"), Some((0, 255)));
        assert_eq!(integer_range("int16"), Some((-32768, 32767)));
        assert_eq!(integer_range("uint16"), Some((0, 65535)));
        assert_eq!(integer_range("int32"), Some((-2147483648, 2147483647)));
        assert_eq!(integer_range("uint32"), Some((0, 4294967295)));
        assert_eq!(
            integer_range("int64"),
            Some((i128::from(i64::MIN), i64::MAX as u128))
        );
        assert_eq!(integer_range("uint64"), Some((0, u128::from(u64::MAX))));
        assert_eq!(
            integer_range("int128"),
            Some((i128::MIN, i128::MAX as u128))
        );
        assert_eq!(integer_range("uint128"), Some((0, u128::MAX)));
        assert_eq!(integer_range("int"), None);
        assert_eq!(integer_range("uuid"), None);
    }

    #[test]
    fn string_formats_come_with_an_example() {
        assert_eq!(
            string_format("uuid"),
            Some("a UUID such as \"123e4567-e89b-12d3-a456-426614174000\"")
        );
        assert_eq!(
            string_format("date"),
            Some("an RFC 3339 date such as \"2026-11-29\"")
        );
        assert_eq!(string_format("color"), None);
        assert_eq!(string_format("uint8"), None);
    }
}
