//! `dataflow step` on the shipped Sudoku workbook (PE96 grid 2, its default
//! puzzle): the interactive [`Stepper`] driven with key events and drawn into a
//! ratatui `TestBackend` (screens snapshotted as text, 200x60 and 80x24),
//! its key handling (step, run, back, replay, reset, edit, help, quit,
//! scroll) and the highlight styles with and without colour. The `--plain`
//! story is tested from the binary, in `tests/step.rs`.

use super::draw::draw;
use super::stepper::{Kind, Mode, Stepper};
use crate::app::Options;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

pub(super) const SUDOKU: &str = "workbooks/sudoku.ron";

/// The stepper for `dataflow step` with `options`, colours off.
pub(super) fn app(options: Options) -> Stepper {
    let mut app = super::load(&options, &[]).expect("the workbook loads");
    app.color = false;
    app
}

pub(super) fn sudoku() -> Stepper {
    app(Options { workbook: SUDOKU.into(), ..Options::default() })
}

pub(super) fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

pub(super) fn code(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

pub(super) fn press(app: &mut Stepper, keys: &str) {
    for c in keys.chars() {
        app.on_key(key(c));
    }
}

/// Draws `app` on a `w` x `h` test terminal; returns the buffer.
pub(super) fn render(app: &mut Stepper, w: u16, h: u16) -> Buffer {
    app.resize(w, h);
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| draw(f, app)).unwrap();
    t.backend().buffer().clone()
}

/// The screen's text, line by line, trailing spaces cut.
pub(super) fn screen(app: &mut Stepper, w: u16, h: u16) -> String {
    let buf = render(app, w, h);
    let mut out = String::new();
    for y in 0..h {
        let line: String = (0..w).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The position of the first `text` on the screen.
pub(super) fn find(buf: &Buffer, text: &str) -> Option<(u16, u16)> {
    let w = buf.area.width;
    (0..buf.area.height).find_map(|y| {
        let line: String = (0..w).map(|x| buf[(x, y)].symbol().chars().next().unwrap_or(' ')).collect();
        line.find(text).map(|i| (line[..i].chars().count() as u16, y))
    })
}

#[test]
fn wide_step_0() {
    insta::assert_snapshot!(screen(&mut sudoku(), 200, 60));
}

#[test]
fn wide_step_1() {
    let mut a = sudoku();
    press(&mut a, ".");
    insta::assert_snapshot!(screen(&mut a, 200, 60));
}

#[test]
fn wide_step_2() {
    let mut a = sudoku();
    press(&mut a, " .");
    insta::assert_snapshot!(screen(&mut a, 200, 60));
}

#[test]
fn wide_back() {
    let mut a = sudoku();
    press(&mut a, "..b");
    assert_eq!((a.cursor(), a.history_len()), (1, 3));
    insta::assert_snapshot!(screen(&mut a, 200, 60));
}

#[test]
fn wide_reset() {
    let mut a = sudoku();
    press(&mut a, "..r");
    assert_eq!((a.cursor(), a.history_len(), a.current().number), (0, 1, 0));
    insta::assert_snapshot!(screen(&mut a, 200, 60));
}

#[test]
fn narrow_step_0() {
    insta::assert_snapshot!(screen(&mut sudoku(), 80, 24));
}

#[test]
fn narrow_step_1() {
    let mut a = sudoku();
    press(&mut a, ".");
    insta::assert_snapshot!(screen(&mut a, 80, 24));
}

#[test]
fn narrow_step_2_scrolled_to_the_end() {
    let mut a = sudoku();
    a.resize(80, 24);
    press(&mut a, "..");
    a.on_key(code(KeyCode::End));
    insta::assert_snapshot!(screen(&mut a, 80, 24));
}

#[test]
fn narrow_help() {
    let mut a = sudoku();
    press(&mut a, "?");
    assert_eq!(a.mode, Mode::Help);
    insta::assert_snapshot!(screen(&mut a, 80, 24));
    press(&mut a, "x");
    assert_eq!(a.mode, Mode::Normal);
    assert!(!a.quit);
}

#[test]
fn g_runs_to_convergence() {
    let mut a = sudoku();
    press(&mut a, "G");
    assert!(a.current().converged());
    assert_eq!(a.current().number, 9);
    assert_eq!(a.history_len(), 10);
    assert_eq!(a.message.as_deref(), Some("converged at step 9"));
    let sol = a.boards().into_iter().find(|b| b.title == "solution").unwrap();
    assert_eq!(sol.non_blank, 81);
    press(&mut a, "G");
    assert_eq!((a.history_len(), a.message.as_deref()), (10, Some("already converged")));
}

#[test]
fn g_stops_at_max_iter() {
    let mut a = app(Options { workbook: SUDOKU.into(), max_iter: Some(3), ..Options::default() });
    press(&mut a, "G");
    assert_eq!(a.current().number, 3);
    assert!(!a.current().converged());
    assert_eq!(a.message.as_deref(), Some("not converged after 3 more steps (max_iterations 3)"));
}

#[test]
fn g_stops_where_the_iterations_oscillate() {
    let mut a = app(Options { workbook: "tests/data/oscillation/flipflop.ron".into(), ..Options::default() });
    press(&mut a, "G");
    assert_eq!(a.current().number, 3);
    assert_eq!(a.message.as_deref(), Some("oscillates with period 2 at step 3"));
    assert!(screen(&mut a, 80, 24).contains("step 3/3 │ oscillates with period 2 │ max change 1"));
    press(&mut a, "G");
    assert_eq!(a.message.as_deref(), Some("already oscillating"));
    // Going back and replaying starts the engine's history again: step 4
    // is calculated afresh from step 3, and step 5 repeats step 3.
    press(&mut a, "bbb....");
    assert_eq!((a.current().number, a.current().period()), (4, None));
    press(&mut a, ".");
    assert_eq!((a.current().number, a.current().period()), (5, Some(2)));
}

#[test]
fn b_at_step_0_does_nothing() {
    let mut a = sudoku();
    press(&mut a, "b");
    assert_eq!((a.cursor(), a.history_len(), a.current().number), (0, 1, 0));
}

/// Every value of the workbook's views, row by row.
fn values(a: &Stepper) -> Vec<Vec<dataflow::value::Value>> {
    a.views.iter().flat_map(|v| a.session().read(&v.area)).collect()
}

#[test]
fn forward_after_back_replays_history() {
    let mut a = sudoku();
    let start = values(&a);
    press(&mut a, "...");
    let third = values(&a);
    let changed = a.current().changes().len();
    press(&mut a, "bbb");
    assert_eq!(a.cursor(), 0);
    // Undone exactly: the state of step 0 again.
    assert_eq!(values(&a), start);
    press(&mut a, "...");
    assert_eq!((a.cursor(), a.history_len()), (3, 4));
    // The recorded step replayed, not a new one.
    assert_eq!(values(&a), third);
    assert_eq!(a.current().changes().len(), changed);
    press(&mut a, "G");
    assert_eq!(a.current().number, 9);
}

#[test]
fn a_step_after_going_back_calculates_what_it_did_the_first_time() {
    let mut fresh = sudoku();
    press(&mut fresh, "....");
    let Kind::Iteration(first) = fresh.current().kind else { panic!("not an iteration") };
    let mut a = sudoku();
    press(&mut a, "...bb..");
    assert_eq!((a.cursor(), a.history_len()), (3, 4));
    press(&mut a, ".");
    let Kind::Iteration(again) = a.current().kind else { panic!("not an iteration") };
    // The dirty flags came back with the values: the same cells evaluated.
    assert_eq!(again, first);
    assert_eq!(values(&a), values(&fresh));
}

#[test]
fn an_edit_after_going_back_starts_from_the_state_shown() {
    let edit = |a: &mut Stepper| {
        press(a, "eMain!E5=1");
        a.on_key(code(KeyCode::Enter));
        assert!(matches!(a.current().kind, Kind::Edit { .. }), "not an edit");
        press(a, "G");
        values(a)
    };
    let mut fresh = sudoku();
    press(&mut fresh, "..");
    let first = edit(&mut fresh);
    let mut a = sudoku();
    press(&mut a, "....bb");
    let again = edit(&mut a);
    assert_eq!(again, first);
    assert_eq!(a.history_len(), fresh.history_len());
}

#[test]
fn the_history_keeps_changes_not_copies() {
    let mut a = sudoku();
    press(&mut a, "G");
    let cells = a.session().engine().program().cells().len();
    let kept = a.history_cells();
    // Nine iterations of an 810-formula cycle: what they changed, far less
    // than nine copies of every cell.
    assert!(kept > 0 && kept < cells * 9 / 2, "{kept} changes kept for {cells} formula cells");
}

#[test]
fn q_esc_and_ctrl_c_quit() {
    let mut a = sudoku();
    press(&mut a, "q");
    assert!(a.quit);
    let mut a = sudoku();
    a.on_key(code(KeyCode::Esc));
    assert!(a.quit);
    let mut a = sudoku();
    press(&mut a, "e");
    a.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(a.quit);
}

/// An edit sets its cells and is a step of its own: the iterations that
/// follow it are the next steps, watched one by one.
#[test]
fn edit_sets_a_cell_and_the_next_steps_calculate_what_follows() {
    let mut a = sudoku();
    press(&mut a, "Gbb");
    assert_eq!(a.cursor(), 7);
    press(&mut a, "e");
    press(&mut a, "Main!E5=1x");
    a.on_key(code(KeyCode::Backspace));
    assert_eq!(a.mode, Mode::Edit("Main!E5=1".into()));
    let prompt = screen(&mut a, 200, 24);
    assert!(prompt.contains("or CELL=VALUE (Enter applies, Esc cancels): Main!E5=1"), "{prompt}");
    a.on_key(code(KeyCode::Enter));
    // The later history is replaced by the edit.
    assert_eq!((a.cursor(), a.history_len(), a.current().number), (8, 9, 8));
    let Kind::Edit { text } = &a.current().kind else { panic!("not an edit") };
    assert_eq!(text, "Main!E5=1");
    let e5 = a.session().area("Main!E5").unwrap().top_left();
    assert_eq!(a.current().changes().iter().map(|c| c.cell).collect::<Vec<_>>(), [e5], "only the cell set");
    assert_eq!(a.message.as_deref(), Some("Main!E5=1: set; step to calculate what follows, G to run"));
    // The next step calculates what reads it.
    press(&mut a, " ");
    assert!(matches!(a.current().kind, Kind::Iteration(_)));
    assert!(a.current().changes().len() > 1, "the readers of Main!E5 changed");
}

/// `e` then a value (no `CELL=`) edits the cell under the cursor; a
/// formula (`=...`) is entered as typing it into Excel does.
#[test]
fn edit_the_cell_under_the_cursor_and_formulas() {
    let mut a = sudoku();
    let here = a.cell().unwrap();
    let name = a.session().workbook().sheets.cell(here);
    press(&mut a, "e7");
    a.on_key(code(KeyCode::Enter));
    let Kind::Edit { text } = &a.current().kind else { panic!("not an edit: {:?}", a.message) };
    assert_eq!(text, &format!("{name}=7"));
    assert_eq!(a.session().engine().get(here), &dataflow::value::Value::Number(7.0));
    press(&mut a, "eMain!D5==1+1");
    a.on_key(code(KeyCode::Enter));
    assert!(a.message.as_deref().unwrap().contains("entered"), "{:?}", a.message);
}

#[test]
fn edit_refusals() {
    let mut a = sudoku();
    for (text, message) in
        [("Main!P4=1", "Main!P4 holds a formula"), ("Main!D5==SUM((", "cannot parse the formula of Main!D5")]
    {
        press(&mut a, "e");
        press(&mut a, text);
        a.on_key(code(KeyCode::Enter));
        assert!(a.message.as_deref().unwrap_or_default().contains(message), "{text}: {:?}", a.message);
        assert_eq!(a.history_len(), 1);
    }
    press(&mut a, "e");
    press(&mut a, "Main!D5=1");
    a.on_key(code(KeyCode::Esc));
    assert_eq!((a.message.as_deref(), a.history_len(), a.quit), (Some("edit cancelled"), 1, false));
}

#[test]
fn a_refused_range_edit_changes_nothing() {
    let mut a = sudoku();
    let before = values(&a);
    // D4:O4 are constants or empty, P4 holds a formula: the whole edit is refused.
    press(&mut a, "eMain!D4:P4=7");
    a.on_key(code(KeyCode::Enter));
    assert_eq!((a.message.as_deref(), a.history_len()), (Some("Main!P4 holds a formula"), 1));
    assert_eq!(values(&a), before);
    press(&mut a, ".");
    let mut fresh = sudoku();
    press(&mut fresh, ".");
    assert_eq!(values(&a), values(&fresh), "the next step is the one a fresh run makes");
}

#[test]
fn narrow_scrolling_is_clamped() {
    let mut a = sudoku();
    a.resize(80, 24);
    a.on_key(code(KeyCode::PageUp));
    assert_eq!(a.scroll, (0, 0));
    a.on_key(code(KeyCode::PageDown));
    assert_eq!(a.scroll, (20, 0));
    a.on_key(code(KeyCode::PageDown));
    a.on_key(code(KeyCode::PageDown));
    // 13 lines of 9x9 boards, one blank line, 37 of candidates; 20 shown.
    assert_eq!(a.scroll, (31, 0));
    a.on_key(code(KeyCode::Home));
    assert_eq!(a.scroll, (0, 0));
    // On a larger terminal everything fits: no scrolling.
    a.resize(200, 60);
    a.on_key(code(KeyCode::PageDown));
    assert_eq!(a.scroll, (0, 0));
}

#[test]
fn highlight_styles() {
    let mut a = sudoku();
    press(&mut a, ".");
    // Step 1 fills solution row 1, column 2 with 4 and eliminates candidate 1 top left.
    let buf = render(&mut a, 200, 60);
    let (x, y) = find(&buf, "│2 4 . │").expect("solution row 1");
    let filled = &buf[(x + 3, y)];
    assert_eq!(filled.symbol(), "4");
    assert!(filled.modifier.contains(Modifier::BOLD | Modifier::REVERSED));
    let (x1, y1) = find(&buf, "│1 2 3 │").map(|(x, y)| (x + 1, y)).expect("candidates row 1");
    assert!(buf[(x1, y1)].modifier.contains(Modifier::DIM | Modifier::CROSSED_OUT));
    assert_eq!(buf[(x1 + 2, y1)].modifier, Modifier::empty(), "candidate 2 stays");
    a.color = true;
    let buf = render(&mut a, 200, 60);
    assert_eq!(buf[(x + 3, y)].fg, Color::Green);
    let (x1, y1) = find(&buf, "│1 2 3 │").map(|(x, y)| (x + 1, y)).expect("candidates row 1");
    assert_eq!(buf[(x1, y1)].symbol(), "1");
    assert_eq!(buf[(x1, y1)].fg, Color::Red);
    assert!(buf[(x1, y1)].modifier.contains(Modifier::DIM));
}

#[test]
fn the_history_keeps_history_cells_changes_and_drops_the_oldest_past_it() {
    // 2^16 one-cell cycles, each changing on every iteration: 16 steps
    // hold exactly HISTORY_CELLS changed cells, the 17th one step more.
    let per_step = 1usize << 16;
    assert_eq!(super::stepper::HISTORY_CELLS % per_step, 0);
    let steps = super::stepper::HISTORY_CELLS / per_step;
    let dir = std::env::temp_dir().join(format!("dataflow-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("counters.ron");
    let text = "Workbook(sheets: [\"Main\"], calc: (iterate: true, max_iterations: 1000, max_change: 0.001), \
                cells: { \"Main!A1:A65536\": \"=A1+1\" })";
    std::fs::write(&path, text).unwrap();
    let mut a = app(Options { workbook: path.clone(), ..Options::default() });
    for _ in 0..steps {
        a.forward();
    }
    assert_eq!(a.history_cells(), super::stepper::HISTORY_CELLS, "at the limit");
    assert_eq!((a.history_len(), a.current().number), (steps + 1, steps as u32), "nothing dropped yet");
    a.forward();
    // Past it: step 0 (no changes) and step 1 are dropped, 16 steps remain.
    assert_eq!(a.history_cells(), super::stepper::HISTORY_CELLS);
    assert_eq!(a.history_len(), steps);
    assert_eq!(a.current().number, steps as u32 + 1);
    let first = a.session().engine().program().cells()[0].addr;
    assert_eq!(*a.session().engine().get(first), dataflow::value::Value::Number(17.0));
    std::fs::remove_dir_all(&dir).ok();
}
