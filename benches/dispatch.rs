//! Dispatch: a `Toolbox` call of a trivial handler against calling the
//! parser and the same handler directly.
//!
//! - `dispatch/toolbox_call`: `Toolbox::call` by name: lookup, parse,
//!   policy checks (a read tool: no approval, no idempotency key), the
//!   handler under its time limit and abort handle, the `ToolOutput`, the
//!   model result, the audit record with the SHA-256 of the canonical
//!   arguments, and the `tracing` span (no subscriber installed).
//! - `dispatch/direct`: `T::from_arguments` and the handler's future,
//!   awaited; nothing else.
//!
//! Both run on a current-thread Tokio runtime with its time driver, many
//! calls per `block_on`, so the runtime's own entry cost is not counted.
//! The difference is the toolbox's overhead per call.
//!
//! - `pattern_1mib/checked`: `T::from_arguments` of a 1 MiB string field
//!   with an unanchored `pattern` that does not match (the check runs over
//!   the whole string); `pattern_1mib/unchecked`: the same document read
//!   by a twin without the pattern. The difference is the pattern check.
//!
//! Run with `cargo bench --bench dispatch`; see benches/README.md.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox};

/// Look up how many units of an item are in stock.
///
/// Use it before promising a delivery. Read-only.
#[derive(Debug, Tool)]
pub struct GetStock {
    /// Stock keeping unit as printed on the product page, e.g. "SKU-1042".
    #[tool(min_length = 1, max_length = 64)]
    pub sku: String,
    /// Warehouse code such as "BER-1"; null means all warehouses.
    pub warehouse: Option<String>,
}

/// The handler: as trivial as a handler gets.
async fn get_stock(call: GetStock) -> Result<String, ToolError> {
    Ok(format!("{} units of {} in stock", 12, call.sku))
}

const ARGUMENTS: &str = r#"{"sku": "SKU-1042", "warehouse": "BER-1"}"#;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a current-thread runtime")
}

fn dispatch(c: &mut Criterion) {
    let runtime = runtime();
    let mut toolbox = Toolbox::new();
    toolbox.register(|call: GetStock, _cx: CallContext| get_stock(call));
    let session = Session::new();
    let call = ToolCall::new("call_1", "get_stock", ARGUMENTS);

    let result = runtime.block_on(toolbox.call(&call, &session));
    assert_eq!(
        result.model_text().as_deref(),
        Some("12 units of SKU-1042 in stock")
    );
    let direct = runtime.block_on(async {
        get_stock(GetStock::from_arguments(ARGUMENTS, &session).unwrap()).await
    });
    assert_eq!(direct.as_deref(), Ok("12 units of SKU-1042 in stock"));

    let mut group = c.benchmark_group("dispatch");
    group.bench_function("toolbox_call", |b| {
        b.iter_custom(|iters| {
            runtime.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    black_box(toolbox.call(black_box(&call), &session).await);
                }
                start.elapsed()
            })
        })
    });
    group.bench_function("direct", |b| {
        b.iter_custom(|iters| {
            runtime.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let output =
                        match GetStock::from_arguments(black_box(&call.arguments), &session) {
                            Ok(parsed) => get_stock(parsed).await,
                            Err(error) => Err(ToolError::from(error)),
                        };
                    let _ = black_box(output);
                }
                start.elapsed()
            })
        })
    });
    group.finish();
}

/// Find the notes of a shelf that contain a code.
///
/// Use it when the customer quotes part of a note. Read-only.
#[derive(Debug, Tool)]
pub struct FindShelfNote {
    /// Text the note must contain: letters, three digits and an x.
    #[tool(pattern = "[a-z]+[0-9]{3}x")]
    pub contains: String,
}

/// Find the notes of a shelf that contain some text.
///
/// Use it when the customer quotes part of a note. Read-only.
#[derive(Debug, Tool)]
pub struct FindShelfNoteUnchecked {
    /// Text the note must contain.
    pub contains: String,
}

fn pattern(c: &mut Criterion) {
    let session = Session::new().with_max_argument_bytes(4 << 20);
    let arguments = format!(r#"{{"contains": "{}"}}"#, "a".repeat(1 << 20));
    let refused = FindShelfNote::from_arguments(&arguments, &session).unwrap_err();
    assert_eq!(refused.path(), "$.contains");
    assert!(FindShelfNoteUnchecked::from_arguments(&arguments, &session).is_ok());
    let mut group = c.benchmark_group("pattern_1mib");
    group.sample_size(20);
    group.bench_function("checked", |b| {
        b.iter(|| FindShelfNote::from_arguments(black_box(&arguments), &session))
    });
    group.bench_function("unchecked", |b| {
        b.iter(|| FindShelfNoteUnchecked::from_arguments(black_box(&arguments), &session))
    });
    group.finish();
}

criterion_group!(benches, dispatch, pattern);
criterion_main!(benches);
