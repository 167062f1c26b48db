//! An envelope from the network: decoding never panics, and whatever decodes
//! encodes back to bytes that decode to the same envelope.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_table::Signed;

fuzz_target!(|data: &[u8]| {
    if let Ok(signed) = Signed::decode(data) {
        let again = Signed::decode(&signed.encode()).expect("a decoded envelope re-encodes");
        assert_eq!(again, signed);
        let _ = signed.hash();
    }
});
