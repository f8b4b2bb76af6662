//! What the dynamic-array formulas spill, kept beside the values they
//! write: for each anchor (a formula cell that spills, see
//! `engine::spill`) the area its value covers now, or, when an obstacle
//! stops it, the area it wants; and for each covered cell but the anchor,
//! the anchor that owns it. `A1#` (`ANCHORARRAY`) reads the area from
//! here, so every evaluator that has the grid can answer it; the engine
//! alone writes it. Empty in a workbook without dynamic-array formulas.

use crate::address::{Area, CellAddr};
use crate::value::Value;
use rustc_hash::FxHashMap;

/// One anchor's spill.
#[derive(Clone, Debug, PartialEq)]
pub struct Spill {
    /// The cells its value covers now (the anchor alone for a single
    /// value); `None` while an obstacle stops it (the anchor shows `#SPILL!`).
    pub area: Option<Area>,
    /// The cells its value needs: `area` when it spills.
    pub wanted: Area,
    /// The whole value last calculated (what the oscillation watch
    /// compares: two iterations with the same top-left element but
    /// different spills are different states).
    pub value: Value,
}

/// Every anchor's spill and the owner of every covered cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spills {
    anchors: FxHashMap<CellAddr, Spill>,
    owners: FxHashMap<CellAddr, CellAddr>,
}

impl Spills {
    /// The spill of the formula at `anchor`, once calculated.
    pub fn get(&self, anchor: CellAddr) -> Option<&Spill> {
        self.anchors.get(&anchor)
    }

    /// The anchor whose spill covers `c` (never `c`'s own formula).
    pub fn owner(&self, c: CellAddr) -> Option<CellAddr> {
        self.owners.get(&c).copied()
    }

    /// A cell of `area` some spill covers (never an anchor), if any.
    pub fn covered_in(&self, area: Area) -> Option<CellAddr> {
        self.anchors.iter().find_map(|(&anchor, s)| {
            let both = s.area?.intersect(&area)?;
            both.cells().find(|&c| c != anchor)
        })
    }

    /// Every anchor with its spill.
    pub fn anchors(&self) -> impl Iterator<Item = (CellAddr, &Spill)> + '_ {
        self.anchors.iter().map(|(a, s)| (*a, s))
    }

    /// Whether no anchor was ever calculated.
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// The anchors stopped by an obstacle that want a cell of `area`.
    pub fn blocked_wanting(&self, area: Area) -> impl Iterator<Item = CellAddr> + '_ {
        self.anchors
            .iter()
            .filter(move |(_, s)| s.area.is_none() && s.wanted.intersect(&area).is_some())
            .map(|(a, _)| *a)
    }

    /// Records `anchor`'s new spill; its covered cells change owner (the
    /// engine has checked that no other anchor owns them).
    pub(crate) fn put(&mut self, anchor: CellAddr, spill: Spill) {
        if let Some(old) = self.anchors.get(&anchor).and_then(|s| s.area) {
            old.cells().filter(|&c| c != anchor).for_each(|c| {
                self.owners.remove(&c);
            });
        }
        if let Some(new) = spill.area {
            new.cells().filter(|&c| c != anchor).for_each(|c| {
                self.owners.insert(c, anchor);
            });
        }
        self.anchors.insert(anchor, spill);
    }

    /// Forgets every spill (a fresh engine).
    pub fn clear(&mut self) {
        self.anchors.clear();
        self.owners.clear();
    }
}
