//! `MAJOR.MINOR.PATCH`: how both the derive (`version = "..."`) and
//! tool-core's `Version::parse` read a contract version.

/// `MAJOR.MINOR.PATCH`: three unsigned integers without leading zeros.
pub fn parse_version(text: &str) -> Option<(u64, u64, u64)> {
    let mut parts = text.split('.');
    let mut next = || -> Option<u64> {
        let part = parts.next()?;
        let valid = !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'));
        if valid { part.parse().ok() } else { None }
    };
    let version = (next()?, next()?, next()?);
    parts.next().is_none().then_some(version)
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn semver_triples_only() {
        assert_eq!(parse_version("2.10.0"), Some((2, 10, 0)));
        assert_eq!(parse_version("0.0.0"), Some((0, 0, 0)));
        assert_eq!(
            parse_version("18446744073709551615.0.1"),
            Some((u64::MAX, 0, 1))
        );
        for bad in [
            "",
            "1",
            "1.2",
            "1.2.3.4",
            "01.2.3",
            "1.-2.3",
            "1.2.x",
            "1..3",
            " 1.2.3",
            "+1.2.3",
            "18446744073709551616.0.0",
        ] {
            assert_eq!(parse_version(bad), None, "{bad:?}");
        }
    }
}
