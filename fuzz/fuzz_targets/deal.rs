//! Every decoder of the private-card messages (SPEC part 5), through the
//! oracle in `roundtable_fuzz::deal` (which the committed seeds replay in
//! `cargo test`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = roundtable_fuzz::deal::check(data);
});
