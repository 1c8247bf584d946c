//! Runs one parse variant of `benches/parse.rs` in a loop, for counting
//! instructions with callgrind, which machine load does not change
//! (`scripts/callgrind_parse.sh` runs it and prints instructions per call).
//!
//! Usage: `parse_loop VARIANT CALLS`, where VARIANT is one of
//! `from_arguments`, `from_arguments_checked`, `from_arguments_nested`,
//! `serde_from_str`, `serde_from_str_nested`, `serde_value_then_from_value`,
//! and `from_arguments_exact` / `from_arguments_nested_exact` (the exact
//! path alone: serde_json with the schema walk beside it, as every call was
//! read before the fast reader).

mod common;

use std::hint::black_box;
use std::process::ExitCode;

use common::{
    ARGUMENTS, PlaceOrder, PlaceOrderChecked, PlaceOrderNested, PlaceOrderNestedTwin,
    PlaceOrderTwin,
};
use tool_contract::__private::with_exact_reader_only;
use tool_contract::{Session, Tool};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(variant), Some(calls)) = (args.next(), args.next()) else {
        eprintln!("usage: parse_loop VARIANT CALLS");
        return ExitCode::FAILURE;
    };
    let Ok(calls) = calls.parse::<usize>() else {
        eprintln!("CALLS must be a whole number, got {calls:?}");
        return ExitCode::FAILURE;
    };
    let session = Session::new();
    // One call outside the loop builds the cached schemas, so a loop of N
    // calls minus a loop of 0 counts the calls alone.
    let run: fn(&Session) -> bool = match variant.as_str() {
        "from_arguments" => |s| PlaceOrder::from_arguments(black_box(ARGUMENTS), s).is_ok(),
        "from_arguments_checked" => {
            |s| PlaceOrderChecked::from_arguments(black_box(ARGUMENTS), s).is_ok()
        }
        "from_arguments_nested" => {
            |s| PlaceOrderNested::from_arguments(black_box(ARGUMENTS), s).is_ok()
        }
        "serde_from_str" => {
            |_| serde_json::from_str::<PlaceOrderTwin>(black_box(ARGUMENTS)).is_ok()
        }
        "serde_from_str_nested" => {
            |_| serde_json::from_str::<PlaceOrderNestedTwin>(black_box(ARGUMENTS)).is_ok()
        }
        "serde_value_then_from_value" => |_| {
            serde_json::from_str::<serde_json::Value>(black_box(ARGUMENTS))
                .and_then(serde_json::from_value::<PlaceOrderTwin>)
                .is_ok()
        },
        "from_arguments_exact" => |s| {
            with_exact_reader_only(|| PlaceOrder::from_arguments(black_box(ARGUMENTS), s).is_ok())
        },
        "from_arguments_nested_exact" => |s| {
            with_exact_reader_only(|| {
                PlaceOrderNested::from_arguments(black_box(ARGUMENTS), s).is_ok()
            })
        },
        other => {
            eprintln!("unknown variant {other:?}");
            return ExitCode::FAILURE;
        }
    };
    if !run(&session) {
        eprintln!("{variant} refused the bench document");
        return ExitCode::FAILURE;
    }
    for _ in 0..calls {
        black_box(run(black_box(&session)));
    }
    ExitCode::SUCCESS
}
