//! `from_arguments` of a rich tool on JSON documents built from the tool's
//! own field names and values near the ones it accepts, written compact or
//! pretty: reaches the checks past the JSON syntax far more often than
//! random text does.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_contract_fuzz::ValueBuilder;

const KEYS: &[&str] = &[
    "reference",
    "speed",
    "address",
    "parcels",
    "insured_value",
    "labels",
    "note",
    "contactEmail",
    "contact_email",
    "pickup_at",
    "request_id",
    "slot_offset",
    "signature",
    "tenant",
    "locale",
    "street",
    "line2",
    "city",
    "sku",
    "weight_grams",
    "value",
    "amount_minor",
    "currency",
    "",
];

const STRINGS: &[&str] = &[
    "SH-1",
    "SH-123456789012",
    "sh-1",
    "SH-",
    "standard",
    "express",
    "same_day",
    "Express",
    "express ",
    "EUR",
    "eur",
    "USD",
    "JPY",
    "a@example.com",
    "not an email",
    "2026-11-29T10:00:00Z",
    "2026-11-29",
    "6f1c2a8e-4b7d-4c3a-9f0e-2d5b8a7c1e34",
    "not-a-uuid",
    "Main St 1",
    "Berlin",
    "",
    "\u{0}",
    "\"",
    "\\",
    "\u{2028}",
    "🦀",
    "SH-1\n",
];

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let builder = ValueBuilder {
        keys: KEYS,
        strings: STRINGS,
        max_depth: 4,
    };
    let Ok(root) = builder.object(&mut u, 0) else {
        return;
    };
    let pretty = u.arbitrary::<bool>().unwrap_or(false);
    let root = Value::Object(root);
    let text = if pretty {
        serde_json::to_string_pretty(&root)
    } else {
        serde_json::to_string(&root)
    }
    .expect("a JSON value serializes");
    tool_contract_fuzz::check_arguments(&text);
});
