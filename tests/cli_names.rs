//! `dataflow names`: every name as Excel's Name Manager lists it (scope,
//! anchor, formula as written, value at its anchor or at `--at`, what uses
//! it, comment), sorted; names asked for only; an unknown one refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;

/// The block `names` prints for `name`, as lines.
fn block(out: &str, name: &str) -> Vec<String> {
    let mut lines = out.lines().skip_while(|l| *l != name);
    let first = lines.next().map(str::to_string);
    first.into_iter().chain(lines.take_while(|l| l.starts_with("  ")).map(str::to_string)).collect()
}

#[test]
fn every_name_with_its_formula_value_and_users() {
    let out = expect_exit(0, &["names", "workbooks/sudoku.ron"]).stdout;
    let listed: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    let mut sorted = listed.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(listed, sorted, "sorted as the Name Manager sorts them");
    assert!(listed.contains(&"onetonine") && listed.contains(&"state"), "{listed:?}");
    assert_eq!(
        block(&out, "state"),
        [
            "state",
            "  scope: workbook; anchor: Main!A1",
            "  refers to: =Main!$D$27",
            "  value at Main!A1: solve",
            "  used by: Main!P4:AP30, Main!D16:L24",
            "  comment: \"reset\" shows every candidate and only the givens; \"solve\" iterates.",
        ]
    );
    // Relative references: the value at the anchor, and at another cell.
    let onetonine = block(&out, "onetonine");
    assert_eq!(onetonine[3], "  value at Main!A1: 1", "{onetonine:?}");
    let at = expect_exit(0, &["names", "workbooks/sudoku.ron", "onetonine", "--at", "Main!B2"]).stdout;
    assert_eq!(block(&at, "onetonine")[3], "  value at Main!B2: 5", "{at}");
    assert_eq!(at.lines().filter(|l| !l.starts_with(' ')).count(), 1, "only the name asked for");
}

#[test]
fn arrays_show_their_shape_and_additions_their_base() {
    let out = expect_exit(
        0,
        &[
            "names",
            "workbooks/sudoku.ron",
            "--with",
            "locked,x-wing",
            "array1to9",
            "struck_by_strategy",
            "struck_by_strategy.locked",
        ],
    )
    .stdout;
    assert_eq!(block(&out, "array1to9")[3], "  value at Main!A1: 9x1 {1;2;3;4;5;6;7;8;9}");
    let base = block(&out, "struck_by_strategy");
    assert_eq!(base[2], "  refers to: =OR(FALSE)", "{base:?}");
    assert_eq!(base[3], "  adds: struck_by_strategy.locked, struck_by_strategy.x_wing", "{base:?}");
    assert_eq!(block(&out, "struck_by_strategy.locked")[4], "  used by: struck_by_strategy");
}

#[test]
fn an_unknown_name_is_a_usage_error_and_no_names_is_said() {
    let out = expect_exit(2, &["names", "workbooks/sudoku.ron", "nope"]);
    assert!(out.stderr.contains("has no name `nope`"), "{out:?}");
    let out = expect_exit(0, &["names", "workbooks/circular.ron"]);
    assert_eq!(out.stdout, "workbooks/circular.ron defines no names\n");
}
