//! Attacks on the runtime's promises (issue 11) that broke them, kept as
//! regression tests with the exact outcome each must have.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use tool_contract::audit::CanonicalArguments;
use tool_contract::{
    CallContext, Session, Tool, ToolCall, ToolError, Toolbox, audit::Subjects,
    runtime::AbortHandle, runtime::Delivery, runtime::ExecutionOutcome, runtime::OutputKind,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomerId(pub String);

fn default_attempts() -> Option<u32> {
    Some(3)
}

/// How a delivery is retried.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(crate = "tool_contract::serde")]
#[schemars(crate = "tool_contract::schemars")]
pub struct RetryPolicy {
    /// How many attempts: absent for the shop's default of 3, null for
    /// unlimited.
    #[serde(default = "default_attempts")]
    pub attempts: Option<u32>,
}

/// Send a parcel to the signed-in customer.
///
/// Use it when the customer confirmed the parcel; it needs approval.
#[derive(Debug, Tool)]
#[tool(effect = "write", approval = "required", idempotent = false)]
pub struct SendParcel {
    /// The parcel's reference, e.g. "P-1".
    pub parcel: String,
    /// How the delivery is retried.
    pub retry: RetryPolicy,
}

#[test]
fn a_nested_null_with_a_non_null_default_is_not_an_absent_key() {
    // The parser reads these two differently: absent is Some(3), null is
    // None (unlimited attempts). An approval of one must not run the other.
    let absent = SendParcel::from_arguments(r#"{"parcel": "P-1", "retry": {}}"#, &Session::new())
        .unwrap();
    let null = SendParcel::from_arguments(
        r#"{"parcel": "P-1", "retry": {"attempts": null}}"#,
        &Session::new(),
    )
    .unwrap();
    assert_eq!(absent.retry.attempts, Some(3));
    assert_eq!(null.retry.attempts, None);
    let schema = SendParcel::input_schema();
    let of = |text: &str| CanonicalArguments::of(schema, text).unwrap();
    assert_eq!(
        of(r#"{"parcel": "P-1", "retry": {}}"#).as_str(),
        r#"{"parcel":"P-1","retry":{}}"#
    );
    assert_eq!(
        of(r#"{"parcel": "P-1", "retry": {"attempts": null}}"#).as_str(),
        r#"{"parcel":"P-1","retry":{"attempts":null}}"#
    );
}
