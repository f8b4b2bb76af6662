//! `step --plain`: the stepping story as text, for logs and tests. First a
//! legend, then step 0 (the state after the reset protocol), then each
//! iteration until one converges or `max_iterations` (`--max-iter`) were
//! made. Each step is a `== step N: ...` header line, then every view as a
//! grid under a `VIEW: K/N non-blank` line (with what changed inside the
//! view), then the end: `== converged after N iterations`,
//! `== oscillates with period P after iteration N` or
//! `== not converged after N iterations (max_iterations)`.
//!
//! The grids are `render_area`'s, with one character before every cell that
//! marks how the step changed it: a space when unchanged, `+v` when the cell
//! was blank and now shows `v`, `-v` when it showed `v` and is now blank (a
//! Sudoku candidate eliminated), `*v` for any other change (now `v`). So
//! each row starts with that mark column, and an unchanged grid is
//! `render_area`'s with one leading space. A cell of a region the view's
//! region map marks is `[v]` (the mark before the bracket). A compact
//! cell shows its group's symbols now; its mark is that of its changed
//! cells when they all changed alike (`-137`: candidates eliminated, 137
//! left), `*` when they changed in different ways. Under the grid of a
//! view with a reason area, a `why CELL: text` line for each cell the step
//! gave a value to whose reason cell holds a text (at most
//! [`MAX_REASON_LINES`]). There are no timings.

use super::board::{Board, Counts, Mark, by_cell};
use crate::app::{Failure, Options, Shown, iterations, oscillates_text, pass_text, prepare, reset_text, resolve_views};
use dataflow::engine::{Change, Delta, EachPass, Engine, Flow, PassInfo};
use dataflow::render::{push_marked, ruled};
use dataflow::session::{ResetRun, Session};
use dataflow::value::Value;
use std::io::{self, Write};

/// The most reason lines a view lists in a step.
pub const MAX_REASON_LINES: usize = 12;

/// The legend printed first.
pub const LEGEND: &str = "marks before each cell: ' ' unchanged, '+v' got the value v, \
                          '-v' went blank (it showed v), '*v' other change (now v)";

/// Said when there is nothing to draw.
pub const NO_VIEWS: &str = "no views to show: the workbook defines none; use --show RANGE";

/// Prepares the workbook as `run` does and writes the whole story to `out`.
pub fn write_plain(options: &Options, show: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let prepared = prepare(options)?;
    let views = resolve_views(&prepared.session, show)?;
    match story(prepared.session, prepared.reset.as_ref(), &views, out) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::Usage(format!("cannot write: {e}"))),
        _ => Ok(()),
    }
}

/// Writes step 0 for `session` (after `reset`, when it ran), then one step
/// per pass of its recalculation, until it converges, oscillates or
/// `max_iterations` passes were made.
pub fn story(mut session: Session, reset: Option<&ResetRun>, views: &[Shown], out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "{LEGEND}")?;
    if views.is_empty() {
        writeln!(out, "{NO_VIEWS}")?;
    }
    let start = match reset {
        Some(r) => reset_text(&session, r),
        None => "start (no reset protocol run)".to_string(),
    };
    writeln!(out, "== step 0: {start}")?;
    write_views(session.engine(), views, &[], out)?;
    let uncalculated = if session.engine().settings.iterate { 0 } else { session.engine().program().cycles().count() };
    let mut written = Ok(());
    let mut steps = 0;
    let report = {
        let engine = session.engine_mut();
        let mut each = EachPass::new(engine, |engine: &Engine, pass: &PassInfo, delta: Delta| {
            steps = pass.pass;
            let n = Counts::of(&delta.changes);
            written = writeln!(
                out,
                "== step {}: {}; {} cells evaluated; changed {}: {}",
                pass.pass,
                pass_text(pass, uncalculated),
                pass.evaluated,
                n.total(),
                n.describe()
            )
            .and_then(|_| write_views(engine, views, &delta.changes, out));
            if written.is_ok() { Flow::Continue } else { Flow::Stop }
        });
        engine.recalc_with(&mut each)
    };
    written?;
    if let Some(p) = report.period {
        writeln!(out, "== {}", oscillates_text(p, report.iterations))
    } else if !report.converged {
        writeln!(out, "== not converged after {} (max_iterations)", iterations(report.iterations))
    } else if report.iterations > 0 {
        writeln!(out, "== converged after {}", iterations(report.iterations))
    } else {
        writeln!(out, "== done after step {steps}")
    }
}

fn write_views(engine: &Engine, views: &[Shown], changed: &[Change], out: &mut impl Write) -> io::Result<()> {
    let by = by_cell(changed);
    for v in views {
        let b = Board::new(engine, v, &by, 0);
        let mut head = format!("{}: {}/{} non-blank", v.key, b.non_blank, b.size);
        if b.counts.total() > 0 {
            head.push_str(&format!("; changed: {}", b.counts.describe()));
        }
        writeln!(out, "{head}")?;
        write!(out, "{}", board_text(&b))?;
        for line in reasons(engine, v, changed) {
            writeln!(out, "  {line}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The reason lines of a view with a reason area: `why Main!AB40: X-Wing
/// ...` for each of its cells the step gave a value to whose reason cell
/// holds a text, in calculation order, at most [`MAX_REASON_LINES`].
fn reasons(engine: &Engine, v: &Shown, changed: &[Change]) -> Vec<String> {
    if v.reasons.is_none() {
        return Vec::new();
    }
    let p = engine.program();
    let mut lines: Vec<String> = changed
        .iter()
        .filter(|c| !c.new.is_blank())
        .filter_map(|c| match engine.get(v.reason_cell(c.cell)?) {
            Value::Text(t) if !t.trim().is_empty() => Some(format!("why {}: {t}", p.cell_name(c.cell))),
            _ => None,
        })
        .collect();
    if lines.len() > MAX_REASON_LINES {
        let more = lines.len() - MAX_REASON_LINES;
        lines.truncate(MAX_REASON_LINES);
        lines.push(format!("and {more} more"));
    }
    lines
}

/// The mark character before a cell.
pub fn mark_char(m: Mark) -> char {
    match m {
        Mark::Same => ' ',
        Mark::Filled => '+',
        Mark::Blanked => '-',
        Mark::Changed => '*',
    }
}

/// A board as text: `render_area`'s grid with a mark before every cell.
pub fn board_text(b: &Board) -> String {
    let w = b.width;
    let mut lines = Vec::new();
    for row in &b.rows {
        let mut line = String::new();
        for (j, cell) in row.iter().enumerate() {
            if Board::rule_before(j, b.group.1) {
                line.push_str(" |");
            }
            line.push(mark_char(cell.mark));
            push_marked(&mut line, &format!("{:>w$}", cell.text), b.regions, cell.region);
        }
        lines.push(line);
    }
    ruled(&lines, b.group.0)
}
