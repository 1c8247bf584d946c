//! The tools and the document generator of the differential test
//! (tests/parse/schema_agreement.rs), shared with the fuzz target `schema_agree`.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tool_contract::{Session, Tool};

/// Two cards, in order.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Cards {
    /// The card paid from.
    #[schemars(length(min = 1, max = 6))]
    pub from_card: String,
    /// The card paid to.
    pub to_card: String,
}

/// A short lowercase word.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Tag(#[schemars(length(min = 2, max = 8), regex(pattern = r"^[a-z]+$"))] pub String);

/// What to search.
#[derive(Debug, Deserialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Books.
    Book,
    /// Films.
    Film,
}

/// Narrow the search.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Filters {
    /// Brand name.
    #[schemars(length(min = 1, max = 5))]
    pub brand: Option<String>,
    /// Lowest star rating.
    #[schemars(range(min = 1, max = 5))]
    pub min_rating: Option<u8>,
    /// Who to tell about new matches.
    #[schemars(email)]
    pub notify: Option<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Vec<Tag>,
    /// Two-letter country code.
    #[schemars(regex(pattern = r"^[A-Z]{2}$"))]
    pub country: String,
    /// Published on or after this date.
    #[schemars(extend("format" = "date"))]
    pub since: Option<String>,
    /// Weight in kilograms.
    #[schemars(range(min = 0.5, max = 10))]
    pub weight: Option<f64>,
    /// Kinds, each once.
    pub kinds: Option<BTreeSet<Kind>>,
}

/// Payment as `{"variant": ...}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum External {
    /// Between two cards.
    Transfer(Cards),
    /// With a voucher.
    Voucher {
        /// The code.
        #[schemars(length(max = 4))]
        code: String,
    },
    /// In cash.
    Cash,
}

/// Payment tagged by `kind`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Internal {
    /// Between two cards.
    Transfer {
        /// The card paid from.
        from_card: String,
        /// The card paid to.
        to_card: String,
    },
    /// In cash.
    Cash {
        /// Amount in cents.
        #[schemars(range(max = 100))]
        cents: u32,
    },
}

/// Payment tagged by `t`, its content in `c`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
pub enum Adjacent {
    /// Between two cards.
    Transfer(Cards),
    /// A note.
    Note(String),
}

/// Payment in any of these shapes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Untagged {
    /// Between two cards.
    Cards(Cards),
    /// A count.
    Count(u8),
}

/// Search the catalog with filters and pay for what is found; returns the
/// matching items and the payment reference.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SearchAndPay {
    /// Words to search for, e.g. "red shoes".
    #[tool(min_length = 1, max_length = 12)]
    pub query: String,
    /// Filters to narrow the search; null for none.
    pub filters: Option<Filters>,
    /// Page of results to show, from 0; 0 if absent.
    #[tool(default, maximum = 50)]
    pub page: u32,
    /// Payment written as `{"variant": content}`; null for none.
    pub external: Option<External>,
    /// Payment tagged by `kind`; null for none.
    pub internal: Option<Internal>,
    /// Payment tagged by `t` with content in `c`; null for none.
    pub adjacent: Option<Adjacent>,
    /// Payment as two cards or a count; null for none.
    pub untagged: Option<Untagged>,
    /// Card pairs to try in order.
    #[tool(max_items = 3)]
    pub pairs: Vec<Cards>,
}

/// A small deterministic generator, so a failing case is reproduced from
/// its seed; the fuzz target drives its choices with the fuzzer's bytes.
pub struct Rng {
    state: u64,
    bytes: Vec<u8>,
    at: usize,
}

impl Rng {
    /// Choices from a seed.
    pub fn seeded(seed: u64) -> Rng {
        Rng {
            state: seed.max(1),
            bytes: Vec::new(),
            at: 0,
        }
    }

    /// Choices from `bytes`, one byte each, then from a fixed seed.
    pub fn from_bytes(bytes: &[u8]) -> Rng {
        Rng {
            state: 0x9e37_79b9_7f4a_7c15,
            bytes: bytes.to_vec(),
            at: 0,
        }
    }

    fn next(&mut self) -> u64 {
        if let Some(&byte) = self.bytes.get(self.at) {
            self.at += 1;
            return u64::from(byte);
        }
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const STRINGS: &[&str] = &[
    "",
    "a",
    "ab",
    "abc",
    "abcd",
    "abcde",
    "abcdef",
    "abcdefghi",
    "Ab",
    "UK",
    "DE",
    "ukk",
    "a@b.example",
    "not-an-email",
    "2026-11-29",
    "2026-13-01",
    "ééééé",
    "ééééé🦀",
    "x y",
    "book",
    "film",
    "cash",
    "transfer",
    "note",
];

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "2",
    "5",
    "6",
    "50",
    "51",
    "99",
    "100",
    "101",
    "255",
    "256",
    "-1",
    "0.5",
    "0.4",
    "1.5",
    "2.0",
    "10",
    "10.5",
    "1e1",
    "4294967295",
    "4294967296",
];

/// A value drawn from `schema`, mutated at each node with probability
/// `mutate` percent.
pub fn generate(schema: &Value, root: &Value, rng: &mut Rng, mutate: u64, depth: usize) -> Value {
    if depth > 12 {
        return Value::Null;
    }
    if mutate > 0 && rng.chance(mutate) {
        return wild(rng);
    }
    let Some(object) = schema.as_object() else {
        return wild(rng);
    };
    if let Some(Value::String(reference)) = object.get("$ref") {
        let target = root.pointer(reference.trim_start_matches('#')).unwrap();
        return generate(target, root, rng, mutate, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = object.get(key) {
            let branch = rng.pick(branches).clone();
            return generate(&branch, root, rng, mutate, depth + 1);
        }
    }
    if let Some(Value::Array(allowed)) = object.get("enum") {
        return rng.pick(allowed).clone();
    }
    if let Some(value) = object.get("const") {
        return value.clone();
    }
    let types: Vec<&str> = match object.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => vec!["string", "integer", "object"],
    };
    match *rng.pick(&types) {
        "null" => Value::Null,
        "boolean" => Value::Bool(rng.chance(50)),
        "string" => Value::from(*rng.pick(STRINGS)),
        "integer" | "number" => number(rng),
        "array" => {
            let items = object.get("items").cloned().unwrap_or(json!({}));
            let n = rng.below(4);
            Value::Array(
                (0..n)
                    .map(|_| generate(&items, root, rng, mutate, depth + 1))
                    .collect(),
            )
        }
        _ => {
            let mut out = Map::new();
            let required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get("properties") {
                for (name, property) in properties {
                    let present = required.contains(&name.as_str()) || rng.chance(60);
                    let dropped = mutate > 0 && rng.chance(mutate / 2);
                    if present && !dropped {
                        out.insert(
                            name.clone(),
                            generate(property, root, rng, mutate, depth + 1),
                        );
                    }
                }
            }
            if mutate > 0 && rng.chance(mutate / 2) {
                out.insert("bogus".into(), json!(1));
            }
            Value::Object(out)
        }
    }
}

/// A number from the pool, as JSON reads it.
fn number(rng: &mut Rng) -> Value {
    let text: &&str = rng.pick(NUMBERS);
    serde_json::from_str(text).unwrap()
}

/// Any value at all.
fn wild(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => Value::Null,
        1 => Value::Bool(true),
        2 => Value::from(*rng.pick(STRINGS)),
        3 => number(rng),
        4 => json!(["B", "A"]),
        _ => json!({"from_card": "B", "to_card": "A"}),
    }
}

/// What the input schema says about `document`, with the one documented
/// exception: `null` for a defaulted field means the default.
pub fn schema_accepts(document: &Value) -> bool {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(SearchAndPay::input_schema())
            .unwrap()
    });
    let mut judged = document.clone();
    if let Some(object) = judged.as_object_mut()
        && object.get("page") == Some(&Value::Null)
    {
        object.remove("page");
    }
    validator.is_valid(&judged)
}

/// Whether the parser takes `document`, and why not.
pub fn parser_accepts(document: &Value) -> Result<(), String> {
    SearchAndPay::from_arguments(&document.to_string(), &Session::new())
        .map(|_| ())
        .map_err(|e| e.to_string())
}
