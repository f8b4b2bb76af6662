//! The summary table GROUPBY and PIVOTBY return: the row lines down the
//! side, the column lines (PIVOTBY; GROUPBY has one, every row) across,
//! each crossing's measures aggregated. Measures lay out across, one
//! column per measure under each column line, or down (a VSTACK of
//! functions), one row per measure in each row line with its labels in
//! columns after the keys. Above the data: the column keys' rows, the
//! functions' names when there are several (across), and the field
//! headers when shown (the row fields' names, the values' names across;
//! each column field's name left of its row of keys).

use super::Res;
use super::layout::{Axis, Line};
use super::measure::Measures;
use crate::eval::Eval;
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, MAX_WORK, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// The field names shown: one per row field, column field and value column.
pub(super) struct Names {
    pub rows: Vec<Value>,
    pub cols: Vec<Value>,
    pub values: Vec<Value>,
}

/// A summary to lay out.
pub(super) struct Summary<'a, 'f> {
    pub rows: Axis<'a>,
    /// The column fields' axis (PIVOTBY).
    pub cols: Option<Axis<'a>>,
    pub measures: &'a Measures<'f>,
    /// The field headers, when shown.
    pub names: Option<Names>,
    /// What a function taking two arguments gets as the whole (PIVOTBY's
    /// `relative_to`): 0 the column's rows, 1 the row's, 2 all, 3 the
    /// row's within the column's parent, 4 the row's parent's within the
    /// column.
    pub relative: i64,
}

impl Summary<'_, '_> {
    /// The table; past [`MAX_ARRAY_CELLS`] or [`MAX_WORK`] #NUM!.
    pub fn build(&self, ev: &mut Eval) -> Res<Value> {
        let m = self.measures;
        let all = m.rows.clone();
        let mut by = |ev: &mut Eval, rows: &[usize], which: usize| m.aggregate(ev, rows, &all, which);
        let row_lines = self.rows.lines(ev, &all, &mut by);
        let col_lines = match &self.cols {
            Some(axis) => axis.lines(ev, &all, &mut by),
            None => vec![Line::whole(&all)],
        };
        let (count, down, show) = (m.count(), m.vertical, self.names.is_some());
        let (across, per_line) = if down { (1, count) } else { (count, 1) };
        let labels = self.rows.keys.cols + if down { usize::from(m.several()) + usize::from(show) } else { 0 };
        let col_levels = self.cols.as_ref().map_or(0, |a| a.keys.cols);
        let heads = col_levels + usize::from(!down && m.several()) + usize::from(show);
        let width = labels as u64 + (col_lines.len() * across) as u64;
        let height = heads as u64 + (row_lines.len() * per_line) as u64;
        // Each crossing scans its row line's rows; a function taking the
        // whole too copies up to every row.
        let scanned: u64 = row_lines.iter().map(|l| l.rows.len() as u64).sum();
        let wholes = if m.with_all() { all.len() as u64 * row_lines.len() as u64 } else { 0 };
        let masks = if self.cols.is_some() { col_lines.len() as u64 * m.values.rows as u64 * 2 } else { 0 };
        let work =
            (scanned.saturating_add(wholes)).saturating_mul((col_lines.len() * count) as u64).saturating_add(masks);
        if width.saturating_mul(height) > MAX_ARRAY_CELLS || work > MAX_WORK {
            return Err(ErrorKind::Num);
        }
        let mut out = Vec::with_capacity((width * height) as usize);
        self.heads(&mut out, &col_lines, col_levels, labels);
        let mask = |rows: &[usize]| {
            let mut mask = vec![false; m.values.rows];
            rows.iter().for_each(|&r| mask[r] = true);
            mask
        };
        let pivot = self.cols.is_some();
        let masks: Vec<Vec<bool>> = if pivot { col_lines.iter().map(|l| mask(&l.rows)).collect() } else { Vec::new() };
        let parents: Vec<Vec<bool>> =
            if pivot && self.relative == 3 { col_lines.iter().map(|l| mask(&l.parent)).collect() } else { Vec::new() };
        for line in &row_lines {
            for k in 0..per_line {
                out.extend(line.labels.iter().cloned());
                if down && m.several() {
                    out.push(m.name(k));
                }
                if let (true, Some(names)) = (down, &self.names) {
                    out.push(names.values[m.column(k)].clone());
                }
                for (c, col) in col_lines.iter().enumerate() {
                    let rows = within(&line.rows, masks.get(c));
                    let whole = match self.relative {
                        _ if !m.with_all() => Cow::Borrowed(&[][..]),
                        1 => Cow::Borrowed(&line.rows[..]),
                        2 => Cow::Borrowed(&all[..]),
                        3 => within(&line.rows, parents.get(c)),
                        4 => within(&line.parent, masks.get(c)),
                        _ => Cow::Borrowed(&col.rows[..]),
                    };
                    let shown = if down { k..k + 1 } else { 0..count };
                    for which in shown {
                        out.push(if rows.is_empty() { Value::Empty } else { m.aggregate(ev, &rows, &whole, which) });
                    }
                }
            }
        }
        let width = width as usize;
        Ok(Value::Array(Arc::new(Array::new(out.len() / width, width, out))))
    }

    /// The header rows: the column keys, the functions' names (several,
    /// across) and the field names (shown).
    fn heads(&self, out: &mut Vec<Value>, cols: &[Line], levels: usize, labels: usize) {
        let m = self.measures;
        let across = if m.vertical { 1 } else { m.count() };
        for level in 0..levels {
            let start = out.len();
            out.extend(std::iter::repeat_n(Value::Empty, labels));
            if let Some(names) = &self.names {
                out[start + labels - 1] = names.cols[level].clone();
            }
            for col in cols {
                out.extend(std::iter::repeat_n(col.labels[level].clone(), across));
            }
        }
        if !m.vertical && m.several() {
            out.extend(std::iter::repeat_n(Value::Empty, labels));
            for _ in cols {
                out.extend((0..across).map(|k| m.name(k)));
            }
        }
        if let Some(names) = &self.names {
            out.extend(names.rows.iter().cloned());
            out.extend(std::iter::repeat_n(Value::Empty, labels - names.rows.len()));
            for _ in cols {
                out.extend((0..across).map(
                    |k| {
                        if m.vertical { Value::Empty } else { names.values[m.column(k)].clone() }
                    },
                ));
            }
        }
    }
}

/// The rows of `rows` in `mask`: all of them without one (GROUPBY).
fn within<'r>(rows: &'r [usize], mask: Option<&Vec<bool>>) -> Cow<'r, [usize]> {
    match mask {
        Some(mask) => Cow::Owned(rows.iter().copied().filter(|&r| mask[r]).collect()),
        None => Cow::Borrowed(rows),
    }
}
