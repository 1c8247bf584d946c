//! A deprecated contract version: the date it stops being served and one
//! sentence of guidance, as `#[tool(deprecated(sunset = "...", note =
//! "..."))]` declares them.

use std::fmt;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A calendar date, `YYYY-MM-DD` (UTC): the day a deprecated version is
/// retired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

impl Date {
    #[doc(hidden)]
    pub const fn __new(year: u16, month: u8, day: u8) -> Self {
        Date { year, month, day }
    }

    /// Reads `YYYY-MM-DD`; `None` for other text or a day the month does
    /// not have.
    pub fn parse(text: &str) -> Option<Date> {
        let (year, month, day) = tool_words::parse_date(text)?;
        Some(Date { year, month, day })
    }

    /// The year.
    pub const fn year(&self) -> u16 {
        self.year
    }

    /// The month, 1 to 12.
    pub const fn month(&self) -> u8 {
        self.month
    }

    /// The day of the month, from 1.
    pub const fn day(&self) -> u8 {
        self.day
    }

    /// The first instant of the day, at 00:00:00 UTC (the Unix epoch for a
    /// day before it).
    pub fn start(&self) -> SystemTime {
        let days = days_from_civil(
            i64::from(self.year),
            i64::from(self.month),
            i64::from(self.day),
        );
        let seconds = u64::try_from(days.saturating_mul(86_400)).unwrap_or(0);
        SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
    }
}

/// Days from 1970-01-01 to a date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Date::parse(&text).ok_or_else(|| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Str(&text), &"a date YYYY-MM-DD")
        })
    }
}

/// A contract version that is still served but on its way out: from the
/// first instant of its [`sunset`](Self::sunset) day (UTC, by the toolbox's
/// clock) its calls are refused and it is no longer offered; until then
/// the model reads the [`note`](Self::note) at the end of the tool's
/// description, and the docs, the catalog and MCP's `_meta` show both.
///
/// Declared on the struct of that version:
/// `#[tool(version = "1.4.0", deprecated(sunset = "2026-09-30", note = "Use version 2, which asks where the refund goes."))]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deprecation {
    sunset: Date,
    note: &'static str,
}

impl Deprecation {
    #[doc(hidden)]
    pub const fn __new(sunset: Date, note: &'static str) -> Self {
        Deprecation { sunset, note }
    }

    /// The day the version stops being served.
    pub const fn sunset(&self) -> Date {
        self.sunset
    }

    /// One sentence of guidance: what to use instead.
    pub const fn note(&self) -> &'static str {
        self.note
    }

    /// Whether the version is retired at `now`: on or after the first
    /// instant of its sunset day.
    pub fn is_retired_at(&self, now: SystemTime) -> bool {
        now >= self.sunset.start()
    }

    /// The sentences the model reads at the end of the description
    /// ([`tool_words::deprecation_notice`]).
    pub fn notice(&self) -> String {
        tool_words::deprecation_notice(&self.sunset.to_string(), self.note)
    }
}

/// A deprecation as JSON, the shape the catalog, the fingerprint and the
/// lock file use: `{"sunset": "2026-09-30", "note": "..."}`.
pub fn deprecation_json(deprecation: &Deprecation) -> Value {
    let mut object = Map::new();
    object.insert(
        "sunset".into(),
        Value::from(deprecation.sunset().to_string()),
    );
    object.insert("note".into(), Value::from(deprecation.note()));
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_starts_at_midnight_utc() {
        let date = Date::parse("2026-09-30").unwrap();
        assert_eq!(date.to_string(), "2026-09-30");
        assert_eq!((date.year(), date.month(), date.day()), (2026, 9, 30));
        assert_eq!(
            date.start(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_726_400)
        );
        assert_eq!(
            Date::parse("1970-01-01").unwrap().start(),
            SystemTime::UNIX_EPOCH
        );
        assert_eq!(
            Date::parse("2000-03-01").unwrap().start(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(951_868_800)
        );
        assert_eq!(
            Date::parse("1969-12-31").unwrap().start(),
            SystemTime::UNIX_EPOCH
        );
        assert_eq!(Date::parse("2026-02-30"), None);
        assert_eq!(
            serde_json::to_value(date).unwrap(),
            Value::from("2026-09-30")
        );
        assert_eq!(
            serde_json::from_str::<Date>("\"2026-9-30\"")
                .unwrap_err()
                .to_string(),
            "invalid value: string \"2026-9-30\", expected a date YYYY-MM-DD"
        );
    }

    #[test]
    fn a_deprecation_retires_its_version_at_the_start_of_the_sunset_day() {
        let deprecation = Deprecation::__new(Date::__new(2026, 9, 30), "Use version 2.");
        let start = Date::__new(2026, 9, 30).start();
        assert!(!deprecation.is_retired_at(start - Duration::from_millis(1)));
        assert!(deprecation.is_retired_at(start));
        assert_eq!(
            deprecation.notice(),
            "Deprecated: this version of the tool stops working on 2026-09-30. Use version 2."
        );
        assert_eq!(
            serde_json::to_string(&deprecation_json(&deprecation)).unwrap(),
            r#"{"sunset":"2026-09-30","note":"Use version 2."}"#
        );
    }
}
