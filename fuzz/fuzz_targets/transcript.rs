//! A transcript file from anyone (a tournament director's inbox): reading and
//! auditing it never panics, whatever the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_port_royal::PortRoyal;
use roundtable_table::audit::audit;
use roundtable_table::transcript::decode_file;

fuzz_target!(|data: &[u8]| {
    if let Ok(read) = decode_file(std::path::Path::new("fuzz"), data) {
        let _ = audit::<PortRoyal>(&read.frames);
    }
});
