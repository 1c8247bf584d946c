//! How [`Money`] and [`SignedMoney`] are read: by hand, so that each type
//! enforces its whole schema itself (a closed object of an integer amount,
//! not negative for `Money`, and an ISO 4217 currency), wherever it is
//! deserialized. The guided parser recognises these two impls by the
//! addresses of the struct names they pass to `deserialize_struct` and does
//! not walk the schema a second time beside them
//! (`parse/guided.rs`, `Deserializer::deserialize_struct`).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Unexpected, Visitor};

use super::money::{Currency, Money, SignedMoney};

/// The bytes of the struct names below. A `static` has an address of its
/// own, which no string literal of another crate can share (literals may be
/// merged when they are equal; statics never are).
static MONEY_NAME: [u8; 21] = *b"$tool_contract::Money";
static SIGNED_MONEY_NAME: [u8; 27] = *b"$tool_contract::SignedMoney";

/// The struct name `Money`'s `Deserialize` passes to `deserialize_struct`;
/// only its address is compared, never the text.
pub(crate) static MONEY_TOKEN: &str = match std::str::from_utf8(&MONEY_NAME) {
    Ok(name) => name,
    Err(_) => panic!("the name is ASCII"),
};
/// The same for `SignedMoney`.
pub(crate) static SIGNED_MONEY_TOKEN: &str = match std::str::from_utf8(&SIGNED_MONEY_NAME) {
    Ok(name) => name,
    Err(_) => panic!("the name is ASCII"),
};

/// The keys of a money object, in schema order.
pub(crate) static MONEY_FIELDS: &[&str] = &["amount_minor", "currency"];

/// Which of the two money types a struct name given to `deserialize_struct`
/// is, by address: a type of the application with the same text is neither.
pub(crate) fn money_token(name: &'static str) -> Option<bool> {
    if std::ptr::eq(name, MONEY_TOKEN) {
        Some(false)
    } else if std::ptr::eq(name, SIGNED_MONEY_TOKEN) {
        Some(true)
    } else {
        None
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_struct(MONEY_TOKEN, MONEY_FIELDS, MoneyVisitor { signed: false })
    }
}

impl<'de> Deserialize<'de> for SignedMoney {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_struct(
                SIGNED_MONEY_TOKEN,
                MONEY_FIELDS,
                MoneyVisitor { signed: true },
            )
            .map(SignedMoney)
    }
}

/// Reads a money object: both keys once each, no other key.
struct MoneyVisitor {
    signed: bool,
}

impl<'de> Visitor<'de> for MoneyVisitor {
    type Value = Money;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The same words serde's derive used, which the parser's messages
        // turn into "expected an object (Money)".
        f.write_str("struct Money")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Money, A::Error> {
        let mut amount = None;
        let mut currency = None;
        while let Some(key) = map.next_key::<MoneyKey>()? {
            match key {
                MoneyKey::Amount => {
                    if amount.is_some() {
                        return Err(de::Error::duplicate_field("amount_minor"));
                    }
                    amount = Some(map.next_value_seed(Amount {
                        signed: self.signed,
                    })?);
                }
                MoneyKey::Currency => {
                    if currency.is_some() {
                        return Err(de::Error::duplicate_field("currency"));
                    }
                    currency = Some(map.next_value::<Currency>()?);
                }
            }
        }
        let amount_minor = amount.ok_or_else(|| de::Error::missing_field("amount_minor"))?;
        let currency = currency.ok_or_else(|| de::Error::missing_field("currency"))?;
        Ok(Money::new(amount_minor, currency))
    }
}

/// A key of a money object.
enum MoneyKey {
    Amount,
    Currency,
}

impl<'de> Deserialize<'de> for MoneyKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_identifier(MoneyKeyVisitor)
    }
}

struct MoneyKeyVisitor;

impl Visitor<'_> for MoneyKeyVisitor {
    type Value = MoneyKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<MoneyKey, E> {
        match key {
            "amount_minor" => Ok(MoneyKey::Amount),
            "currency" => Ok(MoneyKey::Currency),
            other => Err(de::Error::unknown_field(other, MONEY_FIELDS)),
        }
    }
}

/// The amount in minor units: an `i64`, never negative unless signed. A
/// whole number written as a float (`-0`, `2.0`) is the integer it is, as
/// JSON Schema counts it, below 2^53 where a float holds it exactly.
struct Amount {
    signed: bool,
}

impl<'de> DeserializeSeed<'de> for Amount {
    type Value = i64;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<i64, D::Error> {
        deserializer.deserialize_i64(self)
    }
}

impl Amount {
    fn checked<E: de::Error>(&self, v: i64) -> Result<i64, E> {
        if !self.signed && v < 0 {
            return Err(E::custom(format_args!(
                "expected a number of at least 0, got {v}"
            )));
        }
        Ok(v)
    }
}

impl Visitor<'_> for Amount {
    type Value = i64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // serde's own words for an i64, so messages read as before.
        f.write_str("i64")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
        self.checked(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
        match i64::try_from(v) {
            Ok(v) => self.checked(v),
            Err(_) => Err(E::invalid_value(Unexpected::Unsigned(v), &self)),
        }
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<i64, E> {
        match i64::try_from(v) {
            Ok(v) => self.checked(v),
            Err(_) => Err(E::invalid_value(
                Unexpected::Other("a 128-bit integer"),
                &self,
            )),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<i64, E> {
        match i64::try_from(v) {
            Ok(v) => self.checked(v),
            Err(_) => Err(E::invalid_value(
                Unexpected::Other("a 128-bit integer"),
                &self,
            )),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
        if v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0 {
            // Exact: |v| < 2^53.
            self.checked(v as i64)
        } else {
            Err(E::invalid_type(Unexpected::Float(v), &self))
        }
    }
}
