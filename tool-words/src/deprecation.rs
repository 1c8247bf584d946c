//! A deprecated contract version in words: how both the derive
//! (`deprecated(sunset = "...", note = "...")`) and tool-core read a sunset
//! date and judge the note, and the one notice a model reads in the
//! description of a deprecated version.

/// `YYYY-MM-DD`, a calendar date of the proleptic Gregorian calendar with
/// a four-digit year: `(year, month, day)`, or `None` for any other text
/// or a day the month does not have (`2026-02-29`).
pub fn parse_date(text: &str) -> Option<(u16, u8, u8)> {
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
    if !shaped {
        return None;
    }
    let year: u16 = text[0..4].parse().ok()?;
    let month: u8 = text[5..7].parse().ok()?;
    let day: u8 = text[8..10].parse().ok()?;
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some((year, month, day))
}

/// What is wrong with the guidance of a deprecation, if anything: it must
/// be one sentence on one line that ends with `.`, `!` or `?` (the model
/// reads it as the last sentence of the description).
pub fn note_problem(note: &str) -> Option<&'static str> {
    let trimmed = note.trim();
    if trimmed.is_empty() {
        Some("the note is empty")
    } else if trimmed.contains(['\n', '\r']) {
        Some("the note spans lines")
    } else if !trimmed.ends_with(['.', '!', '?']) {
        Some("the note does not end a sentence with `.`, `!` or `?`")
    } else {
        None
    }
}

/// The notice a model reads at the end of a deprecated version's
/// description: `Deprecated: this version of the tool stops working on
/// 2026-09-30. Use version 2, which asks where the refund goes.`
pub fn deprecation_notice(sunset: &str, note: &str) -> String {
    format!(
        "Deprecated: this version of the tool stops working on {sunset}. {}",
        note.trim()
    )
}

/// A deprecated version's description as the model reads it: the
/// description, then the [notice](deprecation_notice) as a paragraph of its
/// own.
pub fn deprecated_description(description: &str, sunset: &str, note: &str) -> String {
    let notice = deprecation_notice(sunset, note);
    let description = description.trim_end();
    if description.is_empty() {
        notice
    } else {
        format!("{description}\n\n{notice}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_real_calendar_days() {
        assert_eq!(parse_date("2026-09-30"), Some((2026, 9, 30)));
        assert_eq!(parse_date("2028-02-29"), Some((2028, 2, 29)));
        assert_eq!(parse_date("2000-02-29"), Some((2000, 2, 29)));
        for bad in [
            "",
            "2026-9-30",
            "2026-09-31",
            "2026-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "26-09-30",
            "2026/09/30",
            "2026-09-30T00:00:00Z",
            " 2026-09-30",
            "+026-09-30",
        ] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_note_is_one_sentence() {
        assert_eq!(note_problem("Use version 2."), None);
        assert_eq!(note_problem("  "), Some("the note is empty"));
        assert_eq!(
            note_problem("Use\nversion 2."),
            Some("the note spans lines")
        );
        assert_eq!(
            note_problem("Use version 2"),
            Some("the note does not end a sentence with `.`, `!` or `?`")
        );
    }

    #[test]
    fn the_notice_ends_the_description() {
        assert_eq!(
            deprecated_description(
                "Create a refund draft.\n",
                "2026-09-30",
                " Use version 2, which asks where the refund goes. "
            ),
            "Create a refund draft.\n\nDeprecated: this version of the tool stops working on 2026-09-30. Use version 2, which asks where the refund goes."
        );
        assert_eq!(
            deprecated_description("", "2026-09-30", "Use version 2."),
            "Deprecated: this version of the tool stops working on 2026-09-30. Use version 2."
        );
    }
}
