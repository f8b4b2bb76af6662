//! VSTACK and HSTACK: arrays appended one below (beside) another, in
//! argument order, each narrower (shorter) one padded with #N/A to the
//! widest (tallest).

use super::{array, at, build, done};
use crate::eval::{BExpr, Eval};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::sync::Arc;

/// VSTACK(array1, ...) (`vertical`) and HSTACK(array1, ...). An error
/// given for an array is the result.
pub fn stack(ev: &mut Eval, a: &[BExpr], vertical: bool) -> Value {
    done(stack_of(ev, a, vertical))
}

fn stack_of(ev: &mut Eval, a: &[BExpr], vertical: bool) -> Result<Value, ErrorKind> {
    let parts: Vec<Arc<Array>> = a.iter().map(|e| array(ev, e)).collect::<Result<_, _>>()?;
    // Along the stacking, the sum of the lengths; across it, the widest.
    let (mut along, mut across) = (0u64, 0usize);
    for p in &parts {
        let (l, w) = if vertical { (p.rows, p.cols) } else { (p.cols, p.rows) };
        along += l as u64;
        across = across.max(w);
    }
    if along.saturating_mul(across as u64) > MAX_ARRAY_CELLS {
        return Err(ErrorKind::Num);
    }
    let along = along as usize;
    // Which part, and which of its rows (columns), each line comes from.
    let lines: Vec<(&Array, usize)> =
        parts.iter().flat_map(|p| (0..if vertical { p.rows } else { p.cols }).map(move |i| (&**p, i))).collect();
    let item = |(p, i): (&Array, usize), j: usize| {
        let (r, c) = if vertical { (i, j) } else { (j, i) };
        if r < p.rows && c < p.cols { at(p, r, c) } else { Value::Error(ErrorKind::NA) }
    };
    let lines = &lines;
    if vertical {
        build(along, across, (0..along).flat_map(|r| (0..across).map(move |c| item(lines[r], c))))
    } else {
        build(across, along, (0..across).flat_map(|r| (0..along).map(move |c| item(lines[c], r))))
    }
}
