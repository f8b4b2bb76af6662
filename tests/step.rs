//! `dataflow step --plain` from the binary: the whole stepping story of the
//! shipped Sudoku workbook as text, the plain form being the default off a
//! terminal, and usage errors. The interactive stepper is tested in
//! `src/tui/tests.rs`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command as Process;

const SUDOKU: &str = "workbooks/sudoku.ron";

/// Runs the binary from the crate's directory.
fn dataflow(args: &[&str]) -> (i32, String, String) {
    let out = Process::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the dataflow binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn plain_pe96_grid2() {
    let (code, stdout, stderr) = dataflow(&["step", SUDOKU, "--plain"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.ends_with("== converged after 9 iterations\n"));
    insta::assert_snapshot!(stdout);
}

#[test]
fn plain_is_the_default_off_a_terminal() {
    let (code, piped, _) = dataflow(&["step", SUDOKU, "--show", "solution", "--max-iter", "2"]);
    let (_, plain, _) = dataflow(&["step", SUDOKU, "--show", "solution", "--max-iter", "2", "--plain"]);
    assert_eq!(code, 0);
    assert_eq!(piped, plain);
    assert!(piped.ends_with("== not converged after 2 iterations (max_iterations)\n"), "{piped}");
}

#[test]
fn plain_show_errors_are_usage_errors() {
    let (code, _, stderr) = dataflow(&["step", SUDOKU, "--plain", "--show", "nope!"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--show `nope!` is neither a view (input, solution, candidates) nor a range"), "{stderr}");
}
