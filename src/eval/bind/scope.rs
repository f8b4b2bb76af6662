//! What formulas are bound against and what binding reports: the
//! workbook's names ([`NameDef`]) with the sheets ([`Scope`], names looked
//! up in any case, loops of names found once), and the problems met
//! ([`Issue`]), each located in the cell's formula or in a name's
//! ([`Site`]).

use crate::address::CellAddr;
use crate::ast::{Expr, Span};
use crate::ids::NameId;
use crate::sheets::Sheets;
use std::sync::Arc;

/// A workbook name: its formula and the cell its relative references are relative to.
#[derive(Clone, Debug)]
pub struct NameDef {
    pub name: String,
    pub anchor: CellAddr,
    pub expr: Arc<Expr>,
}

/// Where a binding problem sits: in the cell's own formula or in a name's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Site {
    Formula,
    Name(NameId),
}

/// A problem found while binding, located by a span in its site's formula text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Issue {
    pub site: Site,
    pub span: Span,
    pub message: String,
}

/// How an unknown function's issue begins (see [`Issue::message_in`]).
pub(super) const UNKNOWN_FUNCTION: &str = "unknown function";
/// How an unknown name's issue begins (see [`Issue::unknown_name`]).
pub(super) const UNKNOWN_NAME: &str = "unknown name `";

impl Issue {
    /// The message for the formula `text` of the issue's site: an unknown
    /// function is named as written there, not as the parser upper-cased
    /// it (the issue's span is the call, which starts with the name).
    pub fn message_in(&self, text: &str) -> String {
        let written = text.get(self.span.clone()).and_then(|call| call.split('(').next()).map(str::trim_end);
        match written {
            Some(name) if self.message.starts_with(UNKNOWN_FUNCTION) && !name.is_empty() => {
                format!("{UNKNOWN_FUNCTION} `{name}`")
            }
            _ => self.message.clone(),
        }
    }

    /// The name, when the issue is an unknown name: the uses of one missing
    /// name are reported together.
    pub fn unknown_name(&self) -> Option<&str> {
        self.message.strip_prefix(UNKNOWN_NAME)?.strip_suffix('`')
    }
}

/// The sheets and names formulas are bound against.
#[derive(Clone, Debug)]
pub struct Scope {
    pub sheets: Sheets,
    pub names: Vec<NameDef>,
    /// Each name upper-cased, as bytes (hashed a word at a time).
    pub(super) by_name: rustc_hash::FxHashMap<Box<[u8]>, NameId>,
    /// For each name, the loop of names it is in, if any (by index into `loop_issues`).
    pub(super) in_loop: Vec<Option<usize>>,
    /// One issue per loop of names, found before binding.
    pub(super) loop_issues: Vec<Issue>,
    /// The workbook's tables, which structured references name.
    pub tables: Vec<crate::table::Table>,
}

impl Scope {
    pub fn new(sheets: Vec<String>, names: Vec<NameDef>) -> Self {
        let by_name =
            names.iter().enumerate().map(|(i, n)| (n.name.to_uppercase().into_bytes().into(), NameId::at(i))).collect();
        let mut scope = Scope {
            sheets: Sheets::from(sheets),
            names,
            by_name,
            in_loop: Vec::new(),
            loop_issues: Vec::new(),
            tables: Vec::new(),
        };
        (scope.in_loop, scope.loop_issues) = scope.name_loops();
        scope
    }

    /// The same scope with the workbook's tables.
    pub fn with_tables(mut self, tables: Vec<crate::table::Table>) -> Self {
        self.tables = tables;
        self
    }

    pub fn name_index(&self, name: &str) -> Option<NameId> {
        // A short ASCII name is upper-cased in place, without allocating.
        let mut buf = [0u8; 64];
        if name.is_ascii() && name.len() <= buf.len() {
            let upper = &mut buf[..name.len()];
            upper.copy_from_slice(name.as_bytes());
            upper.make_ascii_uppercase();
            return self.by_name.get(&*upper).copied();
        }
        self.by_name.get(name.to_uppercase().as_bytes()).copied()
    }
}
