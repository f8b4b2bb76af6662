//! The library without the command line: `default-features = false` builds
//! the engine with none of the front ends' crates. Checked on the resolved
//! dependency tree (`cargo tree`), which needs no build.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

/// The crates only the `cli` feature may bring in.
const FRONT_END_CRATES: [&str; 6] = ["clap", "ratatui", "crossterm", "notify", "indicatif", "serde_json"];

fn tree(args: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.split_whitespace().next().map(String::from)).collect()
}

#[test]
fn the_library_alone_has_no_front_end_crates() {
    let lib = tree(&["--no-default-features"]);
    assert!(lib.iter().any(|c| c == "petgraph"), "the tree lists the engine's crates: {lib:?}");
    for c in FRONT_END_CRATES {
        assert!(!lib.iter().any(|d| d == c), "`{c}` is built without the cli feature");
    }
    // The batch pool runs on the standard library's threads.
    assert!(!lib.iter().any(|d| d == "rayon"), "rayon is not needed");
    // With the default features (the binary), they are there: the check
    // above looks at the right names.
    let all = tree(&[]);
    for c in FRONT_END_CRATES {
        assert!(all.iter().any(|d| d == c), "`{c}` missing from the default build");
    }
}
