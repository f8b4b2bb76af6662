//! `step --plain`: the stepping story as text, for logs and tests. First a
//! legend, then step 0 (the state after the reset protocol), then each
//! iteration until one converges or `max_iterations` (`--max-iter`) were
//! made. Each step is a `== step N: ...` header line, then every view as a
//! grid under a `VIEW: K/N non-blank` line (with what changed inside the
//! view), then the end: `== converged after N iterations` or
//! `== not converged after N iterations (max_iterations)`.
//!
//! The grids are `render_area`'s, with one character before every cell that
//! marks how the step changed it: a space when unchanged, `+v` when the cell
//! was blank and now shows `v`, `-v` when it showed `v` and is now blank (a
//! Sudoku candidate eliminated), `*v` for any other change (now `v`). So
//! each row starts with that mark column, and an unchanged grid is
//! `render_area`'s with one leading space. There are no timings.

use super::board::{Board, Counts, Mark, by_cell};
use super::resolve_views;
use crate::cli::output::Shown;
use crate::cli::output::{iterations, reset_text};
use crate::cli::{Failure, StepArgs, prepare};
use crate::engine::Report;
use crate::session::{ResetRun, Session};
use crate::trace::{Change, changes};
use std::io::{self, Write};

/// The legend printed first.
pub const LEGEND: &str = "marks before each cell: ' ' unchanged, '+v' got the value v, \
                          '-v' went blank (it showed v), '*v' other change (now v)";

/// Said when there is nothing to draw.
pub const NO_VIEWS: &str = "no views to show: the workbook defines none; use --show RANGE";

/// Prepares the workbook as `run` does and writes the whole story to `out`.
pub fn write_plain(args: &StepArgs, out: &mut impl Write) -> Result<(), Failure> {
    let prepared = prepare(&args.common)?;
    let views = resolve_views(&prepared.session, &args.show)?;
    match story(prepared.session, prepared.reset.as_ref(), &views, out) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::Usage(format!("cannot write: {e}"))),
        _ => Ok(()),
    }
}

/// Writes step 0 for `session` (after `reset`, when it ran), then steps it
/// until an iteration converges or `max_iterations` were made.
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
    write_views(&session, views, &[], out)?;
    let cap = session.engine.settings.max_iterations.max(1);
    for i in 1..=cap {
        let before = session.engine.clone();
        let report = session.step();
        let changed = changes(&before, &session.engine);
        let n = Counts::of(&changed);
        writeln!(
            out,
            "== step {i}: {}; {} cells evaluated; changed {}: {}",
            summary(&report),
            report.evaluated,
            n.total(),
            n.describe()
        )?;
        write_views(&session, views, &changed, out)?;
        if report.converged {
            return if report.iterations > 0 {
                writeln!(out, "== converged after {}", iterations(i))
            } else {
                writeln!(out, "== done after step {i}")
            };
        }
    }
    writeln!(out, "== not converged after {} (max_iterations)", iterations(cap))
}

/// What one step's report says, without timings.
fn summary(r: &Report) -> String {
    if !r.circular.is_empty() {
        let n = r.circular.len();
        format!("{n} circular reference{} left uncalculated (iteration is off)", if n == 1 { "" } else { "s" })
    } else if r.iterations == 0 {
        "no circular references".to_string()
    } else {
        let state = if r.converged { "converged" } else { "not converged" };
        format!("{state}; max change {}", crate::calc::change_text(r.max_change))
    }
}

fn write_views(s: &Session, views: &[Shown], changed: &[Change], out: &mut impl Write) -> io::Result<()> {
    let by = by_cell(changed);
    for v in views {
        let b = Board::new(s, v, &by, 0);
        let mut head = format!("{}: {}/{} non-blank", v.key, b.non_blank, b.size);
        if b.counts.total() > 0 {
            head.push_str(&format!("; changed: {}", b.counts.describe()));
        }
        writeln!(out, "{head}")?;
        write!(out, "{}", board_text(&b))?;
        writeln!(out)?;
    }
    Ok(())
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
    let mut out = String::new();
    let mut rule = String::new();
    for (i, row) in b.rows.iter().enumerate() {
        let mut line = String::new();
        for (j, cell) in row.iter().enumerate() {
            if Board::rule_before(j, b.group.1) {
                line.push_str(" |");
            }
            line.push(mark_char(cell.mark));
            line.push_str(&format!("{:>w$}", cell.text));
        }
        if rule.is_empty() {
            rule = line.chars().map(|ch| if ch == '|' { '+' } else { '-' }).collect();
        }
        if Board::rule_before(i, b.group.0) {
            out.push_str(&rule);
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
