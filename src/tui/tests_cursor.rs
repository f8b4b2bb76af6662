//! The stepper's cell cursor, jump, search, cell status line, parts toggle
//! and legend on the shipped Sudoku workbook, driven with key events and
//! drawn into a ratatui `TestBackend` (80x24 and 200x60).

use super::draw::{cell_on_page, place};
use super::legend::view_color;
use super::stepper::{Mode, Stepper};
use super::tests::{SUDOKU, app, code, find, press, render, screen, sudoku};
use crate::app::Options;
use crossterm::event::KeyCode;
use ratatui::style::Modifier;

/// The cell under the cursor as `Main!D4`.
fn at(a: &Stepper) -> String {
    a.cell().map(|c| a.session().engine().program().cell_name(c)).unwrap_or_default()
}

/// Types `text` into the prompt `opener` opens, then Enter.
fn prompt(a: &mut Stepper, opener: &str, text: &str) {
    press(a, opener);
    press(a, text);
    a.on_key(code(KeyCode::Enter));
}

#[test]
fn the_cursor_moves_within_and_across_views() {
    let mut a = sudoku();
    assert_eq!(at(&a), "Main!D4", "the first view's top-left cell");
    press(&mut a, "kh");
    assert_eq!(at(&a), "Main!D4", "nothing before the first cell");
    press(&mut a, "lj");
    assert_eq!(at(&a), "Main!E5");
    a.on_key(code(KeyCode::Right));
    a.on_key(code(KeyCode::Down));
    assert_eq!(at(&a), "Main!F6", "arrows as hjkl");
    press(&mut a, "jjjjjj");
    assert_eq!(at(&a), "Main!F12", "the input's last row");
    press(&mut a, "j");
    assert_eq!(at(&a), "Main!F16", "down into the solution's first row, same column");
    press(&mut a, "k");
    assert_eq!(at(&a), "Main!F12", "and back up");
    press(&mut a, "llllll");
    assert_eq!(at(&a), "Main!L12");
    press(&mut a, "l");
    assert_eq!(at(&a), "Main!D24", "right past the last column: the next view, same row");
    press(&mut a, "h");
    assert_eq!(at(&a), "Main!L12", "left past the first column: the previous view's last column");
    // Into the candidates (27 columns): the column is kept, then clamped back.
    press(&mut a, "lj");
    assert_eq!(at(&a), "Main!P4");
    for _ in 0..40 {
        press(&mut a, "l");
    }
    assert_eq!(at(&a), "Main!AP4", "the last view's last column");
    press(&mut a, "k");
    assert_eq!(at(&a), "Main!L24", "up from the first row: the previous view's last row, column clamped");
}

#[test]
fn narrow_cursor_scrolls_the_page() {
    let mut a = sudoku();
    a.resize(80, 24);
    press(&mut a, ".");
    // Down through the input (9 rows), the solution (9) and 9 rows of candidates.
    for _ in 0..26 {
        press(&mut a, "j");
    }
    assert_eq!(at(&a), "Main!P12");
    assert!(a.scroll.0 > 0, "the page followed the cursor");
    let text = screen(&mut a, 80, 24);
    insta::assert_snapshot!(text);
    assert!(text.contains("Main!P12 = \"\" │ changed in step 1 │ =IF(state=\"reset\", onetonine,"), "{text}");
    // The cursor's cell is drawn reversed and underlined.
    let buf = render(&mut a, 80, 24);
    let cursor: Vec<_> = (0..80u16)
        .flat_map(|x| (0..20u16).map(move |y| (x, y)))
        .filter(|&p| buf[p].modifier.contains(Modifier::REVERSED | Modifier::UNDERLINED))
        .collect();
    assert_eq!(cursor.len(), 1, "one cell wide: {cursor:?}");
    press(&mut a, "kkkkkkkk");
    assert_eq!(at(&a), "Main!P4");
    press(&mut a, "kkkkkkkkk");
    assert_eq!((at(&a), a.scroll), ("Main!D16".into(), (0, 0)), "up to the solution's first row: its box shows");
}

#[test]
fn wide_cursor_status_line() {
    let mut a = sudoku();
    press(&mut a, "..");
    prompt(&mut a, ":", "Main!E16");
    insta::assert_snapshot!(screen(&mut a, 200, 60));
    let line = a.cell_line().unwrap();
    assert!(line.starts_with("Main!E16 = 4 │ changed in step 1 │ =IF(in_cell_from_sol, "), "{line}");
    assert!(line.contains("COUNT(val_bigcell_from_sol)=1"), "the formula as written, names not inlined: {line}");
    press(&mut a, "b");
    assert!(a.cell_line().unwrap().contains("changed in step 1"));
    press(&mut a, "b");
    let line = a.cell_line().unwrap();
    assert!(line.starts_with("Main!E16 = \"\" │ unchanged since step 0"), "{line}");
    prompt(&mut a, ":", "Main!D4");
    assert_eq!(a.cell_line().unwrap(), "Main!D4 = 2 │ unchanged since step 0", "a given: no formula");
}

#[test]
fn jump_prompt() {
    let mut a = sudoku();
    press(&mut a, ":Main!AP3x");
    assert_eq!(a.mode, Mode::Jump("Main!AP3x".into()));
    a.on_key(code(KeyCode::Backspace));
    press(&mut a, "0");
    insta::assert_snapshot!(screen(&mut a, 80, 24));
    a.on_key(code(KeyCode::Enter));
    assert_eq!((at(&a), a.mode.clone()), ("Main!AP30".into(), Mode::Normal));
    assert_eq!(a.scroll, (30, 0), "scrolled until the candidates' last row is the last one shown");
    // `g` opens the same prompt, as in sc-im.
    prompt(&mut a, "g", "main!d4");
    assert_eq!((at(&a), a.scroll), ("Main!D4".into(), (0, 0)));
    prompt(&mut a, ":", "Main!A1");
    assert_eq!((at(&a), a.message.as_deref()), ("Main!D4".into(), Some("Main!A1 is in no view shown")));
    prompt(&mut a, "g", "Nope!A1");
    assert!(a.message.as_deref().unwrap().starts_with("`Nope!A1`: "), "{:?}", a.message);
    press(&mut a, ":D5");
    a.on_key(code(KeyCode::Esc));
    assert_eq!((at(&a), a.mode.clone(), a.quit), ("Main!D4".into(), Mode::Normal, false));
}

#[test]
fn search_values_and_formulas() {
    let mut a = sudoku();
    a.resize(80, 24);
    press(&mut a, "n");
    assert_eq!(a.message.as_deref(), Some("nothing searched yet: / searches"));
    assert_eq!(a.current().number, 0, "n no longer steps");
    // Values: the 8s of the input, then the solution's.
    prompt(&mut a, "/", "8");
    assert_eq!((at(&a), a.message.as_deref()), ("Main!H4".into(), Some("/8: match 1 of 87")));
    press(&mut a, "n");
    assert_eq!(at(&a), "Main!K5");
    press(&mut a, "NN");
    assert_eq!((at(&a), a.message.as_deref()), ("Main!AO30".into(), Some("/8: match 87 of 87")), "round the start");
    // Formulas, names included, ignoring case: the candidates use `onetonine`.
    press(&mut a, "/ONEtoNINE");
    insta::assert_snapshot!(screen(&mut a, 80, 24));
    a.on_key(code(KeyCode::Enter));
    assert_eq!((at(&a), a.message.as_deref()), ("Main!AP30".into(), Some("/ONEtoNINE: match 729 of 729")));
    press(&mut a, "n");
    assert_eq!((at(&a), a.message.as_deref()), ("Main!P4".into(), Some("/ONEtoNINE: match 1 of 729")));
    prompt(&mut a, "/", "nowhere");
    assert_eq!((at(&a), a.message.as_deref()), ("Main!P4".into(), Some("/nowhere: not found in the views shown")));
}

#[test]
fn parts_toggle() {
    let mut a = sudoku();
    press(&mut a, "..");
    prompt(&mut a, ":", "Main!E16");
    press(&mut a, "p");
    assert_eq!(a.mode, Mode::Parts);
    insta::assert_snapshot!(screen(&mut a, 80, 24));
    press(&mut a, "2");
    assert_eq!(a.mode, Mode::Normal);
    assert_eq!(a.message.as_deref(), Some("parts on: locked; loaded again, step 0"));
    assert_eq!((a.history_len(), a.current().number), (1, 0), "the history starts again");
    let views: Vec<&str> = a.views.iter().map(|v| v.key.as_str()).collect();
    assert_eq!(views, ["input", "solution", "candidates", "status", "history", "grade", "locked"]);
    assert_eq!(at(&a), "Main!E16", "the cursor stays on its cell");
    let on: Vec<(&str, bool)> = a.session().workbook().parts.iter().map(|p| (p.name.as_str(), p.on)).collect();
    assert_eq!(&on[..2], [("status", false), ("locked", true)]);
    insta::assert_snapshot!(screen(&mut a, 200, 60));
    press(&mut a, "p1");
    assert_eq!(a.message.as_deref(), Some("parts on: status, locked; loaded again, step 0"));
    press(&mut a, "p1p2");
    assert_eq!(a.message.as_deref(), Some("no parts on; loaded again, step 0"));
    assert_eq!(a.views.len(), 3);
    press(&mut a, "px");
    assert_eq!((a.mode.clone(), a.views.len()), (Mode::Normal, 3), "any other key closes the list");
    press(&mut a, "p9");
    assert_eq!(a.message.as_deref(), Some("parts on: hidden-quads; loaded again, step 0"), "the ninth part");
    let mut a = app(Options { workbook: "tests/data/parts/book.ron".into(), ..Options::default() });
    press(&mut a, "p9");
    assert_eq!(a.message.as_deref(), Some("there is no part 9"));
}

#[test]
fn parts_toggle_keeps_the_options() {
    let options = Options { workbook: SUDOKU.into(), max_iter: Some(2), ..Options::default() };
    let mut a = app(options);
    press(&mut a, "p2G");
    assert_eq!(a.message.as_deref(), Some("not converged after 2 more steps (max_iterations 2)"));
    let mut a = app(Options { workbook: "tests/data/oscillation/flipflop.ron".into(), ..Options::default() });
    press(&mut a, "p");
    assert_eq!((a.mode.clone(), a.message.as_deref()), (Mode::Normal, Some("this workbook declares no parts")));
}

#[test]
fn legend_colours_blanks_by_the_view_that_caused_them() {
    let mut a = super::tests_explain::locked();
    a.color = true;
    press(&mut a, "....");
    let boards = a.boards();
    let locked = a.views.iter().position(|v| v.key == "locked").unwrap();
    let solution = a.views.iter().position(|v| v.key == "solution").unwrap();
    let cand = &boards[2];
    let caused = |view: usize| cand.rows.iter().flatten().filter(|c| c.cause == Some(view)).count();
    // Step 4 of the S+LC+P puzzle: locked candidates strike 15 candidates, placed digits 0.
    assert_eq!((caused(locked), caused(solution)), (15, 0));
    let (row, col) = (0..cand.n_rows())
        .flat_map(|r| (0..cand.n_cols()).map(move |c| (r, c)))
        .find(|&(r, c)| cand.rows[r][c].cause == Some(locked))
        .unwrap();
    let buf = render(&mut a, 200, 60);
    let (rects, _, _) = place(&boards, 200);
    let (x, y) = cell_on_page(cand, rects[2], row, col);
    let w = cand.width as u16 - 1;
    assert_eq!(buf[(x + w, y)].fg, view_color(locked), "{row},{col}");
    // The views line is the legend: each name in its view's colour.
    let (lx, ly) = find(&buf, " · locked ").expect("the views line");
    assert_eq!(buf[(lx + 3, ly)].fg, view_color(locked));
    let (sx, sy) = find(&buf, " · solution ").expect("the views line");
    assert_eq!(buf[(sx + 3, sy)].fg, view_color(solution));
    // Without colour, the blank's own mark.
    a.color = false;
    let buf = render(&mut a, 200, 60);
    assert!(buf[(x + w, y)].modifier.contains(Modifier::DIM | Modifier::CROSSED_OUT));
    insta::assert_snapshot!(screen(&mut a, 200, 60));
}
