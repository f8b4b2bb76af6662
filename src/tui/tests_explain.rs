//! The explain panel (`x`) on the shipped Sudoku workbook, driven with key
//! events and drawn into a ratatui `TestBackend` (80x24 and 200x60): a
//! candidate the singles blanked, one the `locked` part's board removed,
//! the step shown marked, scrolling, closing, cells without a formula, and
//! where step 0 comes from (after an edit, a reset and a parts toggle;
//! with `--set` cells and without the reset protocol).

use super::stepper::{Mode, Stepper};
use super::tests::{SUDOKU, app, code, press, render, screen, sudoku};
use crate::app::Options;
use crossterm::event::KeyCode;
use ratatui::style::Modifier;

/// The cursor to `cell` (`:` and Enter), then `x`.
fn explain_at(a: &mut Stepper, cell: &str) {
    press(a, ":");
    press(a, cell);
    a.on_key(code(KeyCode::Enter));
    press(a, "x");
}

/// The open panel's lines, as text.
fn panel_text(a: &Stepper) -> Vec<String> {
    match &a.mode {
        Mode::Explain(p) => p.lines.iter().map(|(_, l)| l.clone()).collect(),
        m => panic!("no panel open: {m:?}, message {:?}", a.message),
    }
}

/// The first 17-clue puzzle of tier S+LC+P: the singles stall after step 2,
/// so with the `locked` part its board searches in step 3 (on PE96 grid 2,
/// the default puzzle, the singles never stall and the board never searches).
const STALLS: &str = "puzzle=.......21..5.8....6...........67.3..12....5..4...........2.1.4...3.......8.......";

/// The `locked` part on that puzzle.
pub(super) fn locked() -> Stepper {
    app(Options {
        workbook: SUDOKU.into(),
        with: vec!["locked".into()],
        inputs: vec![STALLS.into()],
        ..Options::default()
    })
}

#[test]
fn narrow_explain_a_blanked_candidate() {
    let mut a = sudoku();
    press(&mut a, "..");
    explain_at(&mut a, "Main!AA5");
    let text = screen(&mut a, 80, 24);
    insta::assert_snapshot!(text);
    assert!(text.contains("│▶ step 2: 6 -> \"\" (blank)"), "the step shown is marked: {text}");
    assert!(text.contains("because Main!E16 \"\" -> 4 (step 1)"), "{text}");
    // The current change is drawn reversed, the others not.
    let buf = render(&mut a, 80, 24);
    let (x, y) = super::tests::find(&buf, "▶ step 2").expect("the marked line");
    assert!(buf[(x + 3, y)].modifier.contains(Modifier::REVERSED));
    let (x, y) = super::tests::find(&buf, "step 0: 6").expect("step 0");
    assert!(!buf[(x, y)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn wide_explain_a_blanked_candidate() {
    let mut a = sudoku();
    press(&mut a, "...");
    explain_at(&mut a, "Main!AA5");
    let text = screen(&mut a, 200, 60);
    insta::assert_snapshot!(text);
    let formula = "=IF(state=\"reset\", onetonine, IF(sol_cell_from_val<>\"\", IF(sol_cell_from_val=onetonine, \
                   onetonine, \"\"), IF(solution_in_rcb, \"\", onetonine)))";
    assert!(text.contains(formula), "the whole formula as written: {text}");
    assert!(text.contains("converged after 9 iterations; Main!AA5 changed once"), "{text}");
}

#[test]
fn narrow_explain_a_candidate_the_locked_board_removed() {
    let mut a = locked();
    press(&mut a, ".");
    explain_at(&mut a, "Main!V6");
    let text = screen(&mut a, 80, 24);
    insta::assert_snapshot!(text);
    assert!(text.contains("│▶ step 0: 7"), "at step 1 the value of step 0 is in effect: {text}");
    assert!(text.contains("because Main!V36 \"\" -> 7 (step 3)"), "the locked board: {text}");
    // The change to come is dimmed.
    let buf = render(&mut a, 80, 24);
    let (x, y) = super::tests::find(&buf, "step 4: 7").expect("step 4");
    assert!(buf[(x, y)].modifier.contains(Modifier::DIM));
}

#[test]
fn wide_explain_a_candidate_the_locked_board_removed() {
    let mut a = locked();
    press(&mut a, "G");
    explain_at(&mut a, "Main!V6");
    let text = screen(&mut a, 200, 60);
    insta::assert_snapshot!(text);
    assert!(text.contains("│▶ step 4: 7 -> \"\" (blank)"), "{text}");
    assert!(text.contains("struck_by_strategy"), "the locked part's formula: {text}");
}

#[test]
fn any_other_key_closes_the_panel() {
    let mut a = sudoku();
    for k in [code(KeyCode::Esc), code(KeyCode::Char('q')), code(KeyCode::Char('x')), code(KeyCode::Char(' '))] {
        explain_at(&mut a, "Main!AA5");
        assert!(matches!(a.mode, Mode::Explain(_)));
        a.on_key(k);
        assert_eq!(a.mode, Mode::Normal, "{k:?} closes it");
        assert!(!a.quit, "{k:?} only closes it");
        assert_eq!(a.current().number, 0, "{k:?} does not step");
    }
}

#[test]
fn a_long_panel_scrolls() {
    let mut a = sudoku();
    a.resize(80, 6);
    explain_at(&mut a, "Main!AA5");
    let scroll = |a: &Stepper| match &a.mode {
        Mode::Explain(p) => p.scroll,
        m => panic!("{m:?}"),
    };
    assert_eq!(panel_text(&a).len(), 8);
    assert_eq!(scroll(&a), 0);
    let text = screen(&mut a, 80, 6);
    assert!(text.contains("lines 1-4 of 8 ↑↓ · any other key closes"), "{text}");
    press(&mut a, "jj");
    assert_eq!(scroll(&a), 2);
    a.on_key(code(KeyCode::End));
    assert_eq!(scroll(&a), 4, "the last lines fill the box");
    press(&mut a, "j");
    assert_eq!(scroll(&a), 4, "not past the end");
    assert!(screen(&mut a, 80, 6).contains("lines 5-8 of 8"));
    a.on_key(code(KeyCode::PageUp));
    assert_eq!(scroll(&a), 0);
    a.on_key(code(KeyCode::PageDown));
    assert_eq!(scroll(&a), 4);
    a.on_key(code(KeyCode::Home));
    assert_eq!(scroll(&a), 0);
    // Opened at a later step, it starts scrolled to the change shown.
    a.on_key(code(KeyCode::Esc));
    a.resize(80, 4);
    press(&mut a, "..x");
    assert_eq!(scroll(&a), 1, "the line `step 2` (the 3rd) is the last of the 2 shown");
}

#[test]
fn no_panel_for_a_cell_without_formula() {
    let mut a = sudoku();
    explain_at(&mut a, "Main!D4");
    assert_eq!(a.mode, Mode::Normal);
    let m = a.message.clone().unwrap_or_default();
    assert_eq!(m, "Main!D4 is a cell of the input `puzzle`, now 2: no formula to explain");
    let mut a = super::load(&Options { workbook: SUDOKU.into(), ..Options::default() }, &["Main!D26:D27".into()])
        .expect("it loads");
    explain_at(&mut a, "Main!D27");
    assert_eq!(a.message.as_deref(), Some("Main!D27 holds a constant, \"solve\": no formula to explain"));
    explain_at(&mut a, "Main!D26");
    assert_eq!(a.message.as_deref(), Some("Main!D26 is empty: no formula to explain"));
    assert_eq!(a.mode, Mode::Normal);
}

#[test]
fn edits_are_noted_and_a_reset_explains_from_the_new_step_0() {
    let mut a = sudoku();
    explain_at(&mut a, "Main!AA5");
    let at_load = panel_text(&a);
    a.on_key(code(KeyCode::Esc));
    press(&mut a, "e");
    press(&mut a, "Main!G4=9");
    a.on_key(code(KeyCode::Enter));
    press(&mut a, "x");
    let edited = panel_text(&a);
    assert_eq!(edited[1], "explained from step 0 without your edits (step 1: Main!G4=9); later steps differ");
    assert_eq!(edited[2..], at_load[1..], "the same run from step 0");
    // Stepped back before the edit, the steps shown are those of the run.
    a.on_key(code(KeyCode::Esc));
    press(&mut a, "bx");
    assert_eq!(panel_text(&a), at_load);
    // A reset makes the state shown (with the edit) step 0 again.
    a.on_key(code(KeyCode::Esc));
    press(&mut a, " ");
    assert_eq!(a.current().number, 1);
    press(&mut a, "r");
    assert_eq!(a.current().number, 0);
    press(&mut a, "x");
    let reset = panel_text(&a);
    assert!(reset.iter().all(|l| !l.contains("your edits")), "{reset:?}");
    // With the 9 in G4's input, AA5 (G4's 6) goes as soon as the state turns to "solve".
    assert_eq!(reset[2], "step 1: 6 -> \"\" (blank)", "{reset:?}");
    assert_eq!(reset[3], "    because Main!D27 \"reset\" -> \"solve\" (step 0)", "{reset:?}");
}

#[test]
fn a_parts_toggle_explains_the_new_workbook() {
    let mut a = app(Options { workbook: SUDOKU.into(), inputs: vec![STALLS.into()], ..Options::default() });
    explain_at(&mut a, "Main!V6");
    assert!(panel_text(&a).iter().all(|l| !l.contains("Main!V36")));
    a.on_key(code(KeyCode::Esc));
    let n = a.session().workbook().parts.iter().position(|p| p.name == "locked").expect("a locked part") + 1;
    press(&mut a, &format!("p{n}x"));
    assert!(panel_text(&a).iter().any(|l| l.contains("because Main!V36 \"\" -> 7 (step 3)")), "{:?}", panel_text(&a));
}

#[test]
fn set_cells_count_as_changes_of_step_0() {
    let mut a = app(Options { workbook: SUDOKU.into(), sets: vec!["Main!G4=9".into()], ..Options::default() });
    explain_at(&mut a, "Main!G16");
    let lines = panel_text(&a);
    assert_eq!(lines[2], "step 1: \"\" -> 9", "{lines:?}");
    assert_eq!(lines[3], "    because Main!G4 blank -> 9 (step 0)", "the --set cell, as `explain --set`: {lines:?}");
    assert_eq!(lines[4], "            Main!D27 \"reset\" -> \"solve\" (step 0)", "{lines:?}");
    assert_eq!(lines[lines.len() - 2], "            and 101 more", "{lines:?}");
}

#[test]
fn without_the_reset_protocol_step_0_is_the_workbook_as_loaded() {
    let mut a = app(Options { workbook: SUDOKU.into(), no_reset: true, ..Options::default() });
    explain_at(&mut a, "Main!AA5");
    let lines = panel_text(&a);
    assert_eq!(
        lines[1..4],
        ["step 0: blank", "step 1: blank -> 6", "            (its first calculation)"],
        "{lines:?}"
    );
    assert_eq!(lines[4], "step 3: 6 -> \"\" (blank)", "as `explain --no-reset`: {lines:?}");
}
