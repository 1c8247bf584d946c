//! `Money`: an amount in integer minor units with its ISO 4217 currency.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// An amount of money: integer minor units (cents for USD, yen for JPY) and
/// an ISO 4217 currency code. Never a float, so `0.1 + 0.2` cannot happen
/// and the currency is never guessed.
///
/// Its JSON is `{"amount_minor": 1999, "currency": "USD"}` (USD 19.99).
///
/// `Money` is **never negative** when it is read: its schema says
/// `"minimum": 0` for `amount_minor` and its `Deserialize` refuses a
/// negative amount (in a tool's arguments and with plain `serde_json`
/// alike), so a model cannot turn a payment into a refund by a sign. A field whose amount may be
/// negative (a balance, an adjustment) says so with [`SignedMoney`]. The
/// currency must be a code of the ISO 4217 list (see [`Currency`]).
///
/// ```
/// use tool_contract::{Currency, Money};
///
/// let price = Money::new(1999, Currency::USD);
/// assert_eq!(price.to_string(), "19.99 USD");
/// assert_eq!(Money::new(500, Currency::JPY).to_string(), "500 JPY");
/// let json = serde_json::to_string(&price).unwrap();
/// assert_eq!(json, r#"{"amount_minor":1999,"currency":"USD"}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Money {
    /// The amount in the currency's minor unit.
    pub amount_minor: i64,
    /// The ISO 4217 currency.
    pub currency: Currency,
}

impl Money {
    /// An amount of `amount_minor` minor units of `currency`.
    pub const fn new(amount_minor: i64, currency: Currency) -> Self {
        Money {
            amount_minor,
            currency,
        }
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let exponent = self.currency.minor_unit_exponent();
        let sign = if self.amount_minor < 0 { "-" } else { "" };
        let magnitude = self.amount_minor.unsigned_abs();
        if exponent == 0 {
            return write!(f, "{sign}{magnitude} {}", self.currency);
        }
        let scale = 10u64.pow(exponent);
        write!(
            f,
            "{sign}{}.{:0width$} {}",
            magnitude / scale,
            magnitude % scale,
            self.currency,
            width = exponent as usize
        )
    }
}

impl JsonSchema for Money {
    fn schema_name() -> Cow<'static, str> {
        "Money".into()
    }

    fn schema_id() -> Cow<'static, str> {
        "tool_core::Money".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let currency = generator.subschema_for::<Currency>();
        json_schema!({
            "type": "object",
            "description": "An amount of money in integer minor units of an ISO 4217 currency.",
            "properties": {
                "amount_minor": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The amount in the currency's minor unit, e.g. 1999 for 19.99 USD or 500 for 500 JPY; never negative."
                },
                "currency": currency
            },
            "required": ["amount_minor", "currency"],
            "additionalProperties": false
        })
    }
}

/// An amount of money that may be negative (a balance, an adjustment): the
/// same JSON as [`Money`], `{"amount_minor": -500, "currency": "EUR"}`, with
/// no lower bound in its schema.
///
/// ```
/// use tool_contract::{Currency, Money, SignedMoney};
///
/// let balance: SignedMoney = serde_json::from_str(r#"{"amount_minor": -500, "currency": "EUR"}"#).unwrap();
/// assert_eq!(balance.0, Money::new(-500, Currency::EUR));
/// assert_eq!(balance.to_string(), "-5.00 EUR");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct SignedMoney(pub Money);

impl fmt::Display for SignedMoney {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl JsonSchema for SignedMoney {
    fn schema_name() -> Cow<'static, str> {
        "SignedMoney".into()
    }

    fn schema_id() -> Cow<'static, str> {
        "tool_core::SignedMoney".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let currency = generator.subschema_for::<Currency>();
        json_schema!({
            "type": "object",
            "description": "An amount of money in integer minor units of an ISO 4217 currency; may be negative.",
            "properties": {
                "amount_minor": {
                    "type": "integer",
                    "description": "The amount in the currency's minor unit, e.g. -1999 for -19.99 USD."
                },
                "currency": currency
            },
            "required": ["amount_minor", "currency"],
            "additionalProperties": false
        })
    }
}

/// An ISO 4217 currency code: three uppercase ASCII letters such as `USD`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Currency([u8; 3]);

impl Currency {
    /// US dollar.
    pub const USD: Currency = Currency(*b"USD");
    /// Euro.
    pub const EUR: Currency = Currency(*b"EUR");
    /// Pound sterling.
    pub const GBP: Currency = Currency(*b"GBP");
    /// Japanese yen.
    pub const JPY: Currency = Currency(*b"JPY");
    /// Swiss franc.
    pub const CHF: Currency = Currency(*b"CHF");

    /// The currency with this code, if it is three uppercase ASCII letters.
    pub const fn from_code(code: &str) -> Option<Currency> {
        let b = code.as_bytes();
        if b.len() == 3
            && b[0].is_ascii_uppercase()
            && b[1].is_ascii_uppercase()
            && b[2].is_ascii_uppercase()
        {
            Some(Currency([b[0], b[1], b[2]]))
        } else {
            None
        }
    }

    /// The currency with this code if it is on the ISO 4217 list (as the
    /// `iso_currency` crate keeps it), other than the codes for testing
    /// (`XTS`) and for "no currency" (`XXX`).
    pub fn iso(code: &str) -> Option<Currency> {
        let currency = Currency::from_code(code)?;
        let listed = iso_currency::Currency::from_code(code).is_some();
        (listed && !matches!(code, "XTS" | "XXX")).then_some(currency)
    }

    /// The code, e.g. `"USD"`.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or("???")
    }

    /// How many decimal places the minor unit has (ISO 4217): 2 for most
    /// currencies, 0 for JPY or KRW, 3 for BHD or KWD.
    pub fn minor_unit_exponent(&self) -> u32 {
        match &self.0 {
            b"BIF" | b"CLP" | b"DJF" | b"GNF" | b"ISK" | b"JPY" | b"KMF" | b"KRW" | b"PYG"
            | b"RWF" | b"UGX" | b"UYI" | b"VND" | b"VUV" | b"XAF" | b"XOF" | b"XPF" => 0,
            b"BHD" | b"IQD" | b"JOD" | b"KWD" | b"LYD" | b"OMR" | b"TND" => 3,
            b"CLF" | b"UYW" => 4,
            _ => 2,
        }
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Currency({})", self.as_str())
    }
}

impl Serialize for Currency {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Currency {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CodeVisitor;
        impl serde::de::Visitor<'_> for CodeVisitor {
            type Value = Currency;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an ISO 4217 currency code of three uppercase letters, such as \"USD\"")
            }
            fn visit_str<E: serde::de::Error>(self, code: &str) -> Result<Currency, E> {
                if Currency::from_code(code).is_none() {
                    return Err(E::invalid_value(serde::de::Unexpected::Str(code), &self));
                }
                Currency::iso(code).ok_or_else(|| {
                    E::custom(format_args!(
                        "\"{code}\" is not an ISO 4217 currency code; use e.g. \"EUR\", \"USD\""
                    ))
                })
            }
        }
        deserializer.deserialize_str(CodeVisitor)
    }
}

impl JsonSchema for Currency {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Currency".into()
    }

    fn schema_id() -> Cow<'static, str> {
        "tool_core::Currency".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "ISO 4217 currency code, e.g. \"USD\"; the parser checks it against the ISO 4217 list."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_uses_the_minor_unit() {
        assert_eq!(Money::new(-5, Currency::USD).to_string(), "-0.05 USD");
        assert_eq!(
            Money::new(1_234_567, Currency::from_code("KWD").unwrap()).to_string(),
            "1234.567 KWD"
        );
        assert_eq!(
            Money::new(i64::MIN, Currency::JPY).to_string(),
            "-9223372036854775808 JPY"
        );
    }

    #[test]
    fn currency_codes_are_validated() {
        assert_eq!(Currency::from_code("usd"), None);
        assert_eq!(Currency::from_code("US"), None);
        let err =
            serde_json::from_str::<Money>(r#"{"amount_minor": 1, "currency": "usd"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid value: string \"usd\", expected an ISO 4217 currency code of three uppercase letters, such as \"USD\" at line 1 column 37"
        );
        let err = serde_json::from_str::<Money>(r#"{"amount_minor": 1.5, "currency": "USD"}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: floating point `1.5`, expected i64 at line 1 column 20"
        );
    }

    #[test]
    fn currencies_are_checked_against_the_iso_4217_list() {
        for code in ["EUR", "USD", "JPY", "XCG", "ZWG", "CHF", "XAU"] {
            assert_eq!(
                Currency::iso(code).map(|c| c.to_string()),
                Some(code.to_owned())
            );
        }
        for code in ["XYZ", "ABC", "XTS", "XXX", "ANG", "eur"] {
            assert_eq!(Currency::iso(code), None, "{code}");
        }
        let err =
            serde_json::from_str::<Money>(r#"{"amount_minor": 1, "currency": "XYZ"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"XYZ\" is not an ISO 4217 currency code; use e.g. \"EUR\", \"USD\" at line 1 column 37"
        );
    }

    #[test]
    fn schema_is_closed_with_integer_amount() {
        let schema = schemars::SchemaGenerator::default().into_root_schema_for::<Money>();
        assert_eq!(
            schema.get("properties").unwrap(),
            &serde_json::json!({
                "amount_minor": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The amount in the currency's minor unit, e.g. 1999 for 19.99 USD or 500 for 500 JPY; never negative."
                },
                "currency": {
                    "type": "string",
                    "pattern": "^[A-Z]{3}$",
                    "description": "ISO 4217 currency code, e.g. \"USD\"; the parser checks it against the ISO 4217 list."
                }
            })
        );
    }
}
