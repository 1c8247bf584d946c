//! `#[tool(crate = "...")]` for crates that re-export tool-contract.

mod framework {
    //! A crate that wraps tool-contract re-exports it under its own path.
    pub use tool_contract as tools;
}

use tool_contract::{Session, Tool};

/// Send a short text message to a phone number the customer confirmed.
#[derive(Debug, framework::tools::Tool)]
#[tool(
    crate = "crate::framework::tools",
    effect = "write",
    idempotent = false
)]
pub struct SendSms {
    /// Phone number in E.164 form, e.g. "+4915112345678".
    #[tool(pattern = "^\\+[1-9][0-9]{6,14}$")]
    pub to: String,
    /// The message, at most one SMS long.
    #[tool(max_length = 160)]
    pub text: String,
}

#[test]
fn derives_through_a_reexported_path() {
    let sms = SendSms::from_arguments(
        r#"{"to": "+4915112345678", "text": "Your order shipped."}"#,
        &Session::new(),
    )
    .unwrap();
    assert_eq!(sms.to, "+4915112345678");
    assert_eq!(
        SendSms::contract().idempotency(),
        tool_contract::contract::Idempotency::NotIdempotent
    );
    let error =
        SendSms::from_arguments(r#"{"to": "0151", "text": "x"}"#, &Session::new()).unwrap_err();
    assert_eq!(error.path(), "$.to");
}

/// Where a parcel goes.
#[derive(Debug, framework::tools::ToolArgs)]
#[tool(crate = "crate::framework::tools")]
pub struct Destination {
    /// Postcode, e.g. "10115".
    #[tool(pattern = "^[0-9]{5}$")]
    pub postcode: String,
}

/// Quote the shipping time of a parcel to one destination. Read-only.
#[derive(Debug, framework::tools::Tool)]
#[tool(crate = "crate::framework::tools")]
pub struct QuoteShippingTime {
    /// Where the parcel goes.
    pub destination: Destination,
}

#[test]
fn nested_types_derive_through_a_reexported_path() {
    let quote = QuoteShippingTime::from_arguments(
        r#"{"destination": {"postcode": "10115"}}"#,
        &Session::new(),
    )
    .unwrap();
    assert_eq!(quote.destination.postcode, "10115");
    assert_eq!(
        QuoteShippingTime::input_schema()["$defs"]["Destination"]["properties"]["postcode"]["pattern"],
        "^[0-9]{5}$"
    );
}
