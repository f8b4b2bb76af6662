//! What lets an optional part live in one file: `name NAME += formula`
//! adds an argument to the call that is NAME's formula (each addition a
//! name `NAME.FILE` entered from NAME's anchor), `place NAME on SHELF`
//! gives a block the next free place on a shelf, and parts are read by
//! `rank`, which orders both. Every misuse is a located error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;

const BOOK: &str = "tests/data/shelf/book.ron";

/// `run BOOK --with WITH --show AREA`: the shown lines, without the heading.
fn shown(with: &str, area: &str) -> Vec<String> {
    let mut args = vec!["run", BOOK, "--show", area];
    if !with.is_empty() {
        args.extend(["--with", with]);
    }
    let out = expect_exit(0, &args);
    out.stdout.lines().skip(1).take_while(|l| !l.is_empty()).map(|l| l.trim().to_string()).collect()
}

#[test]
fn additions_are_arguments_in_rank_order() {
    assert_eq!(shown("", "Main!A1:A2"), ["0", "."], "SUM(0) and CONCAT(\"\") alone");
    assert_eq!(shown("tens", "Main!A1:A2"), ["10", "t"]);
    // B1 in ones.dfl is relative to the anchor of `total` (A1): B1 itself.
    assert_eq!(shown("ones", "Main!A1:A2"), ["5", "o"]);
    // `ones` is declared first but ranks after `tens`.
    assert_eq!(shown("ones,tens", "Main!A1:A2"), ["15", "to"]);
    assert_eq!(shown("all", "Main!A1:A2"), ["15", "to"]);
}

#[test]
fn places_on_a_shelf_follow_each_other_in_rank_order() {
    assert_eq!(shown("ones", "Main!C3:E4"), ["1 1 1", "1 1 1"], "alone, the first place");
    let all = shown("all", "Main!C3:E9");
    assert_eq!(all, ["10 10 10", "10 10 10", ".  .  .", ".  .  .", ".  .  .", "1  1  1", "1  1  1"]);
    // A name placed after the shelf goes to the row of the next place.
    assert_eq!(shown("", "Main!A3:B3"), ["7 7"], "no place: the first place's row");
    assert_eq!(shown("ones", "Main!A8:B8"), ["7 7"]);
    assert_eq!(shown("all", "Main!A13:B13"), ["7 7"]);
    // The views name the places.
    assert_eq!(shown("all", "ones"), ["1 1 1", "1 1 1"]);
}

#[test]
fn the_name_of_an_addition_is_seen_in_explain_and_check() {
    let out = expect_exit(0, &["check", BOOK, "--with", "all"]);
    assert!(out.stdout.contains("ones  adds the cell B1 and the letter o (rank 2)"), "{}", out.stdout);
    let out = expect_exit(0, &["explain", BOOK, "Main!A1", "--with", "all"]);
    assert!(out.stdout.contains("Main!A1"), "{}", out.stdout);
}

#[test]
fn misused_additions_and_places_are_located_errors() {
    let out = expect_exit(1, &["check", "tests/data/shelf/bad.ron"]);
    let located: Vec<&str> =
        out.stderr.lines().filter(|l| l.starts_with("error:") || l.contains("─[")).map(str::trim).collect();
    assert_eq!(
        located,
        [
            "error: `+=` adds to the name `nowhere`, which no file defines",
            "╭─[ tests/data/shelf/bad.dfl:2:6 ]",
            "error: `+=` adds to `not_a_call`, whose formula is not a function call",
            "╭─[ tests/data/shelf/bad.dfl:3:6 ]",
            "error: the shelf `nowhere` is not defined",
            "╭─[ tests/data/shelf/bad.dfl:4:15 ]",
            "error: the shelf `not_a_call` does not name one area",
            "╭─[ tests/data/shelf/bad.dfl:5:14 ]",
            "error: no room left on the shelf `deep` for `farther`",
            "╭─[ tests/data/shelf/bad.dfl:7:7 ]",
            "error: the addition to `total` is named `total.bad`, which is already defined",
            "╭─[ tests/data/shelf/bad.dfl:8:6 ]",
            "error: cannot parse the formula of the addition to `letters`",
            "╭─[ tests/data/shelf/bad.dfl:9:18 ]",
        ]
    );
}

/// An addition whose `NAME.FILE` is no valid name (a file called `two
/// words.dfl`) is one located error, and NAME gets no argument it cannot
/// bind; a part that is off still has its views' references checked (only a
/// name its own files would define is left for when it is on).
#[test]
fn a_bad_addition_name_and_an_off_parts_misspelt_view_are_one_error_each() {
    let out = expect_exit(1, &["check", "tests/data/shelf/stem.ron"]);
    let errors: Vec<&str> = out.stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        ["error: `total.two words` is not a valid name: ` ` is not allowed (letters, digits, `_`, `.`, `\\`)"]
    );
    assert!(out.stderr.contains("two words.dfl:2:6"), "{}", out.stderr);
    let out = expect_exit(1, &["check", "tests/data/shelf/offview.ron"]);
    assert!(out.stderr.contains("`AP6O` is not a cell address"), "{}", out.stderr);
}
