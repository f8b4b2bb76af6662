//! Shared counts kept across the writes that leave them as they are. A
//! shared subformula whose value depends only on how many cells of one
//! area meet one criterion (`COUNTIF(row, 3)>0`: the Ellis valid-values
//! board's 243 counts of a digit in a row, column or box) cannot change
//! when a write leaves the written cell meeting the criterion as it did
//! ([`Criterion::matches`], the rule COUNTIF counts by: its tests hold
//! the count to it cell by cell). Such a value is kept across those
//! writes, and the formulas using it do not read what it reads: when a
//! write does change which cells meet the criterion, the value is
//! forgotten and its users ([`Counts::users`]) whose last evaluation read
//! it (a bit of their own, [`Counts::bit`]) are marked dirty, where any
//! write into the area marked them before. In the Ellis workbook a
//! digit placed in a row forgets the row's count of that digit alone,
//! not its nine counts, and dirties the nine valid-values cells using it,
//! not those of every digit.
//!
//! A count by an array of criteria (`COUNTIF(strip, digits)`: the boards'
//! counts of every digit in a unit at once), shared on its own, is kept
//! and changed in place instead: a write adds to each element the change
//! in whether the written cell meets that element's criterion (the same
//! `Criterion::matches`), where it would be forgotten and counted again
//! over its whole area. What uses it reads its area as before, so it is
//! forgotten or marked dirty as before, and computed again from the count
//! held ([`Counts::update`]). A shared COUNTIFS of fixed areas is
//! changed in place likewise by the writes into its ranges whose criteria
//! are constant (see `ifs`).
//!
//! A count is kept only where that is exact: the function's contract says
//! it counts ([`Intrinsic::CountIf`]), its range is one fixed area, its
//! criterion a constant that is not an array, and what is around it
//! operators with constant operands; and only when formula cells alone
//! use it (not a block array formula, not another shared subformula), so
//! that its users are known and none of them depends on it through
//! another value.

use super::Shared;
use super::ifs::{IfsCount, Write};
use crate::address::Area;
use crate::ast::BinaryOp;
use crate::engine::cell::FormulaCell;
use crate::engine::lists::Lists;
use crate::eval::BExpr;
use crate::eval::touches::bit;
use crate::functions::Intrinsic;
use crate::functions::criteria::{Criterion, number_key};
use crate::ids::{AreaId, FormulaId, SharedId};
use crate::value::{Array, Value};
use std::sync::Arc;

/// The shared counts of a program that are kept across writes, with their
/// criteria and users; empty when none is.
#[derive(Clone, Debug)]
pub struct Counts {
    /// For each shared subformula (by [`SharedId`]), the criterion of its
    /// count when it is kept.
    criteria: Vec<Option<Criterion>>,
    /// For each, the bit an evaluation using it records for it when it is
    /// kept, in place of the bits of what it reads (0 when it is not: see
    /// `eval::SharedValues::counted`): the bit of its area turned half
    /// round, a bit the area's own writes do not test.
    pub bits: Vec<u64>,
    /// For each, the formula cells using it (empty unless kept).
    users: Lists<FormulaId>,
    /// For each area formulas read (by [`AreaId`]), the kept counts
    /// reading it: a write into an area no count reads looks at none.
    reading: Lists<SharedId>,
    /// For each shared subformula, its count by an array of criteria
    /// changed in place, if it is one.
    arrays: Vec<Option<ArrayCount>>,
    /// For each area, the counts by arrays of criteria reading it.
    arrays_reading: Lists<SharedId>,
    /// For each shared subformula, its COUNTIFS changed in place, if it
    /// is one.
    ifs: Vec<Option<IfsCount>>,
    /// For each area, the COUNTIFS changed in place by its writes, with
    /// the pair it is the range of.
    ifs_reading: Lists<(SharedId, u32)>,
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            criteria: Vec::new(),
            bits: Vec::new(),
            users: Lists::with_capacity(0, 0),
            reading: Lists::with_capacity(0, 0),
            arrays: Vec::new(),
            arrays_reading: Lists::with_capacity(0, 0),
            ifs: Vec::new(),
            ifs_reading: Lists::with_capacity(0, 0),
        }
    }
}

impl Counts {
    /// The counts among `shared`, used by `cells` and the block formulas
    /// `blocks`, in a program whose formulas read `areas` (by [`AreaId`]).
    pub fn of(shared: &Shared, cells: &[FormulaCell], blocks: &[BExpr], all_areas: &[Area]) -> Counts {
        let areas = all_areas.len();
        let found: Vec<Option<(&Area, &Value)>> = shared.exprs.iter().map(count_of).collect();
        let mut criteria: Vec<Option<Criterion>> = found.iter().map(|c| c.map(|(_, v)| Criterion::new(v))).collect();
        let arrays: Vec<Option<ArrayCount>> = shared.exprs.iter().map(array_count).collect();
        let ifs: Vec<Option<IfsCount>> = shared.exprs.iter().map(IfsCount::of).collect();
        if none(&criteria) && none(&arrays) && none(&ifs) {
            return Counts::default();
        }
        let ifs_reading = match none(&ifs) {
            true => Lists::with_capacity(0, 0),
            false => ifs_reading(shared, &ifs, all_areas),
        };
        // Used inside another shared subformula or by a block: not kept.
        for e in shared.exprs.iter().chain(blocks) {
            each_shared(e, &mut |s| criteria[s.index()] = None);
        }
        // The formulas' trees walked once; the pairs grouped by count.
        let mut used = Vec::new();
        for (f, c) in cells.iter().enumerate() {
            each_shared(&c.expr, &mut |s| {
                if criteria[s.index()].is_some() {
                    used.push((s, FormulaId::at(f)));
                }
            });
        }
        let users = Lists::grouped(criteria.len(), |put| used.iter().for_each(|&(s, f)| put(s.index(), f)));
        let bits = (found.iter().zip(&criteria))
            .map(|(f, c)| match (f, c) {
                (Some((area, _)), Some(_)) => bit(area).rotate_left(32),
                _ => 0,
            })
            .collect();
        let reading = Lists::grouped(areas, |put| {
            for a in 0..areas {
                let kept = shared.readers(AreaId::at(a)).iter().filter(|s| criteria[s.index()].is_some());
                kept.for_each(|&s| put(a, s));
            }
        });
        let arrays_reading = Lists::grouped(areas, |put| {
            for a in 0..areas {
                let kept = shared.readers(AreaId::at(a)).iter().filter(|s| arrays[s.index()].is_some());
                kept.for_each(|&s| put(a, s));
            }
        });
        Counts { criteria, bits, users, reading, arrays, arrays_reading, ifs, ifs_reading }
    }

    /// Whether no shared count is kept.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Whether shared subformula `s` is a count by an array of criteria,
    /// changed in place by the writes into its area.
    #[inline(always)]
    pub fn is_array(&self, s: SharedId) -> bool {
        self.arrays.get(s.index()).is_some_and(Option::is_some)
    }

    /// The counts by arrays of criteria reading area `a`.
    #[inline(always)]
    pub fn arrays_reading(&self, a: AreaId) -> &[SharedId] {
        self.arrays_reading.get_or_empty(a.index())
    }

    /// Changes `held`, the value of count `s` by an array of criteria, for
    /// a write into its area that replaced `old` by `new`: each element
    /// gains 1 where the new value meets its criterion and the old did
    /// not, and loses 1 the other way. False where it cannot be changed so
    /// (the old value not known, or the value held not such a count: an
    /// error), and it is to be forgotten.
    pub fn update(&self, s: SharedId, held: &mut Value, old: Option<&Value>, new: &Value) -> bool {
        let (Some(count), Some(old), Value::Array(counts)) = (&self.arrays[s.index()], old, held) else {
            return false;
        };
        if counts.len() != count.criteria.len() {
            return false;
        }
        count.with_changes(old, new, |changes| {
            if changes.is_empty() {
                return true;
            }
            let counts = Arc::make_mut(counts);
            match counts.dense_mut() {
                Some(nums) => changes.iter().for_each(|&(i, d)| nums[i] += d),
                None => {
                    let values = counts.values_mut();
                    for &(i, d) in changes {
                        match &mut values[i] {
                            Value::Number(n) => *n += d,
                            _ => return false,
                        }
                    }
                }
            }
            true
        })
    }

    /// The COUNTIFS changed in place by the writes into area `a`, each
    /// with the pair it is the range of.
    #[inline(always)]
    pub fn ifs_reading(&self, a: AreaId) -> &[(SharedId, u32)] {
        self.ifs_reading.get_or_empty(a.index())
    }

    /// Changes `held`, the value of COUNTIFS `s`, for `write` into the
    /// range of its pair `j` (see [`IfsCount::update`]).
    pub fn update_ifs(
        &self,
        (s, j): (SharedId, u32),
        held: &mut Value,
        write: &Write,
        shared: &[Option<Value>],
    ) -> bool {
        let Some(count) = &self.ifs[s.index()] else { return false };
        count.update(j as usize, held, write, shared)
    }

    /// Whether a write into area `a` leaves shared subformula `s` to be
    /// changed in place or kept by [`Counts`] rather than forgotten.
    #[inline(always)]
    pub fn keeps(&self, s: SharedId, a: AreaId) -> bool {
        self.criterion(s).is_some() || self.is_array(s) || self.ifs_reading(a).iter().any(|&(t, _)| t == s)
    }

    /// The criterion of shared subformula `s` when it is a kept count.
    #[inline(always)]
    pub fn criterion(&self, s: SharedId) -> Option<&Criterion> {
        self.criteria.get(s.index()).and_then(Option::as_ref)
    }

    /// The formula cells using kept count `s`.
    pub fn users(&self, s: SharedId) -> &[FormulaId] {
        self.users.get_or_empty(s.index())
    }

    /// The kept counts reading area `a`.
    #[inline(always)]
    pub fn reading(&self, a: AreaId) -> &[SharedId] {
        self.reading.get_or_empty(a.index())
    }

    /// The bit a formula that read kept count `s` recorded for it.
    #[inline(always)]
    pub fn bit(&self, s: SharedId) -> u64 {
        self.bits[s.index()]
    }
}

/// A count by an array of criteria: one per element, and where they are
/// all equality with distinct whole numbers, the element of each.
#[derive(Clone, Debug)]
pub(super) struct ArrayCount {
    criteria: Box<[Criterion]>,
    index: Option<Slots>,
}

/// The elements of criteria of equality with distinct whole numbers, by
/// number from `min` (`NONE` for a number none of them equals).
#[derive(Clone, Debug)]
struct Slots {
    min: f64,
    at: Box<[u32]>,
}

const NONE: u32 = u32::MAX;

/// The numbers of an index span at most this many.
const MAX_SPAN: f64 = 4096.0;

impl ArrayCount {
    pub(super) fn new(criteria: Box<[Criterion]>) -> ArrayCount {
        let numbers: Option<Vec<f64>> = criteria.iter().map(Criterion::number).collect();
        let index = numbers.and_then(|numbers| {
            // Whole and small: two of them are equal to 15 digits only when equal.
            let whole = |n: &f64| n.fract() == 0.0 && n.abs() < 1e9;
            if !numbers.iter().all(whole) {
                return None;
            }
            let min = numbers.iter().copied().fold(f64::INFINITY, f64::min);
            let max = numbers.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if max - min >= MAX_SPAN {
                return None;
            }
            let mut at = vec![NONE; (max - min) as usize + 1].into_boxed_slice();
            for (i, n) in numbers.iter().enumerate() {
                let slot = &mut at[(n - min) as usize];
                if *slot != NONE {
                    return None;
                }
                *slot = i as u32;
            }
            Some(Slots { min, at })
        });
        ArrayCount { criteria, index }
    }

    /// `f` of each element's change (element, -1 or +1) for a write
    /// replacing `old` by `new`: through the index where it decides, else
    /// each criterion asked.
    #[inline(always)]
    pub(super) fn with_changes<R>(&self, old: &Value, new: &Value, f: impl FnOnce(&[(usize, f64)]) -> R) -> R {
        let mut changes = [(0, 0.0); 2];
        match self.slots(old, new, &mut changes) {
            Some(changes) => f(changes),
            None => f(&self.changes(old, new)),
        }
    }

    /// Each element's change (element, -1 or +1) for a write replacing
    /// `old` by `new`, found through the index when the two are numbers
    /// it decides (whole ones, [`number_key`]) or none; none there.
    #[inline(always)]
    fn slots<'c>(&self, old: &Value, new: &Value, out: &'c mut [(usize, f64); 2]) -> Option<&'c [(usize, f64)]> {
        let index = self.index.as_ref()?;
        let slot = |v: &Value| -> Option<Option<usize>> {
            match number_key(v) {
                None => Some(None),
                // A whole number is equal only to itself (the numbers are
                // whole and small: see `ArrayCount::new`).
                Some(x) if x.fract() == 0.0 => {
                    let i = x - index.min;
                    let at = (i >= 0.0 && i < index.at.len() as f64).then(|| index.at[i as usize]);
                    Some(at.filter(|&at| at != NONE).map(|at| at as usize))
                }
                Some(_) => None,
            }
        };
        let (from, to) = (slot(old)?, slot(new)?);
        let mut n = 0;
        if from != to {
            for (at, d) in [(from, -1.0), (to, 1.0)] {
                if let Some(at) = at {
                    out[n] = (at, d);
                    n += 1;
                }
            }
        }
        Some(&out[..n])
    }

    /// Each element's change for a write replacing `old` by `new`, each
    /// criterion asked ([`Criterion::matches`]).
    fn changes(&self, old: &Value, new: &Value) -> Vec<(usize, f64)> {
        let change = |c: &Criterion| f64::from(c.matches(new) as u8) - f64::from(c.matches(old) as u8);
        self.criteria.iter().map(change).enumerate().filter(|&(_, d)| d != 0.0).collect()
    }
}

/// Whether every one of `v` is `None`.
fn none<T>(v: &[Option<T>]) -> bool {
    v.iter().all(Option::is_none)
}

/// For each area, the COUNTIFS among `ifs` changed in place by its
/// writes, with their pair: the areas that are one of their ranges with
/// constant criteria, which none of their shared criteria reads.
fn ifs_reading(shared: &Shared, ifs: &[Option<IfsCount>], areas: &[Area]) -> Lists<(SharedId, u32)> {
    Lists::grouped(areas.len(), |put| {
        for (a, area) in areas.iter().enumerate() {
            let readers = shared.readers(AreaId::at(a));
            for &s in readers {
                let Some(count) = &ifs[s.index()] else { continue };
                if count.shared_criteria().any(|c| readers.contains(&c)) {
                    continue;
                }
                count.moving().filter(|(_, r)| *r == area).for_each(|(j, _)| put(a, (s, j as u32)));
            }
        }
    })
}

/// Whether a write that replaced `old` by `new` can change a count by
/// `criterion`: it can when the cell meets the criterion in one and not
/// in the other, or when the old value is not known.
#[inline(always)]
pub fn changes(criterion: &Criterion, old: Option<&Value>, new: &Value) -> bool {
    old.is_none_or(|old| criterion.matches(old) != criterion.matches(new))
}

/// The criterion of `e` when its value depends only on how many cells of
/// one fixed area meet it: a COUNTIF of a fixed area and a constant
/// criterion that is not an array, under operators whose other operands
/// are constants.
fn count_of(e: &BExpr) -> Option<(&Area, &Value)> {
    let plain = |x: &BExpr| match x {
        BExpr::Const(v) if !matches!(v, Value::Ref(_) | Value::Array(_)) => Some(()),
        _ => None,
    };
    match e {
        BExpr::Call(f, args) if f.intrinsic == Some(Intrinsic::CountIf) => match &**args {
            [BExpr::Const(Value::Ref(area)), c @ BExpr::Const(v)] => plain(c).map(|_| (area, v)),
            _ => None,
        },
        BExpr::Unary(_, x) | BExpr::ArrayMode(x) => count_of(x),
        BExpr::Binary(op, lr) if !matches!(op, BinaryOp::Range | BinaryOp::Intersect | BinaryOp::Union) => {
            match &**lr {
                [x, c] | [c, x] if plain(c).is_some() => count_of(x),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The criteria of `e` when it is a count by an array of criteria: a
/// COUNTIF of a fixed area and a constant array.
fn array_count(e: &BExpr) -> Option<ArrayCount> {
    array_criteria(e).map(|a| ArrayCount::new(a.values().iter().map(Criterion::new).collect()))
}

/// Whether `e` is a count by an array of criteria ([`array_count`]):
/// the sharing pass shares one apart from the subformula holding it.
pub(super) fn is_array_count(e: &BExpr) -> bool {
    array_criteria(e).is_some()
}

/// The array of criteria of `e` when it is a count by one.
fn array_criteria(e: &BExpr) -> Option<&Array> {
    match e {
        BExpr::Kept(x) => array_criteria(x),
        BExpr::Call(f, args) if f.intrinsic == Some(Intrinsic::CountIf) => match &**args {
            [BExpr::Const(Value::Ref(_)), BExpr::Const(Value::Array(a))] if !a.is_empty() => Some(a),
            _ => None,
        },
        _ => None,
    }
}

/// Calls `f` with each shared subformula `e` holds (not looking into them).
fn each_shared(e: &BExpr, f: &mut impl FnMut(SharedId)) {
    match e {
        BExpr::Shared(s) => f(*s),
        BExpr::Const(_) | BExpr::Local(_) => {}
        BExpr::Kept(x) => each_shared(x, f),
        BExpr::Unary(_, x) | BExpr::ArrayMode(x) => each_shared(x, f),
        BExpr::Binary(_, lr) => lr.iter().for_each(|x| each_shared(x, f)),
        BExpr::Call(_, args) => args.iter().for_each(|x| each_shared(x, f)),
    }
}
