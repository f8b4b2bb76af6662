//! The `dataflow` binary end to end: `check` and `eval` on the shipped
//! Sudoku workbook and on small fixtures in `tests/data/cli/` (text
//! snapshots), usage errors of every subcommand, `--help` and `--version`,
//! and their exit codes: 0 success, 1 workbook errors, 2 usage. `run` is in
//! `cli_run.rs`, `batch` in `cli_batch.rs`.
//! Tests that show a known bug are `#[ignore = "bug: ..."]`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
use common::*;

/// Trailing blanks removed from every line (ariadne pads some).
fn trim_lines(text: &str) -> String {
    text.lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

// ---------------------------------------------------------------- check

#[test]
fn check_lists_the_cycle() {
    let out = expect_exit(0, &["check", SUDOKU]);
    assert!(out.stdout.contains("cycle 1: 810 cells"), "{out:?}");
    assert_eq!(out.stderr, "");
    insta::assert_snapshot!("check_sudoku", out.stdout);
}

#[test]
fn check_reports_every_problem_located() {
    let out = expect_exit(1, &["check", "tests/data/cli/broken.ron"]);
    assert_eq!(out.stdout, "");
    for at in ["tests/data/cli/broken.ron:6:", "tests/data/cli/broken.ron:7:", "tests/data/cli/broken.dfl:6:"] {
        assert!(out.stderr.contains(at), "{at}: {out:?}");
    }
    assert!(out.stderr.contains('┬'), "a caret under the place: {out:?}");
    assert!(out.stderr.contains("problems found"), "{out:?}");
    insta::assert_snapshot!("check_broken", trim_lines(&out.stderr));
}

#[test]

fn check_reports_problems_in_unused_names() {
    let out = expect_exit(1, &["check", "tests/data/cli/unused_names.ron"]);
    for what in ["unknown function `NOPE`", "IF takes 2 to 3 arguments", "refers to itself"] {
        assert!(out.stderr.contains(what), "{what}: {out:?}");
    }
}

// ---------------------------------------------------------------- eval

#[test]
fn eval_prints_the_value() {
    let out = expect_exit(0, &["eval", SUDOKU, "=COUNT(sol_board)"]);
    assert_eq!(out.stdout, "81\n");
    assert_eq!(out.stderr, "");
    let out = expect_exit(0, &["eval", SUDOKU, "=SUM(Main!D16:L24)"]);
    assert_eq!(out.stdout, "405\n");
    // A name without `=`, in a cell's context: the given digit under E16 is blank (""),
    // under D16 it is 2.
    let out = expect_exit(0, &["eval", SUDOKU, "in_cell_from_sol", "--at", "Main!D16"]);
    assert_eq!(out.stdout, "2\n");
    let out = expect_exit(0, &["eval", SUDOKU, r#"=IF(state="solve","on","off")"#]);
    assert_eq!(out.stdout, "on\n");
}

#[test]
fn eval_refs_prints_the_cells_referred_to() {
    let out = expect_exit(0, &["eval", SUDOKU, "in_cell_from_sol", "--at", "Main!E17", "--refs"]);
    assert_eq!(out.stdout, "Main!E5\n");
    let out = expect_exit(0, &["eval", SUDOKU, "val_bigcell_from_sol", "--at", "Main!E17", "--refs"]);
    assert_eq!(out.stdout, "Main!S7:U9\n");
    let out = expect_exit(2, &["eval", SUDOKU, "=1+1", "--refs"]);
    assert!(out.stderr.contains("the formula gives the value 2, not a reference"), "{out:?}");
}

/// `--iteration N`: after N iterations of the recalculation, not after it
/// converges (0: as the reset protocol left it); past convergence it says so.
#[test]
fn eval_after_some_iterations() {
    let count = |n: &str| expect_exit(0, &["eval", SUDOKU, "=COUNT(sol_board)", "--iteration", n]);
    let (zero, three, all) = (count("0"), count("3"), count("30"));
    assert_eq!(zero.stdout, "30\n", "the givens: {zero:?}");
    let placed: u32 = three.stdout.trim().parse().unwrap();
    assert!(placed > 30 && placed < 81, "{three:?}");
    assert_eq!(all.stdout, "81\n");
    assert_eq!(all.stderr, "note: converged after 9 iterations, before 30\n");
    assert_eq!(zero.stderr, "");
}

/// `--steps`: each sub-expression, innermost first, with its value; IF
/// shows the branch taken only; LET is one step.
#[test]
fn eval_steps_show_each_sub_expression_in_order() {
    let formula = r#"=IF(Main!E4<>"", Main!E4, SUM(Main!D16:F16)*2+1)"#;
    let out = expect_exit(0, &["eval", SUDOKU, formula, "--at", "Main!E16", "--steps", "--iteration", "1"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "Main!E4 = 0",
            r#"Main!E4<>"" = FALSE"#,
            r#"Main!D16:F16 = {2,4,""}"#,
            "SUM(Main!D16:F16) = 6",
            "SUM(Main!D16:F16)*2 = 12",
            "SUM(Main!D16:F16)*2+1 = 13",
            r#"IF(Main!E4<>"", Main!E4, SUM(Main!D16:F16)*2+1) = 13"#,
        ]
    );
    let out = expect_exit(0, &["eval", SUDOKU, "=LET(x, 2, x*3)+1", "--steps"]);
    assert_eq!(out.stdout, "LET(x, 2, x*3) = 6\nLET(x, 2, x*3)+1 = 7\n");
}

#[test]
fn eval_refuses_a_formula_that_does_not_parse() {
    let out = expect_exit(2, &["eval", SUDOKU, "=SUM(("]);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.starts_with("error: the formula does not parse: column "), "{out:?}");
    let out = expect_exit(2, &["eval", SUDOKU, "=1", "--at", "Main!ZZZZ1"]);
    assert!(out.stderr.contains("--at `Main!ZZZZ1`"), "{out:?}");
}

#[test]
fn eval_warns_about_unknown_names() {
    let out = expect_exit(0, &["eval", SUDOKU, "=nosuch+1"]);
    assert_eq!(out.stdout, "#NAME?\n");
    assert_eq!(out.stderr, "warning: unknown name `nosuch`\n");
}

#[test]

fn eval_sumproduct_reads_its_arguments_as_arrays_from_any_cell() {
    // Four givens in column D. From A5 (inside rows 4-12) this is right already.
    let out = expect_exit(0, &["eval", SUDOKU, "=SUMPRODUCT((Main!D4:D12>0)*1)", "--at", "Main!A5"]);
    assert_eq!(out.stdout, "4\n");
    let out = expect_exit(0, &["eval", SUDOKU, "=SUMPRODUCT((Main!D4:D12>0)*1)", "--at", "Main!A1"]);
    assert_eq!(out.stdout, "4\n");
}

// ---------------------------------------------------------------- usage

#[test]
fn usage_errors_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["frobnicate", SUDOKU], "unrecognized subcommand 'frobnicate'"),
        (&[], "Usage:"),
        (&["run"], "required arguments were not provided"),
        (
            &["run", SUDOKU, "--show", "nope"],
            "--show `nope` is neither a view (input, solution, candidates) nor a range",
        ),
        (&["run", SUDOKU, "--input", "puzzle"], "--input `puzzle`: expected NAME=VALUE"),
        (&["run", SUDOKU, "--order", "sideways"], "invalid value 'sideways' for '--order <ORDER>'"),
        (&["run", SUDOKU, "--format", "xml"], "invalid value 'xml' for '--format <FORMAT>'"),
        (&["run", SUDOKU, "--max-iter", "many"], "invalid value 'many' for '--max-iter <N>'"),
        (&["run", SUDOKU, "--frob"], "unexpected argument '--frob'"),
        (&["eval", SUDOKU], "required arguments were not provided"),
        (&["batch", SUDOKU, "--format", "json"], "invalid value 'json'"),
    ];
    for (args, message) in cases {
        let out = expect_exit(2, args);
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(out.stderr.contains(message), "{args:?}: expected `{message}` in {out:?}");
    }
}

#[test]
fn help_and_version_exit_0() {
    let out = expect_exit(0, &["--help"]);
    for command in ["run", "check", "eval", "batch"] {
        assert!(out.stdout.contains(command), "{out:?}");
    }
    let out = expect_exit(0, &["--version"]);
    assert!(out.stdout.starts_with("dataflow "), "{out:?}");
}
