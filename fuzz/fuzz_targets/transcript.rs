//! A transcript file from anyone (a tournament director's inbox): reading and
//! auditing it never panics, whatever the bytes. Started from the committed
//! seeds (`fuzz/seeds/transcript`, real honest games), the audit replays real
//! games; and since bytes cannot carry a new signature, no mutation of an
//! honest transcript may prove a violation. The seeds must stay honest.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_port_royal::PortRoyal;
use roundtable_table::audit::audit;
use roundtable_table::transcript::decode_file;

fuzz_target!(|data: &[u8]| {
    if let Ok(read) = decode_file(std::path::Path::new("fuzz"), data)
        && let Ok(report) = audit::<PortRoyal>(&read.frames)
    {
        assert!(
            report.violations.is_empty(),
            "an honest transcript's mutation proves {:?}",
            report.violations
        );
    }
});
