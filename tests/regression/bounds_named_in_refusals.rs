//! serde's refusal of a value at an integer whose declared bounds narrow
//! its type's range names the declared bounds; the bounds were compared
//! with the type's ends as floats, so a bound one below `i64::MAX` or
//! `u64::MAX` (the same float) did not count as narrowing and the message
//! named the type's range, which the schema does not allow.
//!
//! Each test asserts that both readers give the same exact outcome.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::Tool;

use crate::readers::{Outcome, agreed};

fn refusal(path: &str, message: &str) -> Outcome {
    Err(("INVALID_ARGUMENTS".into(), path.into(), message.into()))
}

/// Counters near the ends of their types.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counters {
    /// A signed count below the largest `i64`.
    #[schemars(range(max = 9223372036854775806i64))]
    pub signed: Option<i64>,
    /// An unsigned count below the largest `u64`.
    #[schemars(range(max = 18446744073709551614u64))]
    pub unsigned: Option<u64>,
    /// An unsigned count of at least 1.
    #[schemars(range(min = 1))]
    pub positive: Option<u64>,
    /// A signed count above the smallest `i64`.
    #[schemars(range(min = -9223372036854775807i64))]
    pub above_min: Option<i64>,
    /// A signed count, unbounded.
    pub free: Option<i64>,
}

/// Set the counters of a meter.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetMeterCounters {
    /// The counters, e.g. {"signed": 5}.
    pub counters: Counters,
}

#[test]
fn a_bound_one_inside_a_64_bit_type_is_named() {
    assert_eq!(
        agreed::<SetMeterCounters>(r#"{"counters": {"signed": 9223372036854775806, "unsigned": 18446744073709551614}}"#),
        Ok("SetMeterCounters { counters: Counters { signed: Some(9223372036854775806), unsigned: Some(18446744073709551614), \
            positive: None, above_min: None, free: None } }"
            .into())
    );
    // The control: no declared bound narrows, serde's message stands.
    assert_eq!(
        agreed::<SetMeterCounters>(r#"{"counters": {"free": "x"}}"#),
        refusal(
            "$.counters.free",
            "expected an integer from -9223372036854775808 to 9223372036854775807, got the string \"x\""
        )
    );
    assert_eq!(
        agreed::<SetMeterCounters>(r#"{"counters": {"positive": "x"}}"#),
        refusal(
            "$.counters.positive",
            "expected an integer from 1 to 18446744073709551615 or null, got the string \"x\""
        )
    );
    // These named the type's range, one more than the schema allows.
    assert_eq!(
        agreed::<SetMeterCounters>(r#"{"counters": {"signed": "x"}}"#),
        refusal(
            "$.counters.signed",
            "expected an integer from -9223372036854775808 to 9223372036854775806 or null, got the string \"x\""
        )
    );
    assert_eq!(
        agreed::<SetMeterCounters>(r#"{"counters": {"unsigned": -1}}"#),
        refusal(
            "$.counters.unsigned",
            "expected an integer from 0 to 18446744073709551614 or null, got the integer -1"
        )
    );
    assert_eq!(
        agreed::<SetMeterCounters>(r#"{"counters": {"above_min": true}}"#),
        refusal(
            "$.counters.above_min",
            "expected an integer from -9223372036854775807 to 9223372036854775807 or null, got true"
        )
    );
}
