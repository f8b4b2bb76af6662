//! `export WORKBOOK -o BOOK.xlsx|BOOK.ods`: the workbook, prepared and
//! calculated as `run` does (inputs, reset protocol, `--set`, then one
//! recalculation), written for Excel or LibreOffice with those values as
//! the file's cached results (`dataflow::export`). What the file cannot
//! say is an error (nothing is written) or a warning on stderr. An
//! existing file is kept unless `--force`, and the workbook's own files
//! (the workbook, the formula files it includes) are never replaced, not
//! even with `--force`; the file is written whole or not at all (a
//! temporary file renamed over it).

use super::CommonArgs;
use crate::app::{Failure, prepare, print, refuse_own_file, warn};
use dataflow::export::{Format, export as write_book};
use dataflow::state::replace_file;
use std::path::Path;

pub fn export(common: &CommonArgs, out: &Path, force: bool) -> Result<(), Failure> {
    let format = Format::of(out).ok_or_else(|| {
        Failure::usage(format!("`{}`: export writes Excel (.xlsx) or OpenDocument (.ods) files", out.display()))
    })?;
    // Without --force the file is claimed before the (maybe long)
    // calculation, so nothing that appears meanwhile is overwritten; the
    // claim is given back if the export fails.
    if !force {
        std::fs::OpenOptions::new().write(true).create_new(true).open(out).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                Failure::usage(format!("`{}` exists; --force overwrites it", out.display()))
            }
            _ => Failure::usage(format!("cannot write `{}`: {e}", out.display())),
        })?;
    }
    let result = calculate_and_write(common, out, format);
    if result.is_err() && !force {
        let _ = std::fs::remove_file(out);
    }
    result
}

/// Prepares, calculates and writes the file whole (see [`replace_file`]).
fn calculate_and_write(common: &CommonArgs, out: &Path, format: Format) -> Result<(), Failure> {
    let mut session = prepare(&common.options())?.session;
    // Checked with --force too: replacing the workbook (an xlsx exported
    // over itself) or a formula file it includes would lose every part of
    // it that dataflow does not read.
    refuse_own_file(&session, "-o", out)?;
    let report = session.recalc();
    let written = write_book(&session, format).map_err(|e| {
        let problems = match e {
            dataflow::Error::Export(problems) => problems,
            e => vec![e.to_string()],
        };
        Failure::usage(format!("cannot export `{}`:\n  {}", common.workbook.display(), problems.join("\n  ")))
    })?;
    for w in &written.warnings {
        warn(&format!("warning: {w}"));
    }
    replace_file(out, &written.bytes).map_err(|e| Failure::usage(format!("cannot write `{}`: {e}", out.display())))?;
    let state = if report.converged { "converged" } else { "not converged" };
    print(&format!(
        "wrote {} ({} iterations, {state}; its cached values are these)\n",
        out.display(),
        report.iterations
    ))
}
