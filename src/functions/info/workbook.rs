//! What a formula may ask about the workbook rather than a value:
//! FORMULATEXT and ISFORMULA (the formula a cell holds, asked of the
//! program through [`Eval::formula_text`]), SHEET and SHEETS (sheet
//! numbers, from the evaluator's scope), CELL (a cell's address, position,
//! contents and type) and INFO (the few facts that mean something here).
//!
//! FORMULATEXT and ISFORMULA read a formula, not a value: their argument
//! is a position (no dependency, so `=FORMULATEXT(A1)` in A1 is no cycle),
//! and they are calculated on every pass, since an edit can change a
//! formula without changing its value. CELL and INFO are volatile, as in
//! Excel. What has no meaning here (a file name, a column width, a number
//! format, the operating system's version) is #N/A; see
//! `docs/compatibility.md`.

use crate::address::{Area, col_name};
use crate::eval::{BExpr, Eval};
use crate::parse::sheet_prefix;
use crate::value::{ErrorKind, Value};

/// The area an argument evaluates to, unread: its first area for a
/// union; the argument's error, or #VALUE! for a value.
fn area_of(ev: &mut Eval, arg: &BExpr) -> Result<Area, ErrorKind> {
    match ev.eval(arg) {
        Value::Error(e) => Err(e),
        v => area_of_value(&v).ok_or(ErrorKind::Value),
    }
}

/// The text of the upper-left cell's formula; #N/A for a cell without one.
pub fn formulatext(ev: &mut Eval, args: &[BExpr]) -> Value {
    match area_of(ev, &args[0]) {
        Ok(a) => ev.formula_text(a.top_left()).map_or(Value::Error(ErrorKind::NA), |t| Value::text(&t)),
        Err(e) => Value::Error(e),
    }
}

/// Whether the upper-left cell holds a formula.
pub fn isformula(ev: &mut Eval, args: &[BExpr]) -> Value {
    match area_of(ev, &args[0]) {
        Ok(a) => Value::Bool(ev.formula_text(a.top_left()).is_some()),
        Err(e) => Value::Error(e),
    }
}

/// SHEET([value]): the 1-based number of the calculating cell's sheet,
/// of a reference's sheet, or of the sheet a text names (#N/A when none
/// does, or for any other value).
pub fn sheet(ev: &mut Eval, args: &[BExpr]) -> Value {
    let Some(arg) = args.first() else { return number(ev.caller().sheet.into()) };
    let v = ev.eval(arg);
    if let Some(a) = area_of_value(&v) {
        return number(a.sheet.into());
    }
    match v {
        Value::Error(e) => Value::Error(e),
        Value::Text(t) => match ev.scope().and_then(|s| s.sheets.find(&t)) {
            Some(id) => number(id.into()),
            None => Value::Error(ErrorKind::NA),
        },
        _ => Value::Error(ErrorKind::NA),
    }
}

/// SHEETS([reference]): the workbook's sheet count; 1 for a reference
/// (dataflow has no 3-D references spanning sheets).
pub fn sheets(ev: &mut Eval, args: &[BExpr]) -> Value {
    match args.first() {
        None => Value::Number(ev.scope().map_or(1, |s| s.sheets.len()) as f64),
        Some(arg) => match area_of(ev, arg) {
            Ok(_) => Value::Number(1.0),
            Err(e) => Value::Error(e),
        },
    }
}

fn area_of_value(v: &Value) -> Option<Area> {
    v.area_list().and_then(|l| l.first().copied())
}

/// A 0-based sheet id as SHEET's 1-based number.
fn number(id: u32) -> Value {
    Value::Number(f64::from(id) + 1.0)
}

/// CELL(info_type, [reference]): about the upper-left cell of `reference`,
/// or of the calculating cell when it is omitted (Excel takes the cell
/// last changed; here there is no selection).
pub fn cell(ev: &mut Eval, args: &[BExpr]) -> Value {
    let info = match ev.read(&args[0]) {
        Value::Text(t) => t.to_ascii_lowercase(),
        Value::Error(e) => return Value::Error(e),
        _ => return Value::Error(ErrorKind::Value),
    };
    let area = match args.get(1) {
        Some(arg) => match area_of(ev, arg) {
            Ok(a) => a,
            Err(e) => return Value::Error(e),
        },
        None => Area::cell(ev.cell),
    };
    let at = area.top_left();
    match info.as_str() {
        "address" => {
            let sheet = match ev.scope() {
                Some(s) if at.sheet != ev.cell.sheet => sheet_prefix(s.sheets.name(at.sheet)),
                _ => String::new(),
            };
            Value::text(&format!("{sheet}${}${}", col_name(at.col), at.row + 1))
        }
        "row" => Value::Number(f64::from(at.row) + 1.0),
        "col" => Value::Number(f64::from(at.col) + 1.0),
        "contents" => ev.cell_value(at),
        "type" => Value::text(match ev.cell_value(at) {
            Value::Empty => "b",
            Value::Text(_) => "l",
            _ => "v",
        }),
        // Every cell is locked, as in a new Excel workbook.
        "protect" => Value::Number(1.0),
        "color" | "filename" | "format" | "parentheses" | "prefix" | "width" => Value::Error(ErrorKind::NA),
        _ => Value::Error(ErrorKind::Value),
    }
}

/// INFO(type_text): "numfile" (the sheet count), "recalc" and "system";
/// the rest (a directory, an origin, a release) #N/A.
pub fn info(ev: &mut Eval, args: &[BExpr]) -> Value {
    let info = match ev.read(&args[0]) {
        Value::Text(t) => t.to_ascii_lowercase(),
        Value::Error(e) => return Value::Error(e),
        _ => return Value::Error(ErrorKind::Value),
    };
    match info.as_str() {
        "numfile" => Value::Number(ev.scope().map_or(1, |s| s.sheets.len()) as f64),
        "recalc" => Value::text("Automatic"),
        "system" => Value::text("pcdos"),
        "directory" | "origin" | "osversion" | "release" | "memavail" | "memused" | "totmem" => {
            Value::Error(ErrorKind::NA)
        }
        _ => Value::Error(ErrorKind::Value),
    }
}
