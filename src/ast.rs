//! The syntax tree of a formula as the user wrote it. Every node carries the
//! byte span of its text in the source it was parsed from; operators are
//! enums. References keep their `$` flags and are resolved against a cell
//! only when a formula is bound (see `crate::eval::bind`). `Display` prints
//! the canonical text (see `crate::parse::print`).

use crate::value::{ErrorKind, Value};

/// Byte offsets into the source text the node was parsed from.
pub type Span = std::ops::Range<usize>;

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Number(f64),
    Text(String),
    Bool(bool),
    Error(ErrorKind),
    /// `{1,2;3,4}`: rows of literal values (numbers, text, booleans, errors).
    Array(Vec<Vec<Value>>),
    Ref(RefExpr),
    /// A workbook name (or a LET variable), as written.
    Name(String),
    /// A structured reference to an Excel table: `Sales[Qty]`,
    /// `Sales[[#This Row],[Qty]]`, `[@Qty]` (see `crate::table`).
    Table(TableRef),
    /// An omitted function argument (`IF(A1,,2)`): the empty text between
    /// two separators, bound as an empty value.
    Missing,
    /// A function call; `name` is upper-cased. An empty `name` is a call
    /// of the value of its first argument on the others: the call suffix
    /// of `LAMBDA(x, x+1)(5)` or `(f)(2)` (see `functions::lambda`).
    Call {
        name: String,
        args: Vec<Expr>,
    },
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Prefix `-`.
    Neg,
    /// Prefix `+` (no effect on the value).
    Plus,
    /// Postfix `%`.
    Percent,
    /// Postfix `#` after a cell (`A1#`): the cell's current spill range
    /// (Excel's `ANCHORARRAY`).
    Spill,
    /// Prefix `@`: implicit intersection (Excel's `SINGLE`).
    At,
    /// A trim reference (`A1:.E10`, `A1.:E10`, `A1.:.E10`, `A:.A`): the
    /// range it wraps with its blank edge rows and columns left out, as
    /// `TRIMRANGE(range, n, n)` (stored `_xlfn._TRO_TRAILING(A1:E10)`).
    Trim(Trim),
}

/// Which blank edges a trim reference leaves out; the number is
/// TRIMRANGE's `trim_rows` and `trim_cols` (1 leading, 2 trailing, 3 both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trim {
    /// `.:`, stored `_TRO_LEADING`.
    Leading = 1,
    /// `:.`, stored `_TRO_TRAILING`.
    Trailing = 2,
    /// `.:.`, stored `_TRO_ALL`.
    Both = 3,
}

impl Trim {
    pub const ALL: [Trim; 3] = [Trim::Leading, Trim::Trailing, Trim::Both];

    /// The operator replacing the range's `:`.
    pub fn symbol(self) -> &'static str {
        match self {
            Trim::Leading => ".:",
            Trim::Trailing => ":.",
            Trim::Both => ".:.",
        }
    }

    /// The function an xlsx stores it as (after `_xlfn.`).
    pub fn stored_name(self) -> &'static str {
        match self {
            Trim::Leading => "_TRO_LEADING",
            Trim::Trailing => "_TRO_TRAILING",
            Trim::Both => "_TRO_ALL",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `:` the smallest area holding both references.
    Range,
    /// A space between two references: the cells they share (`A1:A5 A3:B4`).
    Intersect,
    /// `,` inside parentheses: a reference of several areas (`(A1,A3:B4)`).
    Union,
    Pow,
    Mul,
    Div,
    Add,
    Sub,
    Concat,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

/// A structured reference as written: the table (none inside it:
/// `[@Qty]`), the rows and the columns (one, or a first and last; none: all).
#[derive(Clone, Debug, PartialEq)]
pub struct TableRef {
    pub table: Option<String>,
    pub rows: TableRows,
    pub columns: Option<(String, String)>,
}

/// The rows a structured reference names (its item specifiers): none set
/// means the data rows; all three `#All`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TableRows {
    pub headers: bool,
    pub data: bool,
    pub totals: bool,
    /// `#This Row` or `@`: the calculating cell's row.
    pub this_row: bool,
}

/// One coordinate of a reference: 0-based index and whether it had a `$`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Axis {
    pub index: u32,
    pub abs: bool,
}

/// A reference as written, with an optional sheet name (`Main!`, `'My Sheet'!`).
#[derive(Clone, Debug, PartialEq)]
pub struct RefExpr {
    pub sheet: Option<String>,
    pub kind: RefKind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RefKind {
    /// `D4`, `$D$4`
    Cell { row: Axis, col: Axis },
    /// `D4:L12` written as one reference (same sheet for both corners).
    Area { r0: Axis, c0: Axis, r1: Axis, c1: Axis },
    /// `A:A`, `$B:D`: whole columns.
    Cols { c0: Axis, c1: Axis },
    /// `3:5`: whole rows.
    Rows { r0: Axis, r1: Axis },
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }

    /// Calls `f` with every name the formula uses, as written (LET
    /// variables too: a word is a name until binding says otherwise), and
    /// with every function it calls by name (a workbook name holding a
    /// LAMBDA is called so: `MyFn(3)`).
    pub fn each_name(&self, f: &mut impl FnMut(&str)) {
        match &self.kind {
            ExprKind::Name(n) => f(n),
            ExprKind::Call { name, args } => {
                if !name.is_empty() {
                    f(name);
                }
                args.iter().for_each(|a| a.each_name(f))
            }
            ExprKind::Unary { expr, .. } => expr.each_name(f),
            ExprKind::Binary { lhs, rhs, .. } => {
                lhs.each_name(f);
                rhs.each_name(f);
            }
            ExprKind::Number(_)
            | ExprKind::Text(_)
            | ExprKind::Bool(_)
            | ExprKind::Error(_)
            | ExprKind::Array(_)
            | ExprKind::Ref(_)
            | ExprKind::Table(_)
            | ExprKind::Missing => {}
        }
    }
}

impl UnaryOp {
    /// A number per operator (a trim per kind), for hashing.
    pub fn code(self) -> u8 {
        match self {
            UnaryOp::Neg => 0,
            UnaryOp::Plus => 1,
            UnaryOp::Percent => 2,
            UnaryOp::Trim(t) => 2 + t as u8,
            UnaryOp::Spill => 6,
            UnaryOp::At => 7,
        }
    }
}

impl BinaryOp {
    /// The operator's text.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Range => ":",
            Intersect => " ",
            Union => ",",
            Pow => "^",
            Mul => "*",
            Div => "/",
            Add => "+",
            Sub => "-",
            Concat => "&",
            Eq => "=",
            Ne => "<>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
        }
    }
}
