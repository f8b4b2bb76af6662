//! INDIRECT: the reference a text names, found when the formula runs. The
//! text is read the way a formula reads a reference (`B2`, `$B$2:C9`,
//! `'My Sheet'!A:A`, a workbook name that stands for a fixed reference),
//! or in R1C1 style when the second argument is FALSE (`R2C3`, `R[-1]C`,
//! relative to the calculating cell). INDIRECT is volatile: it is
//! calculated on every recalculation and reads what its text names now;
//! its contract (`Arg::Address`) lets it read any sheet.

use crate::address::{Area, CellAddr, MAX_COLS, MAX_ROWS};
use crate::ast::ExprKind;
use crate::eval::bind::{Binder, Scope};
use crate::eval::{BExpr, Eval};
use crate::functions::args::scalar;
use crate::parse::parse_formula;
use crate::value::{Array, ErrorKind, Value};
use std::sync::Arc;

/// INDIRECT(ref_text, [a1]): a reference, #REF! when the text names none.
/// An array of texts gives a reference array of the same shape (one
/// reference per text, see `crate::value`), which COUNTIF and SUMIF take
/// one by one; any text naming none makes the whole #REF!.
pub(super) fn indirect(ev: &mut Eval, args: &[BExpr]) -> Value {
    // Omitted (`INDIRECT("R1C1",)`) or an empty cell reads as FALSE.
    let a1 = match args.get(1).map(|a| scalar(ev, a)) {
        None => true,
        Some(v) => match v.to_bool() {
            Ok(b) => b,
            Err(e) => return Value::Error(e),
        },
    };
    let Some(scope) = ev.scope() else { return Value::Error(ErrorKind::Ref) };
    let cell = ev.cell;
    let named = |v: &Value| -> Result<Value, ErrorKind> {
        let text = v.to_text()?;
        let area = if a1 { a1_ref(scope, cell, &text) } else { r1c1_ref(scope, cell, &text) };
        area.map(Value::Ref).ok_or(ErrorKind::Ref)
    };
    let result = match ev.read(&args[0]) {
        Value::Array(a) => a
            .values()
            .iter()
            .map(named)
            .collect::<Result<Vec<_>, _>>()
            .map(|refs| Value::Array(Arc::new(Array::new(a.rows, a.cols, refs)))),
        v => named(&v),
    };
    result.unwrap_or_else(Value::Error)
}

/// `B2`, `Main!B2:C9`, `A:A`, `3:5` or a name, as a formula would read it
/// in `cell` (an unqualified reference is on `cell`'s sheet).
fn a1_ref(scope: &Scope, cell: CellAddr, text: &str) -> Option<Area> {
    if text.starts_with('=') || text.trim() != text {
        return None;
    }
    let expr = parse_formula(text).ok()?;
    if !matches!(expr.kind, ExprKind::Ref(_) | ExprKind::Name(_)) {
        return None;
    }
    let mut binder = Binder::new(scope, cell);
    let bound = binder.bind_formula(&expr, cell);
    if !binder.issues.is_empty() {
        return None;
    }
    match bound {
        BExpr::Const(Value::Ref(a)) => Some(a),
        BExpr::ArrayMode(x) => match *x {
            BExpr::Const(Value::Ref(a)) => Some(a),
            _ => None,
        },
        _ => None,
    }
}

/// `R2C3`, `Main!R[-1]C[2]`, `RC:R[2]C`: rows and columns counted from 1,
/// or relative to `cell` in brackets, or `cell`'s own when left out.
fn r1c1_ref(scope: &Scope, cell: CellAddr, text: &str) -> Option<Area> {
    let (sheet, body) = match text.rsplit_once('!') {
        Some((name, body)) => {
            let name = match name.strip_prefix('\'').and_then(|n| n.strip_suffix('\'')) {
                Some(quoted) => quoted.replace("''", "'"),
                None => name.to_string(),
            };
            (scope.sheets.find(&name)?, body)
        }
        None => (cell.sheet, text),
    };
    let (first, last) = body.split_once(':').unwrap_or((body, body));
    let (r0, c0) = r1c1_cell(first, cell)?;
    let (r1, c1) = r1c1_cell(last, cell)?;
    Some(Area::new(sheet, r0.min(r1), c0.min(c1), r0.max(r1), c0.max(c1)))
}

fn r1c1_cell(text: &str, cell: CellAddr) -> Option<(u32, u32)> {
    let rest = text.strip_prefix(['R', 'r'])?;
    let (row, rest) = axis(rest, cell.row, MAX_ROWS)?;
    let rest = rest.strip_prefix(['C', 'c'])?;
    let (col, rest) = axis(rest, cell.col, MAX_COLS)?;
    rest.is_empty().then_some((row, col))
}

/// One coordinate: `[k]` from `here`, a 1-based number, or `here`.
fn axis(text: &str, here: u32, max: u32) -> Option<(u32, &str)> {
    let in_range = |i: i64| (0..i64::from(max)).contains(&i).then_some(i as u32);
    if let Some(rest) = text.strip_prefix('[') {
        let (k, rest) = rest.split_once(']')?;
        return Some((in_range(i64::from(here) + k.parse::<i64>().ok()?)?, rest));
    }
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    if digits == 0 {
        return Some((here, text));
    }
    Some((in_range(text[..digits].parse::<i64>().ok()? - 1)?, &text[digits..]))
}
