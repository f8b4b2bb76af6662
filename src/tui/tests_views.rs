//! `step` on boards past 9x9, drawn at 120x40: a 16x16 board through its
//! alphabet with a hyper-style region map (shaded with colour, italic
//! without), a 25x25 valid-values board shown compact (each big cell as
//! its candidate string), the frozen headers of a board scrolled past its
//! edges, and `f`, following changes. The workbooks are written by the
//! tests, into a temporary directory.

use super::stepper::{Mode, Stepper};
use super::tests::{app, code, press, render, screen};
use crate::app::Options;
use crossterm::event::KeyCode;
use ratatui::style::{Color, Modifier};

/// Writes `text` as the workbook `name`.ron and loads it into the stepper.
fn stepper(name: &str, text: &str) -> Stepper {
    // A file of its own per call: tests running at once may write the same
    // workbook, and one would read the other's half-written file.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("dataflow-tui-views-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary directory is made");
    let path = dir.join(format!("{name}-{call}.ron"));
    std::fs::write(&path, text).expect("the workbook is written");
    app(Options { workbook: path, ..Options::default() })
}

/// A 16x16 board in Main!A1:P16 (a valid grid, some cells blank) shown
/// through `123456789ABCDEFG`, with a region map in Main!R1:AG16 marking
/// four 4x4 blocks, as hyper Sudoku's extra regions.
fn board16() -> Stepper {
    let digit = "MOD((ROW()-1)*4+INT((ROW()-1)/4)+COLUMN()-1,16)+1";
    let inside = "AND(MOD(ROW()-1,8)>=1,MOD(ROW()-1,8)<=4,MOD(COLUMN()-18,8)>=1,MOD(COLUMN()-18,8)<=4)";
    stepper(
        "board16",
        &format!(
            r#"Workbook(
    sheets: ["Main"],
    cells: {{
        "Main!A1:P16": "=IF(MOD(ROW()*7+COLUMN()*3,6)=0,\"\",{digit})",
        "Main!R1:AG16": "=IF({inside},1,0)",
    }},
    views: {{
        "board": (range: "Main!A1:P16", group: (4, 4), alphabet: "123456789ABCDEFG", regions: "Main!R1:AG16"),
    }},
)"#
        ),
    )
}

/// A 25x25 Sudoku's valid-values board (Main!A1:DU125, 5x5 big cells, the
/// candidate k at its place; about a quarter of them at first, fewer at
/// each iteration of the counter Main!DZ1 until it reaches 3), shown
/// compact through `A`..`Y`.
fn candidates25() -> Stepper {
    let k = "(MOD(ROW()-1,5)*5+MOD(COLUMN()-1,5)+1)";
    let cell = "(INT((ROW()-1)/5)*7+INT((COLUMN()-1)/5)*11)";
    stepper(
        "candidates25",
        &format!(
            r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: true, max_iterations: 10, max_change: 0.001),
    cells: {{
        "Main!DZ1": "=MIN(DZ1+1,3)",
        "Main!A1:DU125": "=IF(MOD({cell}+{k}*3,13)<4-$DZ$1,{k},\"\")",
    }},
    views: {{
        "candidates": (range: "Main!A1:DU125", group: (5, 5), compact: true, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXY", blank: "-"),
    }},
)"#
        ),
    )
}

#[test]
fn a_16x16_board_through_its_alphabet_with_regions() {
    let mut a = board16();
    press(&mut a, ".");
    let text = screen(&mut a, 120, 40);
    insta::assert_snapshot!(text);
    assert!(text.contains("G") && !text.contains("16 "), "{text}");
    // Row 2, column 2 is in a region (italic without colour); row 1 is not.
    let buf = render(&mut a, 120, 40);
    assert!(!buf[(1, 1)].modifier.contains(Modifier::ITALIC) && buf[(3, 2)].modifier.contains(Modifier::ITALIC));
    a.color = true;
    let buf = render(&mut a, 120, 40);
    assert_eq!((buf[(3, 1)].bg, buf[(3, 2)].bg), (Color::Reset, Color::DarkGray));
}

#[test]
fn a_compact_25x25_candidates_board() {
    let mut a = candidates25();
    press(&mut a, "...");
    let text = screen(&mut a, 120, 40);
    insta::assert_snapshot!(text);
    // 25 big cells of at most 3 candidates and their rules fit 120 columns.
    assert!(text.lines().filter(|l| l.starts_with('│')).all(|l| l.chars().count() < 120), "{text}");
}

#[test]
fn a_board_scrolled_past_its_edges_keeps_its_headers() {
    let mut a = candidates25();
    press(&mut a, "...");
    a.resize(60, 20);
    for _ in 0..20 {
        press(&mut a, "jl");
    }
    let text = screen(&mut a, 60, 20);
    insta::assert_snapshot!(text);
    let lines: Vec<&str> = text.lines().collect();
    // Column letters on the first line (the big cells start every 5th
    // column: CW is column 101), row numbers down the left.
    assert!(lines[0].contains(" CR   CW"), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("101 ")), "{text}");
}

/// A column of 100 cells (Main!A1:A100) of which only the first changes,
/// counting to 5.
fn counter() -> Stepper {
    stepper(
        "counter",
        r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: true, max_iterations: 10, max_change: 0.001),
    cells: { "Main!A1": "=MIN(A1+1,5)", "Main!A2:A100": 0 },
    views: { "column": (range: "Main!A1:A100") },
)"#,
    )
}

#[test]
fn f_follows_the_changes_of_each_step() {
    let mut a = counter();
    a.resize(60, 20);
    a.on_key(code(KeyCode::End));
    let away = a.scroll;
    assert!(away.0 > 0);
    press(&mut a, ".");
    assert_eq!(a.scroll, away, "off: the page stays");
    press(&mut a, "f");
    assert!(a.message.as_deref().unwrap_or("").contains("follow changes: on"));
    assert_eq!(a.scroll.0, 0, "on: the page goes to the change at once");
    a.on_key(code(KeyCode::End));
    press(&mut a, ".");
    assert_eq!(a.scroll.0, 0, "each step goes to its change");
    press(&mut a, "f");
    a.on_key(code(KeyCode::End));
    press(&mut a, ".");
    assert_eq!(a.scroll, away, "off again");
}

/// The shipped board workbooks in `step` at 120x40: after the first
/// iteration and solved (`G`), each with its views as the workbook
/// declares them (16x16 and 25x25 through their alphabets with compact
/// candidates; hyper's extra regions marked).
#[test]
fn the_shipped_boards_at_120x40() {
    for name in ["sudoku16", "sudoku25", "hyper"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("workbooks/{name}.ron"));
        let mut a = app(Options { workbook: path, ..Options::default() });
        press(&mut a, ".");
        insta::assert_snapshot!(format!("{name}_step_1"), screen(&mut a, 120, 40));
        press(&mut a, "G");
        let solved = screen(&mut a, 120, 40);
        assert!(solved.contains("converged"), "{name} runs to a fixpoint:\n{solved}");
        insta::assert_snapshot!(format!("{name}_solved"), solved);
    }
}

/// The cells of a dynamic array's spill range are marked: on a blue
/// background with colour, italic without; a plain cell beside is not.
#[test]
fn spill_ranges_are_marked() {
    let mut a = stepper(
        "spills",
        r#"Workbook(
    sheets: ["Main"],
    dynamic_arrays: true,
    cells: { "Main!A1": "=SEQUENCE(3)", "Main!B1": "=SUM(A1#)" },
    views: { "sheet": (range: "Main!A1:B3") },
)"#,
    );
    press(&mut a, ".");
    let text = screen(&mut a, 60, 12);
    assert!(text.contains('3') && text.contains('6'), "{text}");
    let buf = render(&mut a, 60, 12);
    // The board's first column (x = 1) holds A1:A3 at rows y = 1..=3.
    let column = |x: u16| (1..=3).map(|y| buf[(x, y)].modifier.contains(Modifier::ITALIC)).collect::<Vec<_>>();
    assert_eq!(column(1), [true, true, true], "{text}");
    let b1 = (2..12).find(|&x| buf[(x, 1)].symbol() == "6").expect("B1 drawn");
    assert!(!buf[(b1, 1)].modifier.contains(Modifier::ITALIC));
    a.color = true;
    let buf = render(&mut a, 60, 12);
    assert_eq!((buf[(1, 2)].bg, buf[(b1, 1)].bg), (Color::Blue, Color::Reset));
}

/// Past nine parts, the list names them by letter (`a` the tenth) and a
/// letter toggles one; a letter past the last closes the list.
#[test]
fn parts_past_nine_are_toggled_by_letter() {
    let parts: Vec<String> = (1..=11).map(|i| format!("\"p{i}\": (about: \"part {i}\")")).collect();
    let text = format!("Workbook(sheets: [\"Main\"], cells: {{ \"Main!A1\": 1 }}, parts: {{ {} }})", parts.join(", "));
    let mut a = stepper("parts11", &text);
    press(&mut a, "p");
    let lines = a.parts_lines();
    assert!(
        lines[8].starts_with("9 [ ] p9 ") && lines[9].starts_with("a [ ] p10") && lines[10].starts_with("b [ ] p11"),
        "{lines:?}"
    );
    press(&mut a, "a");
    assert_eq!(a.message.as_deref(), Some("parts on: p10; loaded again, step 0"));
    press(&mut a, "pb");
    assert_eq!(a.message.as_deref(), Some("parts on: p10, p11; loaded again, step 0"));
    press(&mut a, "pc");
    assert_eq!(a.mode, Mode::Normal, "a letter past the last part closes the list");
    let on: Vec<&str> = a.session().workbook().parts.iter().filter(|p| p.on).map(|p| p.name.as_str()).collect();
    assert_eq!(on, ["p10", "p11"], "and toggles nothing");
}
