//! `step`: stepping through iterations one pass at a time, watching which
//! cells change. Interactively (ratatui + crossterm) the workbook's views are
//! drawn side by side or stacked, with the last step's changes highlighted;
//! with `--plain`, or when stdout is not a terminal, the same story is
//! written as text. The pieces: [`stepper`] holds the pure state (history of
//! every iteration and where it stands), [`keys`] the key map, [`cursor`]
//! the cell cursor and jumps, [`find`] the cell's status line and the
//! search, [`parts`] the toggling of the workbook's parts, [`explain`] the
//! panel saying why a cell changed, [`legend`] which
//! view caused a change, [`board`] turns one view into marked cells,
//! [`draw`] paints a [`Stepper`] into a ratatui frame ([`overlay`] the help
//! and parts boxes), [`term`] runs the terminal loop and [`plain`] writes
//! the text form.

pub mod board;
pub mod cursor;
pub mod draw;
pub mod explain;
pub mod find;
pub mod headers;
pub mod keys;
pub mod legend;
pub mod overlay;
pub mod parts;
pub mod plain;
pub mod stepper;
pub mod term;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cursor;
#[cfg(test)]
mod tests_explain;
#[cfg(test)]
mod tests_views;

pub use stepper::Stepper;

use crate::app::{Failure, Options, Shown, apply_sets, color_wanted, prepare, resolve_sets, resolve_views};
use explain::Origin;
use std::io::IsTerminal;

/// Runs `dataflow step`: the interactive view of `show` (views or ranges;
/// every view when empty), or the plain text story when `plain` is set or
/// stdout is not a terminal.
pub fn step(options: &Options, show: &[String], plain: bool) -> Result<(), Failure> {
    if plain || !std::io::stdout().is_terminal() {
        let mut out = std::io::stdout().lock();
        return plain::write_plain(options, show, &mut out);
    }
    let mut app = load(options, show)?;
    app.color = color_wanted(true);
    term::run(&mut app).map_err(|e| Failure::Usage(format!("the terminal failed: {e}")))
}

/// Builds the interactive state: the workbook prepared as `run` prepares
/// it (inputs, reset protocol, `--set`), shown as step 0; the session
/// before the reset protocol is kept as the explain panel's origin.
pub fn load(options: &Options, show: &[String]) -> Result<Stepper, Failure> {
    let mut prepared = prepare(&Options { no_reset: true, sets: Vec::new(), ..options.clone() })?;
    let origin = Origin { session: prepared.session.clone(), reset: !options.no_reset };
    if origin.reset {
        prepared.reset = prepared.session.reset().map_err(Failure::from)?;
    }
    apply_sets(&mut prepared.session, options)?;
    let views: Vec<Shown> = resolve_views(&prepared.session, show)?;
    let sets = resolve_sets(&prepared.session, &options.sets)?;
    let mut stepper = Stepper::new(prepared, origin, views, sets);
    (stepper.options, stepper.show) = (options.clone(), show.to_vec());
    Ok(stepper)
}
