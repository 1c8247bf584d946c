//! The schemars 1.x part of the strict-schema corpus: schemas schemars
//! derives from ordinary Rust types (nested structs, options and defaults,
//! unit and tagged enums, untagged unions, flattening, recursion, numbers
//! with formats, constrained strings and numbers, a struct without fields),
//! written to `tool-openai/tests/corpus/schemars/<name>.json` with sample
//! arguments: `accept` as serde writes real values, `refuse` by hand.
//!
//! The test compares each fixture with what schemars derives now; after a
//! schemars upgrade, rewrite them with `TOOL_OPENAI_BLESS=1` and read the
//! diff. `tool-openai/tests/corpus.rs` compiles and validates them.

use std::path::Path;

use schemars::{JsonSchema, schema_for};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The schemars version in Cargo.lock.
const SCHEMARS: &str = "schemars 1.2.3";

#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Draft,
    Placed,
    Shipped,
}

/// A postal address.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Address {
    pub street: String,
    pub city: String,
    /// Five digits.
    #[schemars(regex(pattern = r"^[0-9]{5}$"))]
    pub postcode: String,
}

#[derive(Serialize, Deserialize, JsonSchema)]
pub struct LineItem {
    #[schemars(length(min = 1, max = 32))]
    pub sku: String,
    #[schemars(range(min = 1, max = 100))]
    pub quantity: u32,
    pub unit_price_minor: i64,
}

/// An order: nested structs, options, defaults and an enum.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Order {
    pub order_id: String,
    pub status: Status,
    pub shipping: Address,
    pub billing: Option<Address>,
    #[schemars(length(min = 1, max = 10))]
    pub items: Vec<LineItem>,
    /// Free text for the courier.
    pub note: Option<String>,
    #[serde(default)]
    pub gift: bool,
}

/// An animal, internally tagged.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Animal {
    /// A cat.
    Cat {
        #[schemars(range(max = 9))]
        lives: u8,
    },
    /// A bird.
    Bird { can_fly: bool },
}

/// A number or a name.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Key {
    Number(u64),
    Name(String),
}

/// An externally tagged payment.
#[derive(Serialize, Deserialize, JsonSchema)]
pub enum Payment {
    Card { last4: String },
    Cash(u64),
    Free,
}

/// An adoption: unions of every serde representation.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Adoption {
    pub animal: Animal,
    pub previous: Option<Animal>,
    pub key: Key,
    pub payment: Payment,
}

#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Paging {
    pub limit: u8,
    #[serde(default)]
    pub offset: u64,
}

/// A search with flattened paging.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Search {
    pub query: String,
    #[serde(flatten)]
    pub paging: Paging,
}

/// A recursive tree.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Node {
    pub label: String,
    pub children: Vec<Node>,
    pub parent: Option<Box<Node>>,
}

/// Numbers with formats and constraints.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Numbers {
    pub small: u8,
    pub signed: i32,
    pub big: u64,
    pub ratio: f64,
    #[schemars(range(min = -5, max = 5))]
    pub offset: i16,
    #[schemars(length(min = 1, max = 3))]
    pub codes: Vec<u16>,
    #[schemars(length(min = 2, max = 40))]
    pub name: String,
    #[schemars(email)]
    pub contact: String,
}

/// A tool without arguments.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Ping {}

fn fixture<T: JsonSchema + Serialize>(name: &str, accept: &[T], refuse: Vec<(&str, Value)>) {
    let document = json!({
        "generator": SCHEMARS,
        "model": std::any::type_name::<T>().rsplit("::").next(),
        "schema": schema_for!(T),
        "accept": accept.iter().map(|v| serde_json::to_value(v).unwrap()).collect::<Vec<_>>(),
        "refuse": refuse
            .into_iter()
            .map(|(why, args)| json!({"why": why, "args": args}))
            .collect::<Vec<_>>(),
    });
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tool-openai/tests/corpus/schemars")
        .join(format!("{name}.json"));
    let text = format!("{}\n", serde_json::to_string_pretty(&document).unwrap());
    if std::env::var_os("TOOL_OPENAI_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run with TOOL_OPENAI_BLESS=1", path.display()));
    assert_eq!(
        text,
        committed,
        "{} differs from what schemars derives; run with TOOL_OPENAI_BLESS=1 and read the diff",
        path.display()
    );
}

fn address() -> Address {
    Address {
        street: "Hauptstr. 1".into(),
        city: "Berlin".into(),
        postcode: "10115".into(),
    }
}

#[test]
fn the_schemars_fixtures_are_what_schemars_derives() {
    let order = Order {
        order_id: "A-1".into(),
        status: Status::Placed,
        shipping: address(),
        billing: None,
        items: vec![LineItem {
            sku: "S-1".into(),
            quantity: 2,
            unit_price_minor: 999,
        }],
        note: None,
        gift: false,
    };
    let ok_order = serde_json::to_value(&order).unwrap();
    let with = |key: &str, value: Value| {
        let mut doc = ok_order.clone();
        doc[key] = value;
        doc
    };
    let full = Order {
        billing: Some(address()),
        note: Some("ring twice".into()),
        gift: true,
        ..order
    };
    let order_copy: Order = serde_json::from_value(ok_order.clone()).unwrap();
    fixture(
        "order",
        &[order_copy, full],
        vec![
            ("an unknown status", with("status", json!("lost"))),
            (
                "quantity 0",
                with(
                    "items",
                    json!([{"sku": "S", "quantity": 0, "unit_price_minor": 1}]),
                ),
            ),
            ("no items", with("items", json!([]))),
            (
                "a postcode that does not match",
                with(
                    "shipping",
                    json!({"street": "s", "city": "c", "postcode": "1"}),
                ),
            ),
            ("an extra key", with("coupon", json!("X"))),
            ("gift is a string", with("gift", json!("yes"))),
        ],
    );
    fixture(
        "adoption",
        &[
            Adoption {
                animal: Animal::Cat { lives: 9 },
                previous: None,
                key: Key::Number(7),
                payment: Payment::Free,
            },
            Adoption {
                animal: Animal::Bird { can_fly: true },
                previous: Some(Animal::Cat { lives: 1 }),
                key: Key::Name("rex".into()),
                payment: Payment::Card {
                    last4: "1234".into(),
                },
            },
            Adoption {
                animal: Animal::Bird { can_fly: false },
                previous: None,
                key: Key::Number(1),
                payment: Payment::Cash(5),
            },
        ],
        vec![
            (
                "an unknown kind",
                json!({"animal": {"kind": "dog"}, "previous": null, "key": 1, "payment": "Free"}),
            ),
            (
                "ten lives",
                json!({"animal": {"kind": "cat", "lives": 10}, "previous": null, "key": 1, "payment": "Free"}),
            ),
            (
                "a key that is neither",
                json!({"animal": {"kind": "cat", "lives": 1}, "previous": null, "key": true, "payment": "Free"}),
            ),
            (
                "an unknown payment",
                json!({"animal": {"kind": "cat", "lives": 1}, "previous": null, "key": 1, "payment": "Barter"}),
            ),
        ],
    );
    fixture(
        "flatten",
        &[Search {
            query: "q".into(),
            paging: Paging {
                limit: 10,
                offset: 0,
            },
        }],
        vec![
            (
                "limit above 255",
                json!({"query": "q", "limit": 256, "offset": 0}),
            ),
            (
                "an extra key",
                json!({"query": "q", "limit": 1, "offset": 0, "x": 1}),
            ),
        ],
    );
    fixture(
        "recursive_tree",
        &[Node {
            label: "a".into(),
            children: vec![Node {
                label: "b".into(),
                children: vec![],
                parent: None,
            }],
            parent: None,
        }],
        vec![
            (
                "a child without a label",
                json!({"label": "a", "children": [{"children": [], "parent": null}], "parent": null}),
            ),
            (
                "parent is a string",
                json!({"label": "a", "children": [], "parent": "root"}),
            ),
        ],
    );
    let numbers = Numbers {
        small: 255,
        signed: -3,
        big: 1 << 40,
        ratio: 0.5,
        offset: -5,
        codes: vec![1, 2],
        name: "Al".into(),
        contact: "al@example.com".into(),
    };
    let ok_numbers = serde_json::to_value(&numbers).unwrap();
    let numbers_with = |key: &str, value: Value| {
        let mut doc = ok_numbers.clone();
        doc[key] = value;
        doc
    };
    fixture(
        "numbers",
        &[numbers],
        vec![
            ("small above 255", numbers_with("small", json!(256))),
            ("big below 0", numbers_with("big", json!(-1))),
            ("offset below -5", numbers_with("offset", json!(-6))),
            ("four codes", numbers_with("codes", json!([1, 2, 3, 4]))),
            ("signed is fractional", numbers_with("signed", json!(1.5))),
            (
                "contact is not an email",
                numbers_with("contact", json!("nobody")),
            ),
        ],
    );
    fixture(
        "no_arguments",
        &[Ping {}],
        vec![("an argument", json!({"x": 1}))],
    );
}
