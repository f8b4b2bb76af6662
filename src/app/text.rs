//! The words every front end prints alike: plurals, the status line of a
//! recalculation (with or without its timing), the reset protocol's line,
//! and whether to colour (no-color.org: `NO_COLOR` set to anything
//! non-empty turns colours off).

use super::Shown;
use dataflow::engine::{PassInfo, Report};
use dataflow::render::render_view;
use dataflow::session::{ResetRun, Session};
pub use dataflow::words::plural;
use std::time::Duration;

/// `1 iteration`, `9 iterations`.
pub fn iterations(n: u32) -> String {
    plural(n, "iteration")
}

/// Colours for a stream that is a terminal, unless `NO_COLOR` is set to
/// something non-empty.
pub fn color_wanted(terminal: bool) -> bool {
    terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// `2 circular references left uncalculated (iteration is off)`.
fn uncalculated_text(n: usize) -> String {
    format!("{} left uncalculated (iteration is off)", plural(n as u64, "circular reference"))
}

fn converged_word(converged: bool) -> &'static str {
    if converged { "converged" } else { "not converged" }
}

/// `oscillates with period 2 after iteration 3`: the values of iteration
/// `iteration` repeat those of `period` iterations before.
pub fn oscillates_text(period: u32, iteration: u32) -> String {
    format!("oscillates with period {period} after iteration {iteration}")
}

/// What a recalculation came to, without timings: `converged after 9
/// iterations`, `no circular references`, `oscillates with period 2 after
/// iteration 3`, ...
pub fn outcome_text(report: &Report) -> String {
    if !report.circular.is_empty() {
        uncalculated_text(report.circular.len())
    } else if let Some(p) = report.period {
        oscillates_text(p, report.iterations)
    } else if !report.unsettled.is_empty() {
        format!("circular through a spill: {} unsettled", super::plural(report.unsettled.len() as u64, "cell"))
    } else if report.iterations == 0 {
        "no circular references".to_string()
    } else {
        format!("{} after {}", converged_word(report.converged), iterations(report.iterations))
    }
}

/// How one pass left the cycles: `converged`, `not converged`, or
/// `oscillates with period 2` (its values are those `p` iterations before).
pub fn pass_state(converged: bool, period: Option<u32>) -> String {
    match period {
        Some(p) => format!("oscillates with period {p}"),
        None => converged_word(converged).to_string(),
    }
}

/// What one pass came to: `converged; max change 0`; `uncalculated` is the
/// number of cycles left alone because iteration is off.
pub fn pass_text(pass: &PassInfo, uncalculated: usize) -> String {
    if uncalculated > 0 {
        uncalculated_text(uncalculated)
    } else if pass.iteration == 0 {
        "no circular references".to_string()
    } else {
        let change = dataflow::policy::change_text(pass.max_change);
        format!("{}; max change {change}", pass_state(pass.converged, pass.period))
    }
}

/// The one-line summary of a recalculation.
pub fn status(report: &Report, elapsed: Duration) -> String {
    format!(
        "{}; last max change {}; {} cells evaluated; {:.3} ms",
        outcome_text(report),
        dataflow::policy::change_text(report.max_change),
        report.evaluated,
        elapsed.as_secs_f64() * 1000.0
    )
}

/// `reset: Main!D27 <- reset, calculated (2 iterations), then Main!D27 <- solve`.
pub fn reset_text(s: &Session, r: &ResetRun) -> String {
    let p = s.engine().program();
    let cells = |list: &[(dataflow::address::CellAddr, dataflow::value::Value)]| {
        list.iter().map(|(c, v)| format!("{} <- {v}", p.cell_name(*c))).collect::<Vec<_>>().join(", ")
    };
    match &s.workbook().reset {
        Some(reset) => format!(
            "reset: {}, calculated ({}), then {}",
            cells(&reset.set),
            iterations(r.report.iterations),
            cells(&reset.then)
        ),
        None => "reset".to_string(),
    }
}

/// The text `run` prints: the reset line, every view, the status line.
pub fn run_text(s: &Session, views: &[Shown], reset: Option<&ResetRun>, report: &Report, elapsed: Duration) -> String {
    let mut out = String::new();
    if let Some(r) = reset {
        out += &reset_text(s, r);
        out.push('\n');
    }
    for v in views {
        out += &format!("{}:\n{}\n", v.key, render_view(s.engine().grid(), &v.area, &v.layout, &v.display));
    }
    out += &status(report, elapsed);
    out.push('\n');
    out
}
