//! Preparing a session as every command that calculates does: load the
//! workbook, apply the calculation settings, fill the named inputs, run the
//! reset protocol (unless told not to), then set the `--set` cells.

use super::{Failure, Options, input_line};
use dataflow::address::{Area, CellAddr};
use dataflow::grid::MAX_GRID_CELLS;
use dataflow::session::{ResetRun, Session};
use dataflow::value::Value;
use dataflow::workbook::parse_input_value;

/// How many of the problems loading passed over a calculating command
/// shows (`check` shows them all).
pub const PASSED_OVER_SHOWN: usize = 3;

/// A session with inputs filled and the reset protocol applied, ready to iterate.
pub struct Prepared {
    pub session: Session,
    pub reset: Option<ResetRun>,
}

/// Loads the workbook and applies the settings, inputs, reset protocol
/// (unless `no_reset`) and `--set` cells, in that order.
pub fn prepare(options: &Options) -> Result<Prepared, Failure> {
    let session = load(&options.workbook, &options.with)?;
    super::warn_passed_over(&session, PASSED_OVER_SHOWN);
    prepare_loaded(session, options)
}

/// [`prepare`] for a workbook already loaded (with `options.with`'s parts).
pub fn prepare_loaded(mut session: Session, options: &Options) -> Result<Prepared, Failure> {
    apply_settings(&mut session, options)?;
    for input in &options.inputs {
        let (name, value) =
            input.split_once('=').ok_or_else(|| Failure::usage(format!("--input `{input}`: expected NAME=VALUE")))?;
        let line = input_line(value).map_err(Failure::from)?;
        session.set_input(name, &line).map_err(Failure::from)?;
    }
    let reset = if options.no_reset { None } else { session.reset().map_err(Failure::from)? };
    apply_sets(&mut session, options)?;
    Ok(Prepared { session, reset })
}

/// Loads the workbook with the parts named in `with` turned on; a name
/// that is not one of its parts is a usage error that lists them.
pub fn load(path: &std::path::Path, with: &[String]) -> Result<Session, Failure> {
    known_parts(Session::load_with(path, with).map_err(Failure::from)?, path, with)
}

/// [`load`] for checking the workbook only (see [`Session::load_checking`]).
pub fn load_checking(path: &std::path::Path, with: &[String]) -> Result<Session, Failure> {
    known_parts(Session::load_checking(path, with).map_err(Failure::from)?, path, with)
}

/// `session`, unless `with` names a part its workbook does not have.
fn known_parts(session: Session, path: &std::path::Path, with: &[String]) -> Result<Session, Failure> {
    let unknown = session.workbook().unknown_parts(with);
    if let Some(first) = unknown.first() {
        let parts: Vec<&str> = session.workbook().parts.iter().map(|p| p.name.as_str()).collect();
        let known = if parts.is_empty() {
            "the workbook declares no parts".to_string()
        } else {
            format!("its parts: {}, or `all`", parts.join(", "))
        };
        return Err(Failure::usage(format!(
            "--with `{first}`: `{}` has no part of that name ({known})",
            path.display()
        )));
    }
    Ok(session)
}

/// Sets the `--set` cells. An area the grid cannot hold is refused before
/// its first cell: its size, then its far corner (set first) are checked.
pub fn apply_sets(session: &mut Session, options: &Options) -> Result<(), Failure> {
    let sets = resolve_sets(session, &options.sets)?;
    for (text, (area, v)) in options.sets.iter().zip(sets) {
        let fail = |m: String| Failure::usage(format!("--set `{text}`: {m}"));
        let failed = |e: dataflow::Error| fail(e.to_string());
        if area.size() > MAX_GRID_CELLS {
            return Err(fail(format!(
                "the area has {} cells; a workbook stores at most {MAX_GRID_CELLS}",
                area.size()
            )));
        }
        let corner = CellAddr::new(area.sheet, area.r1, area.c1);
        std::iter::once(corner).chain(area.cells()).try_for_each(|c| session.set(c, v.clone())).map_err(failed)?;
    }
    Ok(())
}

/// `CELL=VALUE` (`CELL` may be a range): the area and the value typed.
/// The value is a constant; `CELL==1+1` is refused rather than stored as
/// the text `=1+1`, which a leading `'` asks for (`CELL='=1+1`).
pub fn assignment(session: &Session, text: &str) -> Result<(Area, Value), String> {
    let (cell, value) = text.split_once('=').ok_or("expected CELL=VALUE")?;
    if value.starts_with('=') {
        return Err(format!(
            "--set takes constants, not formulas; for the text `{value}`, write a leading ' as in a workbook: {cell}='{value}"
        ));
    }
    Ok((session.area(cell).map_err(|e| e.to_string())?, parse_input_value(value)))
}

/// The workbook name `--order-strategies` sets (a cell the strategy parts'
/// formulas read: docs/strategies.md, "Taking turns").
pub const STRATEGIES_ORDER: &str = "strategies_order";

/// Resolves `--set CELL=VALUE` options (applied after every reset).
pub fn resolve_sets(session: &Session, sets: &[String]) -> Result<Vec<(Area, Value)>, Failure> {
    let failure = |set: &String, m: String| match set.strip_prefix(STRATEGIES_ORDER).and_then(|v| v.strip_prefix('=')) {
        Some(order) if session.area(STRATEGIES_ORDER).is_err() => Failure::usage(format!(
            "--order-strategies {order}: the workbook has no cell named `{STRATEGIES_ORDER}` (it has no strategy parts, or none is on)"
        )),
        _ => Failure::usage(format!("--set `{set}`: {m}")),
    };
    sets.iter().map(|set| assignment(session, set).map_err(|m| failure(set, m))).collect()
}

/// Applies the settings that override the workbook's: maximum iterations,
/// maximum change, order, the inputs' alphabet, and the clock TODAY and
/// NOW read.
pub fn apply_settings(session: &mut Session, options: &Options) -> Result<(), Failure> {
    if let Some(a) = &options.alphabet {
        session.set_alphabet(a).map_err(|m| Failure::usage(format!("--alphabet `{a}`: {m}")))?;
    }
    let s = session.settings_mut();
    if let Some(n) = options.max_iter {
        *s = s.with_max_iterations(n).map_err(|e| Failure::usage(format!("--max-iter {e}, got {n}")))?;
    }
    if let Some(x) = options.max_change {
        *s = s.with_max_change(x).map_err(|e| Failure::usage(format!("--max-change {e}, got {x}")))?;
    }
    if let Some(o) = options.order {
        s.order = o;
    }
    if let Some(c) = options.now {
        s.clock = c;
    }
    Ok(())
}
