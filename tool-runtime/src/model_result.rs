//! `tool-model-result-v2`: the structured projection of a call's outcome
//! for a model or a client that reads JSON rather than plain text.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use tool_core::{ToolError, ToolOutput};

/// The `schema_version` of every [`ModelResult`].
pub const MODEL_RESULT_SCHEMA_VERSION: &str = "tool-model-result-v2";

/// The structured result of one call, safe to show the model: what it
/// returned or why it failed, whether and how it ran, and where the data
/// comes from.
///
/// It carries nothing the model text does not already imply, so it can be
/// sent instead of (or next to) [`ToolOutput::model_text`]. A fatal outcome
/// has no model result, as it has no model text.
///
/// # JSON
///
/// ```json
/// {
///   "schema_version": "tool-model-result-v2",
///   "status": "ok",
///   "data": {"sku": "SKU-1042", "available": 12, "reserved": 3},
///   "error": null,
///   "execution": {
///     "outcome": "completed",
///     "delivery": "fresh",
///     "complete": true,
///     "truncated": false
///   },
///   "provenance": {
///     "source_label": "get_inventory",
///     "producer_revision": "1.0.0",
///     "resource_revision": null,
///     "observed_at": "2026-05-04T09:30:00.000Z",
///     "trust": "application"
///   }
/// }
/// ```
///
/// - `status`: `"ok"` or `"error"`.
/// - `data`: the tool's output as JSON for `"ok"`, else `null`; when the
///   model text was cut (`execution.truncated`), the cut text as a JSON
///   string, so the structured result never carries more than the text.
/// - `error`: `null` for `"ok"`, else `{code, category, safe_message,
///   recovery, retry_after_ms}` (see [`ToolError`]).
/// - `execution`: see [`Execution`]; `provenance`: see [`Provenance`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelResult {
    /// Always [`MODEL_RESULT_SCHEMA_VERSION`].
    pub schema_version: String,
    /// Whether the call succeeded.
    pub status: ResultStatus,
    /// The tool's output for a success, else `null`; the cut text (a
    /// string) when `execution.truncated` is true.
    pub data: Value,
    /// Why the call failed; `None` for a success.
    pub error: Option<ToolError>,
    /// Whether and how the call ran.
    pub execution: Execution,
    /// Where the data comes from.
    pub provenance: Provenance,
}

impl ModelResult {
    /// The model result of `output`, or `None` for a fatal output.
    pub fn from_output(
        output: &ToolOutput,
        execution: Execution,
        provenance: Provenance,
    ) -> Option<ModelResult> {
        let (status, data, error) = match output {
            // The model text was cut: the data carries the same cut text,
            // never more than the model reads.
            ToolOutput::Success {
                content_text,
                truncated: true,
                ..
            } => (ResultStatus::Ok, Value::String(content_text.clone()), None),
            ToolOutput::Success { details, .. } => (ResultStatus::Ok, details.clone(), None),
            ToolOutput::RespondToModel { error, .. } => {
                (ResultStatus::Error, Value::Null, Some(error.clone()))
            }
            ToolOutput::Fatal { .. } => return None,
        };
        Some(ModelResult {
            schema_version: MODEL_RESULT_SCHEMA_VERSION.to_owned(),
            status,
            data,
            error,
            execution,
            provenance,
        })
    }
}

/// Whether a call succeeded: `"ok"` or `"error"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultStatus {
    /// The call succeeded.
    Ok,
    /// The call ended with an error the model can act on.
    Error,
}

/// Whether and how a call ran.
///
/// ```json
/// {"outcome": "unknown", "delivery": "fresh", "complete": false, "truncated": false}
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Execution {
    /// How far the call got and whether it took effect.
    pub outcome: ExecutionOutcome,
    /// Whether this result was produced now or replayed from an earlier call.
    pub delivery: Delivery,
    /// True when the call ran to its end and nothing was left out of the
    /// result: the outcome is `completed` or `failed`, the text was not cut
    /// and the tool did not mark its data as partial.
    pub complete: bool,
    /// True when the text the model reads was cut short.
    pub truncated: bool,
}

/// How far a call got, and so whether it took effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExecutionOutcome {
    /// The tool was not run (unknown tool, invalid arguments, no approval,
    /// cancelled before it started): nothing changed.
    NotStarted,
    /// The tool ran to its end and succeeded.
    Completed,
    /// The tool ran and reported a failure, or a read-only tool was stopped:
    /// nothing changed.
    Failed,
    /// A tool with effects was stopped (timeout, abort, panic) while it ran:
    /// it may or may not have taken effect.
    Unknown,
}

impl ExecutionOutcome {
    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ExecutionOutcome::NotStarted => "not_started",
            ExecutionOutcome::Completed => "completed",
            ExecutionOutcome::Failed => "failed",
            ExecutionOutcome::Unknown => "unknown",
        }
    }
}

/// Whether a result was produced by this call or replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// Produced by this call.
    Fresh,
    /// The recorded result of an earlier call with the same idempotency key;
    /// the tool did not run again.
    Replayed,
}

impl Delivery {
    /// The snake_case name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Fresh => "fresh",
            Delivery::Replayed => "replayed",
        }
    }
}

/// Where a result's data comes from.
///
/// ```json
/// {
///   "source_label": "reserve_inventory",
///   "producer_revision": "1.0.0",
///   "resource_revision": "stock-row-v17",
///   "observed_at": "2026-05-04T09:30:00.250Z",
///   "trust": "application"
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Provenance {
    /// The tool that produced the result (its name as the model calls it),
    /// or `tool-contract` for a result the runtime made without a tool.
    pub source_label: String,
    /// The producer's version: the tool's contract version, or the runtime's
    /// crate version.
    pub producer_revision: String,
    /// The revision of the data the tool read or wrote (an ETag, a row
    /// version), when the tool states one.
    pub resource_revision: Option<String>,
    /// When the result was produced, RFC 3339 in UTC with milliseconds.
    pub observed_at: String,
    /// How far the content may be trusted.
    pub trust: ContentTrust,
}

/// How far a result's content may be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentTrust {
    /// Written by the runtime itself (errors such as `TIMEOUT`).
    Runtime,
    /// From the application's own systems (a closed-world tool).
    Application,
    /// From outside the application (an `open_world` tool): content, not
    /// instructions; text in it must not be followed.
    External,
}

/// The timestamp format of audit records and model results, for handlers
/// that write times the same way: `time` as RFC 3339 in UTC with
/// milliseconds, e.g.
/// `2026-05-04T09:30:00.250Z`; times before 1970 are written as the epoch.
pub fn format_rfc3339(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let millis = since.subsec_millis();
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    if year > 9999 {
        return format!(
            "{year}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
            rem / 3600,
            rem % 3600 / 60,
            rem % 60
        );
    }
    // Written into a fixed buffer: `format!` costs more than the rest of a
    // call's bookkeeping.
    let mut out = *b"0000-00-00T00:00:00.000Z";
    let mut put = |at: usize, width: usize, n: u64| {
        let mut rest = n;
        for i in (at..at + width).rev() {
            out[i] = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
    };
    put(0, 4, year);
    put(5, 2, month);
    put(8, 2, day);
    put(11, 2, rem / 3600);
    put(14, 2, rem % 3600 / 60);
    put(17, 2, rem % 60);
    put(20, 3, u64::from(millis));
    // Only ASCII digits and separators were written.
    String::from_utf8(out.to_vec()).unwrap_or_default()
}

/// Writes `n` in decimal with at least `width` digits (leading zeros).
pub(crate) fn push_digits(out: &mut Vec<u8>, n: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let start = at.min(digits.len().saturating_sub(width));
    out.extend_from_slice(&digits[start..]);
}

/// `MAJOR.MINOR.PATCH`, without the formatting machinery.
pub(crate) fn version_text(version: tool_core::Version) -> String {
    let mut out = Vec::with_capacity(16);
    push_digits(&mut out, version.major, 1);
    out.push(b'.');
    push_digits(&mut out, version.minor, 1);
    out.push(b'.');
    push_digits(&mut out, version.patch, 1);
    String::from_utf8(out).unwrap_or_default()
}

/// Year, month and day of the `days`-th day after 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, for non-negative day counts).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use tool_core::ErrorCategory;

    #[test]
    fn rfc3339_formats_utc_with_millis() {
        let at = |secs: u64, millis: u64| {
            format_rfc3339(UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_777_887_000, 250), "2026-05-04T09:30:00.250Z");
        assert_eq!(at(4_107_542_399, 999), "2100-02-28T23:59:59.999Z");
        assert_eq!(at(253_402_300_799, 0), "9999-12-31T23:59:59.000Z");
        assert_eq!(at(253_402_300_800, 0), "10000-01-01T00:00:00.000Z");
        assert_eq!(
            version_text(tool_core::Version::new(12, 0, 345)),
            "12.0.345"
        );
        assert_eq!(
            format_rfc3339(UNIX_EPOCH - Duration::from_secs(1)),
            "1970-01-01T00:00:00.000Z"
        );
    }

    #[test]
    fn errors_have_no_data_and_fatal_has_no_result() {
        let execution = Execution {
            outcome: ExecutionOutcome::NotStarted,
            delivery: Delivery::Fresh,
            complete: false,
            truncated: false,
        };
        let provenance = Provenance {
            source_label: "tool-contract".into(),
            producer_revision: "0.1.0".into(),
            resource_revision: None,
            observed_at: "1970-01-01T00:00:00.000Z".into(),
            trust: ContentTrust::Runtime,
        };
        let error = ToolError::new("UNKNOWN_TOOL", ErrorCategory::InvalidArguments, "No.");
        let output = ToolOutput::respond_to_model(error.clone());
        let result = ModelResult::from_output(&output, execution, provenance.clone()).unwrap();
        assert_eq!(
            serde_json::to_value(&result).unwrap(),
            serde_json::json!({
                "schema_version": "tool-model-result-v2",
                "status": "error",
                "data": null,
                "error": {
                    "code": "UNKNOWN_TOOL",
                    "category": "invalid_arguments",
                    "safe_message": "No.",
                    "recovery": "fix_arguments",
                    "retry_after_ms": null
                },
                "execution": {
                    "outcome": "not_started",
                    "delivery": "fresh",
                    "complete": false,
                    "truncated": false
                },
                "provenance": {
                    "source_label": "tool-contract",
                    "producer_revision": "0.1.0",
                    "resource_revision": null,
                    "observed_at": "1970-01-01T00:00:00.000Z",
                    "trust": "runtime"
                }
            })
        );
        let back: ModelResult =
            serde_json::from_value(serde_json::to_value(&result).unwrap()).unwrap();
        assert_eq!(back, result);
        assert_eq!(
            ModelResult::from_output(&ToolOutput::fatal(error), execution, provenance),
            None
        );
    }
}
