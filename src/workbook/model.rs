//! The loaded workbook: sheets, calculation settings, cell contents (in file
//! order), workbook names with their anchors, the input and view areas the
//! CLI uses, the reset protocol, and the source files everything came from.
//! Every formula keeps its parsed tree, its text and where that text sits in
//! its file, so later stages (binding, evaluation) can report problems at
//! the right line and column with [`Formula::diagnostic`].

use crate::address::{Area, CellAddr};
use crate::ast::{Expr, Span};
use crate::diagnostic::{Diagnostic, Source};
use crate::sheets::Sheets;
use crate::table::Table;
use crate::value::Value;
use std::sync::Arc;

pub use super::view::{Display, MAX_SHOWN_CELLS, NumberFormat, ViewDef};
pub use crate::policy::{CalcSettings, DEFAULT_MAX_CHANGE, DEFAULT_MAX_ITERATIONS, Order};

#[derive(Clone, Debug, PartialEq)]
pub struct Workbook {
    pub sheets: Sheets,
    pub calc: CalcSettings,
    /// Constants, formulas and range formulas: the workbook file's own
    /// `cells` first, then each included file's `cells` entries, in order.
    pub cells: Vec<CellEntry>,
    /// The workbook file's `names` first, then the included files' names.
    pub names: Vec<Name>,
    pub inputs: Vec<InputDef>,
    pub views: Vec<ViewDef>,
    pub reset: Option<ResetProtocol>,
    /// The workbook file first, then every included file.
    pub sources: Vec<Arc<Source>>,
    /// The optional parts the workbook declares, in file order.
    pub parts: Vec<Part>,
    /// Values formula cells start from instead of "never calculated": the
    /// cached results of an Excel workbook, so a recalculation iterates
    /// from them as Excel's F9 does. Empty for a RON workbook.
    pub start: Vec<(CellAddr, Value)>,
    /// Excel's way with problems (an Excel file's, or a RON workbook's
    /// that asks for it with `excel_errors: true`): a formula that does not
    /// parse, an unknown function or name, a name defined twice do not
    /// refuse the workbook; the cell shows `#NAME?` (or the error Excel
    /// shows) and the problem is listed in `warnings`. Otherwise each is
    /// a located error.
    pub excel_errors: bool,
    /// Whether one-cell formulas are entered as dynamic-array formulas
    /// (a RON workbook's `dynamic_arrays: true`, or an xlsx holding any):
    /// an edit typing `=...` into one cell enters one.
    pub dynamic_arrays: bool,
    /// The problems loading passed over (`excel_errors`), located.
    pub warnings: Vec<Diagnostic>,
    /// Excel tables, which structured references (`Sales[Qty]`) name.
    pub tables: Vec<Table>,
    /// The workbook file and formula files an exported xlsx or ods carries
    /// for the parts that were off when it was written, so that `--with`
    /// still turns them on (`bundle.rs`); `None` for a RON workbook.
    pub bundle: Option<Arc<Bundle>>,
}

/// A workbook's source files, carried inside an exported file: `root` is
/// the workbook file, `files` every file with its text, each by its path
/// relative to the folder holding them all.
#[derive(Clone, Debug, PartialEq)]
pub struct Bundle {
    pub root: String,
    pub files: Vec<(String, String)>,
}

/// An optional part of a workbook (formula files and views turned on by
/// name, `--with NAME`), as the workbook file declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub name: String,
    /// One line saying what the part adds.
    pub about: String,
    /// Whether it was turned on when the workbook was loaded.
    pub on: bool,
    /// Its place among the parts: the files of the parts that are on are
    /// read by rank (then as declared), which orders what they add to a
    /// name (`+=`) and their places on a shelf.
    pub rank: Option<u32>,
}

impl Workbook {
    /// A workbook name, matched case-insensitively (as Excel does).
    pub fn name(&self, name: &str) -> Option<&Name> {
        self.names.iter().find(|n| n.name.eq_ignore_ascii_case(name))
    }
    pub fn input(&self, name: &str) -> Option<&InputDef> {
        self.inputs.iter().find(|n| n.name.eq_ignore_ascii_case(name))
    }
    pub fn view(&self, name: &str) -> Option<&ViewDef> {
        self.views.iter().find(|n| n.name.eq_ignore_ascii_case(name))
    }
}

/// What one cell, or every cell of a range, holds.
#[derive(Clone, Debug, PartialEq)]
pub struct CellEntry {
    /// A single cell, or a range filled with the same content (a formula
    /// over a range is entered as with Ctrl+Enter: relative references
    /// shift from the top-left cell).
    pub area: Area,
    pub content: Content,
    /// The cell a formula's relative references are relative to: the
    /// area's top-left cell as read from a file; elsewhere only in a piece
    /// of a range formula that an edit cut around the cells it changed
    /// (see `edit.rs`), which keeps the anchor of the whole range.
    pub anchor: CellAddr,
}

impl CellEntry {
    /// `content` over `area`, anchored at its top-left cell.
    pub fn new(area: Area, content: Content) -> CellEntry {
        CellEntry { area, content, anchor: area.top_left() }
    }
}

/// What a cell entry holds. The formulas are boxed: a workbook of millions
/// of constants (an Excel data sheet) pays for a value per cell, not for a
/// formula's room (an entry takes 56 bytes, not 168).
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    Constant(Value),
    Formula(Box<Formula>),
    /// An array formula entered over the whole area at once
    /// (Ctrl+Shift+Enter, written `{=...}`): calculated once, each cell
    /// showing its element of the result.
    Array(Box<Formula>),
    /// A dynamic-array formula in one cell (Excel 365's every formula):
    /// calculated as an array, its value spilling over the cells to the
    /// right and below. A RON workbook with `dynamic_arrays: true` enters
    /// its one-cell formulas so; an xlsx marks them in its cell metadata.
    Dynamic(Box<Formula>),
}

impl Content {
    /// The formula, for a formula or an array formula.
    pub fn formula(&self) -> Option<&Formula> {
        match self {
            Content::Formula(f) | Content::Array(f) | Content::Dynamic(f) => Some(f),
            Content::Constant(_) => None,
        }
    }
}

/// A parsed formula and where its text came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    /// Shared (`Arc`) with the engine's inputs and its FORMULATEXT
    /// sources: one tree per entry, however many cells and copies use it.
    pub expr: Arc<Expr>,
    /// The text handed to the parser (spans in `expr` are byte offsets into
    /// it). From a workbook file it starts with `=`; from a formula file it
    /// is what follows the `=`.
    pub text: String,
    pub origin: Origin,
}

/// Where a formula's text sits: `offset` is the byte offset in
/// `source.text` of the formula's first byte (the expr's span 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Origin {
    pub source: Option<Arc<Source>>,
    pub offset: usize,
}

impl Formula {
    /// A diagnostic at `span`, given relative to the formula text (as in the
    /// expr's spans), placed in the file the formula came from. When the
    /// formula was a RON string with escapes (`\"`, `\\`, `\u{..}`), offsets
    /// are mapped through the escapes so the caret still lands on the right
    /// character.
    pub fn diagnostic(&self, span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        match &self.origin.source {
            None => Diagnostic::new(message).with_note(format!("in the formula `{}`", self.text)),
            Some(src) => {
                let span = super::locate::formula_span(&src.text, self.origin.offset, &self.text, span);
                Diagnostic::at(src, span, message, label)
            }
        }
    }
}

/// A workbook name (Excel's Name Manager entry).
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// As written; look-ups are case-insensitive.
    pub name: String,
    /// The cell the name was "entered from": relative references in the
    /// formula are relative to it, and its sheet is the sheet of unqualified
    /// references. Default: A1 of the first sheet.
    pub anchor: CellAddr,
    pub formula: Formula,
    pub comment: Option<String>,
}

/// Default alphabet of an input: the digits 1 to 9.
pub const DEFAULT_ALPHABET: &str = "123456789";
/// Default characters meaning an empty cell in an input string.
pub const DEFAULT_BLANKS: &str = ".0";

/// A block of cells the CLI fills from a string such as a Sudoku puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct InputDef {
    pub name: String,
    pub area: Area,
    /// Symbol k (1-based) stands for the number k (see `symbols.rs` for
    /// how a line is read).
    pub alphabet: String,
    /// Characters meaning an empty cell; default `.0`.
    pub blanks: String,
    /// The line the input is filled with when the command line gives none.
    pub value: Option<String>,
    /// The workbook's word on whether a puzzle filled into this input is
    /// solved: a formula evaluated after the run, in the context of the
    /// input's first cell; TRUE means solved (see `puzzle::classify`).
    pub check: Option<Formula>,
}

/// The user's protocol for starting over: set these cells and recalculate,
/// then set the `then` cells and iterate.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ResetProtocol {
    pub set: Vec<(CellAddr, Value)>,
    pub then: Vec<(CellAddr, Value)>,
    /// Whether the protocol leaves every cell a function of the inputs
    /// alone (the workbook says so: `reuse: true`), so that `batch` may
    /// start each puzzle from the reset state it calculated for the one
    /// before instead of from a fresh engine (see `puzzle::Runner`).
    pub reuse: bool,
}
