//! Printing results: views as text grids with a status line, or one JSON
//! object (`iterations`, `converged`, `max_change`, `elapsed_ms`, `ranges`).

use crate::address::Area;
use crate::engine::Report;
use crate::render::{Layout, render_area};
use crate::session::{ResetRun, Session};
use crate::value::Value;
use crate::workbook::ViewDef;
use serde_json::{Map, json};
use std::io::IsTerminal;
use std::time::Duration;

/// One area to print, under the key the user gave.
pub struct Shown {
    pub key: String,
    pub area: Area,
    pub layout: Layout,
}

impl Shown {
    pub fn view(v: &ViewDef) -> Shown {
        Shown { key: v.name.clone(), area: v.area, layout: Layout { group: v.group, blank: v.blank.clone() } }
    }
}

pub fn color_stderr() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal()
}

/// `reset: Main!D27 <- reset, calculated (2 iterations), then Main!D27 <- solve`.
pub fn reset_text(s: &Session, r: &ResetRun) -> String {
    let p = s.engine.program();
    let cells = |list: &[(crate::address::CellAddr, Value)]| {
        list.iter().map(|(c, v)| format!("{} <- {v}", p.cell_name(*c))).collect::<Vec<_>>().join(", ")
    };
    match &s.workbook.reset {
        Some(reset) => format!(
            "reset: {}, calculated ({}), then {}",
            cells(&reset.set),
            iterations(r.report.iterations),
            cells(&reset.then)
        ),
        None => "reset".to_string(),
    }
}

/// `1 iteration`, `9 iterations`.
pub fn iterations(n: u32) -> String {
    format!("{n} iteration{}", if n == 1 { "" } else { "s" })
}

/// The one-line summary of a recalculation.
pub fn status(report: &Report, elapsed: Duration) -> String {
    let state = if !report.circular.is_empty() {
        let n = report.circular.len();
        format!("{n} circular reference{} left uncalculated (iteration is off)", if n == 1 { "" } else { "s" })
    } else if report.iterations == 0 {
        "no circular references".to_string()
    } else if report.converged {
        format!("converged after {}", iterations(report.iterations))
    } else {
        format!("not converged after {}", iterations(report.iterations))
    };
    format!(
        "{state}; last max change {}; {} cells evaluated; {:.3} ms",
        crate::calc::change_text(report.max_change),
        report.evaluated,
        elapsed.as_secs_f64() * 1000.0
    )
}

/// The text `run` prints: the reset line, every view, the status line.
pub fn text(s: &Session, views: &[Shown], reset: Option<&ResetRun>, report: &Report, elapsed: Duration) -> String {
    let mut out = String::new();
    if let Some(r) = reset {
        out += &reset_text(s, r);
        out.push('\n');
    }
    for v in views {
        out += &format!("{}:\n{}\n", v.key, render_area(s.engine.grid(), &v.area, &v.layout));
    }
    out += &status(report, elapsed);
    out.push('\n');
    out
}

/// A value as JSON: number, string, boolean, {"error": "#N/A"}, or null.
pub fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Empty => serde_json::Value::Null,
        Value::Number(n) => json!(n),
        Value::Text(t) => json!(t.as_ref()),
        Value::Bool(b) => json!(b),
        Value::Error(e) => json!({ "error": e.text() }),
        other => json!(other.to_string()),
    }
}

pub fn print_json(s: &Session, views: &[Shown], report: &Report, elapsed: Duration) {
    let mut ranges = Map::new();
    for v in views {
        let rows: Vec<serde_json::Value> =
            s.read(&v.area).iter().map(|row| serde_json::Value::Array(row.iter().map(value_json).collect())).collect();
        ranges.insert(v.key.clone(), serde_json::Value::Array(rows));
    }
    let out = json!({
        "iterations": report.iterations,
        "converged": report.converged,
        "max_change": if report.max_change.is_finite() { json!(report.max_change) } else { json!(null) },
        "elapsed_ms": elapsed.as_secs_f64() * 1000.0,
        "ranges": ranges,
    });
    println!("{out}");
}
