//! `run --format json`: one JSON object (`iterations`, `converged`,
//! `max_change`, `elapsed_ms`, `ranges`, and `period` when the cycles
//! oscillate); `run --format csv`: the ranges' values as CSV. The text
//! output is [`crate::app::run_text`].

use crate::app::Shown;
use dataflow::engine::Report;
use dataflow::session::Session;
use dataflow::value::Value;
use serde_json::{Map, json};
use std::time::Duration;

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

/// `run --format json`'s output: one line.
pub fn json_output(s: &Session, views: &[Shown], report: &Report, elapsed: Duration) -> String {
    let mut ranges = Map::new();
    for v in views {
        let rows: Vec<serde_json::Value> =
            s.read(&v.area).iter().map(|row| serde_json::Value::Array(row.iter().map(value_json).collect())).collect();
        ranges.insert(v.key.clone(), serde_json::Value::Array(rows));
    }
    let mut out = json!({
        "iterations": report.iterations,
        "converged": report.converged,
        "max_change": if report.max_change.is_finite() { json!(report.max_change) } else { json!(null) },
        "elapsed_ms": elapsed.as_secs_f64() * 1000.0,
        "ranges": ranges,
    });
    if let Some(p) = report.period {
        out["period"] = json!(p);
    }
    format!("{out}\n")
}

/// `run --format csv`'s output: each range's rows as CSV lines (RFC 4180 quoting) (a
/// value as its cell shows it in the general format, an empty cell as
/// nothing, text quoted when it holds `,`, `"` or a line break), with a
/// `# RANGE` line before each range when there are several.
pub fn csv_output(s: &Session, views: &[Shown]) -> String {
    let mut out = String::new();
    for v in views {
        if views.len() > 1 {
            out += &format!("# {}\n", v.key);
        }
        for row in s.read(&v.area) {
            let fields: Vec<String> = row.iter().map(csv_field).collect();
            out += &fields.join(",");
            out.push('\n');
        }
    }
    out
}

fn csv_field(v: &Value) -> String {
    match v {
        Value::Empty => String::new(),
        v => csv_text(&v.to_string()),
    }
}

/// A CSV field (RFC 4180): quoted when it holds `,`, `"` or a line break.
pub fn csv_text(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}
