//! Additions: `name NAME += formula` in a formula file adds an argument to
//! the function call that is NAME's formula, wherever NAME is defined. This
//! is how an optional part contributes to a formula the base files own
//! without editing them: the base writes `name struck @ Main!P4 =
//! OR(FALSE)`, a strategy file writes `name struck += ISNUMBER(...)`, and
//! with the strategy on the name reads `OR(FALSE, struck.locked)`.
//!
//! Each addition becomes a name of its own, `NAME.FILE` (the file's stem,
//! `-` as `_`; two files of one stem cannot both add to NAME), entered from
//! NAME's anchor, so its relative references mean what they would in NAME,
//! its problems are placed in its own file, and `explain`, `dataflow names`
//! and the exported workbook show it. NAME's formula text stays as written. The arguments are added in
//! the order the files are read (the workbook's includes, then each part
//! that is on, by rank: see `parts`). NAME must be defined by some file
//! (or the workbook) and its formula must be a call; the function's
//! argument count is checked when the formula is bound, as any call's.

use crate::ast::{Expr, ExprKind, Span};
use crate::diagnostic::{Diagnostic, Source};
use crate::workbook::builder::Builder;
use crate::workbook::model::{Formula, Name};
use std::sync::Arc;

/// One `name NAME += formula` entry, read and parsed.
pub(crate) struct Addition {
    /// The name added to, as written.
    pub to: String,
    pub formula: Formula,
    pub comment: Option<String>,
    pub file: Arc<Source>,
    /// Where NAME is written in the entry.
    pub span: Span,
}

/// The name an addition from `file` to `to` is defined as.
fn own_name(to: &str, file: &Source) -> String {
    let stem = file.path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().replace('-', "_"));
    format!("{to}.{stem}")
}

/// Adds every addition, in order, to the formula of the name it names.
pub(crate) fn resolve(b: &mut Builder, additions: Vec<Addition>) {
    for a in additions {
        let to = a.to.to_lowercase();
        let Some(i) = b.names.iter().position(|n| n.name.to_lowercase() == to) else {
            let m = format!("`+=` adds to the name `{}`, which no file defines", a.to);
            b.error(&a.file, a.span, m, "not defined");
            continue;
        };
        let base = &b.names[i];
        let ExprKind::Call { name, .. } = &base.formula.expr.kind else {
            let m = format!("`+=` adds to `{}`, whose formula is not a function call", base.name);
            b.diags.push(
                Diagnostic::at(&a.file, a.span, m, "adds an argument here").with_note(
                    "an addition becomes an argument of the call that is the name's formula, e.g. `OR(FALSE)`",
                ),
            );
            continue;
        };
        if name.is_empty() {
            let m = format!("`+=` adds to `{}`, whose formula calls a LAMBDA", base.name);
            b.error(&a.file, a.span, m, "adds an argument here");
            continue;
        }
        let own = own_name(&base.name, &a.file);
        let anchor = base.anchor;
        if let Some(first) = b.defined_at(&own) {
            let m = format!("the addition to `{}` is named `{own}`, which is already defined", base.name);
            let note = format!("`{own}` is defined at {first}; a file adds to a name at most once");
            b.diags.push(Diagnostic::at(&a.file, a.span, m, "adds here").with_note(note));
            continue;
        }
        let def = Name { name: own.clone(), anchor, formula: a.formula, comment: a.comment };
        b.add_name(&a.file, a.span, Some(def), &own);
        // Not added when `NAME.FILE` is no valid name (a file called `x wing.dfl`).
        if b.defined_at(&own).is_some() {
            append(&mut b.names[i].formula, &own);
        }
    }
}

/// Appends `name` as the last argument of the call that is `f`'s formula.
/// The text stays as written, so every span still maps into the file; the
/// new argument's span is the closing parenthesis, where a problem with
/// the call's arguments is shown (`dataflow names` lists the additions).
fn append(f: &mut Formula, name: &str) {
    let end = f.expr.span.end;
    let paren = end.saturating_sub(1)..end;
    if let ExprKind::Call { args, .. } = &mut std::sync::Arc::make_mut(&mut f.expr).kind {
        args.push(Expr::new(ExprKind::Name(name.to_string()), paren));
    }
}
