//! Port Royal (being written).
