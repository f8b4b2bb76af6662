//! ADDRESS: a cell's address as text, in A1 (`$C$2`, `C$2`, `$C2`, `C2`)
//! or R1C1 style (`R2C3`, `R2C[3]`, `R[2]C3`, `R[2]C[3]`), with a sheet
//! name quoted as formulas quote it (`'My Sheet'!$A$1`).

use crate::address::{MAX_COLS, MAX_ROWS, col_name};
use crate::eval::{BExpr, Eval};
use crate::functions::args::lift;
use crate::parse::sheet_prefix;
use crate::value::{ErrorKind, Value};

/// ADDRESS(row, column, [abs_num], [a1], [sheet_text]), element-wise over arrays.
pub fn address(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift(ev, args, |v| address_of(v).unwrap_or_else(Value::Error))
}

/// One address. Row and column are truncated and must lie on the sheet;
/// abs_num (1 when omitted) must be 1 to 4; a1 defaults to TRUE.
fn address_of(v: &[Value]) -> Result<Value, ErrorKind> {
    let given = |i: usize| v.get(i).filter(|x| !x.is_empty());
    let index = |x: &Value, max: u32| match x.to_number()?.trunc() {
        n if (1.0..=f64::from(max)).contains(&n) => Ok(n as u32),
        _ => Err(ErrorKind::Value),
    };
    let (row, col) = (index(&v[0], MAX_ROWS)?, index(&v[1], MAX_COLS)?);
    let abs = given(2).map_or(Ok(1), |x| index(x, 4))?;
    let a1 = given(3).map_or(Ok(true), Value::to_bool)?;
    let (abs_row, abs_col) = (abs <= 2, abs % 2 == 1);
    let cell = if a1 {
        let dollar = |abs: bool| if abs { "$" } else { "" };
        format!("{}{}{}{row}", dollar(abs_col), col_name(col - 1), dollar(abs_row))
    } else {
        let part = |n: u32, abs: bool| if abs { n.to_string() } else { format!("[{n}]") };
        format!("R{}C{}", part(row, abs_row), part(col, abs_col))
    };
    let sheet = match v.get(4) {
        Some(s) => sheet_part(&s.to_text()?),
        None => String::new(),
    };
    Ok(Value::text(&format!("{sheet}{cell}")))
}

/// `Data!`, `'My Sheet'!`, or with a workbook `[Book1]Data!` and
/// `'[Book1]My Sheet'!`: the sheet decides the quoting. Empty text adds
/// nothing.
fn sheet_part(text: &str) -> String {
    let (book, sheet) = match text.strip_prefix('[').and_then(|t| t.split_once(']')) {
        Some((book, sheet)) => (format!("[{book}]"), sheet),
        None => (String::new(), text),
    };
    match (text.is_empty(), sheet_prefix(sheet)) {
        (true, _) => String::new(),
        (false, p) => match p.strip_prefix('\'') {
            Some(quoted) => format!("'{book}{quoted}"),
            None => format!("{book}{p}"),
        },
    }
}
