//! The application layer under the front ends: what `run`, `step`, `eval`,
//! `batch` and `watch` share, free of clap and of any terminal. It owns the
//! [`Options`] a calculation starts from, preparing a session from them
//! ([`prepare`]: load, settings, inputs, reset protocol, `--set`),
//! resolving views and ranges to show, parsing `CELL=VALUE` assignments,
//! the status lines and plurals every front end prints, the warning for
//! views left holding error values, and writing them
//! without panicking on a closed pipe. `cli` turns its arguments into these
//! types; `tui` uses them and never `cli`.

mod errors;
mod explain_text;
mod options;
mod prepare;
mod text;
mod views;
mod write;

pub use errors::{view_errors, view_errors_warnings, warn_view_errors};
pub use explain_text::{causes_text, change_text, history_outcome, reasons_text};
pub use options::{Options, input_line, input_line_file};
pub use prepare::{
    PASSED_OVER_SHOWN, Prepared, STRATEGIES_ORDER, apply_sets, apply_settings, load, load_checking, prepare,
    prepare_loaded, resolve_sets,
};
pub use text::{color_wanted, iterations, oscillates_text, pass_state, pass_text, plural, reset_text, run_text};
pub use views::{Shown, resolve_area, resolve_key, resolve_views};
pub use write::{print, refuse_own_file, warn, warn_passed_over, write_failure};

/// Why a command failed: problems in the workbook (exit 1), in what the
/// user asked for (exit 2), or a reader that closed stdout early (`| head`:
/// nothing more to write, a quiet exit 0).
#[derive(Debug)]
pub enum Failure {
    Workbook(Vec<dataflow::diagnostic::Diagnostic>),
    Usage(String),
    Closed,
    /// The command ran but some of what it ran failed (`batch` records
    /// with errors): exit 1 after the output, with this message.
    Partial(String),
}

/// A workbook's located problems: exit 1.
impl From<dataflow::LoadError> for Failure {
    fn from(e: dataflow::LoadError) -> Failure {
        Failure::Workbook(e.diagnostics)
    }
}

/// A failed request: the workbook's problems (exit 1) or the user's (exit 2).
impl From<dataflow::Error> for Failure {
    fn from(e: dataflow::Error) -> Failure {
        match e {
            dataflow::Error::Load(e) => e.into(),
            e => Failure::Usage(e.to_string()),
        }
    }
}

impl From<String> for Failure {
    fn from(m: String) -> Failure {
        Failure::Usage(m)
    }
}

impl Failure {
    /// A usage problem, for `map_err`.
    pub fn usage(m: impl Into<String>) -> Failure {
        Failure::Usage(m.into())
    }
}
