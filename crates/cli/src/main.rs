//! The `roundtable` command.
fn main() {}
