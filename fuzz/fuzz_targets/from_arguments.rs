//! `from_arguments` of a rich tool on arbitrary text: no panic, errors
//! keep their shape and size, successes round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tool_contract_fuzz::check_arguments(text);
    }
});
