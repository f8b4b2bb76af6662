//! Error values left in views after a run. A strategy board whose formula
//! file is broken fills with `#VALUE!`, `#REF!` or `#N/A`, yet the run
//! ends as any stalled puzzle does (`Give UP`): nothing else would say so.
//! After a run, `run`, `check --run` and `watch` warn once per view (the
//! workbook's own and those of the parts that are on) holding error
//! values, naming the view, how many cells hold one, and the first of them
//! in row-major order with its error; `batch` counts the puzzles per view
//! and names them per puzzle. The wording is here, for all of them.

use super::plural;
use dataflow::session::{AreaErrors, Session};

/// A view holding error values after a run.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewErrors {
    pub view: String,
    pub errors: AreaErrors,
}

/// Every view of the workbook holding error values, in the workbook's
/// order of views.
pub fn view_errors(session: &Session) -> Vec<ViewErrors> {
    let views = &session.workbook().views;
    views
        .iter()
        .filter_map(|v| Some(ViewErrors { view: v.name.clone(), errors: session.errors_in(&v.area)? }))
        .collect()
}

/// `view `locked` holds 729 error values; first Main!P34: #VALUE!`.
fn view_errors_text(session: &Session, view: &str, e: &AreaErrors) -> String {
    format!(
        "view `{view}` holds {}; first {}: {}",
        plural(e.count, "error value"),
        session.engine().program().cell_name(e.first),
        e.error.text()
    )
}

/// One `warning: ...` line per view holding error values, each ended by a
/// newline (empty when none does).
pub fn view_errors_warnings(session: &Session) -> String {
    view_errors(session)
        .iter()
        .map(|v| format!("warning: {}\n", view_errors_text(session, &v.view, &v.errors)))
        .collect()
}

/// Writes [`view_errors_warnings`] to stderr.
pub fn warn_view_errors(session: &Session) {
    let text = view_errors_warnings(session);
    if !text.is_empty() {
        super::warn(text.trim_end());
    }
}
