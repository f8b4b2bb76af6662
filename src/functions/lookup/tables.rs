//! VLOOKUP, HLOOKUP and LOOKUP: the older lookups, which search the first
//! column (row) of a table and return a value from the same row (column).
//! Their approximate mode is MATCH type 1's binary search, so they give
//! Excel's answers on unsorted data too; VLOOKUP's and HLOOKUP's exact
//! mode takes wildcards in text. Each returns a value, not a reference.

use super::search::{Match, Search, Table, find};
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
/// result vector, the value at the position found (#N/A past its end);
/// without, the array form: a table wider than tall is searched along its
/// first row and answers from its last row, any other along its first
/// column, answering from its last column.
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
        (Ok(i), Some(r)) if r.rows == 1 && i < r.cols => r.get(ev, 0, i),
        (Ok(i), Some(r)) if r.rows > 1 && i < r.rows => r.get(ev, i, 0),
        (Ok(_), Some(_)) => Value::Error(ErrorKind::NA),
    })
}
