//! `export WORKBOOK -o BOOK.xlsx|BOOK.ods`: the workbook, prepared and
//! calculated as `run` does (inputs, reset protocol, `--set`, then one
//! recalculation), written for Excel or LibreOffice with those values as
//! the file's cached results (`dataflow::export`). What the file cannot
//! say is an error (nothing is written) or a warning on stderr. An
//! existing file is kept unless `--force`.

use super::CommonArgs;
use crate::app::{Failure, prepare, print, warn};
use dataflow::export::{Format, export as write_book};
use std::path::Path;

pub fn export(common: &CommonArgs, out: &Path, force: bool) -> Result<(), Failure> {
    let format = Format::of(out).ok_or_else(|| {
        Failure::usage(format!("`{}`: export writes Excel (.xlsx) or OpenDocument (.ods) files", out.display()))
    })?;
    if !force && out.exists() {
        return Err(Failure::usage(format!("`{}` exists; --force overwrites it", out.display())));
    }
    let mut session = prepare(&common.options())?.session;
    let report = session.recalc();
    let written = write_book(&session, format).map_err(|problems| {
        Failure::usage(format!("cannot export `{}`:\n  {}", common.workbook.display(), problems.join("\n  ")))
    })?;
    for w in &written.warnings {
        warn(&format!("warning: {w}"));
    }
    std::fs::write(out, &written.bytes)
        .map_err(|e| Failure::usage(format!("cannot write `{}`: {e}", out.display())))?;
    let state = if report.converged { "converged" } else { "not converged" };
    print(&format!(
        "wrote {} ({} iterations, {state}; its cached values are these)\n",
        out.display(),
        report.iterations
    ))
}
