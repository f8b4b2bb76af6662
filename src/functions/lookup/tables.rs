//! VLOOKUP, HLOOKUP and LOOKUP: the older lookups, which search the first
//! column (row) of a table and return a value from the same row (column).
//! Their approximate mode is MATCH type 1's binary search, so they give
//! Excel's answers on unsorted data too; VLOOKUP's and HLOOKUP's exact
//! mode takes wildcards in text. Each returns a value, not a reference.

use super::search::{Match, Search, Table, find};
use crate::address::CellAddr;
use crate::eval::{BExpr, Eval};
use crate::functions::args::lift_values;
use crate::value::{ErrorKind, Value};

/// VLOOKUP(value, table, col_index, [range_lookup]).
pub fn vlookup(ev: &mut Eval, args: &[BExpr]) -> Value {
    table_lookup(ev, args, false)
}

/// HLOOKUP(value, table, row_index, [range_lookup]).
pub fn hlookup(ev: &mut Eval, args: &[BExpr]) -> Value {
    table_lookup(ev, args, true)
}

/// VLOOKUP, or HLOOKUP when `across`: searches the table's first column
/// (row) and takes the value at `index` along the row (column) found.
/// An index below 1 is #VALUE!, past the table #REF!; range_lookup TRUE
/// (the default) is approximate, FALSE exact with wildcards.
fn table_lookup(ev: &mut Eval, args: &[BExpr], across: bool) -> Value {
    let lookup = ev.read(&args[0]);
    let v = ev.eval(&args[1]);
    let table = match Table::new(ev, v) {
        Ok(t) => t,
        Err(e) => return Value::Error(e),
    };
    let index = ev.read(&args[2]);
    let approx = args.get(3).map_or(Value::Bool(true), |a| ev.read(a));
    let keys = table.line(ev, across, 0);
    let width = if across { table.rows } else { table.cols };
    let ev = &*ev;
    lift_values(&[lookup, index, approx], |v| {
        let picked = (|| {
            let k = v[1].to_number()?.trunc();
            let how = match v[2].to_bool()? {
                true => (Match::Smaller, Search::Ascending),
                false => (Match::Wildcard, Search::First),
            };
            if let Value::Error(e) = v[0] {
                return Err(e);
            }
            if k < 1.0 {
                return Err(ErrorKind::Value);
            }
            if k > width as f64 {
                return Err(ErrorKind::Ref);
            }
            let (i, k) = (find(&v[0], &keys, how.0, how.1)?, k as usize - 1);
            Ok(if across { table.get(ev, k, i) } else { table.get(ev, i, k) })
        })();
        picked.unwrap_or_else(Value::Error)
    })
}

/// LOOKUP(value, lookup_vector, [result_vector]): approximate only. With a
/// result vector, the value at the position found; without, the array
/// form: a table wider than tall is searched along its first row and
/// answers from its last row, any other along its first column, answering
/// from its last column.
pub fn lookup(ev: &mut Eval, args: &[BExpr]) -> Value {
    let x = ev.read(&args[0]);
    let v = ev.eval(&args[1]);
    let table = match Table::new(ev, v) {
        Ok(t) => t,
        Err(e) => return Value::Error(e),
    };
    let result = match args.get(2).map(|a| ev.eval(a)).map(|v| Table::new(ev, v)).transpose() {
        Ok(r) => r,
        Err(e) => return Value::Error(e),
    };
    let across = table.cols > table.rows;
    let keys = table.line(ev, across, 0);
    let ev = &*ev;
    lift_values(&[x], |v| match (find(&v[0], &keys, Match::Smaller, Search::Ascending), &result) {
        (Err(e), _) => Value::Error(e),
        (Ok(i), None) if across => table.get(ev, table.rows - 1, i),
        (Ok(i), None) => table.get(ev, i, table.cols - 1),
        (Ok(i), Some(r)) => result_at(ev, r, i, across),
    })
}

/// Element `i` of LOOKUP's result vector. A reference lying the same way as
/// the lookup vector is read on past its end, as in Excel (the dependency
/// walk counts it at the lookup vector's size: `Arg::SizedLike`); otherwise
/// past the end is #N/A.
fn result_at(ev: &Eval, r: &Table, i: usize, across: bool) -> Value {
    let r_across = r.rows == 1 && (r.cols > 1 || across);
    match r.area {
        Some(a) if r_across == across => {
            let (dr, dc) = if across { (0, i as u32) } else { (i as u32, 0) };
            ev.cell_value(CellAddr::new(a.sheet, a.r0 + dr, a.c0 + dc))
        }
        _ if i >= if r_across { r.cols } else { r.rows } => Value::Error(ErrorKind::NA),
        _ if r_across => r.get(ev, 0, i),
        _ => r.get(ev, i, 0),
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::Sheet;

    /// LOOKUP's result vector counts at the lookup vector's size: a change
    /// past its end, where the answer is read, recalculates the formula.
    #[test]
    fn the_result_past_its_end_is_a_dependency() {
        let mut s = Sheet::new();
        for (r, v) in [(1, "1"), (2, "2"), (3, "3")] {
            s.set(&format!("A{r}"), v);
        }
        s.set("B3", "old");
        s.set("D1", "=LOOKUP(3,A1:A3,B1:B2)");
        s.recalc();
        assert_eq!(s.text("D1"), "old");
        s.set("B3", "new");
        s.recalc();
        assert_eq!(s.text("D1"), "new");
    }
}
