//! What the fuzz targets share: a rich tool, the invariants every parse
//! must keep, and a builder of JSON values from fuzzer bytes.

use arbitrary::{Result, Unstructured};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};
use tool_contract::__private::{last_call_read_fast, with_exact_reader_only};
use tool_contract::{ArgumentError, Money, Session, Tool};

/// The tools and the document generator of the differential test
/// (tests/parse/schema_agreement.rs): `SearchAndPay` has every serde enum
/// representation, sets, floats and formats at depth.
#[path = "../../tests/schema_agree/mod.rs"]
pub mod schema_agree;

/// The tenant, injected from the session.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TenantId(pub String);

/// The caller's locale, injected when the session has one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Locale(pub String);

/// A postal address.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Address {
    /// Street and number.
    pub street: String,
    /// Second line, if any.
    pub line2: Option<String>,
    /// City name.
    pub city: String,
}

/// One parcel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Parcel {
    /// Stock keeping unit.
    pub sku: String,
    /// Weight in grams.
    pub weight_grams: u32,
    /// Declared value.
    pub value: Option<Money>,
}

/// How fast to ship.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Within a week.
    Standard,
    /// Next day.
    Express,
    /// Same day.
    SameDay,
}

fn default_labels() -> u8 {
    1
}

/// Book a shipment of parcels to an address for the signed-in tenant.
#[derive(Clone, Debug, PartialEq, Serialize, Tool)]
#[tool(effect = "write", idempotent)]
pub struct BookShipment {
    /// Shipment reference such as "SH-1".
    #[tool(min_length = 4, max_length = 16, pattern = "^SH-[0-9]+$")]
    pub reference: String,
    /// How fast to ship.
    pub speed: Speed,
    /// Where to deliver.
    pub address: Address,
    /// What to ship.
    #[tool(min_items = 1, max_items = 3)]
    pub parcels: Vec<Parcel>,
    /// Declared value for insurance; null for none.
    pub insured_value: Option<Money>,
    /// How many labels to print.
    #[tool(default = default_labels, minimum = 1, maximum = 10)]
    pub labels: u8,
    /// A note for the courier.
    #[tool(max_length = 200)]
    pub note: Option<String>,
    /// Where to send tracking mails.
    #[tool(format = "email", rename = "contactEmail")]
    #[serde(rename = "contactEmail")]
    pub contact_email: Option<String>,
    /// When to pick the parcels up, as an RFC 3339 date-time.
    #[tool(format = "date-time")]
    pub pickup_at: Option<String>,
    /// A key the model makes up once per booking and repeats on retries.
    #[tool(idempotency_key, format = "uuid")]
    pub request_id: String,
    /// Signed offset of the pickup slot from the first slot of the day.
    #[tool(minimum = -48, maximum = 48)]
    pub slot_offset: i64,
    /// Whether a signature is needed on delivery.
    #[tool(default)]
    pub signature: bool,
    /// The tenant booking the shipment.
    #[tool(inject)]
    #[serde(skip_serializing)]
    pub tenant: TenantId,
    /// The caller's locale.
    #[tool(inject)]
    #[serde(skip_serializing)]
    pub locale: Option<Locale>,
}

/// The session every target parses with: a tenant, no locale.
pub fn session() -> Session {
    Session::new().with(TenantId("acme".into()))
}

/// The longest error message any input may produce: messages echo at most
/// a short excerpt of what the model sent.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// Parses `text` and checks what must hold for any input:
///
/// - an error has the code `INVALID_ARGUMENTS`, a path that starts at `$`,
///   a message that is not empty and at most [`MAX_MESSAGE_BYTES`] long;
/// - a success came from JSON text (or from text that is only whitespace),
///   holds the session's values, and, serialized again, parses back to
///   itself.
pub fn check_arguments(text: &str) {
    let session = session();
    match BookShipment::from_arguments(text, &session) {
        Err(error) => check_error(text, &error),
        Ok(parsed) => {
            assert!(
                text.trim_ascii().is_empty() || serde_json::from_str::<Value>(text).is_ok(),
                "accepted text that is not JSON: {text:?}"
            );
            assert_eq!(parsed.tenant, TenantId("acme".into()));
            assert_eq!(parsed.locale, None);
            let again = serde_json::to_string(&parsed).expect("a parsed call serializes");
            match BookShipment::from_arguments(&again, &session) {
                Ok(reparsed) => assert_eq!(reparsed, parsed, "{text:?} -> {again}"),
                Err(error) => {
                    panic!("{text:?} was accepted, its serialization {again} not: {error}")
                }
            }
        }
    }
}

fn check_error(text: &str, error: &ArgumentError) {
    assert_eq!(error.code(), "INVALID_ARGUMENTS", "{text:?}: {error}");
    assert!(error.path().starts_with('$'), "{text:?}: {error}");
    assert!(!error.message().is_empty(), "{text:?}: {error}");
    assert!(
        error.message().len() <= MAX_MESSAGE_BYTES,
        "a {}-byte message for {} bytes of input: {}",
        error.message().len(),
        text.len(),
        &error.message()[..error.message().floor_char_boundary(300)]
    );
}

/// Builds JSON values from fuzzer bytes: objects take their keys mostly
/// from `keys`, strings mostly from `strings`, so that many values come
/// close to what a schema or a parser expects.
pub struct ValueBuilder<'k> {
    /// Keys objects are made of.
    pub keys: &'k [&'k str],
    /// Strings that values are made of.
    pub strings: &'k [&'k str],
    /// How deep values nest.
    pub max_depth: usize,
}

impl ValueBuilder<'_> {
    /// One value; containers hold at most six members.
    pub fn value(&self, u: &mut Unstructured<'_>, depth: usize) -> Result<Value> {
        let leaf_only = depth >= self.max_depth;
        let choice = if leaf_only {
            u.int_in_range(0..=5)?
        } else {
            u.int_in_range(0..=7)?
        };
        Ok(match choice {
            0 => Value::Null,
            1 => Value::Bool(u.arbitrary()?),
            2 => Value::Number(self.number(u)?),
            3 | 4 => Value::String(self.string(u)?),
            5 => Value::String(u.arbitrary()?),
            6 => {
                let len = u.int_in_range(0..=6)?;
                let mut items = Vec::with_capacity(len);
                for _ in 0..len {
                    items.push(self.value(u, depth + 1)?);
                }
                Value::Array(items)
            }
            _ => Value::Object(self.object(u, depth)?),
        })
    }

    /// An object of up to six members.
    pub fn object(&self, u: &mut Unstructured<'_>, depth: usize) -> Result<Map<String, Value>> {
        let len = u.int_in_range(0..=6)?;
        let mut map = Map::new();
        for _ in 0..len {
            let key = if u.ratio(7, 8)? {
                (*u.choose(self.keys)?).to_owned()
            } else {
                u.arbitrary()?
            };
            let value = self.value(u, depth + 1)?;
            map.insert(key, value);
        }
        Ok(map)
    }

    fn string(&self, u: &mut Unstructured<'_>) -> Result<String> {
        Ok((*u.choose(self.strings)?).to_owned())
    }

    fn number(&self, u: &mut Unstructured<'_>) -> Result<Number> {
        Ok(match u.int_in_range(0..=4)? {
            0 => Number::from(u.int_in_range(-3i64..=12)?),
            1 => Number::from(u.arbitrary::<i64>()?),
            2 => Number::from(u.arbitrary::<u64>()?),
            3 => Number::from_f64(u.arbitrary()?).unwrap_or_else(|| Number::from(0)),
            _ => Number::from(*u.choose(&[i64::MIN, i64::MAX, -1, 0, 1, 255, 256])?),
        })
    }
}

/// What a call gave: the value's `Debug` text (floats keep their sign and
/// every digit), or the error's code, path and message.
pub type Outcome = std::result::Result<String, (String, String, String)>;

fn outcome<T: Tool + std::fmt::Debug>(text: &str, session: &Session) -> Outcome {
    T::from_arguments(text, session)
        .map(|value| format!("{value:?}"))
        .map_err(|error| {
            (
                error.code().to_owned(),
                error.path().to_owned(),
                error.message().to_owned(),
            )
        })
}

/// The fast reader's answer for `text` and the exact path's alone
/// (`with_exact_reader_only`) must be the same: the same value, or an
/// error with the same code, path and message. Returns whether the fast
/// reader answered the call itself.
pub fn fast_agrees<T: Tool + std::fmt::Debug>(text: &str, session: &Session) -> bool {
    let fast = outcome::<T>(text, session);
    let read_fast = last_call_read_fast();
    let exact = with_exact_reader_only(|| outcome::<T>(text, session));
    assert!(!last_call_read_fast(), "the exact path read {text:?}");
    if fast != exact {
        panic!(
            "the readers disagree on {text:?} for {}:\n  fast (answered itself: {read_fast}): {fast:?}\n  exact: {exact:?}",
            std::any::type_name::<T>()
        );
    }
    read_fast
}

/// [`fast_agrees`] for the rich tool [`BookShipment`] (with the session of
/// the other targets) and for `SearchAndPay` of `tests/schema_agree`.
pub fn check_fast_agrees(text: &str) {
    fast_agrees::<BookShipment>(text, &session());
    fast_agrees::<schema_agree::SearchAndPay>(text, &Session::new());
}
