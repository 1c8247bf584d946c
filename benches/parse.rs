//! Parsing a tool call's arguments: `T::from_arguments` against plain serde.
//!
//! Four ways to read the same 707-byte document, measured in one run so
//! their ratios hold on any machine:
//!
//! - `from_arguments`: the code `#[derive(Tool)]` generates;
//! - `from_arguments_checked`: the same tool with constraints (a pattern,
//!   lengths, formats, item counts), all enforced;
//! - `serde_from_str`: a plain `#[derive(Deserialize)]` twin of the struct
//!   read with `serde_json::from_str` (target: `from_arguments` within 10%);
//! - `from_arguments_nested`: a tool whose nested types carry constraints
//!   (lengths, ranges, a pattern) and closed objects, all enforced at every
//!   depth; against
//! - `serde_from_str_nested`: its plain `#[derive(Deserialize)]` twin over
//!   the same nested types (target: at most 1.15x);
//! - `serde_value_then_from_value`: `serde_json::from_str::<Value>` and then
//!   `serde_json::from_value`, as several agent frameworks do (target:
//!   `from_arguments` at least 1.8x faster);
//! - `from_value`: the same document arriving as a JSON object (Anthropic
//!   `tool_use.input`, Gemini `args`, MCP `arguments`), read by
//!   `T::from_value`, which writes it as compact text for the same parser;
//!   against
//! - `serde_deserialize_value`: the twin deserialized from the `&Value`
//!   directly, the cheapest way serde reads an object already parsed.
//!
//! Run with `cargo bench --bench parse`; `scripts/bench_ratios.py` prints
//! the ratios. See benches/README.md.

mod common;

use std::hint::black_box;

use common::{
    ARGUMENTS, PlaceOrder, PlaceOrderChecked, PlaceOrderNested, PlaceOrderNestedTwin,
    PlaceOrderTwin,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use tool_contract::{Session, Tool};

/// Every way of parsing reads the same values, so the benchmark compares
/// like with like.
fn assert_same_values(session: &Session) {
    let tool = PlaceOrder::from_arguments(ARGUMENTS, session).expect("the tool parses");
    let checked =
        PlaceOrderChecked::from_arguments(ARGUMENTS, session).expect("the checked tool parses");
    let twin: PlaceOrderTwin = serde_json::from_str(ARGUMENTS).expect("the twin parses");
    let via_value: PlaceOrderTwin =
        serde_json::from_value(serde_json::from_str::<Value>(ARGUMENTS).expect("JSON"))
            .expect("the twin parses from a Value");
    for other in [&twin, &via_value] {
        assert_eq!(tool.order_ref, other.order_ref);
        assert_eq!(tool.priority, other.priority);
        assert_eq!(tool.shipping_address, other.shipping_address);
        assert_eq!(tool.items, other.items);
        assert_eq!(tool.total, other.total);
        assert_eq!(tool.discount, other.discount);
        assert_eq!(tool.contact_email, other.contact_email);
        assert_eq!(tool.gift_note, other.gift_note);
        assert_eq!(tool.tags, other.tags);
        assert_eq!(tool.express, other.express);
        assert_eq!(tool.delivery_date, other.delivery_date);
    }
    assert_eq!(checked.items, tool.items);
    let nested =
        PlaceOrderNested::from_arguments(ARGUMENTS, session).expect("the nested tool parses");
    let nested_twin: PlaceOrderNestedTwin =
        serde_json::from_str(ARGUMENTS).expect("the nested twin parses");
    assert_eq!(nested.shipping_address, nested_twin.shipping_address);
    assert_eq!(nested.items, nested_twin.items);
    assert_eq!(nested.items.len(), tool.items.len());
    assert_eq!(nested.discount, tool.discount);
    assert_eq!(checked.gift_note, tool.gift_note);
}

fn parse(c: &mut Criterion) {
    let session = Session::new();
    assert_same_values(&session);

    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(ARGUMENTS.len() as u64));
    group.bench_function("from_arguments", |b| {
        b.iter(|| PlaceOrder::from_arguments(black_box(ARGUMENTS), black_box(&session)))
    });
    group.bench_function("from_arguments_checked", |b| {
        b.iter(|| PlaceOrderChecked::from_arguments(black_box(ARGUMENTS), black_box(&session)))
    });
    group.bench_function("serde_from_str", |b| {
        b.iter(|| serde_json::from_str::<PlaceOrderTwin>(black_box(ARGUMENTS)))
    });
    group.bench_function("from_arguments_nested", |b| {
        b.iter(|| PlaceOrderNested::from_arguments(black_box(ARGUMENTS), black_box(&session)))
    });
    group.bench_function("serde_from_str_nested", |b| {
        b.iter(|| serde_json::from_str::<PlaceOrderNestedTwin>(black_box(ARGUMENTS)))
    });
    group.bench_function("serde_value_then_from_value", |b| {
        b.iter(|| {
            let value: Value = serde_json::from_str(black_box(ARGUMENTS))?;
            serde_json::from_value::<PlaceOrderTwin>(value)
        })
    });
    let value: Value = serde_json::from_str(ARGUMENTS).expect("JSON");
    group.bench_function("from_value", |b| {
        b.iter(|| PlaceOrder::from_value(black_box(&value), black_box(&session)))
    });
    group.bench_function("serde_deserialize_value", |b| {
        b.iter(|| <PlaceOrderTwin as serde::Deserialize>::deserialize(black_box(&value)))
    });
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);
