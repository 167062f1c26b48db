//! The self-play games CI hands to the from-the-spec verifier
//! (`.ci/private-card-games`, checked by `protocol/reference/private_cards.py
//! --transcript`): each names the pile of every deck in its transcript, and
//! the Guildhall game reshuffles, so that the verifier checks a reshuffled
//! deck from the messages alone (issue 27) and a change of seed or rules
//! cannot quietly take that away.

use std::path::{Path, PathBuf};
use std::process::Command;

use roundtable_table::Body;
use roundtable_table::transcript::{Frame, decode_file};

/// One line of `.ci/private-card-games`.
struct Listed {
    game: String,
    seats: String,
    seed: String,
}

fn listed() -> Vec<Listed> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/private-card-games");
    std::fs::read_to_string(&path)
        .expect("the list of CI's private-card games")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(words.len(), 3, "`game seats seed`: {l}");
            Listed {
                game: words[0].into(),
                seats: words[1].into(),
                seed: words[2].into(),
            }
        })
        .collect()
}

/// Each epoch's piles as the transcript names them, in file order, and the
/// transcript's size.
fn piles(transcript: &PathBuf) -> (Vec<(u32, Vec<u32>)>, usize) {
    let bytes = std::fs::read(transcript).unwrap();
    let frames = decode_file(transcript, &bytes).unwrap().frames;
    let mut piles = Vec::new();
    let mut epochs_shuffled = Vec::new();
    for frame in frames {
        let Frame::Envelope(signed) = frame else {
            continue;
        };
        match signed.envelope.body {
            Body::ShuffleFromPile { epoch, pile, .. } => {
                epochs_shuffled.push(epoch);
                piles.push((epoch, pile));
            }
            Body::Shuffle { epoch, .. } => epochs_shuffled.push(epoch),
            _ => {}
        }
    }
    // Every shuffled epoch has its pile in the file.
    for epoch in epochs_shuffled {
        assert!(
            piles.iter().any(|(e, _)| *e == epoch),
            "epoch {epoch} is shuffled from no named pile"
        );
    }
    (piles, bytes.len())
}

#[test]
fn ci_verifies_a_reshuffled_guildhall_deck_and_nereus() {
    let games = listed();
    assert!(games.iter().any(|g| g.game == "nereus"));
    let dir = tempfile::tempdir().unwrap();
    let mut reshuffled_guildhall = false;
    for g in &games {
        let transcript = dir
            .path()
            .join(format!("{}-{}-{}.rts", g.game, g.seats, g.seed));
        let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
            .args(["selfplay", "--game", &g.game, "--seats", &g.seats])
            .args(["--seed", &g.seed, "--transcript"])
            .arg(&transcript)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            g.game,
            String::from_utf8_lossy(&out.stderr)
        );
        let (piles, size) = piles(&transcript);
        assert_eq!(
            piles.first().map(|p| p.0),
            Some(0),
            "{}: no first deck",
            g.game
        );
        // The bytes the piles add: the body's count and one varint per card.
        let added: usize = piles
            .iter()
            .map(|(_, pile)| postcard::to_allocvec(pile).unwrap().len())
            .sum();
        println!(
            "{} {} seats, seed {}: {} decks, piles of {:?} cards, {added} bytes of piles in a transcript of {size} bytes",
            g.game,
            g.seats,
            g.seed,
            piles.len(),
            piles.iter().map(|(_, p)| p.len()).collect::<Vec<_>>()
        );
        if g.game == "guildhall" && piles.iter().any(|(e, _)| *e > 0) {
            reshuffled_guildhall = true;
        }
    }
    assert!(
        reshuffled_guildhall,
        "no Guildhall game of .ci/private-card-games reshuffles: choose a seed that does"
    );
}
