//! Expectations stated as JSON: the `[expect]` mechanism of
//! `docs/SCENARIOS.md` for a game whose printed state says it all.

use serde_json::Value;

/// The value an expectation key refers to in a printed state: a top-level
/// field, or that field of every player (`coins = [3, 5, 3]` means each
/// seat's coins, in seat order).
pub fn expectation_for(state: &Value, key: &str) -> Option<Value> {
    if let Some(v) = state.get(key) {
        return Some(v.clone());
    }
    let players = state.get("players")?.as_array()?;
    players
        .iter()
        .map(|p| p.get(key).cloned())
        .collect::<Option<Vec<_>>>()
        .map(Value::Array)
}

/// Compare an expectation with the state at `path`: objects match when
/// every expected key matches (a subset), arrays element by element,
/// anything else exactly. Every mismatch adds a line to `out`.
pub fn compare_json(path: &str, expected: &Value, actual: &Value, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                match a.get(k) {
                    Some(av) => compare_json(&format!("{path}.{k}"), ev, av, out),
                    None => out.push(format!("{path}.{k}: no such field")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                compare_json(&format!("{path}[{i}]"), ev, av, out);
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!("{path}: expected {expected}, got {actual}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn expectations_compare_subsets_of_objects_and_per_seat_shorthands() {
        let state = json!({"active": 2, "players": [{"coins": 3, "vp": 1}, {"coins": 5, "vp": 0}]});
        assert_eq!(expectation_for(&state, "coins"), Some(json!([3, 5])));
        let mut out = Vec::new();
        compare_json(
            "players",
            &json!([{"coins": 3}, {"coins": 4}]),
            &state["players"],
            &mut out,
        );
        assert_eq!(out, vec!["players[1].coins: expected 4, got 5"]);
    }
}
