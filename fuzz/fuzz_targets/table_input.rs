//! A running table's pump, fed a real honest 3-seat game: real envelopes in
//! any order (repeated, dropped), real envelopes changed and signed again by
//! their seat's key (validly signed lies), raw bytes, and time passing, into
//! an observer and a seated table at once. The oracle, beyond "no panic":
//! every violation a table reports blames a seat whose key signed a lie and
//! carries a proof whose signatures check (`roundtable_fuzz::run_table_input`).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use roundtable_fuzz::{HonestGame, Script, run_table_input, table_input_game};

fn game() -> &'static HonestGame {
    static GAME: OnceLock<HonestGame> = OnceLock::new();
    GAME.get_or_init(|| table_input_game().expect("an honest game is playable"))
}

fuzz_target!(|data: &[u8]| {
    let script = Script::parse(data);
    if let Err(broken) = run_table_input(game(), &script) {
        panic!("{broken}\nscript: {script:?}");
    }
});
