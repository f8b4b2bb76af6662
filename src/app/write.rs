//! Writing the output without panicking: `println!` panics when stdout is
//! a pipe whose reader has gone (`dataflow run ... | head -3`). Results go
//! through [`print`], which turns a closed pipe into [`Failure::Closed`]
//! (a quiet exit 0, as `step --plain` has) and any other write error into a
//! usage failure; warnings and diagnostics go through [`warn`], which drops
//! what stderr cannot take (nobody is reading it, and a warning is not worth
//! failing a run). A file the user names for output (`--trace-file`) is
//! refused when it is one of the workbook's own files ([`refuse_own_file`]).

use super::Failure;
use dataflow::session::Session;
use std::io::{self, Write};
use std::path::Path;

/// Writes `text` to stdout as it is (no newline added) and flushes it.
pub fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(write_failure)
}

/// Writes `line` and a newline to stderr, ignoring errors.
pub fn warn(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// What a failed write of the output means: a closed pipe ends the
/// command quietly, anything else (a full disk) is reported.
pub fn write_failure(e: io::Error) -> Failure {
    match e.kind() {
        io::ErrorKind::BrokenPipe => Failure::Closed,
        _ => Failure::usage(format!("cannot write the output: {e}")),
    }
}

/// Writes the problems loading passed over (an Excel file's formulas that
/// do not parse, unknown functions and names: see
/// `Workbook::excel_errors`) to stderr as warnings: the first `shown` of
/// them, then how many more there are and where to see them all.
pub fn warn_passed_over(session: &Session, shown: usize) {
    let warnings = session.warnings();
    if warnings.is_empty() {
        return;
    }
    let color = super::color_wanted(std::io::IsTerminal::is_terminal(&io::stderr()));
    for d in warnings.iter().take(shown) {
        warn(d.render_warning(color).trim_end());
    }
    let count = dataflow::diagnostic::problem_count(warnings);
    if count > shown {
        warn(&format!(
            "warning: {} more problems loading passed over; `dataflow check` lists them all",
            count - shown.min(count)
        ));
    }
}

/// Refuses `path`, given with `option` for output, when it is the workbook
/// file or a formula file it includes: writing it would replace that file.
/// A file that does not exist yet is none of them.
pub fn refuse_own_file(session: &Session, option: &str, path: &Path) -> Result<(), Failure> {
    let Ok(target) = path.canonicalize() else { return Ok(()) };
    let sources = &session.workbook().sources;
    let Some(i) = sources.iter().position(|s| s.path.canonicalize().is_ok_and(|p| p == target)) else { return Ok(()) };
    let what = if i == 0 { "the workbook file" } else { "a formula file the workbook includes" };
    Err(Failure::usage(format!(
        "{option} `{}` is {what}: writing it would replace it; name another file",
        path.display()
    )))
}
