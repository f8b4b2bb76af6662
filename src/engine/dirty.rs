//! Dirty marking: which formulas a changed cell makes dirty, and what is
//! known, per area read, of its readers ([`Readers`]) so that a write into
//! an area whose readers are all dirty already marks nothing. Calculating
//! a formula cleans it and updates the areas it reads; writing a value
//! marks the readers of the areas containing the cell and forgets the
//! shared values reading them. Both are on the path of every evaluation,
//! so the states are one word each and only areas with many readers are
//! tracked at all ([`Tracked`]).

use super::Engine;
use super::graph::{DepGraph, Fed};
use super::lists::Lists;
use super::share::{Counts, Shared, Write, changes};
use super::touched::Touched;
use crate::address::CellAddr;
use crate::eval::touches::bit;
use crate::ids::{AreaId, FormulaId};
use crate::value::Value;

/// What is known of the formulas reading one area, in one word (cleaning
/// and marking are on the path of every evaluation and every write):
/// nothing ([`Readers::UNKNOWN`]: a write into the area marks every
/// reader), every reader dirty and no shared value reading the area
/// evaluated since they were marked ([`Readers::ALL_DIRTY`]), or every
/// reader dirty but one formula, which alone can have evaluated a shared
/// value reading the area since (any other word: that formula's index).
/// An area with few readers is not tracked ([`Readers::UNTRACKED`]): a
/// write into it marks its readers (a few stores, and marking a dirty
/// formula again or forgetting a shared value again changes nothing),
/// and calculating a reader costs nothing for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Readers(u32);

/// Readers (formulas and shared subformulas) an area needs to be tracked.
const TRACKED_READERS: usize = 8;

impl Readers {
    const UNKNOWN: Readers = Readers(u32::MAX);
    const ALL_DIRTY: Readers = Readers(u32::MAX - 1);
    const UNTRACKED: Readers = Readers(u32::MAX - 2);

    /// Every reader dirty but `f`. A formula's index is below
    /// `MAX_GRID_CELLS` (2^24), so it never meets the three reserved words.
    fn all_but(f: FormulaId) -> Readers {
        Readers(f.index() as u32)
    }
}

/// Which areas are tracked, and for each formula the tracked areas it
/// reads, as flat lists: derived from the program's graph once, when it
/// is built, for all its engines.
#[derive(Clone, Debug)]
pub(super) struct Tracked {
    /// The readers-dirty state each engine starts from: unknown for a
    /// tracked area, [`Readers::UNTRACKED`] for the others.
    states: Vec<Readers>,
    /// For each formula, the tracked areas it reads; no list at all when
    /// no area is tracked (a chain's one-reader areas).
    reads: Lists<AreaId>,
    /// For each formula, the segments of the tall areas it reads; no list
    /// at all without tall areas. For each segment, whether marking may
    /// skip it (its areas feed no shared subformula): see `tall::Marks`.
    tall: Lists<u32>,
    pub(super) skippable: Vec<bool>,
}

impl Tracked {
    /// The tracked areas of graph `g`, whose shared subformulas are `shared`.
    pub(super) fn new(g: &DepGraph, shared: &Shared) -> Tracked {
        let states: Vec<Readers> = (0..g.readers.len())
            .map(|a| {
                let readers = g.readers[a].len() + shared.readers(AreaId::at(a)).len();
                if readers > TRACKED_READERS { Readers::UNKNOWN } else { Readers::UNTRACKED }
            })
            .collect();
        let tracked = |a: &&AreaId| states[a.index()] != Readers::UNTRACKED;
        let reads = match g.reads.iter().flatten().any(|a| tracked(&a)) {
            true => {
                let mut reads = Lists::with_capacity(g.reads.len(), 0);
                g.reads.iter().for_each(|list| reads.push(list.iter().filter(tracked).copied()));
                reads
            }
            false => Lists::with_capacity(0, 0),
        };
        let tall = match g.tall.areas.is_empty() {
            true => Lists::with_capacity(0, 0),
            false => Lists::grouped(g.reads.len(), |put| {
                for (s, tiled) in g.tall.areas.iter().enumerate() {
                    tiled.iter().for_each(|a| g.readers[a.index()].iter().for_each(|r| put(r.index(), s as u32)));
                }
            }),
        };
        let skippable = g.tall.areas.iter().map(|tiled| tiled.iter().all(|&a| shared.readers(a).is_empty())).collect();
        Tracked { states, reads, tall, skippable }
    }

    /// The segments of the tall areas formula `f` reads.
    fn tall_reads(&self, f: FormulaId) -> &[u32] {
        self.tall.get_or_empty(f.index())
    }

    /// The readers-dirty states a new engine starts from.
    pub(super) fn start(&self) -> Vec<Readers> {
        self.states.clone()
    }

    fn reads(&self, f: FormulaId) -> &[AreaId] {
        self.reads.get_or_empty(f.index())
    }
}

impl Engine {
    /// Marks formula `f` calculated: no longer dirty, and so not every
    /// reader of the areas it reads is dirty any more: all but `f` when all
    /// were (the cells of a block array formula reading its own block are
    /// calculated one by one, each marking the block's readers once, not
    /// every reader again).
    #[inline(always)]
    pub(super) fn clean(&mut self, f: FormulaId) {
        self.dirty[f.index()] = false;
        // Most workbooks have no tall area: one comparison, the rest out of line.
        if !self.program.tracked.skippable.is_empty() {
            self.tall_cleaned(f);
        }
        let all_but_f = Readers::all_but(f);
        for a in self.program.tracked.reads(f) {
            let known = &mut self.readers_dirty[a.index()];
            // Mostly unknown already (several formulas read most areas).
            if *known != Readers::UNKNOWN {
                let all_but = *known == Readers::ALL_DIRTY || *known == all_but_f;
                *known = if all_but { all_but_f } else { Readers::UNKNOWN };
            }
        }
    }

    /// Notes that `f`, reading tall areas, was cleaned (see `tall::Marks`).
    #[inline(never)]
    fn tall_cleaned(&mut self, f: FormulaId) {
        self.tall_marks.cleaned(self.program.tracked.tall_reads(f));
    }

    /// Forgets what is known of the readers of every tracked area (and of
    /// every segment's).
    pub(super) fn forget_readers(&mut self) {
        self.tall_marks.forget();
        for known in &mut self.readers_dirty {
            if *known != Readers::UNTRACKED {
                *known = Readers::UNKNOWN;
            }
        }
    }

    /// Marks the formulas reading cell `c` dirty, `c` having held `old`
    /// before (`None`: not known).
    pub(super) fn mark_readers(&mut self, c: CellAddr, old: Option<&Value>) {
        let formula = self.program.formula_at(c);
        self.mark_readers_of(c, formula, old);
    }

    /// Marks the formulas reading cell `c` dirty, knowing which formula
    /// (if any) `c` holds and what it held before (`None`: not known).
    #[inline]
    pub(super) fn mark_readers_of(&mut self, c: CellAddr, formula: Option<FormulaId>, old: Option<&Value>) {
        let (g, shared, tracked) = (&self.program.graph, &self.program.shared, &self.program.tracked);
        let (dirty, known, values) = (&mut self.dirty[..], &mut self.readers_dirty[..], &mut self.shared[..]);
        let (counts, grid) = (&self.program.counts, &self.grid);
        let write = Write { at: c, old, new: grid.get(c), grid };
        let marks = Marks { g, shared, touched: &self.touched, reads: self.reads, counts, write };
        match formula {
            Some(f) => {
                g.containing[f.index()].iter().for_each(|&a| marks.area(dirty, known, values, a));
                // Tall areas through the cell's segments, each skipped while
                // its readers are all dirty already (none in most workbooks).
                let holding = if tracked.skippable.is_empty() { &[] } else { g.tall.holding(f) };
                for &s in holding {
                    let skippable = tracked.skippable[s];
                    if skippable && self.tall_marks.all_dirty(s) {
                        continue;
                    }
                    g.tall.areas[s].iter().for_each(|&a| marks.area(dirty, known, values, a));
                    if skippable {
                        self.tall_marks.marked(s);
                    }
                }
            }
            None => g.areas_containing(c).for_each(|a| marks.area(dirty, known, values, a)),
        }
        if !g.runtime_sheets.is_empty() {
            self.mark_runtime_readers(c, formula);
        }
    }

    /// Marks the run-time readers reaching cell `c`'s sheet, except the one
    /// that feeds it (it is taken not to read it; see `DepGraph::fed`) and
    /// the cell itself. A cell fed by several readers marks all the others:
    /// one that feeds it is calculated again for nothing.
    fn mark_runtime_readers(&mut self, c: CellAddr, formula: Option<FormulaId>) {
        let g = &self.program.graph;
        let feeder = match formula.map(|f| (f, g.fed.get(f.index()).copied().unwrap_or(Fed::None))) {
            Some((_, Fed::By(r))) => Some(r),
            Some((f, _)) => Some(f),
            None => None,
        };
        for (sheet, readers) in &g.runtime_sheets {
            if sheet.contains(c) {
                readers
                    .iter()
                    .filter(|&&r| Some(r) != feeder && Some(r) != formula)
                    .for_each(|r| self.dirty[r.index()] = true);
            }
        }
    }
}

/// What marking the readers of an area needs of the program and the engine.
struct Marks<'a> {
    g: &'a DepGraph,
    shared: &'a Shared,
    /// What each formula last read: a reader that did not read the area
    /// stays clean (see `touched`); likewise a shared value, when the
    /// engine follows what they read (`reads`).
    touched: &'a Touched,
    reads: bool,
    /// The shared counts kept across writes, and the write (the cell, its
    /// value before and now, the grid): a count is forgotten only when the
    /// write can change it.
    counts: &'a Counts,
    write: Write<'a>,
}

impl Marks<'_> {
    /// Marks the formulas reading area `a` dirty as far as its state
    /// `known` says they are not already (those whose last evaluation read
    /// it), and forgets the shared values reading it (unless nothing was
    /// calculated since they were last forgotten). "Every reader dirty"
    /// then means every reader that read it: one that did not is
    /// calculated only for another change, and cleaning it first leaves
    /// the state unknown again.
    #[inline(always)]
    fn area(&self, dirty: &mut [bool], known: &mut [Readers], values: &mut [Option<Value>], a: AreaId) {
        let (g, touched) = (self.g, self.touched);
        // Before anything is skipped: a count kept at an earlier write into
        // the area may change at this one.
        if !self.counts.is_empty() {
            self.counts(dirty, values, a);
        }
        let bit = bit(&g.areas()[a.index()]);
        let mark = |dirty: &mut [bool]| {
            for &r in &g.readers[a.index()] {
                if touched.read(r, bit) {
                    dirty[r.index()] = true;
                }
            }
        };
        let known = &mut known[a.index()];
        match *known {
            // Marked before, and none of its readers calculated since (so no
            // shared value reading it was evaluated since either).
            Readers::ALL_DIRTY => return,
            Readers::UNTRACKED => mark(dirty),
            Readers::UNKNOWN => {
                *known = Readers::ALL_DIRTY;
                mark(dirty);
            }
            // Only `f` was calculated since: it alone can have evaluated a
            // shared value reading the area.
            Readers(f) => {
                *known = Readers::ALL_DIRTY;
                if touched.read(FormulaId::at(f as usize), bit) {
                    dirty[f as usize] = true;
                }
            }
        }
        // Without shared subformulas there are no shared values to forget;
        // one that did not read the area is kept (see `touched`).
        if !values.is_empty() {
            for &s in self.shared.readers(a) {
                if (!self.reads || touched.shared_read(s, bit)) && !self.counts.keeps(s, a) {
                    values[s.index()] = None;
                }
            }
        }
    }

    /// Changes in place the counts by arrays of criteria reading area `a`
    /// (forgets those it cannot), forgets the kept counts reading it that
    /// the write can change, and marks dirty their users whose last
    /// evaluation read them. Those
    /// whose value is not held are marked too: shared values are also
    /// forgotten without marking anything (undo puts the dirty flags back
    /// as they were).
    fn counts(&self, dirty: &mut [bool], values: &mut [Option<Value>], a: AreaId) {
        // The counts by arrays of criteria held are changed in place.
        for &s in self.counts.arrays_reading(a) {
            if let Some(held) = &mut values[s.index()]
                && !self.counts.update(s, held, self.write.old, self.write.new)
            {
                values[s.index()] = None;
            }
        }
        // So are the COUNTIFS changed in place by writes into this area.
        for &(s, j) in self.counts.ifs_reading(a) {
            if let Some(mut held) = values[s.index()].take()
                && self.counts.update_ifs((s, j), &mut held, &self.write, values)
            {
                values[s.index()] = Some(held);
            }
        }
        for &s in self.counts.reading(a) {
            if let Some(c) = self.counts.criterion(s)
                && changes(c, self.write.old, self.write.new)
            {
                values[s.index()] = None;
                let bit = self.counts.bit(s);
                for &u in self.counts.users(s) {
                    if !self.reads || self.touched.read(u, bit) {
                        dirty[u.index()] = true;
                    }
                }
            }
        }
    }
}
