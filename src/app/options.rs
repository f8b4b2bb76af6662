//! What a calculation starts from, as plain data: the workbook, calculation
//! settings that override the workbook's, named inputs, `--set` cells and
//! whether the reset protocol runs, the inputs' alphabet for this run. Also the small parsers of what users
//! type: input lines given as symbols, `@FILE` or `@FILE:LINE`.

use dataflow::policy::Order;
use dataflow::value::date::Clock;
use std::path::PathBuf;

/// The options shared by every command that calculates.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub workbook: PathBuf,
    /// Overrides the workbook's maximum iterations.
    pub max_iter: Option<u32>,
    /// Overrides the workbook's maximum change.
    pub max_change: Option<f64>,
    /// Overrides the workbook's order of cells within an iteration.
    pub order: Option<Order>,
    /// `NAME=VALUE` named inputs (see [`input_line`]).
    pub inputs: Vec<String>,
    /// Overrides the alphabet of the workbook's inputs (`--alphabet`).
    pub alphabet: Option<String>,
    /// `CELL=VALUE` cells set after the reset protocol.
    pub sets: Vec<String>,
    /// Skip the reset protocol.
    pub no_reset: bool,
    /// The workbook's optional parts to turn on (`all`: every one).
    pub with: Vec<String>,
    /// What TODAY and NOW read instead of the system clock (`--now`).
    pub now: Option<Clock>,
}

/// Every non-blank line of a file with its 1-based line number.
pub fn input_line_file(path: &str) -> Result<Vec<(usize, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    Ok(text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l.to_string())).collect())
}

/// `SYMBOLS`, `@FILE` (its first line) or `@FILE:LINE` (1-based).
pub fn input_line(value: &str) -> Result<String, String> {
    let Some(spec) = value.strip_prefix('@') else { return Ok(value.to_string()) };
    let (path, line) = match spec.rsplit_once(':') {
        Some((p, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
            (p, n.parse::<usize>().map_err(|e| format!("line number `{n}`: {e}"))?)
        }
        _ => (spec, 1),
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    if line == 0 {
        return Err("line numbers start at 1".into());
    }
    text.lines()
        .nth(line - 1)
        .map(str::to_string)
        .ok_or_else(|| format!("`{path}` has {} lines; line {line} asked for", text.lines().count()))
}
