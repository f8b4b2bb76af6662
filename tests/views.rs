//! Views as plain text (`run`, `step --plain`, `--show`): one width for
//! every column, numbers and blanks right-aligned alike; an alphabet (the
//! number k shows as its k-th symbol); a number format; the compact form of
//! a valid-values board (each big cell as its candidate string); the cells
//! of a region map shown `[v]`; and the load errors of each field. The
//! workbooks are written by the tests, into a temporary directory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;

/// Writes `text` as the workbook `name`.ron in this test run's directory.
fn workbook(name: &str, text: &str) -> String {
    common::temp_workbook("views", name, text)
}

/// A 16x16 Sudoku board in Main!A1:P16 (a valid grid, every fifth cell
/// blank), with `views`.
fn board16(name: &str, views: &str) -> String {
    let digit = "MOD((ROW()-1)*4+INT((ROW()-1)/4)+COLUMN()-1,16)+1";
    workbook(
        name,
        &format!(
            r#"Workbook(
    sheets: ["Main"],
    cells: {{ "Main!A1:P16": "=IF(MOD(ROW()*7+COLUMN()*3,6)=0,\"\",{digit})" }},
    views: {{ {views} }},
)"#
        ),
    )
}

/// A 4x4 Sudoku's valid-values board in Main!A1:H8 (2x2 big cells, the
/// candidate k at its place in the big cell; all four at first, then one
/// less per iteration as the counter Main!Z1 goes from 1 to 3) and a hyper-style
/// region map in Main!K1:N4 (the centre 2x2 block is region 1), with `views`.
fn candidates4(name: &str, views: &str) -> String {
    let k = "MOD(ROW()-1,2)*2+MOD(COLUMN()-1,2)+1";
    workbook(
        name,
        &format!(
            r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: true, max_iterations: 10, max_change: 0.001),
    cells: {{
        "Main!Z1": "=MIN(Z1+1,3)",
        "Main!A1:H8": "=IF(MOD(INT((ROW()-1)/2)*5+INT((COLUMN()-1)/2)*3+{k},4)<5-$Z$1,{k},\"\")",
        "Main!K1:N4": "=IF(AND(ROW()>=2,ROW()<=3,COLUMN()>=12,COLUMN()<=13),1,0)",
    }},
    views: {{ {views} }},
)"#
        ),
    )
}

fn run(args: &[&str]) -> String {
    expect_exit(0, args).stdout
}

#[test]
fn a_16x16_board_has_one_column_width() {
    let wb = board16("plain16", r#""board": (range: "Main!A1:P16", group: (4, 4))"#);
    let out = run(&["run", &wb]);
    // Every line of the grid is as long as the others: `16` and `.` alike.
    let lines: Vec<&str> = out.lines().skip(1).take(19).filter(|l| !l.starts_with('-')).collect();
    assert!(lines.iter().all(|l| l.len() == lines[0].len()), "{out}");
    insta::assert_snapshot!(out.lines().take(20).collect::<Vec<_>>().join("\n"));
}

#[test]
fn a_16x16_board_through_its_alphabet() {
    let view = r#""board": (range: "Main!A1:P16", group: (4, 4), alphabet: "123456789ABCDEFG")"#;
    let out = run(&["run", &board16("alpha16", view)]);
    // The board alone: the status line after it holds a time, which may
    // contain `16`.
    let board = out.lines().take(20).collect::<Vec<_>>().join("\n");
    assert!(board.contains("G") && !board.contains("16"), "{out}");
    insta::assert_snapshot!(board);
}

#[test]
fn numbers_past_the_alphabet_and_a_number_format() {
    let wb = workbook(
        "format",
        r#"Workbook(
    sheets: ["Main"],
    cells: { "Main!A1": 1.5, "Main!B1": 2, "Main!C1": 7, "Main!D1": "x" },
    views: {
        "money": (range: "Main!A1:D1", format: "0.00"),
        "both": (range: "Main!A1:D1", alphabet: "AB", format: "0.0"),
    },
)"#,
    );
    let out = run(&["run", &wb]);
    assert!(out.contains("money:\n1.50 2.00 7.00 x\n"), "{out}");
    assert!(out.contains("both:\n1.5   B 7.0 x\n"), "{out}");
}

#[test]
fn compact_candidates_through_the_alphabet() {
    let views = r#""full": (range: "Main!A1:H8", group: (2, 2), blank: " "),
        "compact": (range: "Main!A1:H8", group: (2, 2), compact: true, alphabet: "ABCD", blank: "-")"#;
    let out = run(&["run", &candidates4("compact", views)]);
    insta::assert_snapshot!(out.lines().filter(|l| !l.contains(" ms")).collect::<Vec<_>>().join("\n"));
    let compact = out.split("compact:\n").nth(1).unwrap();
    assert_eq!(compact.lines().take_while(|l| !l.is_empty()).count(), 5, "4 rows and one rule: {out}");
}

#[test]
fn region_cells_are_bracketed() {
    let views = r#""compact": (range: "Main!A1:H8", group: (2, 2), compact: true, regions: "Main!K1:N4"),
        "map": (range: "Main!K1:N4", regions: "Main!K1:N4")"#;
    let out = run(&["run", &candidates4("regions", views), "--show", "map", "--show", "compact"]);
    assert!(out.contains("map:\n 0   0   0   0\n 0  [1] [1]  0\n"), "{out}");
    insta::assert_snapshot!(out.lines().filter(|l| !l.contains(" ms")).collect::<Vec<_>>().join("\n"));
}

#[test]
fn step_plain_marks_compact_cells_and_regions() {
    let views = r#""compact": (range: "Main!A1:H8", group: (2, 2), compact: true, regions: "Main!K1:N4")"#;
    let out = run(&["step", "--plain", &candidates4("step", views)]);
    assert!(out.contains("+[1234]") && out.contains("-[124]"), "region cells, filled then eliminated: {out}");
    insta::assert_snapshot!(out);
}

#[test]
fn view_fields_are_checked_at_load() {
    let views = r#""a": (range: "Main!A1:H8", compact: true),
        "b": (range: "Main!A1:H8", alphabet: "ABA"),
        "c": (range: "Main!A1:H8", format: "yyyy-mm-dd"),
        "d": (range: "Main!A1:H8", group: (2, 2), compact: true, regions: "Main!K1:N5")"#;
    let out = expect_exit(1, &["check", &candidates4("bad", views)]);
    for m in [
        "a compact view needs a group",
        "`A` appears twice in the alphabet",
        "`yyyy-mm-dd` is not a number format",
        "the region map has 5 rows and 4 columns; the view shows 4 and 4",
    ] {
        assert!(out.stderr.contains(m), "{m}: {}", out.stderr);
    }
}

/// A group larger than the view (up to u32::MAX) is one compact cell of
/// the whole view, never a wrap-around past the sheet's edge.
#[test]
fn a_compact_group_larger_than_the_view_is_the_whole_view() {
    let views = r#""all": (range: "Main!A1:H8", group: (4294967295, 4294967295), compact: true, alphabet: "1234")"#;
    let path = candidates4("huge_group", views);
    let out = expect_exit(0, &["run", &path, "--max-iter", "1"]);
    let shown: Vec<&str> = out.stdout.lines().skip_while(|l| *l != "all:").skip(1).take(1).collect();
    // One cell: the symbols of the 64 cells left after the first iteration, in reading order.
    assert_eq!(shown.len(), 1, "{}", out.stdout);
    assert!(shown[0].trim().chars().all(|c| "1234".contains(c)) && shown[0].trim().len() > 8, "{}", out.stdout);
}
