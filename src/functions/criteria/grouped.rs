//! COUNTIFS with many criteria (an array criterion: `COUNTIFS(regions,
//! {1,2,3,4}, board, digits)` asks 36 questions of the same 729 cells)
//! counted in one pass: the ranges' positions are grouped by the values
//! they hold (a tuple per position, one value per range), and each
//! criteria row is asked of each distinct tuple once, its count added
//! where every criterion matches. The match itself is
//! [`Criterion::matches`], the one home of the criteria rule; only how
//! often it is asked changes (distinct tuples × rows instead of positions
//! × rows). Counts are whole numbers, so the order of adding does not
//! matter: the result is the per-row walk's ([`super::for_each_match`]).

use super::{Criterion, Range};
use crate::eval::Eval;
use crate::value::{ErrorKind, Value};
use rustc_hash::FxHashMap;

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

/// The positions of some ranges of one size, grouped by what they hold.
pub(in crate::functions) struct Groups {
    /// Each distinct tuple (one value per range) and how many positions hold it.
    tuples: Vec<(Vec<Value>, u64)>,
    /// Positions past the stored part of every range: all read empty.
    unstored: u64,
}

impl Groups {
    /// Groups the live positions of `ranges` (all of the first one's size),
    /// as [`super::for_each_match`] visits them; None when a range holds a
    /// value that cannot be a key, or while folding (no grid to read).
    pub(in crate::functions) fn of(ev: &Eval, ranges: &[Range]) -> Option<Groups> {
        let grid = ev.grid()?;
        let (rows, cols) = ranges[0].dims();
        let (lr, lc) = ranges.iter().map(|g| g.live_dims(ev)).fold((0, 0), |(r, c), (a, b)| (r.max(a), c.max(b)));
        let (lr, lc) = (lr.min(rows), lc.min(cols));
        let mut index: FxHashMap<Vec<Key>, usize> = FxHashMap::default();
        let mut tuples: Vec<(Vec<Value>, u64)> = Vec::new();
        // One key buffer for every position: a tuple is copied only when new.
        let mut key: Vec<Key> = Vec::with_capacity(ranges.len());
        for r in 0..lr {
            for c in 0..lc {
                key.clear();
                key.extend(ranges.iter().map(|g| Key::of(g.peek(Some(grid), r, c))));
                if key.contains(&Key::Other) {
                    return None;
                }
                match index.get(key.as_slice()) {
                    Some(&i) => tuples[i].1 += 1,
                    None => {
                        index.insert(key.clone(), tuples.len());
                        tuples.push((ranges.iter().map(|g| g.peek(Some(grid), r, c).clone()).collect(), 1));
                    }
                }
            }
        }
        Some(Groups { tuples, unstored: rows * cols - lr * lc })
    }

    /// How many positions meet every criterion of `crits` (one per range).
    pub(in crate::functions) fn count(&self, crits: &[Criterion]) -> u64 {
        let stored: u64 = self
            .tuples
            .iter()
            .filter(|(values, _)| values.iter().zip(crits).all(|(v, k)| k.matches(v)))
            .map(|(_, n)| n)
            .sum();
        let empty = crits.iter().all(|k| k.matches(&Value::Empty));
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

    /// The cell at row `r` (1-based) of the formulas' column block, column `i` (0-based) from D.
    fn cell(r: usize, i: usize) -> String {
        format!("{}{}", crate::address::col_name(3 + i as u32), r)
    }
}
