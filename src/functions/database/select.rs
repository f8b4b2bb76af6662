//! The records a database function works on: the rows below the
//! database's label row that meet its criteria range, and the value of
//! each in the field the function reads. A criteria range is a row of
//! labels naming database columns (any case) and rows of conditions
//! below: the conditions of one row must all hold (AND), any one row is
//! enough (OR), an empty condition holds always, and so a criteria row
//! with no condition selects every record. A condition is read as
//! COUNTIF reads its criterion, but text without an operator matches the
//! text starting with it ([`Criterion::starting`]). A condition under a
//! label the database lacks holds for no record. A reference is read only
//! as far as its sheet holds cells: the records past that are empty, and
//! are counted, not visited. Testing every condition on every record is
//! bounded by [`MAX_WORK`] (#NUM! past it).

use crate::eval::{BExpr, Eval};
use crate::functions::args::{given, scalar};
use crate::functions::criteria::{Criterion, Range};
use crate::value::{ErrorKind, MAX_WORK, Value, cmp_text};
use std::cmp::Ordering;

/// What the criteria select: the field's value in each selected record
/// that the sheet holds, and how many selected records lie past it (all
/// empty).
pub struct Selection {
    pub values: Vec<Value>,
    pub empty: u64,
}

impl Selection {
    /// How many records were selected.
    pub fn records(&self) -> u64 {
        self.values.len() as u64 + self.empty
    }
}

/// One criteria row: the database column and condition of each cell that
/// holds one; `None` when a condition names no database column.
type Conditions = Option<Vec<(u64, Criterion)>>;

/// Reads `DFUNC(database, field, criteria)`. A field left out (only DCOUNT
/// and DCOUNTA allow it, `optional_field`) selects the records' empty
/// values, as they only count records; otherwise a field names a column by
/// its label (any case) or by its number from 1, and one naming no column
/// is #VALUE!. An error in any argument is the result.
pub fn select(ev: &mut Eval, args: &[BExpr], optional_field: bool) -> Result<Selection, ErrorKind> {
    let db = Range::read(ev, &args[0])?;
    let field = match given(args, 1) {
        Some(e) => Some(scalar(ev, e)),
        None if optional_field => None,
        None => return Err(ErrorKind::Value),
    };
    let crit = Range::read(ev, &args[2])?;
    let (total, cols) = db.dims();
    let column = match field {
        Some(f) => Some(field_column(ev, &db, cols, &f)?),
        None => None,
    };
    let Some(conditions) = criteria_rows(ev, &db, cols, &crit) else {
        return Err(ErrorKind::Value);
    };
    // Records 1..live are read; those past it are all empty.
    let live = db.live_dims(ev).0.min(total).max(1);
    let tests = conditions.iter().flatten().map(|r| r.len() as u64 + 1).sum::<u64>();
    if live.saturating_mul(tests.max(1)) > MAX_WORK {
        return Err(ErrorKind::Num);
    }
    let meets = |v: &dyn Fn(u64) -> Value| {
        conditions.iter().any(|row| row.as_ref().is_some_and(|conds| conds.iter().all(|(c, k)| k.matches(&v(*c)))))
    };
    let mut values = Vec::new();
    for r in 1..live {
        if meets(&|c| db.get(ev, r, c)) {
            values.push(column.map_or(Value::Empty, |c| db.get(ev, r, c)));
        }
    }
    let past = total - live;
    let empty = if past > 0 && meets(&|_| Value::Empty) { past } else { 0 };
    Ok(Selection { values, empty })
}

/// The column (from 0) the field names: a number from 1 (truncated), or a
/// label, matched with any case; anything else is #VALUE!.
fn field_column(ev: &Eval, db: &Range, cols: u64, field: &Value) -> Result<u64, ErrorKind> {
    match field {
        Value::Error(e) => Err(*e),
        Value::Number(n) if *n >= 1.0 && n.trunc() <= cols as f64 => Ok(n.trunc() as u64 - 1),
        Value::Text(s) => label_column(ev, db, cols, s).ok_or(ErrorKind::Value),
        _ => Err(ErrorKind::Value),
    }
}

/// The database column whose label (its first row, read as text) is
/// `label`, any case.
fn label_column(ev: &Eval, db: &Range, cols: u64, label: &str) -> Option<u64> {
    let (_, live) = db.live_dims(ev);
    (0..live.min(cols)).find(|&c| match db.get(ev, 0, c).to_text() {
        Ok(t) => !t.is_empty() && cmp_text(&t, label) == Ordering::Equal,
        Err(_) => false,
    })
}

/// The criteria rows below the labels, each with its conditions; a range
/// with no row below its labels is `None` (#VALUE!). Rows past what the
/// sheet holds are empty: when there are any, one empty row stands for
/// them all (it selects every record).
fn criteria_rows(ev: &Eval, db: &Range, cols: u64, crit: &Range) -> Option<Vec<Conditions>> {
    let (rows, width) = crit.dims();
    if rows < 2 {
        return None;
    }
    let (live_rows, live_cols) = crit.live_dims(ev);
    let width = width.min(live_cols);
    let labels: Vec<Option<u64>> = (0..width)
        .map(|c| match crit.get(ev, 0, c).to_text() {
            Ok(t) if !t.is_empty() => label_column(ev, db, cols, &t),
            _ => None,
        })
        .collect();
    let live_rows = live_rows.min(rows).max(1);
    let mut out: Vec<Conditions> = (1..live_rows)
        .map(|r| {
            let mut conds = Vec::new();
            for (c, label) in labels.iter().enumerate() {
                let v = crit.get(ev, r, c as u64);
                if v.is_empty() {
                    continue;
                }
                conds.push(((*label)?, Criterion::starting(&v)));
            }
            Some(conds)
        })
        .collect();
    if live_rows < rows {
        out.push(Some(Vec::new()));
    }
    Some(out)
}
