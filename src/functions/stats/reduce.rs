//! SUM, AVERAGE and COUNT over references by whole blocks: the grid keeps,
//! per column and block of [`BLOCK`] rows, how many numbers and errors the
//! block holds and the exact sum of its safe integers
//! ([`crate::grid::blocks`]). A reference is cut at block boundaries;
//! COUNT adds the counts of the blocks it covers whole, and SUM adds a
//! covered block's sum at once when that gives the bits adding its cells
//! one by one would (see [`whole_block`]); every other part is read cell by
//! cell in row-major order, as before, so the first error in Excel's order
//! still wins. Values typed directly and arrays follow
//! [`args::for_each_operand`]'s order and [`args::number_operand`]'s rules.
//! A reference taller than a block continues the fold the grid remembers
//! for the same columns from the same top row ([`crate::grid::folds`]), so
//! cumulative sums down n rows read n rows in all, not n²/128 blocks
//! (COUNTIF's counts continue theirs the same way: `conditional.rs`).

use crate::address::Area;
use crate::eval::{BExpr, Eval};
use crate::functions::args::{self, Source};
use crate::grid::Grid;
use crate::grid::blocks::{BLOCK, SAFE, safe_integer};
use crate::grid::folds::{Fold, Folded, How, Reduced};
use crate::value::{ErrorKind, Kind, Value};

/// The sum of the numbers SUM adds, and how many there are (AVERAGE's
/// divisor).
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub sum: f64,
    pub numbers: u64,
}

/// The [`Totals`] of aggregate arguments, added in Excel's order from 0;
/// the first error met is the result instead.
pub fn totals(ev: &mut Eval, args: &[BExpr]) -> Result<Totals, ErrorKind> {
    let mut acc = Ok(Totals::default());
    for a in args {
        match ev.eval(a) {
            Value::Ref(area) => acc = add_area(ev, &area, acc),
            // Numbers added in order from the buffer; booleans from an
            // array are not added.
            Value::Array(arr) => match arr.as_dense() {
                Some((nums, Kind::Number)) => {
                    acc = acc.map(|t| Totals {
                        sum: nums.iter().fold(t.sum, |s, &x| s + x),
                        numbers: t.numbers + nums.len() as u64,
                    })
                }
                Some((_, Kind::Bool)) => {}
                None => arr.each(|v| {
                    acc = match v {
                        Value::Ref(area) => add_area(ev, area, acc),
                        v => add(acc, v, Source::Range),
                    };
                }),
            },
            v => acc = add(acc, &v, Source::Direct),
        }
    }
    acc
}

/// How many operands COUNT counts: numbers from references and arrays,
/// and values typed directly that read as numbers.
pub fn count(ev: &mut Eval, args: &[BExpr]) -> u64 {
    let mut n = 0;
    for a in args {
        let counted = |v: &Value, src| matches!(args::number_operand(v, src), Some(Ok(_))) as u64;
        n += match ev.eval(a) {
            Value::Ref(area) => count_area(ev, &area),
            Value::Array(arr) => match arr.as_dense() {
                // Numbers count, booleans from an array do not.
                Some((nums, Kind::Number)) => nums.len() as u64,
                Some((_, Kind::Bool)) => 0,
                None => arr
                    .values()
                    .iter()
                    .map(|v| match v {
                        Value::Ref(area) => count_area(ev, area),
                        v => counted(v, Source::Range),
                    })
                    .sum(),
            },
            v => counted(&v, Source::Direct),
        };
    }
    n
}

/// One operand added under SUM's rules.
fn add(acc: Result<Totals, ErrorKind>, v: &Value, src: Source) -> Result<Totals, ErrorKind> {
    match (acc, args::number_operand(v, src)) {
        (Ok(t), Some(r)) => r.map(|n| Totals { sum: t.sum + n, numbers: t.numbers + 1 }),
        (acc, _) => acc,
    }
}

/// The cells of a reference added under SUM's rules.
fn add_area(ev: &Eval, area: &Area, acc: Result<Totals, ErrorKind>) -> Result<Totals, ErrorKind> {
    let Some(grid) = ev.grid() else { return acc };
    let t = acc?;
    if !growing(area) {
        return add_rows(grid, area, t);
    }
    let how = How::Sum { from: t.sum.to_bits(), numbers: t.numbers };
    let add = |piece: &Area, r: Reduced| {
        let (sum, numbers) = r?;
        add_rows(grid, piece, Totals { sum, numbers }).map(|t| (t.sum, t.numbers))
    };
    let (sum, numbers) = continued(grid, area, how, Ok((t.sum, t.numbers)), add)?;
    Ok(Totals { sum, numbers })
}

/// How many numbers a reference holds.
fn count_area(ev: &Eval, area: &Area) -> u64 {
    let Some(grid) = ev.grid() else { return 0 };
    if !growing(area) {
        return count_rows(grid, area);
    }
    let add = |piece: &Area, r: Reduced| r.map(|(_, n)| (0.0, n + count_rows(grid, piece)));
    continued(grid, area, How::Count, Ok((0.0, 0)), add).map_or(0, |(_, n)| n)
}

/// Whether `area` is taller than a block: its fold is remembered. Short
/// areas (every board's) are read as before, after this one comparison.
#[inline(always)]
pub(super) fn growing(area: &Area) -> bool {
    area.r1 - area.r0 >= BLOCK
}

/// `fold` over the cells of a [`growing`] `area` from `start`: the grid's
/// remembered fold of its columns from its top row read `how` is
/// continued if it ends no lower (a row-major left fold continued over the
/// rows below gives the bits, and the first error, of the fold of the
/// whole), and the result is remembered in its place.
pub(super) fn continued(
    grid: &Grid,
    area: &Area,
    how: How,
    start: Reduced,
    fold: impl Fn(&Area, Reduced) -> Reduced,
) -> Reduced {
    let rows = grid.extent(area.sheet).0;
    let r1 = area.r1.min(rows.wrapping_sub(1));
    if rows == 0 || r1 < area.r0 {
        return fold(area, start);
    }
    let key = Fold { r0: area.r0, c0: area.c0, c1: area.c1, how };
    let (top, acc) = match grid.folded(area.sheet, &key) {
        Some(d) if d.r1 == r1 => return d.value,
        Some(d) if d.r1 < r1 => (d.r1 + 1, d.value),
        _ => (area.r0, start),
    };
    let value = fold(&Area { r0: top, r1, ..*area }, acc);
    grid.remember(area.sheet, key, Folded { r1, value });
    value
}

/// `t` plus the numbers of `area`, block by block.
fn add_rows(grid: &Grid, area: &Area, mut t: Totals) -> Result<Totals, ErrorKind> {
    for (piece, block) in pieces(grid, area) {
        t = match block.and_then(|b| whole_block(grid, &piece, b, t)) {
            Some(next) => next,
            None => cell_by_cell(grid, &piece, t)?,
        };
    }
    Ok(t)
}

/// How many numbers `area` holds, block by block.
fn count_rows(grid: &Grid, area: &Area) -> u64 {
    let numbers = |piece: Area, block: Option<u32>| -> u64 {
        match block {
            Some(b) => (piece.c0..=piece.c1).map(|c| grid.block(piece.sheet, b, c).numbers as u64).sum(),
            None => {
                let rows = grid.rows_of(&piece).0;
                rows.map(|row| row.iter().filter(|v| matches!(v, Value::Number(_))).count() as u64).sum()
            }
        }
    };
    pieces(grid, area).map(|(piece, block)| numbers(piece, block)).sum()
}

/// The stored part of `area` cut at block boundaries, top to bottom: each
/// piece, with its block's number when the piece covers every stored row
/// of the block (cells past the stored part are empty and add nothing).
fn pieces(grid: &Grid, area: &Area) -> impl Iterator<Item = (Area, Option<u32>)> {
    let (rows, cols) = grid.extent(area.sheet);
    let (r1, c1) = (area.r1.min(rows.wrapping_sub(1)), area.c1.min(cols.wrapping_sub(1)));
    let stored = rows > 0 && cols > 0 && area.r0 <= r1 && area.c0 <= c1;
    let first = area.r0 / BLOCK;
    let end = if stored { r1 / BLOCK + 1 } else { first };
    let (sheet, r0, c0) = (area.sheet, area.r0, area.c0);
    (first..end).map(move |b| {
        let (top, bottom) = (b * BLOCK, (b * BLOCK + BLOCK - 1).min(rows - 1));
        let (from, to) = (top.max(r0), bottom.min(r1));
        (Area::new(sheet, from, c0, to, c1), (from == top && to == bottom).then_some(b))
    })
}

/// `t` plus the numbers of `piece`, block `b` of its columns, when adding
/// the blocks' exact sums gives the same bits as adding the cells one by
/// one in row-major order; `None` otherwise.
///
/// Why it does: when `t.sum` and every number of the piece are integers and
/// `|t.sum|` plus the magnitudes of the numbers is at most 2^53, every
/// partial sum of the cell-by-cell loop, in any order, is an integer of at
/// most 2^53 in magnitude, so it is an `f64` and each addition is exact:
/// the loop ends on the exact integer sum, which this computes in `i64`.
/// (`-0.0` counts as 0: the sum starts at `+0.0`, and `+0.0 + -0.0` is
/// `+0.0`, as is the exact sum 0 converted.) A block holding an error or a
/// number that is not a safe integer is read cell by cell instead.
fn whole_block(grid: &Grid, piece: &Area, b: u32, t: Totals) -> Option<Totals> {
    let mut sum = safe_integer(t.sum)?;
    let mut magnitude = sum.unsigned_abs();
    let mut numbers = t.numbers;
    for c in piece.c0..=piece.c1 {
        let s = grid.block(piece.sheet, b, c);
        if s.errors > 0 || s.inexact > 0 {
            return None;
        }
        // Each block's magnitude is at most 64 × 2^53, so neither total
        // can overflow before the check.
        magnitude += s.magnitude;
        if magnitude > SAFE {
            return None;
        }
        sum += s.sum;
        numbers += s.numbers as u64;
    }
    Some(Totals { sum: sum as f64, numbers })
}

/// `t` plus the numbers of `piece`, cell by cell in row-major order; the
/// first error is the result.
fn cell_by_cell(grid: &Grid, piece: &Area, mut t: Totals) -> Result<Totals, ErrorKind> {
    for row in grid.rows_of(piece).0 {
        for v in row {
            match v {
                Value::Number(n) => (t.sum, t.numbers) = (t.sum + n, t.numbers + 1),
                Value::Error(e) => return Err(*e),
                _ => {}
            }
        }
    }
    Ok(t)
}
