//! The library's errors: what loading, editing and running a workbook can
//! return. Excel's own errors (`#DIV/0!`, `#NAME?`) are values in cells,
//! never these; these are for a caller that asked for something the
//! workbook cannot do. Both types work with `?` and print as the command
//! line prints them.
//!
//! - [`LoadError`]: a workbook (or an edit of one) has problems, each a
//!   [`Diagnostic`] with its file, line, column and, where there is one,
//!   its cell.
//! - [`Error`]: one failed request, by kind, with the message the command
//!   line shows; a load error is one of its kinds, so a program can use
//!   `?` on both.

use crate::diagnostic::Diagnostic;
use std::fmt;

/// Every problem a workbook file, its included formula files, or an edit
/// showed, each located; never empty.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    pub diagnostics: Vec<Diagnostic>,
}

impl LoadError {
    /// One problem with no place in a file (a file that cannot be read).
    pub fn message(m: impl Into<String>) -> LoadError {
        LoadError { diagnostics: vec![Diagnostic::new(m)] }
    }

    /// The diagnostics rendered as the command line shows them, in colour
    /// when `color`.
    pub fn render(&self, color: bool) -> String {
        self.diagnostics.iter().map(|d| d.render(color)).collect::<Vec<_>>().join("\n")
    }

    /// How many problems it reports (a capped list's notice counting what
    /// it stands for).
    pub fn problem_count(&self) -> usize {
        crate::diagnostic::problem_count(&self.diagnostics)
    }
}

/// A load error is its list of diagnostics: `e.len()`, `e[0].message`,
/// `for d in &e`.
impl std::ops::Deref for LoadError {
    type Target = [Diagnostic];
    fn deref(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

impl IntoIterator for LoadError {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.diagnostics.into_iter()
    }
}

impl<'e> IntoIterator for &'e LoadError {
    type Item = &'e Diagnostic;
    type IntoIter = std::slice::Iter<'e, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.diagnostics.iter()
    }
}

impl AsRef<[Diagnostic]> for LoadError {
    fn as_ref(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

impl From<Vec<Diagnostic>> for LoadError {
    fn from(diagnostics: Vec<Diagnostic>) -> LoadError {
        LoadError { diagnostics }
    }
}

impl From<Diagnostic> for LoadError {
    fn from(d: Diagnostic) -> LoadError {
        LoadError { diagnostics: vec![d] }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.render(false).trim_end())
    }
}

impl std::error::Error for LoadError {}

/// A request the workbook could not carry out, by kind; the message says
/// what and why, as the command line prints it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// The workbook, or the edit asked for, has located problems.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A cell that cannot take what was given: it holds a formula, it is
    /// part of an array formula's block, it lies beyond the stored grid.
    #[error("{0}")]
    Cell(String),
    /// Text that names no cell, range or sheet of the workbook.
    #[error("{0}")]
    Reference(String),
    /// A named input, an alphabet, or a line read through one.
    #[error("{0}")]
    Input(String),
    /// A saved state file that cannot be read, written or applied.
    #[error("{0}")]
    State(String),
    /// What an Excel or OpenDocument file cannot say (nothing was written).
    #[error("{}", .0.join("\n"))]
    Export(Vec<String>),
}

impl Error {
    /// The message without the kind: what the command line prints.
    pub fn message(&self) -> String {
        self.to_string()
    }
}
