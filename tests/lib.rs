//! Cross-crate integration tests live in this package's test targets.
