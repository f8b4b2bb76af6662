//! COUNTIFS with many criteria (an array criterion: `COUNTIFS(regions,
//! {1,2,3,4}, board, digits)` asks 36 questions of the same 729 cells)
//! counted in one pass: the ranges' positions are grouped by the values
//! they hold (a tuple per position, one value per range, held as the
//! indices of each range's distinct values), and each criterion value
//! is asked of its range's distinct values once (remembered for the other
//! rows asking it), then each row adds the count of each distinct tuple
//! whose values all matched. The match itself is [`Criterion::matches`],
//! the one home of the criteria rule; only how often it is asked changes
//! (distinct values × rows instead of positions × rows). Counts are whole
//! numbers, so the order of adding does not matter: the result is the
//! per-row walk's ([`super::for_each_match`]).

use super::{Criterion, Range};
use crate::eval::Eval;
use crate::grid::folds::Wanted;
use crate::value::{ErrorKind, Value};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::rc::Rc;

/// A value as a hash key: equal keys are the same value (numbers by their
/// bits, text by its exact characters), so a criterion matches both or
/// neither.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key<'a> {
    Empty,
    Number(u64),
    Text(&'a str),
    Bool(bool),
    Error(ErrorKind),
    /// An array or a reference inside a range: never grouped.
    Other,
}

impl Key<'_> {
    fn of(v: &Value) -> Key<'_> {
        match v {
            Value::Empty => Key::Empty,
            Value::Number(n) => Key::Number(n.to_bits()),
            Value::Text(t) => Key::Text(t),
            Value::Bool(b) => Key::Bool(*b),
            Value::Error(e) => Key::Error(*e),
            Value::Array(_) | Value::Ref(_) => Key::Other,
        }
    }
}

/// The most ranges grouped: a tuple's indices are held in place. COUNTIFS
/// with more ranges asks each criteria row of every position.
const GROUPED_RANGES: usize = 4;

/// One range's distinct values as they are met, each with its index:
/// small whole numbers, the empty value and the empty text (a Sudoku
/// board's digits and blanks, a region map's numbers) found directly,
/// other values by their key.
struct Distinct<'a> {
    /// The index of each whole number from 0 to [`SMALL`] - 1, then of the
    /// empty value and of the empty text ([`UNSEEN`]: not met yet).
    small: [u32; SMALL + 2],
    other: FxHashMap<Key<'a>, u32>,
    values: Vec<Value>,
}

/// The whole numbers a [`Distinct`] finds directly.
const SMALL: usize = 256;
const UNSEEN: u32 = u32::MAX;

impl<'a> Distinct<'a> {
    fn new() -> Self {
        Distinct { small: [UNSEEN; SMALL + 2], other: FxHashMap::default(), values: Vec::new() }
    }

    /// The index of `v` among the values met (a new one at the end), or
    /// None for a value that cannot be a key.
    #[inline]
    fn index(&mut self, v: &'a Value) -> Option<u32> {
        let slot = match v {
            // Exactly the number: -0 is a key of its own.
            Value::Number(n) if *n >= 0.0 && *n < SMALL as f64 && (*n as usize as f64).to_bits() == n.to_bits() => {
                *n as usize
            }
            Value::Empty => SMALL,
            Value::Text(t) if t.is_empty() => SMALL + 1,
            _ => {
                let key = Key::of(v);
                if key == Key::Other {
                    return None;
                }
                let values = &mut self.values;
                return Some(*self.other.entry(key).or_insert_with(|| push(values, v)));
            }
        };
        if self.small[slot] == UNSEEN {
            self.small[slot] = push(&mut self.values, v);
        }
        Some(self.small[slot])
    }
}

/// Adds `v` to `values`; its index.
fn push(values: &mut Vec<Value>, v: &Value) -> u32 {
    values.push(v.clone());
    values.len() as u32 - 1
}

/// The positions of some ranges of one size, grouped by what they hold.
pub(in crate::functions) struct Groups {
    /// Each range's distinct values, in the order first met.
    values: Vec<Vec<Value>>,
    /// Each distinct tuple (an index into each range's `values`) and how
    /// many positions hold it.
    tuples: Vec<([u32; GROUPED_RANGES], u64)>,
    /// Positions past the stored part of every range: all read empty.
    unstored: u64,
    /// For each range, what each criterion value asked of it met (see
    /// [`Groups::count`]).
    asked: RefCell<Vec<FxHashMap<Wanted, Rc<[bool]>>>>,
}

impl Groups {
    /// Groups the live positions of `ranges` (all of the first one's size),
    /// as [`super::for_each_match`] visits them; None for more than
    /// [`GROUPED_RANGES`] ranges, when a range holds a value that cannot be
    /// a key, or while folding (no grid to read).
    pub(in crate::functions) fn of(ev: &Eval, ranges: &[Range]) -> Option<Groups> {
        let grid = ev.grid()?;
        if ranges.len() > GROUPED_RANGES {
            return None;
        }
        let (rows, cols) = ranges[0].dims();
        let (lr, lc) = ranges.iter().map(|g| g.live_dims(ev)).fold((0, 0), |(r, c), (a, b)| (r.max(a), c.max(b)));
        let (lr, lc) = (lr.min(rows), lc.min(cols));
        // Each range's distinct values, then the tuples of their indices.
        let mut seen: Vec<Distinct> = ranges.iter().map(|_| Distinct::new()).collect();
        let mut index: FxHashMap<[u32; GROUPED_RANGES], usize> = FxHashMap::default();
        let mut tuples: Vec<([u32; GROUPED_RANGES], u64)> = Vec::new();
        for r in 0..lr {
            for c in 0..lc {
                let mut tuple = [0u32; GROUPED_RANGES];
                for ((g, d), t) in ranges.iter().zip(&mut seen).zip(&mut tuple) {
                    *t = d.index(g.peek(Some(grid), r, c))?;
                }
                match index.entry(tuple) {
                    Entry::Occupied(e) => tuples[*e.get()].1 += 1,
                    Entry::Vacant(e) => {
                        e.insert(tuples.len());
                        tuples.push((tuple, 1));
                    }
                }
            }
        }
        let values = seen.into_iter().map(|d| d.values).collect();
        Some(Groups { values, tuples, unstored: rows * cols - lr * lc, asked: RefCell::default() })
    }

    /// How many positions meet every criterion of the row `crits` (one
    /// per range): each criterion value asked once of each distinct value
    /// of its range, and of an empty cell, for all the rows that ask it.
    pub(in crate::functions) fn count(&self, crits: &[Value]) -> u64 {
        let met: Vec<Rc<[bool]>> = {
            let mut asked = self.asked.borrow_mut();
            asked.resize_with(self.values.len(), FxHashMap::default);
            let each = self.values.iter().zip(crits).zip(asked.iter_mut());
            each.map(|((values, crit), asked)| {
                let ask = || {
                    let k = Criterion::new(crit);
                    values.iter().chain([&Value::Empty]).map(|v| k.matches(v)).collect()
                };
                match Wanted::of(crit) {
                    Some(key) => asked.entry(key).or_insert_with(ask).clone(),
                    None => ask(),
                }
            })
            .collect()
        };
        let stored: u64 = self
            .tuples
            .iter()
            .filter(|(tuple, _)| met.iter().zip(tuple).all(|(m, &i)| m[i as usize]))
            .map(|(_, n)| n)
            .sum();
        // The last of each range's answers is an empty cell's.
        let empty = met.iter().all(|m| m.last() == Some(&true));
        stored + if empty { self.unstored } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::Sheet;

    /// Cells of every kind (numbers, numeric text, text in either case,
    /// blanks, empty text, booleans, errors) and criteria of every form:
    /// an array of criteria (grouped) gives, element by element, what each
    /// criterion alone gives (the per-row walk).
    #[test]
    fn many_criteria_count_as_each_alone() {
        let cells = ["5", "'5", "a", "A", "apple", "", "=\"\"", "TRUE", "FALSE", "=NA()", "0", "3.5", "-2", "=1/0"];
        let crits = [
            "5",
            "\"5\"",
            "\"=5\"",
            "\">3\"",
            "\"<>a\"",
            "\"a*\"",
            "\"\"",
            "\"=\"",
            "\"<>\"",
            "TRUE",
            "\"#N/A\"",
            "0",
            "\"?\"",
            "\"<=3.5\"",
        ];
        let mut s = Sheet::new();
        // Two columns of 60 rows, each cell picked by a different stride,
        // so the pairs of values vary (some cells left blank past row 50).
        for r in 0..50 {
            s.set(&format!("A{}", r + 1), cells[(r * 7 + 3) % cells.len()]);
            s.set(&format!("B{}", r + 1), cells[(r * 5 + 1) % cells.len()]);
        }
        let row = |cs: &[&str]| cs.join(",");
        // Pairs of criteria: shifted (mixed kinds) and the same twice (so
        // that blank-matching pairs count the 10 rows past the stored ones).
        for (k, shift) in [(0, 5), (1, 0)] {
            let (first, second): (Vec<&str>, Vec<&str>) =
                (0..crits.len()).map(|i| (crits[i], crits[(i * (1 + 2 * (1 - k)) + shift) % crits.len()])).unzip();
            let block = format!("{}:{}", cell(1, 0), cell(1, crits.len() - 1));
            s.set(&block, &format!("{{=COUNTIFS(A1:A60, {{{}}}, B1:B60, {{{}}})}}", row(&first), row(&second)));
            for (i, (a, b)) in first.iter().zip(&second).enumerate() {
                s.set(&cell(3, i), &format!("=COUNTIFS(A1:A60, {a}, B1:B60, {b})"));
            }
            s.recalc();
            let mut matched = 0;
            for i in 0..crits.len() {
                assert_eq!(s.text(&cell(1, i)), s.text(&cell(3, i)), "{} and {}", first[i], second[i]);
                matched += s.text(&cell(3, i)).parse::<u32>().unwrap_or(0);
            }
            assert!(matched > 0, "some criteria match");
        }
    }

    /// A row of criteria against a column of criteria: every criterion
    /// value asked by three rows of the grouped count (answered once and
    /// remembered), each element what that pair alone gives.
    #[test]
    fn criteria_repeated_across_rows_count_as_each_alone() {
        let mut s = Sheet::new();
        let cells = ["5", "a", "", "TRUE", "=\"\"", "7", "A"];
        for r in 0..40 {
            s.set(&format!("A{}", r + 1), cells[(r * 3) % cells.len()]);
            s.set(&format!("B{}", r + 1), cells[(r * 5 + 2) % cells.len()]);
        }
        let (first, second) = (["5", "\"a\"", "\"\""], ["5", "\"<>a\"", "TRUE"]);
        s.set("D1:F3", &format!("{{=COUNTIFS(A1:A50, {{{}}}, B1:B50, {{{}}})}}", first.join(","), second.join(";")));
        for (i, b) in second.iter().enumerate() {
            for (j, a) in first.iter().enumerate() {
                s.set(&cell(5 + i, j), &format!("=COUNTIFS(A1:A50, {a}, B1:B50, {b})"));
            }
        }
        s.recalc();
        let mut matched = 0;
        for (i, b) in second.iter().enumerate() {
            for (j, a) in first.iter().enumerate() {
                assert_eq!(s.text(&cell(1 + i, j)), s.text(&cell(5 + i, j)), "{a} and {b}");
                matched += s.text(&cell(5 + i, j)).parse::<u32>().unwrap_or(0);
            }
        }
        assert!(matched > 0, "some criteria match");
    }

    /// The cell at row `r` (1-based) of the formulas' column block, column `i` (0-based) from D.
    fn cell(r: usize, i: usize) -> String {
        format!("{}{}", crate::address::col_name(3 + i as u32), r)
    }
}
