//! Oscillation: when an iteration leaves every formula cell with the values
//! it had p ≥ 2 iterations earlier, the iterations from there repeat for
//! ever (a pass is a function of the values: a cell that is not dirty holds
//! what evaluating it would give), so the loop stops instead of running to
//! `max_iterations`. Period 1 is convergence, which the loop sees first.
//!
//! The watch is cheap where nothing happens: unchanged cells cost nothing.
//! Each changed write adds to a 64-bit hash of the state (a wrapping sum
//! over cells of a hash of (cell, value), counted from where watching
//! started, so it needs no scan) and logs the value it replaces. After each
//! iteration the hash is looked up among the earlier iterations' hashes; a
//! hit is confirmed exactly by walking the log back to that iteration and
//! comparing every cell changed since with its value then, so a collision
//! of hashes is never reported. The log keeps at most
//! [`MAX_WATCHED_CHANGES`] changes: past it the oldest iterations are
//! forgotten, and a repeat of one of them goes unseen.
//!
//! The history survives between recalculations (stepping one iteration at a
//! time sees the repeat) and starts again whenever the engine's values
//! change any other way (`set`, `restore`, undo, redo) or its settings do.

use crate::ids::FormulaId;
use crate::policy::CalcSettings;
use crate::value::Value;
use std::collections::{HashMap, HashSet};

/// Changed cells the watch remembers to confirm a repeat.
pub const MAX_WATCHED_CHANGES: usize = 1 << 20;

/// Changes whose room the log keeps when cleared (a long run's is given back).
const KEPT_LOG: usize = 1 << 16;

/// The oscillation watch of one engine. Clearing it and `clone_from` keep
/// its buffers (an engine restored for every puzzle reuses them).
#[derive(Debug, Default)]
pub(super) struct Watch {
    /// Whether writes are recorded: iteration is on and there are cycles.
    on: bool,
    /// The settings the history was made with.
    settings: Option<CalcSettings>,
    /// The state's hash, relative to the state watching started from.
    hash: u64,
    /// The iteration `marks[0]` stands for (0: the state watching started from).
    first: u32,
    /// Per iteration from `first`: the hash after it and the log's length
    /// then (counting the entries dropped).
    marks: Vec<(u64, usize)>,
    /// Each hash with the latest kept iteration that had it.
    seen: HashMap<u64, u32>,
    /// Every change since `marks[0]`: the cell and the value it replaced.
    log: Vec<(FormulaId, Value)>,
    /// Entries dropped from the front of the log.
    dropped: usize,
}

impl Clone for Watch {
    fn clone(&self) -> Self {
        let mut w = Watch::default();
        w.clone_from(self);
        w
    }

    fn clone_from(&mut self, source: &Self) {
        (self.on, self.settings, self.hash, self.first, self.dropped) =
            (source.on, source.settings, source.hash, source.first, source.dropped);
        self.marks.clone_from(&source.marks);
        self.seen.clone_from(&source.seen);
        self.log.clone_from(&source.log);
    }
}

impl Watch {
    /// Forgets the history: the engine's values changed outside a recalculation.
    pub fn clear(&mut self) {
        (self.on, self.settings, self.hash, self.first, self.dropped) = (false, None, 0, 0, 0);
        self.marks.clear();
        self.seen.clear();
        self.log.clear();
        self.log.shrink_to(KEPT_LOG);
    }

    /// Called as a recalculation starts: records from here when `iterating`
    /// (iteration on and cycles present), keeping the history made with
    /// the same settings.
    pub fn start(&mut self, settings: CalcSettings, iterating: bool) {
        if !iterating || self.settings != Some(settings) {
            self.clear();
        }
        if iterating && self.marks.is_empty() {
            self.settings = Some(settings);
            self.marks.push((0, 0));
            self.seen.insert(0, 0);
        }
        self.on = iterating;
    }

    /// A formula cell's value changed from `old` (kept in the log) to `new`.
    #[inline(always)]
    pub fn write(&mut self, f: FormulaId, old: Value, new: &Value) {
        if self.on {
            let salt = salt(f);
            self.hash = self.hash.wrapping_add(fold(key(new), salt)).wrapping_sub(fold(key(&old), salt));
            self.log.push((f, old));
        }
    }

    /// An iteration finished; `now` reads a formula cell's value. Returns
    /// the period when the values equal those of an earlier iteration.
    pub fn iteration<'v>(&mut self, now: impl Fn(FormulaId) -> &'v Value) -> Option<u32> {
        if !self.on {
            return None;
        }
        let k = self.first + self.marks.len() as u32;
        self.marks.push((self.hash, self.dropped + self.log.len()));
        let period = match self.seen.insert(self.hash, k) {
            Some(j) if j >= self.first && self.same_as(j, now) => Some(k - j),
            _ => None,
        };
        self.trim();
        period
    }

    /// Whether every cell changed since iteration `j` has its value of then.
    fn same_as<'v>(&self, j: u32, now: impl Fn(FormulaId) -> &'v Value) -> bool {
        let from = self.marks[(j - self.first) as usize].1 - self.dropped;
        let mut walked = HashSet::new();
        // A cell's first change after `j` replaced its value at `j`.
        self.log[from..].iter().all(|(f, then)| !walked.insert(*f) || now(*f) == then)
    }

    /// Forgets the oldest iterations while the log holds more than
    /// [`MAX_WATCHED_CHANGES`] changes, down to half of it.
    fn trim(&mut self) {
        if self.log.len() <= MAX_WATCHED_CHANGES {
            return;
        }
        let keep_from = self.dropped + self.log.len() - MAX_WATCHED_CHANGES / 2;
        let last = self.marks.len() - 1;
        let cut = self.marks.iter().position(|&(_, at)| at >= keep_from).unwrap_or(last).min(last);
        let at = self.marks[cut].1;
        self.log.drain(..at - self.dropped);
        self.dropped = at;
        self.marks.drain(..cut);
        self.first += cut as u32;
        let first = self.first;
        self.seen.retain(|_, &mut j| j >= first);
    }
}

/// A word standing for a value; values that are equal (`==`) have the same.
/// The hash of a cell holding a value is one folded multiply of its key by
/// the cell's [`salt`]: cheap on the path of every changed write, and any
/// collision is caught by the exact check.
#[inline]
fn key(v: &Value) -> u64 {
    let key = match v {
        Value::Number(n) => number_key(*n),
        v => other_key(v),
    };
    key ^ 0xa076_1d64_78bd_642f
}

#[inline(always)]
fn number_key(n: f64) -> u64 {
    // 0 and -0 are equal values.
    (if n == 0.0 { 0.0f64 } else { n }).to_bits() ^ 0x5555_5555
}

/// [`key`] of anything but a number (out of line: numbers are the hot path).
#[inline(never)]
fn other_key(v: &Value) -> u64 {
    match v {
        Value::Number(n) => number_key(*n),
        Value::Empty => 1,
        Value::Text(t) => bytes_hash(t) ^ 2,
        Value::Bool(b) => 3 + *b as u64,
        Value::Error(e) => bytes_hash(e.text()) ^ 5,
        // A cell shows a single value; anything else is told apart by the exact check.
        Value::Array(_) | Value::Ref(_) => 6,
    }
}

/// A word standing for a formula cell.
#[inline]
fn salt(f: FormulaId) -> u64 {
    (f.index() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xe703_7ed1_a0b4_28db
}

/// The 128-bit product of two words, its halves xored (wyhash's mixer).
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let p = a as u128 * b as u128;
    p as u64 ^ (p >> 64) as u64
}

/// FNV-1a over the bytes of a text.
fn bytes_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: Value = Value::Number(1.0);

    fn watching() -> Watch {
        let mut w = Watch::default();
        w.start(CalcSettings { iterate: true, ..CalcSettings::default() }, true);
        w
    }

    #[test]
    fn a_hash_that_matches_is_checked_against_the_values() {
        let f = FormulaId::at(0);
        let mut w = watching();
        w.write(f, Value::Empty, &ONE);
        // As if (f, 1) hashed like the start: the log shows f was empty then.
        w.hash = 0;
        assert_eq!(w.iteration(|_| &ONE), None);
        // The real repeat is found: back to empty, as at the start.
        let mut w = watching();
        w.write(f, Value::Empty, &ONE);
        assert_eq!(w.iteration(|_| &ONE), None);
        w.write(f, ONE, &Value::Empty);
        assert_eq!(w.iteration(|_| &Value::Empty), Some(2));
    }

    #[test]
    fn past_the_budget_the_oldest_iterations_are_forgotten() {
        let cells = MAX_WATCHED_CHANGES / 3 + 1;
        let mut w = watching();
        // Iterations 1 to 3 set every cell to 1, 2, 3; iteration 4 back to
        // empty, as at the start, forgotten by then.
        let values = [Value::Empty, ONE, Value::Number(2.0), Value::Number(3.0), Value::Empty];
        for i in 1..=4 {
            (0..cells).for_each(|c| w.write(FormulaId::at(c), values[i - 1].clone(), &values[i]));
            assert_eq!(w.iteration(|_| &values[i]), None, "iteration {i}");
        }
        assert!(w.log.len() <= MAX_WATCHED_CHANGES);
        assert_eq!(w.first, 2);
        // A repeat of a state still kept is seen.
        (0..cells).for_each(|c| w.write(FormulaId::at(c), values[0].clone(), &values[3]));
        assert_eq!(w.iteration(|_| &values[3]), Some(2));
    }
}
