//! The row (or column) layout GROUPBY and PIVOTBY share: the data rows
//! grouped by their key columns, level by level (groups in first-seen
//! order, keys compared as `=` compares them), each level's groups sorted
//! by their key or by an aggregate, with subtotal lines after (or before)
//! the groups of the levels `total_depth` asks for and a `Total` line.
//! Each line knows its parent's rows (the enclosing group's; the whole
//! for the top level and the `Total` line), for PIVOTBY's parent totals.

use crate::eval::Eval;
use crate::functions::arrays::sort::{Key, keys_cmp};
use crate::value::{Array, ErrorKind, Value};
use std::cmp::Ordering;
use std::rc::Rc;

/// One line of the layout: the data rows it sums up and its labels (one
/// per key column: the keys down to its level, then blanks).
pub(super) struct Line {
    pub rows: Vec<usize>,
    pub labels: Vec<Value>,
    /// The rows of the group enclosing this line's (all rows at the top).
    pub parent: Rc<Vec<usize>>,
}

impl Line {
    /// One line of all `rows`, without labels (GROUPBY's one column).
    pub fn whole(rows: &[usize]) -> Line {
        Line { rows: rows.to_vec(), labels: Vec::new(), parent: Rc::new(rows.to_vec()) }
    }
}

/// How the groups of one axis are laid out.
pub(super) struct Axis<'a> {
    pub keys: &'a Array,
    /// Levels of totals: 0 none, 1 the grand total, k also subtotals of
    /// the first k - 1 key columns; negative at the top.
    pub depth: i64,
    /// Key column numbers (1-based; negative descending), or one number
    /// past the key columns naming an aggregate to sort by.
    pub sort: &'a [i64],
}

/// The aggregate that groups are sorted by: `(rows, which)` to its value.
pub(super) type SortValue<'v> = dyn FnMut(&mut Eval, &[usize], usize) -> Value + 'v;

impl Axis<'_> {
    /// The lines of `rows` in order.
    pub fn lines(&self, ev: &mut Eval, rows: &[usize], value: &mut SortValue) -> Vec<Line> {
        let mut out = Vec::new();
        let root = Rc::new(rows.to_vec());
        let total = || {
            let mut labels = vec![Value::text("Total")];
            labels.resize(self.keys.cols, Value::Empty);
            Line { rows: rows.to_vec(), labels, parent: root.clone() }
        };
        if self.depth < 0 {
            out.push(total());
        }
        let tops = self.groups(rows, 0);
        self.walk(ev, tops, 0, &root, value, &mut out);
        if self.depth > 0 {
            out.push(total());
        }
        out
    }

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

    /// Lays out `groups` of key column `level` (within the group of rows
    /// `parent`), sorted, each followed (or preceded) by its subtotal
    /// where the depth asks for one.
    fn walk(
        &self,
        ev: &mut Eval,
        mut groups: Vec<Vec<usize>>,
        level: usize,
        parent: &Rc<Vec<usize>>,
        value: &mut SortValue,
        out: &mut Vec<Line>,
    ) {
        self.order(ev, &mut groups, level, value);
        let leaf = level + 1 >= self.keys.cols;
        let subtotal = !leaf && (level as i64 + 2) <= self.depth.abs();
        for rows in groups {
            let labels: Vec<Value> = (0..self.keys.cols)
                .map(|c| if c <= level { self.keys.get(rows[0], c).clone() } else { Value::Empty })
                .collect();
            let parent = parent.clone();
            if leaf {
                out.push(Line { rows, labels, parent });
                continue;
            }
            let subs = self.groups(&rows, level + 1);
            if subtotal && self.depth < 0 {
                out.push(Line { rows: rows.clone(), labels: labels.clone(), parent: parent.clone() });
            }
            self.walk(ev, subs, level + 1, &Rc::new(rows.clone()), value, out);
            if subtotal && self.depth > 0 {
                out.push(Line { rows, labels, parent });
            }
        }
    }

    /// Sorts sibling groups of key column `level`: by that column when the
    /// sort order names it, else by the aggregate it names, else by the
    /// key ascending.
    fn order(&self, ev: &mut Eval, groups: &mut [Vec<usize>], level: usize, value: &mut SortValue) {
        let keys = self.keys.cols;
        let by_key = self.sort.iter().find(|n| n.unsigned_abs() as usize == level + 1);
        let by_value = self.sort.iter().find(|n| n.unsigned_abs() as usize > keys);
        match (by_key, by_value) {
            (None, Some(&n)) => {
                let which = n.unsigned_abs() as usize - keys - 1;
                let mut keyed: Vec<(Key, Vec<usize>)> =
                    groups.iter_mut().map(|g| (Key::of(&value(ev, g, which)), std::mem::take(g))).collect();
                keyed.sort_by(|a, b| keys_cmp(std::slice::from_ref(&a.0), std::slice::from_ref(&b.0), &[n < 0], false));
                for (g, (_, rows)) in groups.iter_mut().zip(keyed) {
                    *g = rows;
                }
            }
            (k, _) => {
                let desc = k.is_some_and(|n| *n < 0);
                let key = |g: &Vec<usize>| Key::of(self.keys.get(g[0], level));
                groups.sort_by(|a, b| keys_cmp(&[key(a)], &[key(b)], &[desc], false));
            }
        }
    }
}

/// A sort order argument: key or aggregate column numbers (1-based, key
/// columns first), negative descending; 0 or past `columns` #VALUE!.
pub(super) fn sort_order(spec: &Array, columns: usize) -> Result<Vec<i64>, ErrorKind> {
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
