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
//! A count is kept only where that is exact: the function's contract says
//! it counts ([`Intrinsic::CountIf`]), its range is one fixed area, its
//! criterion a constant that is not an array, and what is around it
//! operators with constant operands; and only when formula cells alone
//! use it (not a block array formula, not another shared subformula), so
//! that its users are known and none of them depends on it through
//! another value.

use super::Shared;
use crate::address::Area;
use crate::ast::BinaryOp;
use crate::engine::cell::FormulaCell;
use crate::engine::lists::Lists;
use crate::eval::BExpr;
use crate::eval::touches::bit;
use crate::functions::Intrinsic;
use crate::functions::criteria::Criterion;
use crate::ids::{AreaId, FormulaId, SharedId};
use crate::value::Value;

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
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            criteria: Vec::new(),
            bits: Vec::new(),
            users: Lists::with_capacity(0, 0),
            reading: Lists::with_capacity(0, 0),
        }
    }
}

impl Counts {
    /// The counts among `shared`, used by `cells` and the block formulas
    /// `blocks`, in a program whose formulas read `areas` areas.
    pub fn of(shared: &Shared, cells: &[FormulaCell], blocks: &[BExpr], areas: usize) -> Counts {
        let found: Vec<Option<(&Area, &Value)>> = shared.exprs.iter().map(count_of).collect();
        let mut criteria: Vec<Option<Criterion>> = found.iter().map(|c| c.map(|(_, v)| Criterion::new(v))).collect();
        if criteria.iter().all(Option::is_none) {
            return Counts::default();
        }
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
        Counts { criteria, bits, users, reading }
    }

    /// Whether no shared count is kept.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
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
