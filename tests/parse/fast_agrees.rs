//! The fast reader (`tool-core/src/parse/fast.rs`) and the exact path
//! (serde_json's deserializer with the schema walk beside it) give the same
//! answer for every text: the same value, or the same error (the exact path
//! names every error: the fast reader only steps aside).
//!
//! Held on texts built to reach each corner of JSON the two could read
//! differently (escapes, surrogates, numbers at the edges of their types,
//! whitespace, nesting, duplicate keys), on byte-level mutations of a valid
//! call, and on value-level mutations at every depth; the documents of the
//! differential test (tests/parse/schema_agreement.rs) too. And the fast reader
//! does answer the common calls: they do not fall back.

use crate::readers;
use crate::schema_agree;

use proptest::prelude::*;
use proptest::test_runner::Config;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_contract::{Money, Session, SignedMoney, Tool};

use readers::{both, outcome};
use schema_agree::{Rng, SearchAndPay, generate};

/// How fast to ship.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Within a week.
    Slow,
    /// Today.
    Fast,
}

/// One line of an order.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Line {
    /// Stock keeping unit.
    #[schemars(length(min = 1, max = 8))]
    pub sku: String,
    /// Units wanted.
    #[schemars(range(min = 1, max = 1000))]
    pub quantity: u32,
    /// Price of one unit.
    pub unit_price: Money,
    /// A note for the packer; null for none.
    pub note: Option<String>,
}

/// Where to deliver.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Address {
    /// Street and number.
    #[schemars(length(min = 1, max = 40))]
    pub street: String,
    /// Two-letter country code.
    #[schemars(regex(pattern = r"^[A-Z]{2}$"))]
    pub country: String,
    /// Who to tell; null for nobody.
    #[schemars(email)]
    pub contact: Option<String>,
    /// Extra lines of the address.
    pub lines: Vec<String>,
}

/// A sensor reading.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Reading {
    /// Temperature in degrees Celsius.
    #[schemars(range(min = -40.5, max = 60))]
    pub celsius: f64,
    /// Seconds since the epoch.
    pub at: i64,
    /// Whether the sensor was healthy.
    pub ok: bool,
}

/// Place an order for the signed-in customer; returns the order's number.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PlaceOrder {
    /// The customer's own reference, e.g. "A-1".
    #[tool(min_length = 1, max_length = 20)]
    pub order_ref: String,
    /// How fast to ship.
    pub speed: Speed,
    /// Where to deliver.
    pub address: Address,
    /// What to order.
    #[tool(min_items = 1, max_items = 4)]
    pub lines: Vec<Line>,
    /// The expected total.
    pub total: Money,
    /// A voucher's reduction; null for none.
    pub discount: Option<SignedMoney>,
    /// Readings of the cold chain.
    pub readings: Vec<Reading>,
    /// Page of results, from 0; 0 if absent.
    #[tool(default, maximum = 50)]
    pub page: u32,
    /// Whether to ship by courier.
    pub express: bool,
    /// A note; null for none.
    pub note: Option<String>,
    /// Boxes as (count, label) pairs.
    pub boxes: Vec<(u8, String)>,
    /// Anything the shop keeps with the order.
    pub extra: Extra,
}

/// What the shop keeps with an order.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Extra {
    /// Any JSON.
    pub data: Value,
}

fn base() -> Value {
    json!({
        "order_ref": "A-1",
        "speed": "fast",
        "address": {"street": "Main St 1", "country": "DE", "contact": "a@b.de", "lines": ["c/o Jo", "2nd floor"]},
        "lines": [
            {"sku": "SKU-1", "quantity": 2, "unit_price": {"amount_minor": 1999, "currency": "EUR"}, "note": null},
            {"sku": "SKU-2", "quantity": 1, "unit_price": {"amount_minor": 5, "currency": "USD"}, "note": "fragile"}
        ],
        "total": {"amount_minor": 4003, "currency": "EUR"},
        "discount": {"amount_minor": -500, "currency": "EUR"},
        "readings": [{"celsius": -3.25, "at": -12, "ok": true}, {"celsius": 4, "at": 1700000000, "ok": false}],
        "page": 3,
        "express": false,
        "note": "Ring twice \u{2014} \"back door\"",
        "boxes": [[2, "big"], [1, "small"]],
        "extra": {"data": {"a": [1, 2.5, "x", null, {"b": false}]}}
    })
}

#[test]
fn the_common_call_is_read_fast_with_the_exact_value() {
    let text = base().to_string();
    assert!(both::<PlaceOrder>(&text));
    let pretty = serde_json::to_string_pretty(&base()).unwrap();
    assert!(both::<PlaceOrder>(&pretty));
    let order = PlaceOrder::from_arguments(&text, &Session::new()).unwrap();
    assert_eq!(
        order.note.as_deref(),
        Some("Ring twice \u{2014} \"back door\"")
    );
    assert_eq!(order.readings[0].celsius, -3.25);
    assert_eq!(order.readings[1].celsius, 4.0);
    assert_eq!(order.readings[0].at, -12);
    assert_eq!(
        order.boxes,
        vec![(2, "big".to_owned()), (1, "small".to_owned())]
    );
    assert_eq!(
        order.extra.data,
        json!({"a": [1, 2.5, "x", null, {"b": false}]})
    );
}

/// Replaces the text of `path`'s value in the compact base document.
fn with(path: &[&str], value: &str) -> String {
    let mut doc = base();
    let mut at = &mut doc;
    for step in path {
        at = match step.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*step],
        };
    }
    *at = json!("\u{0}MARK");
    doc.to_string().replace("\"\\u0000MARK\"", value)
}

#[test]
fn edge_texts_get_the_same_answer_and_the_rare_ones_fall_back() {
    // (where, text of the value, whether the fast reader answers)
    let cases: &[(&[&str], &str, bool)] = &[
        // Numbers: whole floats for integers, -0, the ends of the types.
        (&["lines", "0", "quantity"], "2.0", false),
        (&["lines", "0", "quantity"], "2e0", false),
        (&["lines", "0", "quantity"], "-0", false),
        (&["lines", "0", "quantity"], "0", false),
        (&["lines", "0", "quantity"], "1000", true),
        (&["lines", "0", "quantity"], "1001", false),
        (&["lines", "0", "quantity"], "01", false),
        (&["lines", "0", "quantity"], "1.", false),
        (&["lines", "0", "quantity"], "-", false),
        (&["lines", "0", "quantity"], "18446744073709551616", false),
        (&["readings", "0", "at"], "-9223372036854775808", true),
        (&["readings", "0", "at"], "-9223372036854775809", false),
        (&["readings", "0", "at"], "9223372036854775807", true),
        (&["readings", "0", "at"], "9223372036854775808", false),
        (&["readings", "0", "at"], "-0", false),
        (&["readings", "0", "celsius"], "-0", false),
        (&["readings", "0", "celsius"], "-0.0", true),
        (&["readings", "0", "celsius"], "1e1", true),
        (&["readings", "0", "celsius"], "1E+1", true),
        (
            &["readings", "0", "celsius"],
            "59.99999999999999999999",
            true,
        ),
        (
            &["readings", "0", "celsius"],
            "60.0000000000000000001",
            true,
        ),
        (&["readings", "0", "celsius"], "-40.5", true),
        (&["readings", "0", "celsius"], "-40.50001", false),
        (&["readings", "0", "celsius"], "1e400", false),
        (&["readings", "0", "celsius"], "0.1e-400", true),
        (&["readings", "0", "celsius"], "1.e1", false),
        (&["readings", "0", "celsius"], "1e", false),
        (&["readings", "0", "celsius"], "\"1\"", false),
        // Money reads a whole float as the integer it is, itself.
        (&["total", "amount_minor"], "4003.0", true),
        (&["total", "amount_minor"], "4003.5", false),
        (&["discount", "amount_minor"], "-1", true),
        (&["total", "amount_minor"], "-1", false),
        (&["page"], "50", true),
        (&["page"], "51", false),
        (&["page"], "null", true),
        (&["extra", "data"], "18446744073709551616", false),
        (&["extra", "data"], "-0", false),
        (&["extra", "data"], "[1,2,]", false),
        (&["extra", "data"], "{\"a\":1,}", false),
        // A key given twice is refused, inside free JSON too: the fast
        // reader steps aside and the exact path names it.
        (&["extra", "data"], "{\"a\":1,\"a\":2}", false),
        (
            &["extra", "data"],
            "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]",
            true,
        ),
        // Strings: escapes, surrogates, control characters, lengths.
        (&["note"], r#""\u00e9\n\t\/\\\"\b\f\r""#, true),
        (&["note"], r#""\ud83d\ude00""#, true),
        (&["note"], r#""\ud83d""#, false),
        (&["note"], r#""\ude00""#, false),
        (&["note"], r#""\ud83dx""#, false),
        (&["note"], r#""\u12""#, false),
        (&["note"], r#""\x""#, false),
        (&["note"], "\"a\u{1}b\"", false),
        (&["note"], "\"a\u{7f}b\"", true),
        (&["note"], "\"tab\there\"", false),
        (&["address", "street"], "\"\"", false),
        (
            &["address", "street"],
            &format!("\"{}\"", "é".repeat(40)),
            true,
        ),
        (
            &["address", "street"],
            &format!("\"{}\"", "é".repeat(41)),
            false,
        ),
        (
            &["address", "street"],
            &format!("\"{}\"", "😀".repeat(40)),
            true,
        ),
        (&["address", "street"], r#""\u00e9""#, true),
        (&["address", "country"], "\"de\"", false),
        (&["address", "country"], r#""\u0044E""#, true),
        (&["address", "contact"], "\"not an address\"", false),
        (&["address", "contact"], "null", true),
        (&["lines", "0", "unit_price", "currency"], "\"XYZ\"", false),
        (
            &["lines", "0", "unit_price", "currency"],
            r#""\u0045UR""#,
            true,
        ),
        (&["speed"], "\"slow\"", true),
        (&["speed"], "\"Slow\"", false),
        (&["speed"], r#""\u0073low""#, true),
        (&["speed"], "{\"slow\":null}", false),
        // Structures: arrays for structs, unknown keys, counts, tuples.
        (&["address"], "[\"Main St 1\",\"DE\",null,[]]", false),
        (
            &["lines", "0"],
            "[\"SKU-1\",2,{\"amount_minor\":1,\"currency\":\"EUR\"},null]",
            false,
        ),
        (&["address", "lines"], "[]", true),
        (&["lines"], "[]", false),
        (&["boxes", "0"], "[2]", false),
        (&["boxes", "0"], "[2,\"big\",3]", false),
        (&["boxes", "0"], "[256,\"big\"]", false),
        (&["boxes", "0"], "[ 2 , \"big\" ]", true),
        (
            &["total"],
            "{\"currency\":\"EUR\",\"amount_minor\":1}",
            true,
        ),
        (&["total"], "{\"amount_minor\":1}", false),
        (
            &["total"],
            "{\"amount_minor\":1,\"currency\":\"EUR\",\"x\":1}",
            false,
        ),
        (
            &["address"],
            "{\"street\":\"a\",\"country\":\"DE\",\"lines\":[]}",
            true,
        ),
        (
            &["address"],
            "{\"street\":\"a\",\"country\":\"DE\",\"lines\":[],\"x\":1}",
            false,
        ),
        (
            &["address"],
            "{\"street\":\"a\",\"street\":\"b\",\"country\":\"DE\",\"lines\":[]}",
            false,
        ),
        (
            &["address"],
            "{\"st\\u0072eet\":\"a\",\"country\":\"DE\",\"lines\":[]}",
            true,
        ),
        (
            &["address"],
            "{ \"street\" : \"a\" , \"country\" : \"DE\" , \"lines\" : [ ] }",
            true,
        ),
        (
            &["address"],
            "{\"street\":\"a\",\"country\":\"DE\",\"lines\":[],}",
            false,
        ),
        (&["address"], "{,\"street\":\"a\"}", false),
        (&["address"], "{\"street\" \"a\"}", false),
        (&["address"], "{\"street\":\"a\" \"country\":\"DE\"}", false),
        (&["address"], "{1:2}", false),
        (&["express"], "true", true),
        (&["express"], "tru", false),
        (&["express"], "truex", false),
        (&["express"], "1", false),
        (&["note"], "nul", false),
        (&["note"], "nulll", false),
    ];
    for (path, value, read_fast) in cases {
        let text = with(path, value);
        assert_eq!(
            both::<PlaceOrder>(&text),
            *read_fast,
            "{path:?} = {value}: fast reader answered?"
        );
    }
}

#[test]
fn whole_texts_at_the_edges_get_the_same_answer() {
    let doc = base().to_string();
    let texts = [
        format!(" \n\t\r{doc} \n\t\r"),
        format!("{doc} x"),
        format!("{doc}{{}}"),
        format!("\u{feff}{doc}"),
        format!("\u{c}{doc}"),
        doc.replacen("{", "{\"order_ref\":\"B\",", 1),
        doc.replacen("{", "{\"bogus\":1,", 1),
        doc.replace('}', "} "),
        doc.replace(',', " ,\n "),
        doc.replace(':', " : "),
        doc[..doc.len() - 1].to_owned(),
        String::new(),
        "   ".to_owned(),
        "[]".to_owned(),
        "{}".to_owned(),
        "null".to_owned(),
    ];
    for text in &texts {
        both::<PlaceOrder>(text);
    }
    assert!(both::<PlaceOrder>(&texts[0]));
    assert!(both::<PlaceOrder>(&texts[7]));
}

#[test]
fn depth_beyond_the_fast_readers_limit_falls_back() {
    let deep = format!("{}{}", "[".repeat(120), "]".repeat(120));
    assert!(!both::<PlaceOrder>(&with(&["extra", "data"], &deep)));
    let too_deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(!both::<PlaceOrder>(&with(&["extra", "data"], &too_deep)));
    let fine = format!("{}{}", "[".repeat(90), "]".repeat(90));
    assert!(both::<PlaceOrder>(&with(&["extra", "data"], &fine)));
}

/// Bytes and pieces a mutation puts in the text.
const PIECES: &[&str] = &[
    "\"",
    "\\",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "0",
    "1",
    "-",
    ".",
    "e",
    "E",
    "+",
    " ",
    "\n",
    "\t",
    "x",
    "\u{1}",
    "é",
    "😀",
    "null",
    "true",
    "false",
    "-0",
    "2.0",
    "1e2",
    "01",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\ud800",
    "\\n",
    "\"bogus\":1,",
    "18446744073709551616",
    "-9223372036854775809",
    "[]",
    "{}",
    "\"\"",
    "9e999",
];

/// Inserts, replaces or deletes pieces of `text` at char boundaries.
fn mutate_bytes(text: &str, rng: &mut Rng, times: usize) -> String {
    let mut text = text.to_owned();
    for _ in 0..times {
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let at = bounds[rng.below(bounds.len())];
        let piece = PIECES[rng.below(PIECES.len())];
        match rng.below(3) {
            0 => text.insert_str(at, piece),
            1 => {
                let end = bounds
                    .iter()
                    .copied()
                    .find(|&b| b > at)
                    .unwrap_or(text.len());
                text.replace_range(at..end, piece);
            }
            _ => {
                let end = bounds
                    .iter()
                    .copied()
                    .filter(|&b| b > at)
                    .nth(rng.below(4))
                    .unwrap_or(text.len());
                text.replace_range(at..end, "");
            }
        }
    }
    text
}

/// Values a mutation puts at a place of the document.
fn some_value(rng: &mut Rng) -> Value {
    let choices = [
        json!(null),
        json!(true),
        json!(0),
        json!(1),
        json!(-1),
        json!(2.5),
        json!(1000),
        json!(1001),
        json!(-40.5),
        json!(60),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("a"),
        json!("DE"),
        json!("slow"),
        json!("EUR"),
        json!("a@b.de"),
        json!("é\u{2014}\"\\\n"),
        json!([]),
        json!([1, "x"]),
        json!({}),
        json!({"amount_minor": 1, "currency": "EUR"}),
        json!({"street": "a", "country": "DE", "lines": []}),
    ];
    choices[rng.below(choices.len())].clone()
}

/// Replaces, removes or adds a value somewhere in the document.
fn mutate_value(doc: &mut Value, rng: &mut Rng, depth: usize) {
    let descend = depth < 6 && rng.below(3) != 0;
    match doc {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let key = keys[rng.below(keys.len())].clone();
            if descend {
                mutate_value(map.get_mut(&key).unwrap(), rng, depth + 1);
            } else {
                match rng.below(3) {
                    0 => drop(map.remove(&key)),
                    1 => drop(map.insert("bogus".to_owned(), some_value(rng))),
                    _ => drop(map.insert(key, some_value(rng))),
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = rng.below(items.len());
            if descend {
                mutate_value(&mut items[i], rng, depth + 1);
            } else if rng.below(2) == 0 {
                items.remove(i);
            } else {
                items.push(some_value(rng));
            }
        }
        _ => *doc = some_value(rng),
    }
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(3_000))]

    #[test]
    fn byte_mutations_of_a_call_get_the_same_answer(seed in 1..u64::MAX, times in 1..4usize, pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&base()).unwrap() } else { base().to_string() };
        let text = mutate_bytes(&text, &mut Rng::seeded(seed), times);
        both::<PlaceOrder>(&text);
    }

    #[test]
    fn value_mutations_at_every_depth_get_the_same_answer(seed in 1..u64::MAX, times in 1..4usize) {
        let mut rng = Rng::seeded(seed);
        let mut doc = base();
        for _ in 0..times {
            mutate_value(&mut doc, &mut rng, 0);
        }
        both::<PlaceOrder>(&doc.to_string());
    }

    #[test]
    fn the_differential_tests_documents_get_the_same_answer(seed in 1..u64::MAX, mutate in prop_oneof![Just(0u64), 1..30u64]) {
        let schema = SearchAndPay::input_schema();
        let document = generate(schema, schema, &mut Rng::seeded(seed), mutate, 0);
        both::<SearchAndPay>(&document.to_string());
    }
}

/// The fast reader answers most valid calls of the differential test's
/// tool, whose untagged, internally and adjacently tagged enums and set it
/// reads whole as the walk does.
#[test]
fn the_fast_reader_answers_the_valid_calls_of_a_tool_with_every_enum_shape() {
    let schema = SearchAndPay::input_schema();
    let (mut accepted, mut fast) = (0, 0);
    for seed in 1..300u64 {
        let document = generate(schema, schema, &mut Rng::seeded(seed), 0, 0).to_string();
        let read_fast = both::<SearchAndPay>(&document);
        if SearchAndPay::from_arguments(&document, &Session::new()).is_ok() {
            accepted += 1;
            fast += usize::from(read_fast);
        }
    }
    assert!(accepted > 50, "{accepted} valid documents");
    assert!(fast * 10 >= accepted * 9, "{fast} of {accepted} read fast");
}

/// One leg of a route.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Leg {
    /// How fast to ship this leg.
    pub speed: Speed,
    /// How fast the fallback is; null for none.
    pub fallback: Option<Speed>,
}

/// Plan the legs of a delivery route; returns the route's number.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PlanRoute {
    /// How fast to ship overall.
    pub speed: Speed,
    /// The legs, in order.
    pub legs: Vec<Leg>,
}

/// A unit-only enum's schema says string: serde_json's other form,
/// `{"variant": null}`, is refused at every depth, as every other kind is,
/// with what was sent; a string keeps serde's own message.
#[test]
fn a_unit_only_enum_is_read_from_a_string_only() {
    let cases = [
        (
            r#"{"speed":{"slow":null},"legs":[]}"#,
            "$.speed",
            "expected one of the allowed values (a string), got an object",
        ),
        (
            r#"{"speed":"fast","legs":[{"speed":"slow","fallback":null},{"speed":{"fast":null},"fallback":null}]}"#,
            "$.legs[1].speed",
            "expected one of the allowed values (a string), got an object",
        ),
        (
            r#"{"speed":"fast","legs":[{"speed":"slow","fallback":{"slow":null}}]}"#,
            "$.legs[0].fallback",
            "expected one of the allowed values (a string), got an object",
        ),
        (
            r#"{"speed":"fast","legs":[{"speed":[],"fallback":null}]}"#,
            "$.legs[0].speed",
            "expected one of the allowed values (a string), got an array",
        ),
        (
            r#"{"speed":"fast","legs":[{"speed":2,"fallback":null}]}"#,
            "$.legs[0].speed",
            "expected one of the allowed values (a string), got a number",
        ),
        (
            r#"{"speed":"fast","legs":[{"speed":null,"fallback":null}]}"#,
            "$.legs[0].speed",
            "expected one of the allowed values (a string), got null",
        ),
        (
            r#"{"speed":"fast","legs":[{"speed":"quick","fallback":null}]}"#,
            "$.legs[0].speed",
            "\"quick\" is not an allowed value; expected one of \"slow\", \"fast\"",
        ),
    ];
    for (text, path, message) in cases {
        assert!(!both::<PlanRoute>(text), "{text}");
        let error = PlanRoute::from_arguments(text, &Session::new()).unwrap_err();
        assert_eq!(
            (error.code(), error.path(), error.message()),
            ("INVALID_ARGUMENTS", path, message),
            "{text}"
        );
    }
    let text = r#"{"speed":"slow","legs":[{"speed":"fast","fallback":"slow"}]}"#;
    assert!(both::<PlanRoute>(text));
    let route = PlanRoute::from_arguments(text, &Session::new()).unwrap();
    assert!(matches!(route.legs[0].fallback, Some(Speed::Slow)));
}

/// A note with a field the application fills in itself.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Remark {
    /// The text of the note.
    pub text: String,
    /// How many times the note was read; set by the shop, never read from
    /// the arguments.
    #[serde(skip_deserializing)]
    #[schemars(range(max = 3))]
    pub reads: u8,
}

/// Leave a remark on an order; returns the remark's number.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct LeaveRemark {
    /// What the customer wants the shop to know about the order.
    pub remark: Remark,
}

/// A field serde never reads (`skip_deserializing`) is left out of the
/// input schema, so its key is refused as any unknown key is, on both
/// paths; the value is not read by either.
#[test]
fn a_field_serde_never_reads_is_an_unknown_key() {
    let remark = &LeaveRemark::input_schema()["$defs"]["Remark"];
    assert_eq!(remark["properties"].as_object().unwrap().len(), 1);
    assert_eq!(remark["additionalProperties"], json!(false));
    for text in [
        r#"{"remark":{"text":"hi","reads":2}}"#,
        r#"{"remark":{"text":"hi","reads":"many"}}"#,
    ] {
        assert!(!both::<LeaveRemark>(text));
        assert_eq!(
            outcome::<LeaveRemark>(text),
            Err((
                "INVALID_ARGUMENTS".to_owned(),
                "$.remark.reads".to_owned(),
                "unknown field \"reads\"; expected one of \"text\"".to_owned()
            ))
        );
    }
    assert!(both::<LeaveRemark>(r#"{"remark":{"text":"hi"}}"#));
}
