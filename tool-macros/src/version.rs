//! `version = "MAJOR.MINOR.PATCH"`, read as tool-core's `Version::parse`
//! reads it (the facade's `tests/vocabulary.rs` includes this file and checks
//! that both agree). Uses nothing else of the crate.

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
