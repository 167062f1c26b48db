//! Guildhall (AEG 2012, "Old World Economy"), for 2 to 4 seats: the catalog
//! as data ([`catalog`]) and the rules.
//!
//! The rules text `shared/rules/guildhall.txt` is the authority; the card
//! abilities come from `shared/rules/guildhall-cards.md`, which gathered them
//! from unofficial sources.
//!
//! # Reconstructions
//!
//! Where the card data has a gap, this crate follows the labelled
//! RECONSTRUCTION of guildhall-cards.md. Each is one data entry or one named
//! rule, so the printed value can replace it later:
//!
//! * **Ability texts** are the hobbyist paraphrases (JN), implemented as given.
//! * **Trader 4**: any non-empty chapter of yours for any non-empty chapter of
//!   one opponent, of any professions; received cards merge into the
//!   receiver's chapter of that profession; the swap is refused if either
//!   side would hold a duplicate; a merge that reaches five colours
//!   completes at once.
//! * **Trader 0/2**: any card for any card, no profession restriction; both
//!   swaps of level 2 are with the same opponent.
//! * **Historian 0 on a duplicate**: the ability does nothing; nobody digs
//!   deeper.
//! * **The 7 VP card gives +2 actions** (two sources against one): the single
//!   entry `VpAbility::ExtraActions(2)` in [`VP_TABLE`].
//! * **"Another player"** for the VP cards 2, 3-a and 4-c: one opponent;
//!   completed chapters are immune; every move follows the duplicate rules.
//! * **The VP deck runs out**: the centre row shrinks and is not refilled.
//! * **VP card counts per kind** (3 of each, 6 fives) come from one source
//!   (JN); the 2–3 player deck removes two 5s and one of every other kind.

pub mod catalog;

pub use catalog::{
    CARD_KINDS, COLOURS, Card, Colour, PROFESSION_TABLE, PROFESSIONS, Profession, ProfessionSpec,
    VP_TABLE, VpAbility, VpSpec, profession_deck, vp_deck, vp_kind,
};
