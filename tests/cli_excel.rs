//! `dataflow run` on an Excel file, which has no views: every sheet's used
//! range is printed (from A1 to its last used row and column), as text,
//! JSON or CSV, whole however large the sheet is; a range named with
//! `--show` may be as large as the workbook's used cells.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod xlsx;

use common::expect_exit;
use serde_json::Value as Json;

fn two_sheets() -> String {
    let book = xlsx::Book::default()
        .sheet(
            "Prices",
            vec![
                xlsx::text("A1", "Item"),
                xlsx::text("B1", "Price"),
                xlsx::text("A2", "bolts, small"),
                xlsx::num("B2", 0.25),
                xlsx::text("A3", "say \"nuts\""),
                xlsx::num("B3", 0.5),
                xlsx::formula("C3", "B2+B3", Some(0.75)),
            ],
        )
        .sheet("Totals", vec![xlsx::formula("B2", "SUM(Prices!B2:B3)*4", Some(3.0))]);
    book.write("two_sheets.xlsx").display().to_string()
}

#[test]
fn an_excel_file_prints_every_sheets_used_range() {
    let path = two_sheets();
    let out = expect_exit(0, &["run", &path]);
    let text = &out.stdout;
    assert!(text.contains("Prices!A1:C3:\n"), "{text}");
    assert!(text.contains("Totals!A1:B2:\n"), "{text}");
    assert!(text.contains("bolts, small"), "{text}");
    assert!(text.contains("0.75") && text.contains('3'), "{text}");

    let out = expect_exit(0, &["run", &path, "--format", "csv"]);
    let want =
        "# Prices!A1:C3\nItem,Price,\n\"bolts, small\",0.25,\n\"say \"\"nuts\"\"\",0.5,0.75\n# Totals!A1:B2\n,\n,3\n";
    assert_eq!(out.stdout, want);

    let out = expect_exit(0, &["run", &path, "--format", "csv", "--show", "Totals!B2"]);
    assert_eq!(out.stdout, "3\n", "one range: no header line");

    let out = expect_exit(0, &["run", &path, "--format", "json"]);
    let j: Json = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(j["ranges"]["Totals!A1:B2"][1][1], 3.0);
    assert_eq!(j["ranges"]["Prices!A1:C3"][2][0], "say \"nuts\"");
}

#[test]
fn a_sheet_larger_than_a_view_prints_whole() {
    // 300 x 300 = 90,000 cells, past the 65,536 a view may hold.
    let cells: Vec<String> = (1..=300).map(|r| xlsx::num(&format!("KN{r}"), f64::from(r))).collect();
    let mut cells = cells;
    cells.insert(0, xlsx::num("A1", 0.5));
    let path = xlsx::Book::default().sheet("Big", cells).write("big.xlsx").display().to_string();
    let out = expect_exit(0, &["run", &path, "--format", "csv"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 300);
    assert_eq!(lines[0].split(',').count(), 300);
    assert!(lines[299].ends_with(",300"), "{}", lines[299]);
    // A range as large as the used cells may be shown; a larger one not.
    expect_exit(0, &["run", &path, "--format", "csv", "--show", "Big!A1:KN300"]);
    let out = expect_exit(2, &["run", &path, "--show", "Big!A1:KN1000"]);
    assert!(out.stderr.contains("at most 90000 can be shown"), "{}", out.stderr);
}
