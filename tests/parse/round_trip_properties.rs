//! Property tests of the generated parser: any valid argument value of a
//! rich tool, serialized by serde and parsed back with `from_arguments`, is
//! the value it was made from, whatever the key order, the whitespace and
//! whether an empty `Option` is written as `null` or left out; and every
//! such document is accepted by the tool's compiled strict schema.

use proptest::prelude::*;
use proptest::test_runner::Config;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tool_contract::{Currency, Money, Session, Tool};

#[derive(Clone, Debug, PartialEq)]
struct TenantId(String);

/// How fast to ship.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Speed {
    /// Within a week.
    Standard,
    /// Next day.
    Express,
    /// Same day, by courier.
    SameDay,
}

/// A postal address.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Address {
    /// Street and number.
    street: String,
    /// Second address line, if any.
    line2: Option<String>,
    /// City name.
    city: String,
}

/// One parcel of the shipment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Parcel {
    /// Stock keeping unit.
    sku: String,
    /// Weight in grams.
    weight_grams: u32,
    /// Declared value of the parcel.
    value: Money,
}

/// Book a shipment of parcels to an address for the signed-in tenant.
#[derive(Clone, Debug, PartialEq, Serialize, Tool)]
#[tool(effect = "write", idempotent)]
struct BookShipment {
    /// Free-text reference the customer gave, e.g. "SH-1".
    #[tool(max_length = 64)]
    reference: String,
    /// How fast to ship.
    speed: Speed,
    /// Where to deliver.
    address: Address,
    /// What to ship.
    #[tool(max_items = 4)]
    parcels: Vec<Parcel>,
    /// Declared value for insurance; null for none.
    insured_value: Option<Money>,
    /// A note for the courier; null for none.
    note: Option<String>,
    /// Labels printed on the parcels.
    labels: Vec<String>,
    /// Priority adjustment the dispatcher applies.
    #[tool(minimum = -1000, maximum = 1000)]
    priority_offset: i32,
    /// A sequence number from the customer's system.
    sequence: u64,
    /// The customer's own signed counter.
    counter: i64,
    /// Whether a signature is needed on delivery.
    signature: bool,
    /// Whether to insure the shipment; false when left out.
    #[tool(default)]
    insured: bool,
    /// The tenant booking the shipment.
    #[tool(inject)]
    #[serde(skip_serializing)]
    tenant: TenantId,
}

const TENANT: &str = "acme";

fn session() -> Session {
    Session::new().with(TenantId(TENANT.into()))
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Strings a model may write: plain text, escapes JSON must write
/// (`"`, `\`, control characters), non-ASCII text, characters outside the
/// BMP (surrogate pairs when escaped), and the empty string.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 _.-]{0,24}",
        Just(String::new()),
        Just("quote \" backslash \\ slash / tab \t newline \n nul \u{0}".to_owned()),
        Just("\u{1f}\u{7f}\u{80}\u{2028}\u{2029}\u{feff}".to_owned()),
        Just("Straße, Ærø, 東京, Кириллица, עברית".to_owned()),
        Just("emoji 🦀🚚 and 𝄞 outside the BMP".to_owned()),
        prop::collection::vec(any::<char>(), 0..16).prop_map(|c| c.into_iter().collect()),
    ]
}

/// At most `max` characters, as a `max_length` constraint counts them.
fn text_of_at_most(max: usize) -> impl Strategy<Value = String> {
    text().prop_map(move |s| s.chars().take(max).collect())
}

/// `Money` is never negative as an argument, and its currency is on the
/// ISO 4217 list.
fn money() -> impl Strategy<Value = Money> {
    let amount = prop_oneof![Just(i64::MAX), Just(0), Just(1), 0..=i64::MAX];
    let currency = prop_oneof![
        Just(Currency::USD),
        Just(Currency::JPY),
        "[A-Z]{3}".prop_filter_map("not an ISO 4217 code", |code| Currency::iso(&code)),
    ];
    (amount, currency).prop_map(|(amount, currency)| Money::new(amount, currency))
}

fn speed() -> impl Strategy<Value = Speed> {
    prop::sample::select(vec![Speed::Standard, Speed::Express, Speed::SameDay])
}

fn address() -> impl Strategy<Value = Address> {
    (text(), prop::option::of(text()), text()).prop_map(|(street, line2, city)| Address {
        street,
        line2,
        city,
    })
}

fn parcel() -> impl Strategy<Value = Parcel> {
    (
        text(),
        prop_oneof![Just(0), Just(u32::MAX), any::<u32>()],
        money(),
    )
        .prop_map(|(sku, weight_grams, value)| Parcel {
            sku,
            weight_grams,
            value,
        })
}

fn shipment() -> impl Strategy<Value = BookShipment> {
    (
        (
            text_of_at_most(64),
            speed(),
            address(),
            prop::collection::vec(parcel(), 0..=4),
            prop::option::of(money()),
            prop::option::of(text()),
        ),
        (
            prop::collection::vec(text(), 0..4),
            prop_oneof![Just(-1000), Just(1000), -1000..=1000i32],
            prop_oneof![Just(0), Just(u64::MAX), any::<u64>()],
            prop_oneof![Just(i64::MIN), Just(i64::MAX), any::<i64>()],
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (reference, speed, address, parcels, insured_value, note),
                (labels, priority_offset, sequence, counter, signature, insured),
            )| BookShipment {
                reference,
                speed,
                address,
                parcels,
                insured_value,
                note,
                labels,
                priority_offset,
                sequence,
                counter,
                signature,
                insured,
                tenant: TenantId(TENANT.into()),
            },
        )
}

/// How a value is written: which `null`s (of optional and defaulted fields,
/// at any depth) are left out, a permutation of the top-level keys, and
/// whether the text is pretty-printed.
#[derive(Clone, Debug)]
struct Writing {
    drop_nulls: Vec<bool>,
    order: Vec<usize>,
    pretty: bool,
}

fn writing() -> impl Strategy<Value = Writing> {
    (
        prop::collection::vec(any::<bool>(), 16),
        Just((0..12).collect::<Vec<usize>>()).prop_shuffle(),
        any::<bool>(),
    )
        .prop_map(|(drop_nulls, order, pretty)| Writing {
            drop_nulls,
            order,
            pretty,
        })
}

/// Removes some `null` members of every object, as chosen by `drop`.
fn drop_nulls(value: &mut Value, drop: &[bool], next: &mut usize) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| {
                if !v.is_null() {
                    return true;
                }
                *next += 1;
                !drop[*next % drop.len()]
            });
            for v in map.values_mut() {
                drop_nulls(v, drop, next);
            }
        }
        Value::Array(items) => {
            for v in items {
                drop_nulls(v, drop, next);
            }
        }
        _ => {}
    }
}

/// The arguments text of `shipment`, written as `how` says.
fn arguments(shipment: &BookShipment, how: &Writing) -> String {
    let mut value = serde_json::to_value(shipment).unwrap();
    let Value::Object(map) = &mut value else {
        unreachable!("a struct serializes to an object")
    };
    // The defaulted field may be left out when it holds its default.
    if map.get("insured") == Some(&Value::Bool(false)) && how.drop_nulls[0] {
        map.remove("insured");
    }
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    let mut reordered = Map::new();
    for &i in &how.order {
        if let Some((key, value)) = entries.get_mut(i) {
            reordered.insert(key.clone(), value.take());
        }
    }
    entries.retain(|(key, _)| !reordered.contains_key(key));
    reordered.extend(entries);
    *map = reordered;
    drop_nulls(&mut value, &how.drop_nulls, &mut 0);
    if how.pretty {
        serde_json::to_string_pretty(&value).unwrap()
    } else {
        serde_json::to_string(&value).unwrap()
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn a_serialized_value_parses_back_to_itself(shipment in shipment(), how in writing()) {
        let text = arguments(&shipment, &how);
        let parsed = BookShipment::from_arguments(&text, &session());
        prop_assert_eq!(parsed.as_ref(), Ok(&shipment), "arguments: {}", text);
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn the_strict_schema_accepts_what_the_parser_accepts(shipment in shipment()) {
        // Strict mode writes every key, `null` for an empty `Option`.
        let document = serde_json::to_value(&shipment).unwrap();
        let schema = tool_contract::openai::strict_schema::<BookShipment>().unwrap();
        let validator = jsonschema::draft202012::options().build(schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&document).map(|e| e.to_string()).collect();
        prop_assert!(errors.is_empty(), "{document:#}: {errors:#?}");
        let parsed = BookShipment::from_arguments(&document.to_string(), &session());
        prop_assert_eq!(parsed.as_ref(), Ok(&shipment));
    }
}

/// The strategies above do reach the edges they name.
#[test]
fn the_edge_values_are_written_as_json_allows() {
    let shipment = BookShipment {
        reference: "quote \" backslash \\ nul \u{0} 🦀".into(),
        speed: Speed::SameDay,
        address: Address {
            street: "\u{2028}".into(),
            line2: None,
            city: "東京".into(),
        },
        parcels: vec![Parcel {
            sku: String::new(),
            weight_grams: u32::MAX,
            value: Money::new(0, Currency::JPY),
        }],
        insured_value: Some(Money::new(i64::MAX, Currency::USD)),
        note: None,
        labels: vec![],
        priority_offset: -1000,
        sequence: u64::MAX,
        counter: i64::MIN,
        signature: true,
        insured: false,
        tenant: TenantId(TENANT.into()),
    };
    let how = Writing {
        drop_nulls: vec![true; 16],
        order: (0..12).rev().collect(),
        pretty: false,
    };
    let text = arguments(&shipment, &how);
    // serde_json escapes quotes, backslashes and control characters, and writes
    // U+2028 and non-ASCII text as they are.
    let expected = concat!(
        r#"{"signature":true,"counter":-9223372036854775808,"sequence":18446744073709551615,"#,
        r#""priority_offset":-1000,"labels":[],"#,
        r#""insured_value":{"amount_minor":9223372036854775807,"currency":"USD"},"#,
        r#""parcels":[{"sku":"","weight_grams":4294967295,"#,
        r#""value":{"amount_minor":0,"currency":"JPY"}}],"#,
        "\"address\":{\"street\":\"\u{2028}\",\"city\":\"東京\"},",
        r#""speed":"same_day","reference":"quote \" backslash \\ nul \u0000 🦀"}"#
    );
    assert_eq!(text, expected);
    assert_eq!(
        BookShipment::from_arguments(&text, &session()).as_ref(),
        Ok(&shipment)
    );
}
