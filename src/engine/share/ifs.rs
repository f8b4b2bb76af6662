//! Counts by several criteria changed in place. A shared
//! `COUNTIFS(range1, criteria1, range2, criteria2, ...)` of fixed areas
//! counts, for each element of its criteria (broadcast together as the
//! function lifts them), the positions where every range meets its
//! criterion: the hyper boards' `COUNTIFS(val_region_board,
//! region_numbers, val_board, digits)` counts each digit's candidates in
//! each extra region. A write into a range whose criteria are constant
//! changes only the elements whose criterion there the written cell met
//! before and not after, or the other way, and only where the other
//! ranges' cells at the same position meet theirs: each such element
//! gains or loses 1 in place ([`IfsCount::update`]), where the whole
//! count was forgotten and counted again over every position. The match
//! is [`Criterion::matches`], the rule COUNTIFS counts by; the constant
//! criteria are found through an index by number where they are
//! equality with distinct whole numbers (`ArrayCount`, as for the counts
//! by an array of criteria). A write into another range, or into what a
//! criterion that is not constant reads, forgets the count as before.

use super::counted::ArrayCount;
use crate::address::{Area, CellAddr};
use crate::eval::BExpr;
use crate::functions::Intrinsic;
use crate::functions::args::lifted_dims;
use crate::functions::criteria::Criterion;
use crate::grid::Grid;
use crate::ids::SharedId;
use crate::value::{Array, Value};
use std::sync::Arc;

/// A write into a cell: where, the value it replaced (`None`: not
/// known) and the new one, in the grid that now holds it.
#[derive(Clone, Copy)]
pub struct Write<'a> {
    pub at: CellAddr,
    pub old: Option<&'a Value>,
    pub new: &'a Value,
    pub grid: &'a Grid,
}

/// The most pairs of a count changed in place.
const MAX_PAIRS: usize = 4;

/// The most elements of a count one write visits; a write that would
/// visit more forgets the count.
const MAX_VISITS: usize = 1024;

/// A shared COUNTIFS of fixed areas whose constant criteria's ranges are
/// changed in place.
#[derive(Clone, Debug)]
pub(super) struct IfsCount {
    pairs: Box<[Pair]>,
}

#[derive(Clone, Debug)]
struct Pair {
    range: Area,
    criteria: Criteria,
}

#[derive(Clone, Debug)]
enum Criteria {
    /// A constant (a scalar or an array), and its criteria by element:
    /// the writes into the range are changed in place.
    Fixed(Value, ArrayCount),
    /// A shared subformula's value, asked at each write.
    Shared(SharedId),
}

impl IfsCount {
    /// The count `e` is, when it is a COUNTIFS of two to four pairs of
    /// fixed areas of one size that do not overlap, each criterion a
    /// constant or a shared subformula, at least one a constant.
    pub(super) fn of(e: &BExpr) -> Option<IfsCount> {
        let args = match e {
            BExpr::ArrayMode(x) => return IfsCount::of(x),
            BExpr::Kept(x) => return IfsCount::of(x),
            BExpr::Call(f, args) if f.intrinsic == Some(Intrinsic::CountIfs) => args,
            _ => return None,
        };
        if args.len() < 4 || !args.len().is_multiple_of(2) || args.len() > 2 * MAX_PAIRS {
            return None;
        }
        let pairs: Option<Box<[Pair]>> = args
            .chunks(2)
            .map(|pair| {
                let BExpr::Const(Value::Ref(range)) = &pair[0] else { return None };
                let criteria = match &pair[1] {
                    BExpr::Shared(s) => Criteria::Shared(*s),
                    BExpr::Const(v) if !matches!(v, Value::Ref(_)) && v.ref_array().is_none() => {
                        let array = match v {
                            Value::Array(a) if !a.is_empty() => Arc::clone(a),
                            Value::Array(_) => return None,
                            v => Arc::new(Array::new(1, 1, vec![v.clone()])),
                        };
                        Criteria::Fixed(v.clone(), ArrayCount::new(array.values().iter().map(Criterion::new).collect()))
                    }
                    _ => return None,
                };
                Some(Pair { range: *range, criteria })
            })
            .collect();
        let pairs = pairs?;
        let dims = |a: &Area| (a.rows(), a.cols());
        let one_size = pairs.iter().all(|p| dims(&p.range) == dims(&pairs[0].range));
        let apart =
            pairs.iter().enumerate().all(|(i, p)| pairs[i + 1..].iter().all(|q| p.range.intersect(&q.range).is_none()));
        let fixed = pairs.iter().any(|p| matches!(p.criteria, Criteria::Fixed(..)));
        (one_size && apart && fixed).then_some(IfsCount { pairs })
    }

    /// Whether `e` may be such a count, told by its arguments' kinds
    /// alone (a criterion that is not constant may be shared apart only
    /// later, the pass going down): the sharing pass shares one apart from
    /// the subformula holding it.
    pub(super) fn is_one(e: &BExpr) -> bool {
        match e {
            BExpr::ArrayMode(x) => IfsCount::is_one(x),
            BExpr::Kept(x) => IfsCount::is_one(x),
            BExpr::Call(f, args) if f.intrinsic == Some(Intrinsic::CountIfs) => {
                let pair = |p: &[BExpr]| matches!(p[0], BExpr::Const(Value::Ref(_)));
                (4..=2 * MAX_PAIRS).contains(&args.len())
                    && args.len().is_multiple_of(2)
                    && args.chunks(2).all(pair)
                    && args.chunks(2).any(|p| matches!(p[1], BExpr::Const(_)))
            }
            _ => false,
        }
    }

    /// The ranges whose writes are changed in place, by pair.
    pub(super) fn moving(&self) -> impl Iterator<Item = (usize, &Area)> {
        let fixed = |p: &Pair| matches!(p.criteria, Criteria::Fixed(..));
        self.pairs.iter().enumerate().filter(move |(_, p)| fixed(p)).map(|(i, p)| (i, &p.range))
    }

    /// The shared subformulas its criteria are.
    pub(super) fn shared_criteria(&self) -> impl Iterator<Item = SharedId> + '_ {
        self.pairs.iter().filter_map(|p| match p.criteria {
            Criteria::Shared(s) => Some(s),
            Criteria::Fixed(..) => None,
        })
    }

    /// Changes `held`, this count's value, for `write` into the range of
    /// pair `j`, the shared criteria read from `shared`: false where it
    /// cannot be changed so (the old value not known, a criterion not
    /// held or held as a reference, the value held not such a count), and
    /// it is to be forgotten.
    pub(super) fn update(&self, j: usize, held: &mut Value, write: &Write, shared: &[Option<Value>]) -> bool {
        let Write { at, old, new, grid } = *write;
        let (Some(old), Value::Array(counts), Criteria::Fixed(own, count)) = (old, held, &self.pairs[j].criteria)
        else {
            return false;
        };
        // The criteria as the function reads them, and the shape it lifts
        // them to: an array is needed for the count to be one.
        let mut values: [&Value; MAX_PAIRS] = [own; MAX_PAIRS];
        for (slot, p) in values.iter_mut().zip(self.pairs.iter()) {
            *slot = match &p.criteria {
                Criteria::Fixed(v, _) => v,
                // COUNTIFS reads a reference's cells: a held reference is
                // not the criteria it asks.
                Criteria::Shared(s) => match shared.get(s.index()) {
                    Some(Some(v)) if !matches!(v, Value::Ref(_)) && v.ref_array().is_none() => v,
                    _ => return false,
                },
            };
        }
        let values = &values[..self.pairs.len()];
        let Some((rows, cols)) = lifted_dims(values.iter().copied()) else { return false };
        if (counts.rows, counts.cols) != (rows, cols) {
            return false;
        }
        // Element of `own` each element of the count asks, as broadcast:
        // one outside it would ask #N/A (not taken).
        let (own_rows, own_cols) = match own {
            Value::Array(a) => (a.rows, a.cols),
            _ => (1, 1),
        };
        if (own_rows != 1 && own_rows != rows) || (own_cols != 1 && own_cols != cols) {
            return false;
        }
        let range = &self.pairs[j].range;
        let (dr, dc) = (at.row - range.r0, at.col - range.c0);
        // Each element of `own` stands for a row, a column or one element
        // of the count: past `MAX_VISITS` the count is counted again.
        let stretched = (if own_rows == 1 { rows } else { 1 }) * if own_cols == 1 { cols } else { 1 };
        count.with_changes(old, new, |changes| {
            if changes.is_empty() {
                return true;
            }
            if changes.len() * stretched > MAX_VISITS {
                return false;
            }
            let counts = Arc::make_mut(counts);
            for &(t, d) in changes {
                let (tr, tc) = (t / own_cols, t % own_cols);
                let each_row = if own_rows == 1 { 0..rows } else { tr..tr + 1 };
                for r in each_row {
                    let each_col = if own_cols == 1 { 0..cols } else { tc..tc + 1 };
                    for c in each_col {
                        let mut others = self.pairs.iter().zip(values).enumerate().filter(|(q, _)| *q != j);
                        let meets = others.all(|(_, (p, v))| {
                            let cell = CellAddr::new(p.range.sheet, p.range.r0 + dr, p.range.c0 + dc);
                            Criterion::new(v.broadcast(r, c)).matches(grid.get(cell))
                        });
                        if meets && !add(counts, r * cols + c, d) {
                            return false;
                        }
                    }
                }
            }
            true
        })
    }
}

/// Adds `d` to element `i` of `counts`; false where it is not a number.
fn add(counts: &mut Array, i: usize, d: f64) -> bool {
    if let Some(nums) = counts.dense_mut() {
        nums[i] += d;
        return true;
    }
    match &mut counts.values_mut()[i] {
        Value::Number(n) => {
            *n += d;
            true
        }
        _ => false,
    }
}
