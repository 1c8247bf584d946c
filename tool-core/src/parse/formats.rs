//! The string `format`s a field may declare with `#[tool(format = "...")]`,
//! and their validators.

use std::net::{Ipv4Addr, Ipv6Addr};

/// The formats `#[tool(format = "...")]` accepts, each enforced by the parser.
pub const SUPPORTED: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "uri",
];

/// Whether `value` is a valid `format`; `None` when the format is unknown.
pub fn is_valid(format: &str, value: &str) -> Option<bool> {
    Some(match format {
        "date-time" => date_time(value),
        "date" => date(value),
        "time" => time(value),
        "duration" => duration(value),
        "email" => email(value),
        "hostname" => hostname(value),
        "ipv4" => value.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => value.parse::<Ipv6Addr>().is_ok(),
        "uuid" => uuid(value),
        "uri" => uri(value),
        _ => return None,
    })
}

/// A short description of a format, for error messages: the words the
/// docs use too ([`tool_words::string_format`]).
pub fn describe(format: &str) -> &'static str {
    tool_words::string_format(format).unwrap_or("a value of the declared format")
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

fn date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (
        digits(&s[0..4], 4),
        digits(&s[5..7], 2),
        digits(&s[8..10], 2),
    ) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn time(s: &str) -> bool {
    let b = s.as_bytes();
    // Bytes 2 and 5 being `:` make 0..8 slicing safe except at byte 8,
    // which a multi-byte character may straddle ("10:00:0ǥZ").
    if b.len() < 9 || b[2] != b':' || b[5] != b':' || !s.is_char_boundary(8) {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (
        digits(&s[0..2], 2),
        digits(&s[3..5], 2),
        digits(&s[6..8], 2),
    ) else {
        return false;
    };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    let mut rest = &s[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    // A leap second is the last second of a UTC day: 23:59:60 once the
    // offset is taken away, as the schema's `time` means.
    let leap_ok = |offset_minutes: i32| {
        sec != 60 || (h as i32 * 60 + m as i32 - offset_minutes).rem_euclid(1440) == 1439
    };
    match rest {
        "Z" | "z" => leap_ok(0),
        offset => {
            let o = offset.as_bytes();
            if o.len() != 6 || !(o[0] == b'+' || o[0] == b'-') || o[3] != b':' {
                return false;
            }
            let (Some(oh), Some(om)) = (digits(&offset[1..3], 2), digits(&offset[4..6], 2)) else {
                return false;
            };
            let sign = if o[0] == b'+' { 1 } else { -1 };
            oh <= 23 && om <= 59 && leap_ok(sign * (oh as i32 * 60 + om as i32))
        }
    }
}

fn date_time(s: &str) -> bool {
    s.len() > 11
        && s.is_char_boundary(10)
        && matches!(s.as_bytes()[10], b'T' | b't')
        && date(&s[..10])
        && time(&s[11..])
}

/// RFC 3339 Appendix A, as JSON Schema's `duration` means it: `P`, then
/// weeks alone (`P2W`), or a date part and an optional time part, each a
/// run of whole numbers in adjacent units (`P1Y2M`, `P3DT4H5M`, `PT5M6S`;
/// not `P1Y1D`, `PT1H1S` or `PT1.5S`).
fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    if let Some(weeks) = rest.strip_suffix('W') {
        return !weeks.is_empty() && weeks.bytes().all(|b| b.is_ascii_digit());
    }
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    (!date_part.is_empty() || time_part.is_some())
        && units(date_part, "YMD")
        && time_part.is_none_or(|t| !t.is_empty() && units(t, "HMS"))
}

/// `1Y2M` style runs: each whole number followed by the unit after the
/// previous one in `order` (the first may be any), with no unit skipped.
fn units(mut s: &str, order: &str) -> bool {
    let mut next: Option<usize> = None;
    while !s.is_empty() {
        let n = s.bytes().take_while(u8::is_ascii_digit).count();
        let Some(unit) = s[n..].chars().next() else {
            return false;
        };
        let Some(pos) = order.find(unit) else {
            return false;
        };
        if n == 0 || next.is_some_and(|want| want != pos) {
            return false;
        }
        next = Some(pos + 1);
        s = &s[n + unit.len_utf8()..];
    }
    true
}

/// RFC 1123 names as JSON Schema's `hostname` means them: no trailing dot,
/// and `--` in a label's third and fourth places only for an `xn--` label
/// (RFC 5891; the punycode inside is not decoded here).
fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && (label.get(2..4) != Some("--") || label.starts_with("xn--"))
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~.".contains(&b))
        && hostname(domain)
        && domain.contains('.')
}

fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// RFC 3986's `URI`: a scheme, `:`, an optional `//authority` (userinfo,
/// a host that is a name, an IPv4 address or a bracketed IPv6 address, a
/// numeric port), a path, query and fragment of the characters the grammar
/// allows, each `%` followed by two hex digits.
fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.');
    if !scheme_ok {
        return false;
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let path = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            if !authority(&after[..end]) {
                return false;
            }
            &after[end..]
        }
        None => rest,
    };
    uri_chars(path, b":@/")
        && query.is_none_or(|q| uri_chars(q, b":@/?"))
        && fragment.is_none_or(|f| uri_chars(f, b":@/?"))
}

/// `[userinfo@]host[:port]`.
fn authority(s: &str) -> bool {
    let (userinfo, host_port) = match s.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, s),
    };
    if !userinfo.is_none_or(|u| uri_chars(u, b":")) {
        return false;
    }
    let (host, port) = if let Some(literal) = host_port.strip_prefix('[') {
        let Some((inside, after)) = literal.split_once(']') else {
            return false;
        };
        if inside.parse::<Ipv6Addr>().is_err() && !ip_future(inside) {
            return false;
        }
        match after.strip_prefix(':') {
            Some(port) => ("", Some(port)),
            None if after.is_empty() => ("", None),
            None => return false,
        }
    } else {
        match host_port.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (host_port, None),
        }
    };
    uri_chars(host, b"") && port.is_none_or(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

/// RFC 3986's `IPvFuture`: `v`, hex digits, `.`, then unreserved
/// characters, sub-delimiters or `:`.
fn ip_future(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['v', 'V']) else {
        return false;
    };
    let Some((version, address)) = rest.split_once('.') else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|b| b.is_ascii_hexdigit())
        && !address.is_empty()
        && !address.contains('%')
        && uri_chars(address, b":")
}

/// Unreserved characters, sub-delimiters, `%XX`, and the `extra` ones.
fn uri_chars(s: &str, extra: &[u8]) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if !(i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit()) {
                return false;
            }
            i += 3;
            continue;
        }
        let ok = c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&c) || extra.contains(&c);
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(format: &str, good: &[&str], bad: &[&str]) {
        for v in good {
            assert_eq!(
                is_valid(format, v),
                Some(true),
                "{format} should accept {v:?}"
            );
        }
        for v in bad {
            assert_eq!(
                is_valid(format, v),
                Some(false),
                "{format} should reject {v:?}"
            );
        }
    }

    #[test]
    fn dates_and_times() {
        check(
            "date",
            &["2026-11-29", "2024-02-29"],
            &[
                "2023-02-29",
                "2026-13-01",
                "2026-1-01",
                "26-11-29",
                "2026-11-00",
            ],
        );
        check(
            "time",
            &[
                "18:30:00Z",
                "04:59:60.123+05:00",
                "00:00:00-00:00",
                "23:59:60Z",
                "22:59:60-01:00",
            ],
            &[
                "18:30:00",
                "24:00:00Z",
                "18:30Z",
                "18:30:00.Z",
                "10:00:0ǥZ",
                "23:59:60.123+05:30",
                "12:30:60Z",
                "23:59:60+01:00",
            ],
        );
        check(
            "date-time",
            &["2026-11-29T18:30:00Z", "2026-11-29t18:30:00.5+01:00"],
            &[
                "2026-11-29 18:30:00Z",
                "2026-11-29T18:30:00",
                "2026-11-29",
                "2026-11-2é18:30:00Z",
                "2026-11-29T10:00:0ǥZ",
            ],
        );
        check(
            "duration",
            &["PT15M", "P1Y2M3DT4H5M6S", "P2W", "P1D", "PT5M6S", "P1M2D"],
            &[
                "P", "PT", "15M", "P1.5Y", "PT1S2M", "P1DT", "PT1.5S", "P1Y1D", "PT1H1S", "P1Y2W",
                "P2WT1H", "PW",
            ],
        );
    }

    #[test]
    fn network_names() {
        check(
            "email",
            &["ana@example.com", "a.b+c@sub.example.org"],
            &[
                "ana",
                "@example.com",
                "ana@localhost",
                "a..b@example.com",
                "a b@example.com",
            ],
        );
        check(
            "hostname",
            &["example.com", "a-b.example.com", "localhost"],
            &["-a.com", "a_b.com", "", "a..b", "a.com.", "ab--c.com", "."],
        );
        check("ipv4", &["192.0.2.1"], &["256.0.0.1", "1.2.3", "01.2.3.4"]);
        check(
            "ipv6",
            &["2001:db8::1", "::1"],
            &["2001:db8:::1", "192.0.2.1"],
        );
        check(
            "uuid",
            &["123e4567-e89b-12d3-a456-426614174000"],
            &[
                "123e4567e89b12d3a456426614174000",
                "123e4567-e89b-12d3-a456-42661417400g",
            ],
        );
        check(
            "uri",
            &[
                "https://example.com/a?b=c",
                "mailto:ana@example.com",
                "urn:isbn:123",
            ],
            &[
                "example.com",
                "https://exa mple.com",
                "1http://x",
                "http://example.com/%zz",
                "http://example.com/a<b",
                "http://example.com/#a#b",
                "http://[::1/",
                "http://a:b@ex.com:80x/",
            ],
        );
        assert_eq!(is_valid("uint32", "1"), None);
    }

    /// A character of two or four bytes put anywhere in a valid value, or
    /// in place of any of its characters, never makes a check slice inside
    /// it, and the value is refused.
    #[test]
    fn multi_byte_characters_anywhere_are_refused_without_a_panic() {
        let valid = [
            ("date-time", "2026-11-29T18:30:00.5+01:00"),
            ("date", "2026-11-29"),
            ("time", "04:59:60.123+05:00"),
            ("duration", "P1Y2M3DT4H5M6S"),
            ("email", "a.b+c@sub.example.org"),
            ("hostname", "a-b.example.com"),
            ("ipv4", "192.0.2.1"),
            ("ipv6", "2001:db8::1"),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000"),
            ("uri", "https://example.com/a?b=c"),
        ];
        for (format, value) in valid {
            assert_eq!(is_valid(format, value), Some(true), "{format} {value:?}");
            for wide in ['ǥ', '🦀'] {
                for (i, c) in value.char_indices() {
                    let inserted = format!("{}{wide}{}", &value[..i], &value[i..]);
                    let replaced = format!("{}{wide}{}", &value[..i], &value[i + c.len_utf8()..]);
                    for bad in [inserted, replaced] {
                        assert_eq!(is_valid(format, &bad), Some(false), "{format} {bad:?}");
                    }
                }
            }
        }
    }
}
