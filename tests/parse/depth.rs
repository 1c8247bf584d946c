//! The contract holds at every depth (the parser's half): what the
//! tool's input schema says about a nested plain `Deserialize + JsonSchema`
//! type is what `from_arguments` enforces, with the exact code, path and
//! message; and the edges (defaults with constraints, exact integer bounds,
//! `-0`, `Money`) agree with the schema.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde_json::json;
use tool_contract::{Currency, Money, Session, SignedMoney, Tool};

/// Narrow the search.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Filters {
    /// Brand name.
    #[schemars(length(max = 5))]
    brand: Option<String>,
    /// Lowest star rating.
    #[schemars(range(min = 1, max = 5))]
    min_rating: Option<u8>,
    /// Who to tell about new matches.
    #[schemars(email)]
    notify: Option<String>,
    /// Tags, each a short word.
    #[serde(default)]
    tags: Vec<Tag>,
}

/// A short lowercase word.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Tag(#[schemars(regex(pattern = r"^[a-z]+$"), length(min = 2))] String);

/// Search the catalog.
#[derive(Debug, Tool)]
struct SearchProducts {
    /// What to look for.
    query: String,
    /// Filters; null for none.
    filters: Option<Filters>,
}

fn search(arguments: &str) -> Result<SearchProducts, (String, String, String)> {
    SearchProducts::from_arguments(arguments, &Session::new()).map_err(|e| {
        (
            e.code().to_owned(),
            e.path().to_owned(),
            e.message().to_owned(),
        )
    })
}

fn refused(
    code: &str,
    path: &str,
    message: &str,
) -> Result<SearchProducts, (String, String, String)> {
    Err((code.to_owned(), path.to_owned(), message.to_owned()))
}

fn err<T: std::fmt::Debug>(
    result: Result<T, tool_contract::ArgumentError>,
) -> (String, String, String) {
    let e = result.unwrap_err();
    (
        e.code().to_owned(),
        e.path().to_owned(),
        e.message().to_owned(),
    )
}

fn triple(code: &str, path: &str, message: &str) -> (String, String, String) {
    (code.to_owned(), path.to_owned(), message.to_owned())
}

#[test]
fn nested_objects_are_closed_in_the_schema_and_the_parser() {
    let schema = SearchProducts::input_schema();
    assert_eq!(
        schema.pointer("/$defs/Filters/additionalProperties"),
        Some(&json!(false))
    );
    let call = r#"{"query": "tv", "filters": {"brand": "sony", "bogus": 1}}"#;
    assert_eq!(
        format!("{:?}", search(call).map(|_| ())),
        format!(
            "{:?}",
            refused(
                "INVALID_ARGUMENTS",
                "$.filters.bogus",
                "unknown field \"bogus\"; expected one of \"brand\", \"min_rating\", \"notify\", \"tags\""
            )
            .map(|_| ())
        )
    );
}

#[test]
fn nested_constraints_from_schemars_attributes_are_enforced() {
    let cases = [
        (
            r#"{"query": "tv", "filters": {"brand": "much-too-long"}}"#,
            "$.filters.brand",
            "expected at most 5 characters, got 13 characters",
        ),
        (
            r#"{"query": "tv", "filters": {"min_rating": 99}}"#,
            "$.filters.min_rating",
            "expected a number of at most 5, got 99",
        ),
        (
            r#"{"query": "tv", "filters": {"min_rating": 0}}"#,
            "$.filters.min_rating",
            "expected a number of at least 1, got 0",
        ),
        (
            r#"{"query": "tv", "filters": {"notify": "not-an-address"}}"#,
            "$.filters.notify",
            "expected an email address such as \"ana@example.com\", got \"not-an-address\"",
        ),
        (
            r#"{"query": "tv", "filters": {"tags": ["ok", "Bad"]}}"#,
            "$.filters.tags[1]",
            "expected a string matching the pattern \"^[a-z]+$\", got \"Bad\"",
        ),
        (
            r#"{"query": "tv", "filters": {"tags": ["ok", "x"]}}"#,
            "$.filters.tags[1]",
            "expected at least 2 characters, got 1 character",
        ),
        // The brand is counted in Unicode scalar values, as JSON Schema does.
        (
            r#"{"query": "tv", "filters": {"brand": "ééééé🦀"}}"#,
            "$.filters.brand",
            "expected at most 5 characters, got 6 characters",
        ),
    ];
    for (call, path, message) in cases {
        assert_eq!(
            search(call).map(|_| ()),
            refused("INVALID_ARGUMENTS", path, message).map(|_| ()),
            "{call}"
        );
    }
    let ok = search(
        r#"{"query": "tv", "filters": {"brand": "ééééé", "min_rating": 5, "notify": "a@b.example", "tags": ["ok"]}}"#,
    )
    .unwrap();
    assert_eq!(ok.query, "tv");
    assert_eq!(
        ok.filters,
        Some(Filters {
            brand: Some("ééééé".into()),
            min_rating: Some(5),
            notify: Some("a@b.example".into()),
            tags: vec![Tag("ok".into())],
        })
    );
    assert_eq!(
        search(r#"{"query": "tv", "filters": null}"#)
            .unwrap()
            .filters,
        None
    );
}

/// Two cards, in order.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Cards {
    /// The card paid from.
    from_card: String,
    /// The card paid to.
    to_card: String,
}

/// How to pay, any of the shapes.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Untagged {
    /// Between two cards.
    Cards(Cards),
    /// A voucher code.
    Voucher(String),
}

/// How to pay, tagged by `kind`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Internal {
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

/// How to pay, tagged by `t` with content in `c`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c", rename_all = "snake_case")]
enum Adjacent {
    /// Between two cards.
    Transfer(Cards),
}

/// How to pay, as `{"variant": ...}`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum External {
    /// Between two cards.
    Transfer(Cards),
    /// With a voucher.
    Voucher {
        /// The code.
        #[schemars(length(max = 4))]
        code: String,
    },
}

/// Move money between cards.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
struct PayBetweenCards {
    /// The payment as an untagged shape: two cards or a voucher code.
    untagged: Option<Untagged>,
    /// The payment tagged by its `kind` field.
    internal: Option<Internal>,
    /// The payment tagged by `t`, its content in `c`.
    adjacent: Option<Adjacent>,
    /// The payment as `{"variant": content}`.
    external: Option<External>,
}

fn pay(arguments: &str) -> Result<PayBetweenCards, tool_contract::ArgumentError> {
    PayBetweenCards::from_arguments(arguments, &Session::new())
}

#[test]
fn structs_in_every_enum_representation_are_read_from_objects_only() {
    let none = "matches none of the 2 allowed shapes described in the schema";
    assert_eq!(
        err(pay(r#"{"untagged": ["B", "A"]}"#)),
        triple(
            "INVALID_ARGUMENTS",
            "$.untagged",
            &format!("an array {none}")
        )
    );
    assert_eq!(
        err(pay(r#"{"internal": ["transfer", "B", "A"]}"#)),
        triple(
            "INVALID_ARGUMENTS",
            "$.internal",
            &format!("an array {none}")
        )
    );
    assert_eq!(
        err(pay(r#"{"adjacent": {"t": "transfer", "c": ["B", "A"]}}"#)),
        triple(
            "INVALID_ARGUMENTS",
            "$.adjacent.c",
            "expected an object, got an array"
        )
    );
    assert_eq!(
        err(pay(r#"{"external": {"transfer": ["B", "A"]}}"#)),
        triple(
            "INVALID_ARGUMENTS",
            "$.external.transfer",
            "expected an object, got an array"
        )
    );
    let ok = pay(
        r#"{"untagged": {"from_card": "B", "to_card": "A"}, "internal": {"kind": "transfer", "from_card": "B", "to_card": "A"}, "adjacent": {"t": "transfer", "c": {"from_card": "B", "to_card": "A"}}, "external": {"transfer": {"from_card": "B", "to_card": "A"}}}"#,
    )
    .unwrap();
    let cards = || Cards {
        from_card: "B".into(),
        to_card: "A".into(),
    };
    assert_eq!(ok.untagged, Some(Untagged::Cards(cards())));
    assert_eq!(
        ok.internal,
        Some(Internal::Transfer {
            from_card: "B".into(),
            to_card: "A".into()
        })
    );
    assert_eq!(ok.adjacent, Some(Adjacent::Transfer(cards())));
    assert_eq!(ok.external, Some(External::Transfer(cards())));
    // Found by tests/parse/schema_agreement.rs: a whole float is an integer in a
    // buffered enum too.
    assert_eq!(
        pay(r#"{"untagged": {"from_card": "B", "to_card": "A"}, "internal": {"kind": "cash", "cents": 2.0}}"#)
            .unwrap()
            .internal,
        Some(Internal::Cash { cents: 2 })
    );
    assert_eq!(
        pay(r#"{"untagged": "V-1"}"#).unwrap().untagged,
        Some(Untagged::Voucher("V-1".into()))
    );
}

#[test]
fn enum_variants_are_closed_and_constrained() {
    assert_eq!(
        err(pay(r#"{"internal": {"kind": "cash", "cents": 101}}"#)),
        triple(
            "INVALID_ARGUMENTS",
            "$.internal.cents",
            "expected a number of at most 100, got 101"
        )
    );
    assert_eq!(
        err(pay(
            r#"{"internal": {"kind": "cash", "cents": 1, "tip": 5}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.internal.tip",
            "unknown field \"tip\"; expected one of \"kind\", \"cents\""
        )
    );
    assert_eq!(
        err(pay(r#"{"external": {"voucher": {"code": "TOO-LONG"}}}"#)),
        triple(
            "INVALID_ARGUMENTS",
            "$.external.voucher.code",
            "expected at most 4 characters, got 8 characters"
        )
    );
    assert_eq!(
        err(pay(
            r#"{"untagged": {"from_card": "B", "to_card": "A", "extra": 1}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.untagged.extra",
            "unknown field \"extra\"; expected one of \"from_card\", \"to_card\""
        )
    );
}

/// Reserve seats at a restaurant for a party, returning the booking reference.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
struct BookTable {
    /// Name for the booking; empty or null for the account's name.
    #[tool(default, min_length = 1)]
    booking_name: String,
    /// Party size.
    #[tool(maximum = 9007199254740992u64)]
    seats: u64,
    /// Offset in minutes from the requested time.
    offset: i32,
}

#[test]
fn a_default_with_a_constraint_gives_the_default_for_null_or_absent() {
    // Decision: the constraint holds for a value the model gives; `null` or
    // an absent key means "use the default", which is not judged.
    // The strict schema says so (every field is required there, a
    // defaulted one nullable); the input schema leaves the field out of
    // `required`. Null for a defaulted field is the one value the parser
    // takes beyond the input schema (see tests/parse/schema_agreement.rs).
    let strict = tool_contract::openai::strict_schema::<BookTable>().unwrap();
    assert_eq!(
        strict.pointer("/properties/booking_name/type"),
        Some(&json!(["string", "null"]))
    );
    assert_eq!(
        BookTable::input_schema().pointer("/required"),
        Some(&json!(["seats", "offset"]))
    );
    for call in [
        r#"{"booking_name": null, "seats": 2, "offset": 0}"#,
        r#"{"seats": 2, "offset": 0}"#,
    ] {
        let booking = BookTable::from_arguments(call, &Session::new()).unwrap();
        assert_eq!(booking.booking_name, "", "{call}");
    }
    assert_eq!(
        err(BookTable::from_arguments(
            r#"{"booking_name": "", "seats": 2, "offset": 0}"#,
            &Session::new()
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.booking_name",
            "expected at least 1 character, got 0 characters"
        )
    );
}

#[test]
fn integer_bounds_are_exact_and_minus_zero_is_an_integer() {
    assert_eq!(
        err(BookTable::from_arguments(
            r#"{"seats": 9007199254740993, "offset": 0}"#,
            &Session::new()
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.seats",
            "expected a number of at most 9007199254740992, got 9007199254740993"
        )
    );
    let ok = BookTable::from_arguments(
        r#"{"seats": 9007199254740992, "offset": -0}"#,
        &Session::new(),
    )
    .unwrap();
    assert_eq!((ok.seats, ok.offset), (9_007_199_254_740_992, 0));
    let ok =
        BookTable::from_arguments(r#"{"seats": -0, "offset": -0.0}"#, &Session::new()).unwrap();
    assert_eq!((ok.seats, ok.offset), (0, 0));
}

/// Give money back to the customer for a returned order; returns the refund id.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
struct RefundOrder {
    /// How much to refund.
    amount: Money,
    /// The balance after the refund; may be negative.
    balance: Option<SignedMoney>,
}

#[test]
fn money_is_non_negative_with_an_iso_4217_currency() {
    let refund = |call: &str| RefundOrder::from_arguments(call, &Session::new());
    assert_eq!(
        err(refund(
            r#"{"amount": {"amount_minor": -5, "currency": "EUR"}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.amount.amount_minor",
            "expected a number of at least 0, got -5"
        )
    );
    assert_eq!(
        err(refund(
            r#"{"amount": {"amount_minor": 5, "currency": "XYZ"}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.amount.currency",
            "\"XYZ\" is not an ISO 4217 currency code; use e.g. \"EUR\", \"USD\""
        )
    );
    let ok = refund(
        r#"{"amount": {"amount_minor": 0, "currency": "EUR"}, "balance": {"amount_minor": -500, "currency": "USD"}}"#,
    )
    .unwrap();
    assert_eq!(ok.amount, Money::new(0, Currency::EUR));
    assert_eq!(
        ok.balance,
        Some(SignedMoney(Money::new(-500, Currency::USD)))
    );
    assert_eq!(
        RefundOrder::input_schema().pointer("/$defs/Money/properties/amount_minor/minimum"),
        Some(&json!(0))
    );
}

/// A value whose schema says something the parser cannot check.
#[derive(Debug, Deserialize)]
struct NotNull(#[allow(dead_code)] serde_json::Value);

impl JsonSchema for NotNull {
    fn schema_name() -> Cow<'static, str> {
        "NotNull".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"not": {"type": "null"}})
    }
}

/// Keep a JSON value in the scratch store for later calls; returns its key.
#[derive(Debug, Tool)]
struct StoreValue {
    /// Any JSON value except null, stored as given.
    #[allow(dead_code)]
    value: NotNull,
}

#[test]
fn a_schema_the_parser_cannot_enforce_is_refused_when_checked() {
    let error = StoreValue::contract().check().unwrap_err();
    assert_eq!(
        (error.keyword(), error.pointer()),
        ("not", "/$defs/NotNull")
    );
    assert_eq!(
        error.to_string(),
        "keyword `not` at `/$defs/NotNull`: the parser cannot enforce this keyword, so the schema would promise more than the parser checks; express the rule with a supported keyword or a type of its own"
    );
    assert_eq!(
        err(StoreValue::from_arguments(
            r#"{"value": 1}"#,
            &Session::new()
        )),
        triple(
            "INVALID_CONTRACT",
            "$",
            "the contract of tool `store_value` cannot be enforced: keyword `not` at `/$defs/NotNull`: the parser cannot enforce this keyword, so the schema would promise more than the parser checks; express the rule with a supported keyword or a type of its own; the application must fix the contract (ToolContract::check reports this at start-up)"
        )
    );
    assert_eq!(SearchProducts::contract().check(), Ok(()));
    assert_eq!(PayBetweenCards::contract().check(), Ok(()));
    // The start-up check (`Toolbox::try_register`, the catalog, the lock)
    // refuses the tool with the same reason.
    let refused = StoreValue::contract().check_rules().unwrap_err();
    assert_eq!(refused.schema_error(), Some(&error));
    assert_eq!(
        refused.to_string(),
        "tool `store_value` has an input schema the parser cannot enforce: keyword `not` at `/$defs/NotNull`: the parser cannot enforce this keyword, so the schema would promise more than the parser checks; express the rule with a supported keyword or a type of its own"
    );
}

/// A tree of any depth.
#[derive(Debug, Deserialize, JsonSchema)]
struct Tree {
    /// Label of the node.
    #[schemars(length(max = 3))]
    label: String,
    /// Children.
    children: Vec<Tree>,
}

/// Add a labelled hierarchy to the taxonomy; returns the id of its root.
#[derive(Debug, Tool)]
struct PlantTree {
    /// The tree to plant: a labelled root with its children.
    tree: Tree,
}

#[test]
fn recursive_types_are_checked_at_every_depth_and_deep_nesting_is_refused() {
    let plant = |call: &str| PlantTree::from_arguments(call, &Session::new());
    assert_eq!(
        err(plant(
            r#"{"tree": {"label": "a", "children": [{"label": "b", "children": [{"label": "long", "children": []}]}]}}"#
        )),
        triple(
            "INVALID_ARGUMENTS",
            "$.tree.children[0].children[0].label",
            "expected at most 3 characters, got 4 characters"
        )
    );
    let ok =
        plant(r#"{"tree": {"label": "a", "children": [{"label": "b", "children": []}]}}"#).unwrap();
    assert_eq!(
        (
            ok.tree.label.as_str(),
            ok.tree.children[0].label.as_str(),
            ok.tree.children[0].children.len()
        ),
        ("a", "b", 0)
    );
    // 60 levels of tree: the error's path is capped at 64 steps.
    let mut tree = r#"{"label": "long", "children": []}"#.to_owned();
    for _ in 0..59 {
        tree = format!(r#"{{"label": "a", "children": [{tree}]}}"#);
    }
    assert_eq!(
        err(plant(&format!(r#"{{"tree": {tree}}}"#))),
        triple(
            "INVALID_ARGUMENTS",
            &format!("$.tree{}.children.…", ".children[0]".repeat(31)),
            "expected at most 3 characters, got 4 characters"
        )
    );
    let deep = format!(
        "{{\"tree\": {}{}}}",
        r#"{"label": "a", "children": ["#.repeat(5000),
        "]}".repeat(5000)
    );
    let (code, path, message) = err(plant(&deep));
    assert_eq!(code, "INVALID_ARGUMENTS");
    assert_eq!(
        message,
        "invalid JSON: the JSON is nested more than 128 levels deep (at line 1, column 1774)"
    );
    assert!(path.len() < 700, "{path}");
}
