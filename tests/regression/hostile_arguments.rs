//! Hostile argument documents: each must be refused with the exact code,
//! path and message, in bounded time and memory, without a panic.

use schemars::JsonSchema;
use serde::Deserialize;
use tool_contract::{ArgumentError, Money, Session, Tool};

#[derive(Clone, Debug)]
struct TenantId(String);

/// A postal address.
#[derive(Debug, Deserialize, JsonSchema)]
struct Address {
    /// Street and number.
    street: String,
    /// City name.
    city: String,
}

/// One line of the shipment.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Parcel {
    /// Stock keeping unit.
    sku: String,
    /// Weight in grams.
    weight_grams: u32,
}

/// How fast to ship.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Speed {
    Standard,
    Express,
}

/// Book a shipment of parcels to an address for the signed-in tenant.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
struct BookShipment {
    /// Shipment reference such as "SH-1".
    #[tool(pattern = "^SH-[0-9]+$", max_length = 16)]
    reference: String,
    /// How fast to ship.
    speed: Speed,
    /// Where to deliver.
    address: Address,
    /// What to ship.
    #[tool(min_items = 1, max_items = 3)]
    parcels: Vec<Parcel>,
    /// Declared value for insurance; null for none.
    insured_value: Option<Money>,
    /// How many labels to print.
    #[tool(maximum = 10)]
    labels: u32,
    /// A note for the courier.
    note: Option<String>,
    /// The tenant booking the shipment.
    #[tool(inject)]
    tenant: TenantId,
}

fn parse(arguments: &str) -> Result<BookShipment, ArgumentError> {
    BookShipment::from_arguments(arguments, &Session::new().with(TenantId("acme".into())))
}

fn valid() -> serde_json::Map<String, serde_json::Value> {
    serde_json::from_str(VALID).unwrap()
}

const VALID: &str = r#"{"reference": "SH-1", "speed": "express", "address": {"street": "Main St 1", "city": "Berlin"}, "parcels": [{"sku": "A-1", "weight_grams": 500}], "insured_value": null, "labels": 1, "note": null}"#;

/// `VALID` with one top-level key set to raw JSON text (not re-encoded).
fn set(key: &str, raw: &str) -> String {
    let mut doc = valid();
    doc.remove(key);
    let rest = serde_json::to_string(&doc).unwrap();
    format!("{{\"{key}\": {raw}, {}", &rest[1..])
}

#[test]
fn the_valid_document_parses_into_every_field() {
    let shipment = parse(VALID).unwrap();
    assert_eq!(shipment.reference, "SH-1");
    assert!(matches!(shipment.speed, Speed::Express));
    assert_eq!(
        (
            shipment.address.street.as_str(),
            shipment.address.city.as_str()
        ),
        ("Main St 1", "Berlin")
    );
    let parcels: Vec<(&str, u32)> = shipment
        .parcels
        .iter()
        .map(|p| (p.sku.as_str(), p.weight_grams))
        .collect();
    assert_eq!(parcels, [("A-1", 500)]);
    assert_eq!(
        (shipment.insured_value, shipment.labels, shipment.note),
        (None, 1, None)
    );
    assert_eq!(shipment.tenant.0, "acme");
}

/// Every document is refused with `INVALID_ARGUMENTS`, the exact JSON path
/// and the exact message; none panics, and each is parsed in time linear in
/// its (capped) size with no recursion deeper than serde_json's limit.
#[test]
fn hostile_documents_are_refused_with_code_path_and_message() {
    // Paths are capped at 64 levels and each key at 64 characters.
    let huge_key_path = format!("$[\"{}\"… (100000 bytes)]", "k".repeat(64));
    let cases: Vec<(&str, String, &str, &str)> = vec![
        (
            "empty string",
            "".into(),
            "$.reference",
            "missing required fields \"reference\", \"speed\", \"address\", \"parcels\", \"labels\"",
        ),
        (
            "whitespace only",
            " \n\t ".into(),
            "$.reference",
            "missing required fields \"reference\", \"speed\", \"address\", \"parcels\", \"labels\"",
        ),
        (
            "lone open brace",
            "{".into(),
            "$",
            "the JSON text ends in the middle of an object (at line 1, column 1)",
        ),
        (
            "lone close brace",
            "}".into(),
            "$",
            "expected the arguments as a JSON object, got text that is not JSON",
        ),
        (
            "trailing garbage",
            format!("{VALID} x"),
            "$",
            "invalid JSON: unexpected text after the end of the JSON object (at line 1, column 197)",
        ),
        (
            "second object",
            format!("{VALID}{VALID}"),
            "$",
            "invalid JSON: unexpected text after the end of the JSON object (at line 1, column 196)",
        ),
        (
            "array root",
            "[]".into(),
            "$",
            "expected the arguments as a JSON object, got an array",
        ),
        (
            "string root",
            r#""{}""#.into(),
            "$",
            "expected the arguments as a JSON object, got a string",
        ),
        (
            "number root",
            "42".into(),
            "$",
            "expected the arguments as a JSON object, got a number",
        ),
        (
            "boolean root",
            "true".into(),
            "$",
            "expected the arguments as a JSON object, got a boolean",
        ),
        (
            "null root",
            "null".into(),
            "$",
            "expected the arguments as a JSON object, got null",
        ),
        (
            "byte order mark",
            format!("\u{feff}{VALID}"),
            "$",
            "expected the arguments as a JSON object, got text that is not JSON",
        ),
        (
            "single quotes",
            "{'reference': 'SH-1'}".into(),
            "$",
            "invalid JSON: object keys must be strings in double quotes (at line 1, column 2)",
        ),
        (
            "unquoted key",
            "{reference: 1}".into(),
            "$",
            "invalid JSON: object keys must be strings in double quotes (at line 1, column 2)",
        ),
        (
            "comment",
            "{/* hi */}".into(),
            "$",
            "invalid JSON: object keys must be strings in double quotes (at line 1, column 2)",
        ),
        (
            "trailing comma",
            format!("{},}}", &VALID[..VALID.len() - 1]),
            "$",
            "invalid JSON: a trailing comma is not allowed in JSON (at line 1, column 196)",
        ),
        (
            "missing colon",
            r#"{"reference" "SH-1"}"#.into(),
            "$.reference",
            "invalid JSON: expected `:` (at line 1, column 14)",
        ),
        (
            "deep nesting in a typed field",
            set("parcels", &"[".repeat(100_000)),
            "$.parcels[0]",
            "expected an object (Parcel), got an array",
        ),
        (
            // The nested object is closed: the unknown key is refused before
            // its value is read.
            "deep nesting under an unknown nested key",
            set(
                "address",
                &format!(
                    "{{\"street\": \"a\", \"city\": \"b\", \"x\": {}",
                    "[".repeat(100_000)
                ),
            ),
            "$.address.x",
            "unknown field \"x\"; expected one of \"street\", \"city\"",
        ),
        (
            "deep objects under an unknown key",
            format!("{{\"x\": {}", "{\"x\": ".repeat(100_000)),
            "$.x",
            "unknown field \"x\"; expected one of \"reference\", \"speed\", \"address\", \"parcels\", \"insured_value\", \"labels\", \"note\"",
        ),
        (
            "10 MB string",
            set("note", &format!("\"{}\"", "x".repeat(10 << 20))),
            "$",
            "the arguments are 10485936 bytes long; at most 1048576 bytes are accepted",
        ),
        (
            "number beyond f64",
            set("labels", "1e400"),
            "$.labels",
            // Valid JSON: the number is what is wrong, not the text.
            "expected an integer of at most 10, got a number beyond what a 64-bit float can hold",
        ),
        (
            "integer beyond u64",
            set("labels", "99999999999999999999"),
            "$.labels",
            // The declared bounds, not the type's range.
            "expected an integer from 0 to 10, got the number 1e+20",
        ),
        (
            "integer beyond u32",
            set("labels", "4294967296"),
            "$.labels",
            "expected an integer from 0 to 10, got the integer 4294967296",
        ),
        (
            "negative for unsigned",
            set("labels", "-1"),
            "$.labels",
            "expected an integer from 0 to 10, got the integer -1",
        ),
        (
            "fraction for integer",
            set("labels", "1.5"),
            "$.labels",
            "expected an integer from 0 to 10, got the number 1.5",
        ),
        (
            "float form of a fraction",
            set("labels", "2.50"),
            "$.labels",
            "expected an integer from 0 to 10, got the number 2.5",
        ),
        (
            "1000-digit number",
            set("labels", &"9".repeat(1000)),
            "$.labels",
            "expected an integer of at most 10, got a number beyond what a 64-bit float can hold",
        ),
        (
            "leading zero",
            set("labels", "01"),
            "$.labels",
            "invalid JSON: a number is not written as JSON allows (at line 1, column 13)",
        ),
        (
            "NaN literal",
            set("labels", "NaN"),
            "$.labels",
            "invalid JSON: expected a JSON value (NaN, Infinity, comments and unquoted words are not JSON) (at line 1, column 12)",
        ),
        (
            "Infinity literal",
            set("labels", "Infinity"),
            "$.labels",
            "invalid JSON: expected a JSON value (NaN, Infinity, comments and unquoted words are not JSON) (at line 1, column 12)",
        ),
        (
            "negative Infinity literal",
            set("labels", "-Infinity"),
            "$.labels",
            "invalid JSON: a number is not written as JSON allows (at line 1, column 13)",
        ),
        (
            "duplicate key",
            format!("{{\"labels\": 2, {}", &VALID[1..]),
            "$.labels",
            "field \"labels\" is given more than once; give each field once",
        ),
        (
            "duplicate nested key",
            set(
                "parcels",
                r#"[{"sku": "a", "weight_grams": 1, "sku": "b"}]"#,
            ),
            "$.parcels[0].sku",
            "field \"sku\" is given more than once; give each field once",
        ),
        (
            "unknown key",
            set("colour", "\"red\""),
            "$.colour",
            "unknown field \"colour\"; expected one of \"reference\", \"speed\", \"address\", \"parcels\", \"insured_value\", \"labels\", \"note\"",
        ),
        (
            "unknown nested key (deny_unknown_fields)",
            set(
                "parcels",
                r#"[{"sku": "a", "weight_grams": 1, "fragile": true}]"#,
            ),
            "$.parcels[0].fragile",
            "unknown field \"fragile\"; expected one of \"sku\", \"weight_grams\"",
        ),
        (
            "empty key",
            set("", "1"),
            r#"$[""]"#,
            "unknown field \"\"; expected one of \"reference\", \"speed\", \"address\", \"parcels\", \"insured_value\", \"labels\", \"note\"",
        ),
        (
            "huge unknown key",
            set(&"k".repeat(100_000), "1"),
            &huge_key_path,
            "unknown field \"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\"… (100000 bytes); expected one of \"reference\", \"speed\", \"address\", \"parcels\", \"insured_value\", \"labels\", \"note\"",
        ),
        (
            "model-supplied injected value",
            set("tenant", "\"evil-corp\""),
            "$.tenant",
            "field \"tenant\" is set by the application from the trusted session, not by the model; remove it from the arguments",
        ),
        (
            "null for a required field",
            set("reference", "null"),
            "$.reference",
            "expected a string, got null",
        ),
        (
            "null for a required nested field",
            set("address", r#"{"street": null, "city": "Berlin"}"#),
            "$.address.street",
            "expected a string, got null",
        ),
        (
            "missing nested field",
            set("address", r#"{"street": "Main St 1"}"#),
            "$.address.city",
            "missing required field \"city\"",
        ),
        (
            "escaped lone leading surrogate",
            set("note", r#""\ud800""#),
            "$.note",
            "invalid JSON: a string contains an invalid \\u escape (at line 1, column 17)",
        ),
        (
            "escaped lone trailing surrogate",
            set("note", r#""\udc00""#),
            "$.note",
            "invalid JSON: a string contains a lone UTF-16 surrogate escape (\\ud800-\\udfff) (at line 1, column 16)",
        ),
        (
            "misspelled null before a comma",
            set("note", "nul"),
            "$.note",
            "invalid JSON: a word is not a JSON literal; write true, false or null, or put text in double quotes (at line 1, column 13)",
        ),
        (
            "misspelled literal at the end",
            r#"{"reference": "SH-1", "note": tru}"#.to_owned(),
            "$.note",
            "invalid JSON: a word is not a JSON literal; write true, false or null, or put text in double quotes (at line 1, column 34)",
        ),
        (
            "raw control character",
            set("note", "\"a\u{1}b\""),
            "$.note",
            "invalid JSON: a string contains a raw control character; escape it (\\n, \\t, \\u0000) (at line 1, column 12)",
        ),
        (
            "raw NUL",
            set("note", "\"a\u{0}b\""),
            "$.note",
            "invalid JSON: a string contains a raw control character; escape it (\\n, \\t, \\u0000) (at line 1, column 12)",
        ),
        (
            "escaped NUL against a pattern",
            set("reference", r#""SH-1\u0000""#),
            "$.reference",
            "expected a string matching the pattern \"^SH-[0-9]+$\", got \"SH-1\\u{0}\"",
        ),
        (
            "enum value in another case",
            set("speed", "\"Express\""),
            "$.speed",
            "\"Express\" is not an allowed value; expected one of \"standard\", \"express\" (did you mean \"express\"?)",
        ),
        (
            "enum value with trailing space",
            set("speed", "\"express \""),
            "$.speed",
            "\"express \" is not an allowed value; expected one of \"standard\", \"express\" (did you mean \"express\"?)",
        ),
        (
            "enum value as a number",
            set("speed", "1"),
            "$.speed",
            "expected one of the allowed values (a string), got a number",
        ),
        (
            "array where an object is expected",
            set("address", "[\"Main St 1\", \"Berlin\"]"),
            "$.address",
            "expected an object (Address), got an array",
        ),
        (
            "object where an array is expected",
            set("parcels", r#"{"sku": "a", "weight_grams": 1}"#),
            "$.parcels",
            "expected an array, got an object",
        ),
        (
            "string where a number is expected",
            set("labels", "\"1\""),
            "$.labels",
            "expected an integer from 0 to 10, got the string \"1\"",
        ),
        (
            "string where a boolean-like enum is expected",
            set("speed", "true"),
            "$.speed",
            "expected one of the allowed values (a string), got a boolean",
        ),
        (
            "too many items",
            set(
                "parcels",
                &format!("[{}]", [r#"{"sku": "a", "weight_grams": 1}"#; 4].join(",")),
            ),
            "$.parcels",
            "expected at most 3 items, got 4 items",
        ),
        (
            "no items",
            set("parcels", "[]"),
            "$.parcels",
            "expected at least 1 item, got 0 items",
        ),
        (
            "100k items",
            set(
                "parcels",
                &format!(
                    "[{}]",
                    vec![r#"{"sku":"a","weight_grams":1}"#; 30_000].join(",")
                ),
            ),
            "$.parcels",
            "expected at most 3 items, got 30000 items",
        ),
        (
            "pattern mismatch",
            set("reference", "\"sh-1\""),
            "$.reference",
            "expected a string matching the pattern \"^SH-[0-9]+$\", got \"sh-1\"",
        ),
        (
            "too long",
            set("reference", "\"SH-12345678901234567\""),
            "$.reference",
            "expected at most 16 characters, got 20 characters",
        ),
        (
            "above maximum",
            set("labels", "11"),
            "$.labels",
            "expected a number of at most 10, got 11",
        ),
        (
            "money amount as float",
            set(
                "insured_value",
                r#"{"amount_minor": 1.5, "currency": "EUR"}"#,
            ),
            "$.insured_value.amount_minor",
            "expected an integer from -9223372036854775808 to 9223372036854775807, got the number 1.5",
        ),
        (
            "money amount beyond i64",
            set(
                "insured_value",
                r#"{"amount_minor": 9223372036854775808, "currency": "EUR"}"#,
            ),
            "$.insured_value.amount_minor",
            "expected an integer from -9223372036854775808 to 9223372036854775807, got the integer 9223372036854775808",
        ),
        (
            "lowercase currency",
            set(
                "insured_value",
                r#"{"amount_minor": 100, "currency": "eur"}"#,
            ),
            "$.insured_value.currency",
            "expected an ISO 4217 currency code of three uppercase letters, such as \"USD\", got the string \"eur\"",
        ),
        (
            "money as a string",
            set("insured_value", "\"12.50 EUR\""),
            "$.insured_value",
            "expected an object (Money), got the string \"12.50 EUR\"",
        ),
        (
            "escaped name of an injected field",
            set("\\u0074enant", "\"evil-corp\""),
            "$.tenant",
            "field \"tenant\" is set by the application from the trusted session, not by the model; remove it from the arguments",
        ),
        (
            "duplicate key written with an escape",
            format!("{{\"l\\u0061bels\": 2, {}", &VALID[1..]),
            "$.labels",
            "field \"labels\" is given more than once; give each field once",
        ),
        (
            "NUL in an unknown key",
            set("refer\\u0000ence", "\"SH-1\""),
            r#"$["refer\u{0}ence"]"#,
            "unknown field \"refer\\u{0}ence\"; expected one of \"reference\", \"speed\", \"address\", \"parcels\", \"insured_value\", \"labels\", \"note\" (did you mean \"reference\"?)",
        ),
        (
            "form feed before the root",
            format!("\u{c}{VALID}"),
            "$",
            "invalid JSON: expected a JSON value (NaN, Infinity, comments and unquoted words are not JSON) (at line 1, column 1)",
        ),
        (
            "plus sign",
            set("labels", "+1"),
            "$.labels",
            "invalid JSON: expected a JSON value (NaN, Infinity, comments and unquoted words are not JSON) (at line 1, column 12)",
        ),
        (
            "hexadecimal number",
            set("labels", "0x1"),
            "$.labels",
            "invalid JSON: expected `,` or `}` (at line 1, column 13)",
        ),
        (
            "exponent form of a fraction",
            set("labels", "15e-1"),
            "$.labels",
            "expected an integer from 0 to 10, got the number 1.5",
        ),
        (
            "100k-character enum value",
            set("speed", &format!("\"{}\"", "e".repeat(100_000))),
            "$.speed",
            "\"eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\"… (100000 bytes) is not an allowed value; expected one of \"standard\", \"express\"",
        ),
        (
            "100k-character string for a 16-character field",
            set("reference", &format!("\"SH-{}\"", "1".repeat(100_000))),
            "$.reference",
            "expected at most 16 characters, got 100003 characters",
        ),
        (
            "100k-character currency",
            set(
                "insured_value",
                &format!(
                    "{{\"amount_minor\": 1, \"currency\": \"{}\"}}",
                    "E".repeat(100_000)
                ),
            ),
            "$.insured_value.currency",
            "expected an ISO 4217 currency code of three uppercase letters, such as \"USD\", got the string \"EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE… (100002 bytes)",
        ),
        (
            "money with an extra key",
            set(
                "insured_value",
                r#"{"amount_minor": 100, "currency": "EUR", "rate": 1.1}"#,
            ),
            "$.insured_value.rate",
            "unknown field \"rate\"; expected one of \"amount_minor\", \"currency\"",
        ),
        (
            "money amount below i64",
            set(
                "insured_value",
                r#"{"amount_minor": -9223372036854775809, "currency": "EUR"}"#,
            ),
            "$.insured_value.amount_minor",
            "expected an integer from -9223372036854775808 to 9223372036854775807, got the number -9.223372036854776e+18",
        ),
        (
            "enum value with a comma",
            set("speed", "\"fast, please\""),
            "$.speed",
            "\"fast, please\" is not an allowed value; expected one of \"standard\", \"express\"",
        ),
        (
            // Found by fuzzing: the value was split at its own "`, expected",
            // and the model was told allowed values it had made up itself.
            "enum value that imitates serde's message",
            set("speed", "\"x`, expected one of `evil`, `worse\""),
            "$.speed",
            "\"x`, expected one of `evil`, `worse\" is not an allowed value; expected one of \"standard\", \"express\"",
        ),
        (
            "nested unknown key with a comma",
            set("parcels", r#"[{"sku": "a", "weight_grams": 1, "a, b": 1}]"#),
            "$.parcels[0][\"a, b\"]",
            "unknown field \"a, b\"; expected one of \"sku\", \"weight_grams\"",
        ),
        (
            "deep nesting in a string field",
            set("note", &"[".repeat(100_000)),
            "$.note",
            "expected a string, got an array",
        ),
    ];
    assert!(cases.len() >= 40, "the table holds {} cases", cases.len());
    let mut failures = Vec::new();
    for (name, document, path, message) in &cases {
        match parse(document) {
            Ok(parsed) => failures.push(format!("{name}: accepted as {parsed:?}")),
            Err(error) => {
                let got = (error.code(), error.path(), error.message());
                if got != ("INVALID_ARGUMENTS", *path, *message) {
                    failures.push(format!("{name}: got {got:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// JSON Schema counts a whole number written as a float (`1.0`, `1e0`, `-0`)
/// as an integer, and so does the parser: the schema says `integer`.
#[test]
fn whole_numbers_written_as_floats_are_integers() {
    for labels in ["1.0", "1e0", "10E-1", "0.1e1"] {
        let shipment = parse(&set("labels", labels)).unwrap();
        assert_eq!(shipment.labels, 1, "{labels}");
    }
}

/// Collect parcels at a time the customer chose.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
struct SchedulePickup {
    /// When to come, as an RFC 3339 date-time.
    #[tool(format = "date-time")]
    pickup_at: String,
    /// The latest time of day to come, as an RFC 3339 time; null for any.
    #[tool(format = "time")]
    latest: Option<String>,
}

/// Format checks slice the value at fixed byte offsets; a multi-byte
/// character across one of them is refused like any other bad value (found
/// by fuzzing: `"10:00:0ǥZ"` panicked in the `time` check).
#[test]
fn format_values_with_multi_byte_characters_are_refused() {
    let date_time = "an RFC 3339 date-time such as \"2026-11-29T18:30:00Z\"";
    let time = "an RFC 3339 time with offset such as \"18:30:00Z\"";
    let cases = [
        (
            r#"{"pickup_at": "2026-11-29T10:00:00Z", "latest": "10:00:0ǥZ"}"#,
            "$.latest",
            format!("expected {time}, got \"10:00:0ǥZ\""),
        ),
        (
            r#"{"pickup_at": "2026-11-29T10:00:0ǥZ", "latest": null}"#,
            "$.pickup_at",
            format!("expected {date_time}, got \"2026-11-29T10:00:0ǥZ\""),
        ),
        (
            r#"{"pickup_at": "2026-11-29T10:00:0🦀Z", "latest": null}"#,
            "$.pickup_at",
            format!("expected {date_time}, got \"2026-11-29T10:00:0🦀Z\""),
        ),
        (
            r#"{"pickup_at": "2026-11-29T10:00:00Z", "latest": "10:00:00ǥ"}"#,
            "$.latest",
            format!("expected {time}, got \"10:00:00ǥ\""),
        ),
    ];
    let session = Session::new();
    let valid = SchedulePickup::from_arguments(
        r#"{"pickup_at": "2026-11-29T10:00:00Z", "latest": "18:30:00+01:00"}"#,
        &session,
    )
    .unwrap();
    assert_eq!(
        (valid.pickup_at.as_str(), valid.latest.as_deref()),
        ("2026-11-29T10:00:00Z", Some("18:30:00+01:00"))
    );
    let mut failures = Vec::new();
    for (document, path, message) in &cases {
        match SchedulePickup::from_arguments(document, &session) {
            Ok(parsed) => failures.push(format!("{document}: accepted as {parsed:?}")),
            Err(error) => {
                let got = (error.code(), error.path(), error.message());
                if got != ("INVALID_ARGUMENTS", *path, message.as_str()) {
                    failures.push(format!("{document}: got {got:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
