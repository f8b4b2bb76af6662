//! The areas a bound formula may read, for the dependency graph. Fixed
//! references count as they are, each area of a constant reference array
//! (a union, OFFSET over constant arrays) too. Where a reference is computed at run time
//! the whole area it can reach counts: `:` with a computed side counts the
//! box (per sheet) around everything either side can reach. Function
//! arguments count by their contract ([`Arg`]): a range sized like another
//! argument (SUMIF's sum range) counts at that size, from its top-left
//! cell; a scoped call's (LET's) variables count what their values read. A
//! reachable argument (OFFSET's base, once OFFSET has computed arguments)
//! and a sized range that is itself computed can reach a whole sheet: those
//! sheets are listed apart, as *reachable*, because the graph treats them
//! differently (see `engine::graph`). A reference named by text
//! (INDIRECT's) can reach every sheet.

use super::BExpr;
use crate::address::{Area, MAX_COLS, MAX_ROWS};
use crate::ast::{BinaryOp, UnaryOp};
use crate::functions::Arg;
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// What a bound formula reads, found in one walk over it.
pub struct Reads {
    /// The areas it reads (sorted, without repeats).
    pub areas: Vec<Area>,
    /// The whole sheets its run-time references can reach (likewise).
    pub reachable: Vec<Area>,
    /// Whether it calls a volatile function: it is then calculated on every
    /// recalculation (and every iteration), whatever changed. A shared
    /// subformula is never volatile (see `engine::share`).
    pub volatile: bool,
    /// Whether every cell it reads lies in a reference of its own tree
    /// that it evaluates, or in a shared subformula it uses: no `:` with a
    /// computed side, sized range, reachable or text-named reference,
    /// spill reference or applied function reads past them, and nothing
    /// is volatile. Then what one evaluation read is all its value
    /// depends on (see `eval::Touches`).
    pub narrow: bool,
}

/// What `e` reads, in a workbook of `sheets` sheets.
pub fn reads(e: &BExpr, sheets: usize) -> Reads {
    reads_kept(e, sheets, &mut KeptReads::default())
}

/// What the kept parts (`BExpr::Kept`) met so far read, by address: a
/// part kept for many cells is walked once. Valid while those parts live
/// (the formulas of one program build).
#[derive(Default)]
pub struct KeptReads(FxHashMap<usize, Reads>);

/// [`reads`], walking each kept part once for all the formulas given the
/// same `kept`.
pub fn reads_kept(e: &BExpr, sheets: usize, kept: &mut KeptReads) -> Reads {
    let (mut out, mut reachable) = (Vec::new(), Vec::new());
    let mut deps = Deps {
        out: &mut out,
        reachable: &mut reachable,
        locals: FxHashMap::default(),
        sheets,
        volatile: false,
        widens: false,
        kept,
    };
    deps.walk(e);
    let (volatile, widens) = (deps.volatile, deps.widens);
    for list in [&mut out, &mut reachable] {
        list.sort_unstable();
        list.dedup();
    }
    let narrow = !widens && !volatile && reachable.is_empty();
    Reads { areas: out, reachable, volatile, narrow }
}

/// The areas `e` reads (sorted, without repeats), and the whole sheets its
/// run-time references can reach, in a workbook of `sheets` sheets.
pub fn dependencies(e: &BExpr, sheets: usize) -> (Vec<Area>, Vec<Area>) {
    let Reads { areas, reachable, .. } = reads(e, sheets);
    (areas, reachable)
}

struct Deps<'o> {
    out: &'o mut Vec<Area>,
    reachable: &'o mut Vec<Area>,
    /// LET slot -> the areas its value reads.
    locals: FxHashMap<usize, Vec<Area>>,
    sheets: usize,
    /// Whether a volatile function was met (every call is walked).
    volatile: bool,
    /// Whether something reads past the references it evaluates (see
    /// [`Reads::narrow`]).
    widens: bool,
    kept: &'o mut KeptReads,
}

impl Deps<'_> {
    fn walk(&mut self, e: &BExpr) {
        match e {
            BExpr::Const(Value::Ref(a)) => self.out.push(*a),
            // A reference array: a union or OFFSET over constant arrays.
            BExpr::Const(v) => self.out.extend(v.area_list().unwrap_or_default()),
            BExpr::Local(slot) => {
                if let Some(areas) = self.locals.get(slot) {
                    self.out.extend_from_slice(areas);
                }
            }
            BExpr::Unary(op, x) => {
                self.widens |= *op == UnaryOp::Spill;
                self.walk(x)
            }
            BExpr::ArrayMode(x) => self.walk(x),
            // What a kept part reads is its own (no LET variable of the
            // formula around it in sight): walked once, then copied.
            BExpr::Kept(x) if self.locals.is_empty() => {
                let at = Arc::as_ptr(x) as usize;
                if !self.kept.0.contains_key(&at) {
                    let r = reads_kept(x, self.sheets, self.kept);
                    self.kept.0.insert(at, r);
                }
                let r = &self.kept.0[&at];
                self.out.extend_from_slice(&r.areas);
                self.reachable.extend_from_slice(&r.reachable);
                self.volatile |= r.volatile;
                self.widens |= !r.narrow;
            }
            BExpr::Kept(x) => self.walk(x),
            // Dependencies are taken before subformulas are shared; a shared
            // one reads nothing its users do not read.
            BExpr::Shared(_) => {}
            BExpr::Binary(op, lr) => {
                let start = self.out.len();
                self.walk(&lr[0]);
                self.walk(&lr[1]);
                if *op == BinaryOp::Range {
                    self.widens = true;
                    self.boxes(start);
                }
            }
            BExpr::Call(f, args) if f.is_scoped() => {
                self.volatile |= f.volatile;
                self.let_call(args)
            }
            BExpr::Call(f, args) => {
                self.volatile |= f.volatile;
                for (i, a) in args.iter().enumerate() {
                    // A constant reference whose rectangle alone is used
                    // (ROW(A:A) left unfolded past the folding budget).
                    if !(f.position_only(i) && matches!(a, BExpr::Const(_))) {
                        self.argument(f.arg(i), a, args);
                    }
                }
            }
        }
    }

    /// One argument of a call, by how the function uses it (the other
    /// arguments are `args`). A position argument counts as read unless it
    /// is a constant reference of a function that returns no reference:
    /// what it names may be read through the result (INDEX's base).
    fn argument(&mut self, kind: Arg, a: &BExpr, args: &[BExpr]) {
        let start = self.out.len();
        self.walk(a);
        self.widens |= matches!(kind, Arg::Function | Arg::Address | Arg::Reachable | Arg::SizedLike(_));
        match kind {
            Arg::Value | Arg::Position | Arg::Array | Arg::Scoped | Arg::Function => {}
            Arg::Address => {
                let every = (0..self.sheets).map(|s| whole_sheet(s as u16));
                self.reachable.extend(every);
            }
            Arg::Reachable => {
                // Not read itself: only its sheet counts, as reachable.
                let base: Vec<Area> = self.out.drain(start..).collect();
                self.reachable.extend(base.iter().map(|a| whole_sheet(a.sheet)));
            }
            Arg::SizedLike(n) => match (&args[n], a) {
                (BExpr::Const(Value::Ref(like)), BExpr::Const(Value::Ref(range))) => {
                    let r1 = (range.r0 + like.rows() - 1).min(MAX_ROWS - 1);
                    let c1 = (range.c0 + like.cols() - 1).min(MAX_COLS - 1);
                    self.out.push(Area::new(range.sheet, range.r0, range.c0, r1, c1));
                }
                _ => self.whole_sheets(start),
            },
        }
    }

    /// `LET(x, v, ..., body)`: each variable reads what its value reads.
    fn let_call(&mut self, args: &[BExpr]) {
        let (pairs, body) = args.split_at(args.len().saturating_sub(1));
        for pair in pairs.chunks(2) {
            let start = self.out.len();
            if let Some(v) = pair.get(1) {
                self.walk(v);
            }
            if let BExpr::Local(slot) = pair[0] {
                // Each distinct area once: a variable used twice in a
                // value used twice (nested LETs, a name inside its own
                // LAMBDA call) would double the list at every level.
                let mut areas = self.out[start..].to_vec();
                areas.sort_unstable();
                areas.dedup();
                self.locals.insert(slot, areas);
            }
        }
        body.iter().for_each(|b| self.walk(b));
    }

    /// Adds, per sheet, the box around the areas found since `start`.
    fn boxes(&mut self, start: usize) {
        let mut per_sheet: Vec<Area> = Vec::new();
        for a in &self.out[start..] {
            match per_sheet.iter_mut().find(|b| b.sheet == a.sheet) {
                Some(b) => *b = b.union(a).unwrap_or(*b),
                None => per_sheet.push(*a),
            }
        }
        self.out.extend(per_sheet);
    }

    /// The whole of every sheet named by the areas found since `start` is reachable.
    fn whole_sheets(&mut self, start: usize) {
        for s in self.out[start..].iter().map(|a| a.sheet) {
            self.reachable.push(whole_sheet(s));
        }
    }
}

fn whole_sheet(sheet: u16) -> Area {
    Area::new(sheet, 0, 0, MAX_ROWS - 1, MAX_COLS - 1)
}

#[cfg(test)]
mod tests {
    use crate::testing::Sheet;

    /// The dependencies' walk finds a volatile call wherever it sits (in a
    /// LET variable's value, under other calls): those cells, and only
    /// those, are calculated again by a recalculation with nothing changed.
    #[test]
    fn volatile_calls_are_found_in_the_dependencies_walk() {
        let mut s = Sheet::new();
        s.set("A1", "1");
        s.set("B1", "=LET(x, INDIRECT(\"A1\"), x)");
        s.set("B2", "=SUM(A1, ABS(INDIRECT(\"A1\")))");
        s.set("B3", "=LET(x, A1, SUM(x))");
        s.recalc();
        assert_eq!(["B1", "B2", "B3"].map(|c| s.text(c)), ["1", "2", "1"]);
        assert_eq!(s.recalc().evaluated, 2, "B1 and B2 are volatile, B3 is not");
    }

    /// Every area of a union, an intersection and OFFSET over constant
    /// arrays is a dependency: a change to any recalculates the readers.
    #[test]
    fn every_area_of_several_references_is_read() {
        let mut s = Sheet::with_sheets(&["Main", "Other"]);
        for (cell, v) in [("A1", "1"), ("A3", "3"), ("B2", "20"), ("Other!A1", "100")] {
            s.set(cell, v);
        }
        s.set("D1", "=SUM((A1,A3))");
        s.set("D2", "=SUM((A1,Other!A1))");
        s.set("D3", "=SUM(A1:A5 A3:B4)");
        s.set("D4", "=SUMPRODUCT(N(OFFSET(A1,{0;2},0)))");
        s.set("D5", "=INDEX((A1:B1,A2:B2),1,2,2)");
        s.recalc();
        let shown = |s: &Sheet| ["D1", "D2", "D3", "D4", "D5"].map(|c| s.text(c));
        assert_eq!(shown(&s), ["4", "101", "3", "4", "20"]);
        s.set("A3", "30");
        s.set("Other!A1", "7");
        s.set("B2", "5");
        s.recalc();
        assert_eq!(shown(&s), ["31", "8", "30", "31", "5"]);
    }
}
