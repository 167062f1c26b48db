//! Commit-reveal randomness (being written).
