//! `step`: stepping through iterations one pass at a time, watching which
//! cells change. Interactively (ratatui + crossterm) the workbook's views are
//! drawn side by side or stacked, with the last step's changes highlighted;
//! with `--plain`, or when stdout is not a terminal, the same story is
//! written as text. The pieces: [`app`] holds the pure state (history of
//! every iteration, cursor, key handling), [`board`] turns one view into
//! marked cells, [`draw`] paints an [`App`] into a ratatui frame, [`term`]
//! runs the terminal loop and [`plain`] writes the text form.

pub mod app;
pub mod board;
pub mod draw;
pub mod plain;
pub mod term;

pub use app::App;

use crate::address::Area;
use crate::cli::output::Shown;
use crate::cli::{Failure, StepArgs, prepare};
use crate::session::Session;
use crate::value::Value;
use crate::workbook::parse_input_value;
use std::io::IsTerminal;

/// Runs `dataflow step`: the interactive view, or the plain text story when
/// `--plain` is given or stdout is not a terminal.
pub fn step(args: &StepArgs) -> Result<(), Failure> {
    if args.plain || !std::io::stdout().is_terminal() {
        let mut out = std::io::stdout().lock();
        return plain::write_plain(args, &mut out);
    }
    let mut app = load(args)?;
    app.color = color_wanted();
    term::run(&mut app).map_err(|e| Failure::Usage(format!("the terminal failed: {e}")))
}

/// Builds the interactive state for `args`: the workbook prepared as `run`
/// prepares it (inputs, reset protocol, `--set`), shown as step 0.
pub fn load(args: &StepArgs) -> Result<App, Failure> {
    let prepared = prepare(&args.common)?;
    let views = resolve_views(&prepared.session, &args.show)?;
    let sets = resolve_sets(&prepared.session, &args.common.sets)?;
    Ok(App::new(prepared, views, sets))
}

/// Colours unless `NO_COLOR` is set to something non-empty (no-color.org).
pub fn color_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Resolves `--show` keys as `run` does.
pub fn resolve_views(session: &Session, keys: &[String]) -> Result<Vec<Shown>, Failure> {
    crate::cli::run::shown(session, keys)
}

/// The `--set CELL=VALUE` cells, re-applied after every reset (`r`), as
/// `prepare` applies them after the reset protocol.
fn resolve_sets(session: &Session, sets: &[String]) -> Result<Vec<(Area, Value)>, Failure> {
    sets.iter()
        .map(|set| {
            let (cell, value) =
                set.split_once('=').ok_or_else(|| Failure::Usage(format!("--set `{set}`: expected CELL=VALUE")))?;
            let area = session.area(cell).map_err(|m| Failure::Usage(format!("--set `{set}`: {m}")))?;
            Ok((area, parse_input_value(value)))
        })
        .collect()
}
