//! PIVOTBY (Excel 365): rows grouped by the row fields down the side,
//! by the column fields across the top, each crossing's values
//! aggregated, with totals and subtotals on both axes.
//! <https://support.microsoft.com/en-us/Excel/functions/pivotby-function>

use super::layout::{Axis, sort_order};
use super::{Data, Res, depth, headers, option};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, given};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, MAX_WORK, Value};
use std::sync::Arc;

/// `PIVOTBY(row_fields, col_fields, values, function, [field_headers],
/// [row_total_depth], [row_sort_order], [col_total_depth],
/// [col_sort_order], [filter_array], [relative_to])`: one value column;
/// headers are read (1) but not shown (3 is #VALUE!); `relative_to` (the
/// whole PERCENTOF compares with) 0 the column's total, 1 the row's, 2
/// the grand total (3 and 4, the parents', #VALUE!).
pub(in super::super) fn pivotby(ev: &mut Eval, args: &[BExpr]) -> Value {
    match pivot(ev, args) {
        Ok(v) => v,
        Err(e) => Value::Error(e),
    }
}

fn pivot(ev: &mut Eval, args: &[BExpr]) -> Res<Value> {
    let row_keys = array(ev, &args[0])?;
    let col_keys = array(ev, &args[1])?;
    let values = array(ev, &args[2])?;
    if row_keys.rows != values.rows || col_keys.rows != values.rows || values.cols != 1 {
        return Err(ErrorKind::Value);
    }
    let (has, show) = headers(ev, args, 4, &values, 1)?;
    if show {
        return Err(ErrorKind::Value);
    }
    let row_depth = depth(ev, args, 5, row_keys.cols, false)?;
    let col_depth = depth(ev, args, 7, col_keys.cols, false)?;
    let sort = |ev: &mut Eval, i: usize, keys: usize| -> Res<Vec<i64>> {
        match given(args, i) {
            Some(a) => sort_order(&*array(ev, a)?, keys + 1),
            None => Ok(vec![1]),
        }
    };
    let (row_sort, col_sort) = (sort(ev, 6, row_keys.cols)?, sort(ev, 8, col_keys.cols)?);
    let relative = option(ev, args, 10)?.unwrap_or(0);
    if !(0..=2).contains(&relative) {
        return Err(ErrorKind::Value);
    }
    let data = Data::new(ev, values, &args[3], usize::from(has), given(args, 9))?;
    let all = data.rows.clone();
    let mut total = |ev: &mut Eval, rows: &[usize], _: usize| data.aggregate(ev, rows, rows, 0);
    let rows_axis = Axis { keys: &row_keys, depth: row_depth, sort: &row_sort };
    let row_lines = rows_axis.lines(ev, &data.rows, &mut total);
    let cols_axis = Axis { keys: &col_keys, depth: col_depth, sort: &col_sort };
    let col_lines = cols_axis.lines(ev, &data.rows, &mut total);
    let width = row_keys.cols + col_lines.len();
    let height = col_keys.cols + row_lines.len();
    let cells = (width as u64).saturating_mul(height as u64);
    if cells > MAX_ARRAY_CELLS || cells.saturating_mul(all.len() as u64) > MAX_WORK {
        return Err(ErrorKind::Num);
    }
    let mut out = Vec::with_capacity(width * height);
    for level in 0..col_keys.cols {
        out.extend(std::iter::repeat_n(Value::Empty, row_keys.cols));
        out.extend(col_lines.iter().map(|l| l.labels[level].clone()));
    }
    let masks: Vec<Vec<bool>> = col_lines
        .iter()
        .map(|l| {
            let mut m = vec![false; data.values.rows];
            l.rows.iter().for_each(|&r| m[r] = true);
            m
        })
        .collect();
    for line in row_lines {
        out.extend(line.labels.iter().cloned());
        for (col, mask) in col_lines.iter().zip(&masks) {
            let rows: Vec<usize> = line.rows.iter().copied().filter(|&r| mask[r]).collect();
            let whole = match relative {
                0 => &col.rows,
                1 => &line.rows,
                _ => &all,
            };
            out.push(if rows.is_empty() { Value::Empty } else { data.aggregate(ev, &rows, whole, 0) });
        }
    }
    Ok(Value::Array(Arc::new(Array::new(height, width, out))))
}
