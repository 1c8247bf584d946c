//! The fast reader (tool-core/src/parse/fast.rs) and the exact path alone
//! give the same answer for arbitrary text: the same value, or the same
//! error code, path and message; for the rich tool and for `SearchAndPay`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tool_contract_fuzz::check_fast_agrees(text);
    }
});
