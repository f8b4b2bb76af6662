//! GROUPBY and PERCENTOF (Excel 365): a summary of rows grouped by their
//! key columns, each group's values aggregated by a function (a LAMBDA or
//! a function's name; one that takes no single argument, as PERCENTOF,
//! gets the group's values and all values), with grand totals and
//! subtotals, sorted, filtered, with or without field headers.
//! <https://support.microsoft.com/en-us/Excel/functions/groupby-function>

use super::helpers::one;
use super::{Callable, callable, invoke, takes};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, given, number};
use crate::functions::arrays::sort::{Key, keys_cmp};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::cmp::Ordering;
use std::sync::Arc;

type Res<T> = Result<T, ErrorKind>;

/// `GROUPBY(row_fields, values, function, [field_headers], [total_depth],
/// [sort_order], [filter_array], [field_relationship])`.
pub(super) fn groupby(ev: &mut Eval, args: &[BExpr]) -> Value {
    match group(ev, args) {
        Ok(v) => v,
        Err(e) => Value::Error(e),
    }
}

/// An optional whole-number argument.
fn option(ev: &mut Eval, args: &[BExpr], i: usize) -> Res<Option<i64>> {
    match given(args, i) {
        Some(a) => Ok(Some(number(ev, a)?.trunc() as i64)),
        None => Ok(None),
    }
}

/// What GROUPBY works on: the data rows' keys and values, the function.
struct Grouping<'f> {
    keys: Arc<Array>,
    values: Arc<Array>,
    f: Callable<'f>,
    /// Whether the function takes the group's values and all values (PERCENTOF).
    with_all: bool,
    /// The data rows kept (headers and filtered rows left out).
    rows: Vec<usize>,
}

fn group(ev: &mut Eval, args: &[BExpr]) -> Res<Value> {
    let keys = array(ev, &args[0])?;
    let values = array(ev, &args[1])?;
    let f = callable(&args[2]).ok_or(ErrorKind::Value)?;
    let with_all = !takes(&f, 1);
    if with_all && !takes(&f, 2) || keys.rows != values.rows {
        return Err(ErrorKind::Value);
    }
    let headers = option(ev, args, 3)?;
    let (has, show) = match headers {
        None => {
            let has = values.rows > 1
                && matches!(values.get(0, 0), Value::Text(_))
                && matches!(values.get(1, 0), Value::Number(_));
            (has, has && keys.cols > 1)
        }
        Some(0) => (false, false),
        Some(1) => (true, false),
        Some(3) => (true, true),
        // 2 (no headers, but generate them): not done, see compatibility.md.
        Some(_) => return Err(ErrorKind::Value),
    };
    let table = option(ev, args, 7)?;
    if !matches!(table, None | Some(0) | Some(1)) {
        return Err(ErrorKind::Value);
    }
    let depth = match (option(ev, args, 4)?, table) {
        (_, Some(1)) => option(ev, args, 4)?.unwrap_or(1).clamp(-1, 1),
        (None, _) => keys.cols as i64,
        (Some(d), _) => d,
    };
    let sort = sort_spec(ev, args, keys.cols + values.cols)?;
    let mut rows: Vec<usize> = (usize::from(has)..keys.rows).collect();
    if let Some(a) = given(args, 6) {
        let filter = array(ev, a)?;
        if filter.len() != keys.rows {
            return Err(ErrorKind::Value);
        }
        let mut kept = Vec::with_capacity(rows.len());
        for r in rows {
            if filter.values()[r].to_bool()? {
                kept.push(r);
            }
        }
        rows = kept;
    }
    if rows.is_empty() {
        return Err(ErrorKind::Calc);
    }
    let g = Grouping { keys, values, f, with_all, rows };
    let mut out = Out { width: g.keys.cols + g.values.cols, data: Vec::new() };
    if show {
        let header = (0..g.keys.cols).map(|c| g.keys.get(0, c).clone());
        out.data.extend(header.chain((0..g.values.cols).map(|c| g.values.get(0, c).clone())));
    }
    let all = g.rows.clone();
    let tops = g.groups(&all, 0);
    let total = |ev: &mut Eval, out: &mut Out| -> Res<()> {
        let mut line = vec![Value::text("Total")];
        line.resize(g.keys.cols, Value::Empty);
        line.extend(g.aggregates(ev, &all));
        out.push(line)
    };
    if depth < 0 {
        total(ev, &mut out)?;
    }
    g.emit(ev, &mut out, tops, 0, depth, &sort)?;
    if depth > 0 {
        total(ev, &mut out)?;
    }
    let rows = out.data.len() / out.width;
    Ok(Value::Array(Arc::new(Array::new(rows, out.width, out.data))))
}

/// The result's rows, laid end to end.
struct Out {
    width: usize,
    data: Vec<Value>,
}

impl Out {
    fn push(&mut self, line: Vec<Value>) -> Res<()> {
        if (self.data.len() + line.len()) as u64 > MAX_ARRAY_CELLS {
            return Err(ErrorKind::Num);
        }
        self.data.extend(line);
        Ok(())
    }
}

/// The sort order: key or value column numbers (1-based across the key
/// columns then the value columns), negative descending; the first key
/// column ascending by default.
fn sort_spec(ev: &mut Eval, args: &[BExpr], columns: usize) -> Res<Vec<i64>> {
    let Some(a) = given(args, 5) else { return Ok(vec![1]) };
    let spec = array(ev, a)?;
    let mut out = Vec::with_capacity(spec.len());
    for v in spec.values() {
        let n = v.to_number()?.trunc() as i64;
        if n == 0 || n.unsigned_abs() as usize > columns {
            return Err(ErrorKind::Value);
        }
        out.push(n);
    }
    Ok(out)
}

/// One group at one level: its rows and its aggregates.
struct Group {
    rows: Vec<usize>,
    aggregates: Vec<Value>,
}

impl Grouping<'_> {
    /// The groups of `rows` by key column `level`, in first-seen order.
    fn groups(&self, rows: &[usize], level: usize) -> Vec<Vec<usize>> {
        let mut groups: Vec<([Key; 1], Vec<usize>)> = Vec::new();
        for &r in rows {
            let k = [Key::of(self.keys.get(r, level))];
            match groups.iter_mut().find(|(g, _)| keys_cmp(g, &k, &[], true) == Ordering::Equal) {
                Some((_, members)) => members.push(r),
                None => groups.push((k, vec![r])),
            }
        }
        groups.into_iter().map(|(_, m)| m).collect()
    }

    /// The function of each value column over `rows`.
    fn aggregates(&self, ev: &mut Eval, rows: &[usize]) -> Vec<Value> {
        (0..self.values.cols)
            .map(|c| {
                let part = column(&self.values, rows, c);
                let mut args = vec![part];
                if self.with_all {
                    args.push(column(&self.values, &self.rows, c));
                }
                let v = invoke(ev, &self.f, args);
                one(ev, v)
            })
            .collect()
    }

    /// Writes `groups` (of key column `level`), sorted, each followed
    /// (or preceded, for a negative depth) by its subtotal where `depth`
    /// asks for one.
    fn emit(
        &self,
        ev: &mut Eval,
        out: &mut Out,
        groups: Vec<Vec<usize>>,
        level: usize,
        depth: i64,
        sort: &[i64],
    ) -> Res<()> {
        let mut gs: Vec<Group> = groups
            .into_iter()
            .map(|rows| {
                let aggregates = self.aggregates(ev, &rows);
                Group { rows, aggregates }
            })
            .collect();
        self.order(&mut gs, level, sort);
        let leaf = level + 1 >= self.keys.cols;
        let subtotal = !leaf && (level as i64 + 2) <= depth.abs();
        for g in gs {
            let mut line: Vec<Value> = (0..self.keys.cols)
                .map(|c| if c <= level { self.keys.get(g.rows[0], c).clone() } else { Value::Empty })
                .collect();
            line.extend(g.aggregates.iter().cloned());
            if leaf {
                out.push(line)?;
                continue;
            }
            if subtotal && depth < 0 {
                out.push(line.clone())?;
            }
            let subs = self.groups(&g.rows, level + 1);
            self.emit(ev, out, subs, level + 1, depth, sort)?;
            if subtotal && depth > 0 {
                out.push(line)?;
            }
        }
        Ok(())
    }

    /// Sorts sibling groups of key column `level`: by that column when the
    /// sort order names it, else by the value column it names (their
    /// aggregates), else by the key ascending.
    fn order(&self, gs: &mut [Group], level: usize, sort: &[i64]) {
        let keys = self.keys.cols;
        let by_key = sort.iter().find(|n| n.unsigned_abs() as usize == level + 1);
        let by_value = sort.iter().find(|n| n.unsigned_abs() as usize > keys);
        let key = |g: &Group| Key::of(self.keys.get(g.rows[0], level));
        match (by_key, by_value) {
            (None, Some(&n)) => {
                let c = n.unsigned_abs() as usize - keys - 1;
                gs.sort_by(|a, b| {
                    keys_cmp(&[Key::of(&a.aggregates[c])], &[Key::of(&b.aggregates[c])], &[n < 0], false)
                });
            }
            (k, _) => {
                let desc = k.is_some_and(|n| *n < 0);
                gs.sort_by(|a, b| keys_cmp(&[key(a)], &[key(b)], &[desc], false));
            }
        }
    }
}

/// Column `c` of `a` at `rows`, as a one-column array.
fn column(a: &Array, rows: &[usize], c: usize) -> Value {
    let data = rows.iter().map(|&r| a.get(r, c).clone()).collect();
    Value::Array(Arc::new(Array::new(rows.len(), 1, data)))
}

/// `PERCENTOF(data_subset, data_all)`: the subset's sum over the whole's
/// (as SUM adds each); a zero whole is #DIV/0!.
/// <https://support.microsoft.com/en-us/Excel/percentof-function>
pub(super) fn percentof(ev: &mut Eval, args: &[BExpr]) -> Value {
    let Some(sum) = crate::functions::lookup("SUM") else { return Value::Error(ErrorKind::Value) };
    let part = (sum.eval)(ev, &args[..1]);
    let all = (sum.eval)(ev, &args[1..2]);
    match (part.to_number(), all.to_number()) {
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
        (Ok(_), Ok(0.0)) => Value::Error(ErrorKind::Div0),
        (Ok(p), Ok(a)) => Value::num(p / a),
    }
}
