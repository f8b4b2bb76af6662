//! Canonical formula text: `Display` for [`Expr`] prints what the parser
//! reads back to the same tree (spans aside), without the leading `=`.
//!
//! The canonical form is Excel's own: no spaces, upper-case function names,
//! `$` flags as written, strings with doubled quotes, numbers in Excel's
//! general format ([`format_number`], or Rust's shortest exact form when
//! that would lose digits), arrays as `{1,2;3,4}`, and sheet names quoted
//! only when they are not a plain word or would read as a reference.
//! Parentheses appear only where the binding powers of
//! [`super::parser::binary_power`] and [`super::parser::unary_power`] call
//! for them: `-2^2` stays as is (prefix minus binds tighter than `^`),
//! `-(2^2)` keeps its parentheses. One extra case: a `:` whose two sides
//! would fuse into one reference on reading back (`(A1):B2` is a range
//! operator between two cells, `A1:B2` an area) gets parentheses on its right.
//! The intersection operator is one space; an operand that would not read
//! back as a reference at that space (`(5) A1`, `(x) (A1,B2)`) gets
//! parentheses. A union always prints inside its own parentheses, its
//! left-nested parts flattened: `(A1,A3,A5)`. An omitted argument prints as
//! nothing: `IF(A1,,2)`. A trim reference prints its operator in place of
//! the range's `:` (`A1:.E10`, `A:.A`).

use super::lexer::{Token, ident_ref_part, intersection_between, is_ident, lex};
use super::parser::{ATOM_POWER, binary_power, unary_power};
use crate::address::{MAX_ROWS, col_name};
use crate::ast::{Axis, BinaryOp, Expr, ExprKind, RefExpr, RefKind, Trim, UnaryOp};
use crate::value::{Value, format_number};
use std::fmt::{self, Display, Formatter, Write};

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Number(n) => f.write_str(&number_text(*n)),
            ExprKind::Text(s) => write_text(f, s),
            ExprKind::Bool(b) => f.write_str(if *b { "TRUE" } else { "FALSE" }),
            ExprKind::Error(e) => f.write_str(e.text()),
            ExprKind::Array(rows) => write_array(f, rows),
            ExprKind::Ref(r) => write_ref(f, r),
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Table(t) => write!(f, "{t}"),
            ExprKind::Missing => Ok(()),
            ExprKind::Call { name, args } => {
                let args = match (name.is_empty(), args.split_first()) {
                    // A call suffix: the callee, in parentheses unless it is a call.
                    (true, Some((callee, rest))) => {
                        let plain = matches!(&callee.kind, ExprKind::Call { .. });
                        write_operand(f, callee, !plain)?;
                        rest
                    }
                    _ => {
                        f.write_str(name)?;
                        &args[..]
                    }
                };
                f.write_char('(')?;
                for (i, arg) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{arg}")?;
                }
                f.write_char(')')
            }
            ExprKind::Unary { op: UnaryOp::Trim(t), expr } => write_trim(f, *t, expr),
            ExprKind::Unary { op: op @ (UnaryOp::Percent | UnaryOp::Spill), expr } => {
                write_operand(f, expr, power(expr) < unary_power(*op))?;
                f.write_char(if *op == UnaryOp::Spill { '#' } else { '%' })
            }
            ExprKind::Unary { op, expr } => {
                f.write_char(match op {
                    UnaryOp::Neg => '-',
                    UnaryOp::At => '@',
                    _ => '+',
                })?;
                write_operand(f, expr, power(expr) < unary_power(*op))
            }
            ExprKind::Binary { op: BinaryOp::Union, .. } => {
                f.write_char('(')?;
                write_union_parts(f, self)?;
                f.write_char(')')
            }
            ExprKind::Binary { op: BinaryOp::Intersect, lhs, rhs } => {
                let p = binary_power(BinaryOp::Intersect);
                let lhs = operand_text(lhs, power(lhs) < p);
                let rhs = operand_text(rhs, power(rhs) <= p);
                let (lhs, rhs) = intersection_operands(lhs, rhs);
                write!(f, "{lhs} {rhs}")
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let p = binary_power(*op);
                write_operand(f, lhs, power(lhs) < p)?;
                f.write_str(op.symbol())?;
                write_operand(f, rhs, rhs_needs_parens(*op, lhs, rhs))
            }
        }
    }
}

/// The binding power of an expression's outermost operator (a union
/// prints its own parentheses: an atom).
fn power(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary { op: BinaryOp::Union, .. } => ATOM_POWER,
        ExprKind::Binary { op, .. } => binary_power(*op),
        ExprKind::Unary { op, .. } => unary_power(*op),
        _ => ATOM_POWER,
    }
}

fn write_operand(f: &mut Formatter<'_>, e: &Expr, parens: bool) -> fmt::Result {
    if parens { write!(f, "({e})") } else { write!(f, "{e}") }
}

fn operand_text(e: &Expr, parens: bool) -> String {
    if parens { format!("({e})") } else { e.to_string() }
}

/// The parts of a union, without its parentheses: `A1,A3,A5` for a
/// left-nested union.
fn write_union_parts(f: &mut Formatter<'_>, e: &Expr) -> fmt::Result {
    let p = binary_power(BinaryOp::Union);
    match &e.kind {
        ExprKind::Binary { op: BinaryOp::Union, lhs, rhs } => {
            write_union_parts(f, lhs)?;
            f.write_char(',')?;
            write_operand(f, rhs, power(rhs) <= p)
        }
        _ => write_operand(f, e, power(e) < p),
    }
}

/// The two sides of an intersection, parenthesised where the space between
/// them would not read back as the operator (see `lexer::intersection_between`).
fn intersection_operands(lhs: String, rhs: String) -> (String, String) {
    let (l, r) = (lex(&lhs).0, lex(&rhs).0);
    let last = l.len().checked_sub(1).map(|i| &l[i].0);
    let before = l.len().checked_sub(2).map(|i| &l[i].0);
    let (first, after) = (r.first().map(|t| &t.0), r.get(1).map(|t| &t.0));
    let (Some(last), Some(first)) = (last, first) else { return (lhs, rhs) };
    let lparen = Token::LParen;
    let rhs_ok = intersection_between(Some(&Token::Colon), &Token::RParen, first, after);
    let (next, after) = if rhs_ok { (first, after) } else { (&lparen, None) };
    let lhs_ok = intersection_between(before, last, next, after);
    let wrap = |s: String, ok: bool| if ok { s } else { format!("({s})") };
    (wrap(lhs, lhs_ok), wrap(rhs, rhs_ok))
}

/// Operators are left-associative: an equal-power right operand needs
/// parentheses, and so does one that would fuse with the left side.
fn rhs_needs_parens(op: BinaryOp, lhs: &Expr, rhs: &Expr) -> bool {
    power(rhs) <= binary_power(op) || (op == BinaryOp::Range && fuses(lhs, rhs))
}

/// The kinds of reference piece the parser pairs across a `:`.
#[derive(PartialEq)]
enum Piece {
    Cell,
    Column,
    Row,
}

/// True when the printed `lhs:rhs` would read back with the last piece of
/// `lhs` and the first of `rhs` joined into one reference.
fn fuses(lhs: &Expr, rhs: &Expr) -> bool {
    last_piece(lhs).is_some_and(|p| first_piece(rhs) == Some(p))
}

/// The reference piece `e` prints last, when it stands alone (not already
/// paired with another by `:`).
fn last_piece(e: &Expr) -> Option<Piece> {
    match &e.kind {
        ExprKind::Binary { op: BinaryOp::Range, lhs, rhs } if !rhs_needs_parens(BinaryOp::Range, lhs, rhs) => {
            last_piece(rhs)
        }
        ExprKind::Ref(RefExpr { kind: RefKind::Cell { .. }, .. }) => Some(Piece::Cell),
        _ => bare_piece(e),
    }
}

/// The reference piece `e` prints first, when it has no sheet prefix.
fn first_piece(e: &Expr) -> Option<Piece> {
    match &e.kind {
        ExprKind::Ref(RefExpr { sheet: None, kind }) => Some(match kind {
            RefKind::Cell { .. } | RefKind::Area { .. } => Piece::Cell,
            RefKind::Cols { .. } => Piece::Column,
            RefKind::Rows { .. } => Piece::Row,
        }),
        _ => bare_piece(e),
    }
}

/// A name that reads as a column (`A`) or a number that reads as a row (`3`).
fn bare_piece(e: &Expr) -> Option<Piece> {
    match &e.kind {
        ExprKind::Name(n) if ident_ref_part(n).is_some_and(|p| p.column().is_some()) => Some(Piece::Column),
        ExprKind::Number(n) if n.fract() == 0.0 && (1.0..=f64::from(MAX_ROWS)).contains(n) => Some(Piece::Row),
        _ => None,
    }
}

/// A number in Excel's general format when that reads back exactly, else
/// in Rust's shortest exact decimal form.
fn number_text(n: f64) -> String {
    let s = format_number(n);
    if s.parse::<f64>() == Ok(n) { s } else { format!("{n}") }
}

fn write_text(f: &mut Formatter<'_>, s: &str) -> fmt::Result {
    write!(f, "\"{}\"", s.replace('"', "\"\""))
}

fn write_array(f: &mut Formatter<'_>, rows: &[Vec<Value>]) -> fmt::Result {
    f.write_char('{')?;
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            f.write_char(';')?;
        }
        for (j, v) in row.iter().enumerate() {
            if j > 0 {
                f.write_char(',')?;
            }
            match v {
                Value::Number(n) => f.write_str(&number_text(*n))?,
                Value::Text(s) => write_text(f, s)?,
                Value::Bool(b) => f.write_str(if *b { "TRUE" } else { "FALSE" })?,
                Value::Error(e) => f.write_str(e.text())?,
                // Not produced by the parser: arrays hold literals only.
                Value::Empty | Value::Array(_) | Value::Ref(_) => {}
            }
        }
    }
    f.write_char('}')
}

fn write_ref(f: &mut Formatter<'_>, r: &RefExpr) -> fmt::Result {
    write_ref_with(f, r, ":")
}

/// A reference whose corners are joined by `sep` (`:`, or a trim's `:.`).
fn write_ref_with(f: &mut Formatter<'_>, r: &RefExpr, sep: &str) -> fmt::Result {
    if let Some(sheet) = &r.sheet {
        write_sheet(f, sheet)?;
    }
    match r.kind {
        RefKind::Cell { row, col } => write!(f, "{}{}", column_text(col), row_text(row)),
        RefKind::Area { r0, c0, r1, c1 } => {
            write!(f, "{}{}{sep}{}{}", column_text(c0), row_text(r0), column_text(c1), row_text(r1))
        }
        RefKind::Cols { c0, c1 } => write!(f, "{}{sep}{}", column_text(c0), column_text(c1)),
        RefKind::Rows { r0, r1 } => write!(f, "{}{sep}{}", row_text(r0), row_text(r1)),
    }
}

/// A trim reference: `A1:.E10` around a range; around anything else (read
/// from `_TRO_TRAILING(x)`), the call it was read from.
fn write_trim(f: &mut Formatter<'_>, t: Trim, e: &Expr) -> fmt::Result {
    match &e.kind {
        ExprKind::Ref(r) if !matches!(r.kind, RefKind::Cell { .. }) => write_ref_with(f, r, t.symbol()),
        _ => write!(f, "{}({e})", t.stored_name()),
    }
}

fn write_sheet(f: &mut Formatter<'_>, sheet: &str) -> fmt::Result {
    f.write_str(&sheet_prefix(sheet))
}

/// `Main!`, or `'My Sheet'!` when the name is not a plain word or reads as
/// a reference (`'A1'!`, `'R1C1'!`) or as a number. The one quoting rule for
/// sheet names: formulas and [`crate::sheets::Sheets`] both use it.
pub fn sheet_prefix(sheet: &str) -> String {
    if needs_quotes(sheet) { format!("'{}'!", sheet.replace('\'', "''")) } else { format!("{sheet}!") }
}

fn needs_quotes(sheet: &str) -> bool {
    !is_ident(sheet) || ident_ref_part(sheet).is_some() || is_r1c1(sheet)
}

/// `R`, `C`, `R1C1`, `RC3`, `R2C`: names Excel reserves for R1C1 references.
fn is_r1c1(s: &str) -> bool {
    let upper = s.to_ascii_uppercase();
    let after = |t: &str, letter: char| {
        t.strip_prefix(letter).map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()).to_string())
    };
    match after(&upper, 'R') {
        Some(rest) => rest.is_empty() || after(&rest, 'C').is_some_and(|r| r.is_empty()),
        None => after(&upper, 'C').is_some_and(|r| r.is_empty()),
    }
}

/// `$B` or `B`.
pub(crate) fn column_text(a: Axis) -> String {
    format!("{}{}", if a.abs { "$" } else { "" }, col_name(a.index))
}

/// `$3` or `3` (the index is 0-based, the text 1-based).
pub(crate) fn row_text(a: Axis) -> String {
    format!("{}{}", if a.abs { "$" } else { "" }, a.index + 1)
}
