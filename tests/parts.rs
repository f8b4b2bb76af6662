//! Optional parts of a workbook (`parts:` in the RON file, `--with NAME`):
//! what each turns on, replacing an include, a file shared by two parts
//! read once, their views, `check` listing them, unknown names on the
//! command line, and badly declared parts as located errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;

const BOOK: &str = "tests/data/parts/book.ron";

/// `run BOOK --show VIEW ARGS`: the view's one line.
fn shown(view: &str, args: &[&str]) -> String {
    let mut all = vec!["run", BOOK, "--show", view];
    all.extend_from_slice(args);
    let out = expect_exit(0, &all);
    out.stdout.lines().nth(1).unwrap_or_default().to_string()
}

#[test]
fn parts_are_off_unless_turned_on() {
    assert_eq!(shown("value", &[]), "21");
    let out = expect_exit(2, &["run", BOOK, "--show", "extra"]);
    assert!(out.stderr.contains("extra"), "the view belongs to a part that is off: {out:?}");
}

#[test]
fn a_part_replaces_an_include_by_its_own_files() {
    assert_eq!(shown("value", &["--with", "double"]), "42");
}

#[test]
fn parts_add_views_and_share_files() {
    assert_eq!(shown("extra", &["--with", "extra"]), "22  .");
    // Both include shared.dfl, which defines a name: read once, no clash.
    assert_eq!(shown("extra", &["--with", "extra,more"]), "22 23");
    assert_eq!(shown("extra", &["--with", "more", "--with", "EXTRA"]), "22 23");
    assert_eq!(shown("extra", &["--with", "all"]), "43 44");
}

#[test]
fn check_lists_the_parts_and_which_are_on() {
    let out = expect_exit(0, &["check", BOOK, "--with", "more"]);
    let listed: Vec<&str> = out.stdout.lines().skip_while(|l| !l.starts_with("parts")).take(4).collect();
    assert_eq!(
        listed,
        [
            "parts (turn on with --with PART[,PART...] or --with all):",
            "  off double  B1 doubles A1 instead of copying it",
            "  off extra   C1 adds one to B1",
            "  on  more    D1 adds two to B1",
        ]
    );
    let out = expect_exit(0, &["check", "workbooks/circular.ron"]);
    assert!(!out.stdout.contains("parts"), "no parts, no list: {out:?}");
}

#[test]
fn an_unknown_part_is_a_usage_error_naming_the_parts() {
    for command in ["run", "check", "step", "eval"] {
        let mut args = vec![command, BOOK, "--with", "extra,nope"];
        if command == "eval" {
            args.push("=1");
        }
        if command == "step" {
            args.push("--plain");
        }
        let out = expect_exit(2, &args);
        assert!(
            out.stderr.contains(
                "--with `nope`: `tests/data/parts/book.ron` has no part of that name (its parts: double, extra, more, or `all`)"
            ),
            "{command}: {out:?}"
        );
    }
}

#[test]
fn badly_declared_parts_are_located_errors() {
    let out = expect_exit(1, &["check", "tests/data/parts/bad.ron"]);
    let errors: Vec<&str> = out.stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        [
            "error: `all` names every part; a part cannot be called so",
            "error: a part's name is letters, digits, `-` and `_`, not `two words`",
            "error: the part `TWICE` is declared twice",
            "error: the part `empty` needs a one-line `about`",
            "error: the part `stray` replaces `nothing.dfl`, which the workbook does not include",
        ]
    );
    for place in ["bad.ron:6:10", "bad.ron:7:10", "bad.ron:9:10", "bad.ron:10:27", "bad.ron:11:70"] {
        assert!(out.stderr.contains(place), "{place}: {out:?}");
    }
    // A view of a part named like one of the workbook's, once it is on.
    let out = expect_exit(1, &["check", "tests/data/parts/bad.ron", "--with", "clash"]);
    assert!(
        out.stderr.contains("error: the part `clash` defines the view `value`, which is already defined otherwise"),
        "{out:?}"
    );
}

/// A part may raise the workbook's `max_iterations` while it is on (the
/// largest asked for; never lower); a value out of Excel's range is a
/// located error whether the part is on or not.
#[test]
fn a_part_raises_max_iterations_while_it_is_on() {
    let cap = |with: &[&str]| {
        let with: Vec<String> = with.iter().map(|w| w.to_string()).collect();
        let s = dataflow::session::Session::load_with(std::path::Path::new("workbooks/sudoku.ron"), &with).unwrap();
        s.engine().settings.max_iterations
    };
    assert_eq!(cap(&[]), 100, "the article's workbook");
    assert_eq!(cap(&["status"]), 100);
    assert_eq!(cap(&["locked"]), 200);
    assert_eq!(cap(&["x-wing", "jellyfish"]), 200);
    // The strategies of ranks 11 to 17 ask for 300 (taking turns, a
    // synchronous run of the 17-clue set needs more than 200 with them).
    assert_eq!(cap(&["skyscraper"]), 300);
    assert_eq!(cap(&["all"]), 300);
    let text = r#"Workbook(sheets: ["Main"], calc: (max_iterations: 300), parts: {
        "low": (about: "asks for fewer", max_iterations: 50),
        "bad": (about: "out of range", max_iterations: 0),
    })"#;
    let load = |with: &[&str]| {
        let with: Vec<String> = with.iter().map(|w| w.to_string()).collect();
        dataflow::workbook::ron::from_str_with(text, std::path::Path::new("t.ron"), std::path::Path::new("."), &with)
    };
    let errors = load(&[]).expect_err("max_iterations 0 is refused").diagnostics;
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "max_iterations must be between 1 and 32767, not 0");
    assert_eq!(errors[0].line_col(), Some((3, 40)), "at the part's field");
    let text = text.replace("max_iterations: 0", "max_iterations: 400");
    let load = |with: &[&str]| {
        let with: Vec<String> = with.iter().map(|w| w.to_string()).collect();
        dataflow::workbook::ron::from_str_with(&text, std::path::Path::new("t.ron"), std::path::Path::new("."), &with)
    };
    assert_eq!(load(&["low"]).unwrap().calc.max_iterations, 300, "a part never lowers it");
    assert_eq!(load(&["all"]).unwrap().calc.max_iterations, 400);
}
