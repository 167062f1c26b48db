//! `roundtable fairdeck` run as a real process: its output matches the
//! known-answer vectors in `protocol/vectors/`, and malformed arguments give
//! one line on stderr and exit code 2.

#![allow(missing_docs)]

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn run(args: &[&str]) -> Result<Output, std::io::Error> {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .arg("fairdeck")
        .args(args)
        .output()
}

/// Run successfully and parse the single JSON object printed.
fn json(args: &[&str]) -> Result<Value, Box<dyn std::error::Error>> {
    let out = run(args)?;
    let stdout = String::from_utf8(out.stdout)?;
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "one line of output: {stdout:?}");
    let value: Value = serde_json::from_str(&stdout)?;
    assert!(value.is_object());
    Ok(value)
}

/// Run and expect exit code 2 with exactly one line on stderr and nothing on stdout.
fn refused(args: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
    let out = run(args)?;
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2");
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    let stderr = String::from_utf8(out.stderr)?;
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    Ok(stderr)
}

fn vectors(name: &str) -> Result<Value, Box<dyn std::error::Error>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../protocol/vectors")
        .join(name);
    Ok(serde_json::from_str(&std::fs::read_to_string(path)?)?)
}

fn cases(file: &Value) -> Result<&Vec<Value>, Box<dyn std::error::Error>> {
    Ok(file["cases"].as_array().ok_or("no cases")?)
}

fn s(v: &Value) -> Result<&str, Box<dyn std::error::Error>> {
    Ok(v.as_str().ok_or("not a string")?)
}

#[test]
fn chain_matches_vectors() -> TestResult {
    for case in cases(&vectors("chain.json")?)? {
        let length = case["length"].to_string();
        let seed = s(&case["seed"])?;
        let only = json(&["chain", "--seed", seed, "--length", &length])?;
        assert_eq!(
            only,
            serde_json::json!({ "commitment": case["commitment"] })
        );
        for r in case["reveals"].as_array().ok_or("reveals")?.iter().take(3) {
            let k = r["k"].to_string();
            let out = json(&["chain", "--seed", seed, "--length", &length, "--reveal", &k])?;
            assert_eq!(
                out,
                serde_json::json!({ "commitment": case["commitment"], "reveal": r["reveal"] })
            );
        }
    }
    Ok(())
}

#[test]
fn beacon_matches_vectors() -> TestResult {
    for case in cases(&vectors("beacon.json")?)? {
        let event = case["event"].to_string();
        let mut args = vec!["beacon", "--game", s(&case["game_id"])?, "--event", &event];
        for r in case["reveals"].as_array().ok_or("reveals")? {
            args.push("--reveal");
            args.push(if r.is_null() { "forfeited" } else { s(r)? });
        }
        assert_eq!(
            json(&args)?,
            serde_json::json!({ "beacon": case["beacon"] }),
            "{}",
            case["what"]
        );
    }
    Ok(())
}

#[test]
fn sample_matches_vectors() -> TestResult {
    for case in cases(&vectors("uniform.json")?)? {
        let n = case["n"].to_string();
        let values = case["values"].as_array().ok_or("values")?;
        let count = values.len().to_string();
        let out = json(&[
            "sample",
            "--beacon",
            s(&case["beacon"])?,
            "--below",
            &n,
            "--count",
            &count,
        ])?;
        assert_eq!(out, serde_json::json!({ "values": values }), "n = {n}");
        // Without --count: one value, the first.
        let one = json(&["sample", "--beacon", s(&case["beacon"])?, "--below", &n])?;
        assert_eq!(one, serde_json::json!({ "values": [values[0]] }));
    }
    Ok(())
}

#[test]
fn draw_matches_vectors() -> TestResult {
    for case in cases(&vectors("draw.json")?)? {
        let counts: Vec<String> = case["counts"]
            .as_array()
            .ok_or("counts")?
            .iter()
            .map(Value::to_string)
            .collect();
        let counts = counts.join(",");
        let take = case["take"].to_string();
        let out = json(&[
            "draw",
            "--beacon",
            s(&case["beacon"])?,
            "--counts",
            &counts,
            "--take",
            &take,
        ])?;
        assert_eq!(
            out,
            serde_json::json!({ "indices": case["indices"] }),
            "{}",
            case["what"]
        );
    }
    Ok(())
}

#[test]
fn malformed_arguments_exit_2_with_one_line() -> TestResult {
    let b = "ab".repeat(32);
    let b = b.as_str();
    let bad: &[&[&str]] = &[
        // Hex: too short, too long, not hex, odd, with a prefix.
        &["chain", "--seed", "abc", "--length", "4"],
        &["chain", "--seed", &"00".repeat(33), "--length", "4"],
        &["chain", "--seed", &"zz".repeat(32), "--length", "4"],
        &["chain", "--seed", &"0".repeat(63), "--length", "4"],
        &[
            "sample",
            "--beacon",
            &format!("0x{}", &b[2..]),
            "--below",
            "6",
        ],
        // Numbers: zero, negative, too large, not a number.
        &["chain", "--seed", b, "--length", "0"],
        &["chain", "--seed", b, "--length", "1048577"],
        &["chain", "--seed", b, "--length", "4", "--reveal", "0"],
        &["chain", "--seed", b, "--length", "4", "--reveal", "5"],
        &["chain", "--seed", b, "--length", "x"],
        &["sample", "--beacon", b, "--below", "0"],
        &["sample", "--beacon", b, "--below", "18446744073709551616"],
        &["sample", "--beacon", b, "--below", "-3"],
        &[
            "sample", "--beacon", b, "--below", "6", "--count", "1000001",
        ],
        &["beacon", "--game", b, "--event", "0", "--reveal", b],
        &[
            "beacon",
            "--game",
            b,
            "--event",
            "1",
            "--reveal",
            "forfeited",
        ],
        &[
            "beacon", "--game", b, "--event", "1", "--reveal", b, "--reveal", "nope",
        ],
        &["draw", "--beacon", b, "--counts", "3,0,2,5", "--take", "11"],
        &["draw", "--beacon", b, "--counts", "3,,5", "--take", "1"],
        &["draw", "--beacon", b, "--counts", "3, 5", "--take", "1"],
        &[
            "draw",
            "--beacon",
            b,
            "--counts",
            "4294967296",
            "--take",
            "1",
        ],
        &["draw", "--beacon", b, "--counts", "", "--take", "1"],
        &[
            "draw",
            "--beacon",
            b,
            "--counts",
            "1",
            "--take",
            "4294967296",
        ],
    ];
    for args in bad {
        let message = refused(args)?;
        assert!(message.starts_with("roundtable fairdeck: "), "{message:?}");
    }
    Ok(())
}

#[test]
fn clap_errors_also_exit_2() -> TestResult {
    for args in [
        &["chain", "--length", "4"][..],
        &["beacon", "--game", "00", "--event", "1"],
        &["shuffle"],
    ] {
        let out = run(args)?;
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
    Ok(())
}

#[test]
fn edge_cases_that_are_fine() -> TestResult {
    let b = "ab".repeat(32);
    assert_eq!(
        json(&["draw", "--beacon", &b, "--counts", "", "--take", "0"])?,
        serde_json::json!({ "indices": [] })
    );
    assert_eq!(
        json(&["sample", "--beacon", &b, "--below", "1", "--count", "0"])?,
        serde_json::json!({ "values": [] })
    );
    let upper = json(&["sample", "--beacon", &b.to_uppercase(), "--below", "7"])?;
    assert_eq!(upper, json(&["sample", "--beacon", &b, "--below", "7"])?);
    let max = json(&["sample", "--beacon", &b, "--below", "18446744073709551615"])?;
    assert!(max["values"][0].is_u64());
    Ok(())
}

/// `draw --take` is bounded before anything is reserved for the draw: under
/// a 2 GiB address-space limit, 2^32 - 1 draws (16 GiB of indices) get one
/// line and exit 2, not an aborted allocation.
#[test]
fn a_huge_take_is_refused_before_any_allocation() -> TestResult {
    let b = "ab".repeat(32);
    let out = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 2097152 && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_roundtable"))
        .args([
            "fairdeck",
            "draw",
            "--beacon",
            &b,
            "--counts",
            "4294967295,4294967295",
            "--take",
            "4294967295",
        ])
        .output()?;
    let stderr = String::from_utf8(out.stderr)?;
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr:?}");
    assert!(stderr.contains("--take"), "{stderr}");
    Ok(())
}
