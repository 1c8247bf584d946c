//! Helpers for the `anthropic_*` tests: JSON files under `tests/anthropic/`.
#![allow(dead_code)]

const DIR: &str = "tests/anthropic";
const GOLDEN: &str = "golden";
const BLESS: &str = "TOOL_ANTHROPIC_BLESS";

include!("../files/golden.rs");
