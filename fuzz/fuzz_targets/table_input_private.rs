//! The `table_input` target on a game with private cards: a real honest
//! 3-seat game of the Hands test game (key shares, verifiable shuffles,
//! decryption shares, plays that reveal their cards, key releases), its
//! envelopes reordered, dropped, repeated, changed and signed again by their
//! seat's key, raw bytes and time passing, into an observer and a seated
//! table at once. Same oracle as `table_input`: every violation blames a
//! seat whose key signed a lie, with a proof whose signatures check.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use roundtable_fuzz::{HonestGame, Script, run_table_input, table_input_private_game};
use roundtable_hands::Hands;

fn game() -> &'static HonestGame<Hands> {
    static GAME: OnceLock<HonestGame<Hands>> = OnceLock::new();
    GAME.get_or_init(|| table_input_private_game().expect("an honest Hands game is playable"))
}

fuzz_target!(|data: &[u8]| {
    let script = Script::parse(data);
    if let Err(broken) = run_table_input(game(), &script) {
        panic!("{broken}\nscript: {script:?}");
    }
});
