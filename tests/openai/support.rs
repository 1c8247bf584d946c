//! Helpers for the `openai_*` tests: JSON files under `tests/openai/`.
#![allow(dead_code)]

const DIR: &str = "tests/openai";
const GOLDEN: &str = "golden";
const BLESS: &str = "TOOL_OPENAI_BLESS";

include!("../files/golden.rs");
