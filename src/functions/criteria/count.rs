//! COUNTIF's counting, the Sudoku solver's hot path
//! (`COUNTIF(range, {1;2;...;9})` and `COUNTIF(range, n)`): however many
//! criteria, the range is read once. A cell equals a number criterion when
//! it is a number, or text reading as a number, equal to it to 15 digits
//! ([`num_eq`]); empty cells, booleans and errors never do. Whole numbers
//! within a span of [`SPAN`] count with one counter each, on the stack;
//! other numbers by a binary search per cell; criteria that are not all
//! plain numbers test each cell with [`Criterion::matches`].

use super::{Criterion, Range};
use crate::eval::Eval;
use crate::value::{Kind, Value, num_eq, parse_number};

/// The number a criterion matches by plain equality, if that is what it is.
fn plain_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => Some(*n),
        v => Criterion::new(v).number(),
    }
}

/// Calls `f` with every value of `range` that can equal a number
/// criterion, as that number, in one tight loop per row of a reference.
#[inline(always)]
fn for_each_number(ev: &Eval, range: &Range, mut f: impl FnMut(f64)) {
    match range {
        // While folding there is no grid: the read is noted, nothing counted.
        Range::Area(a) => {
            if let Some(grid) = ev.grid() {
                for row in grid.rows_of(a).0 {
                    row.iter().filter_map(cell_number).for_each(&mut f);
                }
            }
        }
        Range::Array(a) => match a.as_dense() {
            // Booleans never equal a number criterion.
            Some((nums, Kind::Number)) => nums.iter().copied().for_each(f),
            Some((_, Kind::Bool)) => {}
            None => a.values().iter().filter_map(cell_number).for_each(f),
        },
        Range::One(v) => cell_number(v).into_iter().for_each(f),
    }
}

/// A cell as a number for equality with a number criterion: a number, or
/// text that reads as one (empty text, frequent, is passed over without
/// parsing).
#[inline(always)]
fn cell_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(x) => Some(*x),
        Value::Text(s) if !s.is_empty() => parse_number(s),
        _ => None,
    }
}

/// Whole-number criteria within a small span (the Sudoku's 1..9) are
/// counted with one counter per value, on the stack.
const SPAN: usize = 64;

/// The smallest criterion, when every criterion is a whole number (to
/// 10^15) and all lie within [`SPAN`].
fn whole_span(crits: &[f64]) -> Option<i64> {
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    for &n in crits {
        if n.fract() != 0.0 || n.abs() > 1e15 {
            return None;
        }
        (min, max) = (min.min(n as i64), max.max(n as i64));
    }
    (!crits.is_empty() && max - min < SPAN as i64).then_some(min)
}

/// The slot of the whole number in `min..min + SPAN` that `x` equals to 15
/// digits, for an `x` that is not whole (rare).
#[cold]
#[inline(never)]
fn near_whole(x: f64, min: i64) -> Option<usize> {
    let k = (x - min as f64).round();
    (k >= 0.0 && k < SPAN as f64 && num_eq(x, k + min as f64)).then_some(k as usize)
}

/// How many values of `range` equal one number (numbers, and text that reads as it).
pub(in crate::functions) fn count_number(ev: &Eval, range: &Range, n: f64) -> u64 {
    let mut count = 0;
    // Numbers equal to n to 15 digits lie within 1e-14 of its size: one
    // subtraction rules out the rest before the exact test.
    let near = 2e-14 * n.abs();
    let equal = |x: f64| x == n || ((x - n).abs() <= near && num_eq(x, n));
    for_each_number(ev, range, |x| count += equal(x) as u64);
    count
}

/// How many values of `range` meet one compiled criterion (the empty
/// cells past the stored part of a reference included).
pub(in crate::functions) fn count_meeting(ev: &Eval, range: &Range, c: &Criterion) -> u64 {
    if let Some(n) = c.number() {
        return count_number(ev, range, n);
    }
    let mut count = 0;
    let outside = range.scan(ev, |v| count += c.matches(v) as u64);
    count + if c.matches(&Value::Empty) { outside } else { 0 }
}

/// How many values of `range` meet each criterion, in one pass.
pub(in crate::functions) fn count_each(ev: &Eval, range: &Range, crits: &[Value]) -> Vec<u64> {
    if let [one] = crits {
        return vec![count_meeting(ev, range, &Criterion::new(one))];
    }
    if let Some(numbers) = crits.iter().map(plain_number).collect::<Option<Vec<f64>>>() {
        return count_numbers(ev, range, &numbers);
    }
    let mut counts = vec![0u64; crits.len()];
    let compiled: Vec<Criterion> = crits.iter().map(Criterion::new).collect();
    let outside = range.scan(ev, |v| {
        for (k, c) in compiled.iter().enumerate() {
            counts[k] += c.matches(v) as u64;
        }
    });
    for (k, c) in compiled.iter().enumerate() {
        if c.matches(&Value::Empty) {
            counts[k] += outside;
        }
    }
    counts
}

/// How many values of `range` equal each number criterion, in one pass.
pub(in crate::functions) fn count_numbers(ev: &Eval, range: &Range, crits: &[f64]) -> Vec<u64> {
    if let [n] = crits {
        return vec![count_number(ev, range, *n)];
    }
    if let Some(min) = whole_span(crits) {
        let mut slots = [0u64; SPAN];
        let base = min as f64;
        for_each_number(ev, range, |x| {
            let i = x - base;
            if i >= 0.0 && i < SPAN as f64 && (i as usize) as f64 == i {
                slots[i as usize] += 1;
            } else if (x as i64) as f64 != x {
                // Not whole, but maybe equal to a whole number to 15 digits.
                if let Some(k) = near_whole(x, min) {
                    slots[k] += 1;
                }
            }
        });
        return crits.iter().map(|&n| slots[(n as i64 - min) as usize]).collect();
    }
    // Other numbers: sort once, then one binary search per cell. Empty
    // cells never equal a number criterion.
    let mut counts = vec![0u64; crits.len()];
    let mut lookup: Vec<(f64, usize)> = crits.iter().copied().zip(0..).collect();
    lookup.sort_by(|a, b| a.0.total_cmp(&b.0));
    for_each_number(ev, range, |x| {
        // Numbers equal to 15 digits lie within about 1e-14 of x.
        let near = 1e-14 * x.abs();
        let start = lookup.partition_point(|(n, _)| *n < x - near);
        for (n, k) in lookup[start..].iter().take_while(|(n, _)| *n <= x + near) {
            counts[*k] += num_eq(x, *n) as u64;
        }
    });
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::{Area, CellAddr};
    use crate::value::{Array, ErrorKind};
    use Value::{Bool as B, Empty as E, Number as N};
    use std::sync::Arc;

    fn t(s: &str) -> Value {
        Value::text(s)
    }

    /// Every kind of cell a number criterion may meet, and number criteria
    /// of every path (one number, whole numbers in a small span, other
    /// numbers, numbers written as text), single and in arrays: the counts
    /// equal testing each cell with [`Criterion::matches`].
    #[test]
    fn number_criteria_count_as_matching_each_cell() {
        let next = |x: f64| f64::from_bits(x.to_bits() + 1);
        let cells = vec![
            N(1.0),
            N(2.0),
            N(9.0),
            N(0.0),
            N(-0.0),
            N(-3.0),
            N(2.5),
            N(next(2.0)),
            N(1e300),
            N(4.0 + 1e-13),
            t("2"),
            t(" 3 "),
            t("2.0"),
            t("200%"),
            t("1e0"),
            t("-3"),
            t(""),
            t("x"),
            t("TRUE"),
            t("#N/A"),
            B(true),
            B(false),
            E,
            Value::Error(ErrorKind::NA),
            Value::Error(ErrorKind::Div0),
            N(64.0),
            N(1e16),
        ];
        let mut grid = crate::grid::Grid::new(1);
        for (r, v) in cells.iter().enumerate() {
            let at = CellAddr::new(0, r as u32, 1);
            assert!(grid.reserve(at));
            grid.set(at, v.clone());
        }
        let ev = Eval::new(&grid, CellAddr::new(0, 0, 5));
        let ranges = [
            Range::Array(Arc::new(Array::new(cells.len(), 1, cells.clone()))),
            Range::Area(Area::new(0, 0, 0, cells.len() as u32 + 5, 2)),
        ];
        let single = [N(2.0), N(1.0), N(0.0), N(-3.0), N(2.5), N(4.0), N(3.0), N(64.0), N(1e16), t("2"), t("=2"), E];
        let arrays: [&[Value]; 6] = [
            &[N(1.0), N(2.0), N(3.0), N(4.0), N(5.0), N(6.0), N(7.0), N(8.0), N(9.0)],
            &[N(2.0), N(2.0), N(0.0), N(-3.0), N(60.0)],
            &[N(0.0), N(64.0)],
            &[N(2.5), N(2.0), N(1e300), N(-0.0)],
            &[t("=2"), N(3.0), t("1")],
            &[N(4.0), t(">1"), E],
        ];
        for range in &ranges {
            let expected = |crits: &[Value]| -> Vec<u64> {
                let compiled: Vec<Criterion> = crits.iter().map(Criterion::new).collect();
                let mut counts = vec![0; crits.len()];
                let outside =
                    range.scan(&ev, |v| compiled.iter().zip(&mut counts).for_each(|(c, n)| *n += c.matches(v) as u64));
                compiled.iter().zip(&mut counts).for_each(|(c, n)| *n += outside * c.matches(&E) as u64);
                counts
            };
            for crit in &single {
                let want = expected(std::slice::from_ref(crit));
                assert_eq!(count_each(&ev, range, std::slice::from_ref(crit)), want, "{crit:?}");
                if let Value::Number(n) = crit {
                    assert_eq!(count_number(&ev, range, *n), want[0], "{crit:?}");
                }
            }
            for crits in arrays {
                assert_eq!(count_each(&ev, range, crits), expected(crits), "{crits:?}");
            }
        }
        assert_eq!(count_number(&ev, &ranges[0], 2.0), 5, "2, 2 + 1 ulp, \"2\", \"2.0\", \"200%\"");
    }

    #[test]
    fn numeric_fast_path_counts_duplicates_and_text() {
        let grid = crate::grid::Grid::new(1);
        let ev = Eval::new(&grid, CellAddr::new(0, 0, 0));
        let data = vec![N(1.0), t("2"), N(2.0), B(true), E, t("x"), N(3.0)];
        let range = Range::Array(Arc::new(Array::new(7, 1, data)));
        assert_eq!(count_each(&ev, &range, &[N(2.0), N(1.0), N(2.0), N(9.0), E]), vec![2, 1, 2, 0, 0]);
        // `"<>2"` counts the text "2" as different (Excel's asymmetry).
        assert_eq!(count_each(&ev, &range, &[t(">1"), t(""), t("<>2")]), vec![2, 1, 6]);
    }
}
