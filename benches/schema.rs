//! Schemas: the cached input and strict schemas of a tool, their first
//! build, and the strict-schema compiler on schemas of growing size.
//!
//! - `schema_cached/*`: `T::input_schema()` and `strict_schema::<T>()` after
//!   the first call, which must be cached lookups (nanoseconds).
//! - `schema_first_build/*`: the work the first call does. The caches
//!   cannot be reset, so `input_schema` builds the schema of a fresh,
//!   uncached copy of the tool's contract (schemars generation of every
//!   field type, descriptions, constraints), and `to_strict_json_schema`
//!   compiles the tool's input schema as `strict_schema::<T>()` does on its
//!   first call.
//! - `to_strict_json_schema/N`: the compiler on flat generated schemas of
//!   10, 100, 1000 and 5000 properties (OpenAI's limit) with the same mix
//!   of property kinds at every size; the reported throughput is properties
//!   per second, so time per property stays flat when the work is linear.
//! - `strict_fan_out/D`, `strict_union/N`, `strict_definitions/N`: the
//!   compiler on hostile shapes, with throughput in input bytes (the JSON
//!   text of the schema), so time per byte stays flat when the work is
//!   linear: definitions that fan out (`D_i = anyOf[$ref D_{i+1}, {$ref
//!   D_{i+1}, description}]`) D deep, one union of N distinct branches,
//!   and N definitions each named by a `$ref` in one union.
//!
//! Run with `cargo bench --bench schema`; see benches/README.md.

mod common;

use std::hint::black_box;

use common::PlaceOrder;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Map, Value, json};
use tool_contract::__private::ContractParts;
use tool_contract::openai::{check_strict_schema, strict_schema, to_strict_json_schema};
use tool_contract::{Tool, ToolContract};

/// A fresh contract with the same parts as `T`'s, whose schemas are not
/// built yet.
fn uncached_contract<T: Tool>() -> ToolContract {
    let contract = T::contract();
    ToolContract::__new(ContractParts {
        name: contract.name(),
        rust_name: contract.rust_name(),
        title: contract.title(),
        description: contract.description(),
        version: contract.version(),
        deprecation: contract.deprecation().copied(),
        policy: *contract.policy(),
        fields: contract.fields(),
        output: *contract.output(),
        errors: contract.errors(),
        waivers: contract.waivers(),
        examples: contract.examples(),
        parse_example: tool_contract::__private::no_examples,
    })
}

/// A flat object schema of `n` properties as schemars writes them, cycling
/// through ten kinds: described strings, strings with lengths and formats,
/// bounded integers, numbers, booleans, optional (not required) strings
/// and integers, arrays of strings, string enums and `$ref`s to a shared
/// enum definition.
fn generated_schema(n: usize) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for i in 0..n {
        let name = format!("field_{i:04}");
        let description = format!("What field {i} holds, in a sentence the model reads.");
        let (schema, is_required) = match i % 10 {
            0 => (json!({"type": "string", "description": description}), true),
            1 => (
                json!({"type": "string", "description": description, "minLength": 1, "maxLength": 64}),
                true,
            ),
            2 => (
                json!({"type": "integer", "format": "uint32", "minimum": 0, "description": description}),
                true,
            ),
            3 => (json!({"type": "number", "format": "double"}), true),
            4 => (json!({"type": "boolean", "default": false}), false),
            5 => (
                json!({"type": ["string", "null"], "description": description}),
                false,
            ),
            6 => (json!({"type": "integer", "format": "int64"}), false),
            7 => (
                json!({"type": "array", "items": {"type": "string"}, "maxItems": 10}),
                true,
            ),
            8 if i % 20 == 8 => (
                json!({"type": "string", "enum": ["low", "normal", "urgent"]}),
                true,
            ),
            8 => (json!({"type": "string", "format": "date-time"}), true),
            _ => (
                json!({"$ref": "#/$defs/Unit", "description": description}),
                i % 20 == 9,
            ),
        };
        if is_required {
            required.push(Value::from(name.clone()));
        }
        properties.insert(name, schema);
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "$defs": {"Unit": {"type": "string", "enum": ["kg", "g", "lb"], "description": "A unit of weight."}}
    })
}

fn cached(c: &mut Criterion) {
    // The first calls build and cache.
    let input = PlaceOrder::input_schema();
    let strict = strict_schema::<PlaceOrder>().expect("the tool's schema compiles");
    assert!(std::ptr::eq(input, PlaceOrder::input_schema()));
    assert!(std::ptr::eq(strict, strict_schema::<PlaceOrder>().unwrap()));

    let mut group = c.benchmark_group("schema_cached");
    group.bench_function("input_schema", |b| b.iter(PlaceOrder::input_schema));
    group.bench_function("strict_schema", |b| b.iter(strict_schema::<PlaceOrder>));
    group.finish();
}

fn first_build(c: &mut Criterion) {
    assert_eq!(
        uncached_contract::<PlaceOrder>().input_schema(),
        PlaceOrder::input_schema()
    );
    let input = PlaceOrder::input_schema();
    assert_eq!(
        &to_strict_json_schema(input).unwrap(),
        strict_schema::<PlaceOrder>().unwrap()
    );

    let mut group = c.benchmark_group("schema_first_build");
    group.bench_function("input_schema", |b| {
        b.iter_batched_ref(
            uncached_contract::<PlaceOrder>,
            |contract| {
                black_box(contract.input_schema());
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("to_strict_json_schema", |b| {
        b.iter(|| to_strict_json_schema(black_box(input)))
    });
    group.finish();
}

fn compile_by_size(c: &mut Criterion) {
    let mut group = c.benchmark_group("to_strict_json_schema");
    for n in [10, 100, 1000, 5000] {
        let schema = generated_schema(n);
        let compiled = to_strict_json_schema(&schema).expect("the generated schema compiles");
        assert_eq!(check_strict_schema(&compiled), Ok(()));
        assert_eq!(compiled["required"].as_array().map(Vec::len), Some(n));
        group.throughput(Throughput::Elements(n as u64));
        if n >= 1000 {
            group.sample_size(20);
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &schema, |b, schema| {
            b.iter(|| to_strict_json_schema(black_box(schema)))
        });
    }
    group.finish();
}

/// Definitions that fan out `depth` deep: `D_i = anyOf[$ref D_{i+1},
/// {$ref D_{i+1}, description}]`, which once took time doubling per level.
fn fan_out(depth: usize) -> Value {
    let mut defs = Map::new();
    for i in 0..depth {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"anyOf": [{"$ref": next}, {"$ref": next, "description": "again"}]}),
        );
    }
    defs.insert(format!("D{depth}"), json!({"type": "string"}));
    json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/D0"}}, "$defs": defs})
}

/// One property whose union has `n` distinct branches.
fn wide_union(n: usize) -> Value {
    let branches: Vec<Value> = (0..n)
        .map(|i| json!({"type": "string", "description": format!("branch {i}")}))
        .collect();
    json!({"type": "object", "properties": {"p": {"anyOf": branches}}, "required": ["p"]})
}

/// `n` definitions, each named by one `$ref` in a union.
fn many_definitions(n: usize) -> Value {
    let mut defs = Map::new();
    let mut branches = Vec::new();
    for i in 0..n {
        defs.insert(
            format!("D{i}"),
            json!({"type": "integer", "description": format!("D{i}")}),
        );
        branches.push(json!({"$ref": format!("#/$defs/D{i}")}));
    }
    json!({
        "type": "object",
        "properties": {"p": {"anyOf": branches}},
        "required": ["p"],
        "$defs": defs
    })
}

fn hostile_shapes(c: &mut Criterion) {
    type Shape = (&'static str, fn(usize) -> Value, [usize; 4]);
    let shapes: [Shape; 3] = [
        ("strict_fan_out", fan_out, [16, 64, 256, 1024]),
        ("strict_union", wide_union, [500, 2000, 8000, 32000]),
        (
            "strict_definitions",
            many_definitions,
            [500, 2000, 8000, 16000],
        ),
    ];
    for (name, build, sizes) in shapes {
        let mut group = c.benchmark_group(name);
        group.sample_size(10);
        for n in sizes {
            let schema = build(n);
            let compiled = to_strict_json_schema(&schema).expect("the hostile shape compiles");
            assert_eq!(check_strict_schema(&compiled), Ok(()));
            let bytes = serde_json::to_string(&schema).expect("JSON").len();
            group.throughput(Throughput::Bytes(bytes as u64));
            group.bench_with_input(BenchmarkId::from_parameter(n), &schema, |b, schema| {
                b.iter(|| to_strict_json_schema(black_box(schema)))
            });
        }
        group.finish();
    }
}

criterion_group!(
    benches,
    cached,
    first_build,
    compile_by_size,
    hostile_shapes
);
criterion_main!(benches);
