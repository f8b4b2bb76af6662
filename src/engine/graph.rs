//! The dependency graph. Nodes are formula cells and the distinct areas
//! formulas read; a cell points to each area that contains it, and an area
//! to each formula that reads it, so a range dependency stays one node
//! however many cells it covers. The graph is split into strongly connected
//! components, which in dependency order form the schedule: single cells
//! calculated once, and cycles iterated (`schedule.rs`).
//!
//! The edges are held once, as the lists dirty marking reads (each
//! area's readers, each cell's containing areas, the tall areas'
//! segments): `DepGraph::successor` reads the graph's edges from them,
//! so no second adjacency (petgraph's nodes and edges were 48 bytes a
//! chain cell) is kept beside them. The lists are flat (`engine::lists::Lists`).

use super::cell::FormulaCell;
use super::lists::Lists;
use super::tall::{Segments, is_tall, tiling};
use crate::address::{Area, CellAddr, SheetId};
use crate::ids::{AreaId, FormulaId};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// The whole sheets a formula cell lies on and is ordered before
/// (`DepGraph::runtime_sheets`): mostly none or one, held in place.
pub type Ids<T> = SmallVec<[T; 4]>;

/// What each formula cell reads, as the graph is built from it: the areas
/// its references name, in one flat list (a list per cell held 36 bytes a
/// cell for the program's life), and the whole sheets the few formulas
/// with run-time references (OFFSET with computed arguments, INDIRECT) can
/// reach.
#[derive(Debug, Default)]
pub struct CellReads {
    areas: Vec<Area>,
    /// Where each cell's areas start in `areas`, and one past the last.
    starts: Vec<u32>,
    reachable: Vec<(FormulaId, Box<[Area]>)>,
}

impl CellReads {
    /// Room for `cells` cells.
    pub fn with_capacity(cells: usize) -> CellReads {
        let mut starts = Vec::with_capacity(cells + 1);
        starts.push(0);
        CellReads { areas: Vec::with_capacity(cells), starts, reachable: Vec::new() }
    }

    /// The next formula cell's reads: the areas `deps` and the sheets
    /// `reachable` at run time.
    pub fn push(&mut self, deps: &[Area], reachable: &[Area]) {
        if !reachable.is_empty() {
            self.reachable.push((FormulaId::at(self.starts.len() - 1), reachable.into()));
        }
        self.areas.extend_from_slice(deps);
        self.starts.push(self.areas.len() as u32);
    }

    /// The areas formula cell `f` reads.
    fn of(&self, f: usize) -> &[Area] {
        &self.areas[self.starts[f] as usize..self.starts[f + 1] as usize]
    }
}

/// The formula cell at node `n` of a graph over `cells` formula cells.
pub(super) fn cell_at(n: usize, cells: usize) -> Option<FormulaId> {
    (n < cells).then(|| FormulaId::at(n))
}

/// One stage of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Cells outside any cycle, consecutive in calculation order: `first`
    /// and the `len - 1` after it, each calculated once per pass, in that
    /// order (a chain or a column of independent cells is one stage, not
    /// one per cell).
    Run { first: FormulaId, len: u32 },
    /// The cells of one cycle, in calculation order (sheet, row, column).
    Cycle(Vec<FormulaId>),
}

#[derive(Clone, Debug)]
pub struct DepGraph {
    /// Distinct areas read by formulas.
    areas: Vec<Area>,
    /// The areas of one cell, sorted by that cell.
    single: Vec<AreaId>,
    /// The other areas, in [`AreaId`] order.
    ranges: Vec<AreaId>,
    /// For each area (by [`AreaId`]), the formula cells that read it, in
    /// ascending order.
    pub(crate) readers: Lists<FormulaId>,
    /// For each formula cell (by [`FormulaId`]), the areas that contain it
    /// but the tall ones, which hold it through [`DepGraph::tall`], in
    /// ascending order.
    pub(crate) containing: Lists<AreaId>,
    /// The segments linking formula cells to tall areas.
    pub(crate) tall: Segments,
    /// For each formula cell (by [`FormulaId`]), the areas it reads.
    pub(crate) reads: Lists<AreaId>,
    /// For each formula cell, the whole sheets of [`DepGraph::runtime_sheets`]
    /// (by position) it lies on and is ordered before; empty when no
    /// formula has run-time references.
    hubs: Vec<Ids<u32>>,
    /// Formulas whose run-time references (OFFSET) can reach whole sheets.
    pub(crate) runtime: Vec<RuntimeRead>,
    /// The whole sheets run-time references reach, each with its readers.
    pub(crate) runtime_sheets: Vec<(Area, Vec<FormulaId>)>,
    /// For each formula cell, which run-time readers feed it through fixed
    /// references (a reader feeds itself): it is calculated after them, so
    /// they are taken not to read it (reading it would be a circular
    /// reference Excel finds at run time). Empty when no formula has
    /// run-time references.
    pub(crate) fed: Vec<Fed>,
}

/// Which run-time readers feed a formula: kept to one reader or "several",
/// so that finding it is one walk over the graph, not one per reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fed {
    None,
    By(FormulaId),
    Several,
}

/// A formula that may read anywhere on some sheets, decided when it runs.
#[derive(Clone, Debug)]
pub struct RuntimeRead {
    pub reader: FormulaId,
    pub sheets: Vec<Area>,
}

/// What [`DepGraph::runtime_reads`] adds to the graph.
struct Runtime {
    reads: Vec<RuntimeRead>,
    sheets: Vec<(Area, Vec<FormulaId>)>,
    fed: Vec<Fed>,
    hubs: Vec<Ids<u32>>,
}

impl DepGraph {
    /// The graph of formula cells `cells`, which read `read` (a cell's
    /// reads by its position in `cells`).
    pub fn new(cells: &[FormulaCell], read: &CellReads) -> Self {
        let mut area_ids: FxHashMap<Area, AreaId> = FxHashMap::default();
        area_ids.reserve(cells.len());
        let mut areas = Vec::new();
        let mut reads = Lists::with_capacity(cells.len(), read.areas.len());
        for i in 0..cells.len() {
            reads.push(read.of(i).iter().map(|a| {
                *area_ids.entry(*a).or_insert_with(|| {
                    areas.push(*a);
                    AreaId::at(areas.len() - 1)
                })
            }));
        }
        drop(area_ids);
        // Kept for the program's life: no room to grow.
        areas.shrink_to_fit();
        let readers = reads.transposed(areas.len(), AreaId::index, FormulaId::at);
        let mut tall = Segments::new(cells.len());
        let by_column = ByColumn::new(cells);
        (0..areas.len()).for_each(|id| link_tall(&by_column, &areas, AreaId::at(id), &mut tall));
        let containing = Lists::grouped(cells.len(), |put| short_inside(&by_column, &areas, 0, put));
        let mut single: Vec<AreaId> = (0..areas.len()).filter(|&i| areas[i].is_cell()).map(AreaId::at).collect();
        single.sort_unstable_by_key(|a| areas[a.index()].top_left());
        let ranges = (0..areas.len()).filter(|&i| !areas[i].is_cell()).map(AreaId::at).collect();
        let mut graph = DepGraph {
            areas,
            single,
            ranges,
            readers,
            containing,
            tall,
            reads,
            hubs: Vec::new(),
            runtime: Vec::new(),
            runtime_sheets: Vec::new(),
            fed: Vec::new(),
        };
        let Runtime { reads, sheets, fed, hubs } = graph.runtime_reads(cells, &read.reachable);
        (graph.runtime, graph.runtime_sheets, graph.fed, graph.hubs) = (reads, sheets, fed, hubs);
        graph
    }

    /// How many nodes the graph has: the formula cells (cell `f` is node
    /// `f`), then the areas, the segments of columns linking formula cells
    /// to the tall areas they tile (`tall.rs`), and the hubs of whole sheets
    /// that formulas with run-time references (OFFSET with computed
    /// arguments, INDIRECT) can reach ([`DepGraph::runtime_sheets`]), in
    /// that order.
    pub(super) fn node_count(&self) -> usize {
        self.containing.len() + self.areas.len() + self.tall.list.len() + self.runtime_sheets.len()
    }

    /// The `i`th node node `v` points to, from 0; none past the last. A
    /// cell points to the areas containing it, the segments holding it
    /// and the hubs of the sheets it lies on; an area to its readers; a
    /// segment to the tall areas it tiles; a hub to the formulas reaching
    /// its sheet.
    pub(super) fn successor(&self, v: usize, i: usize) -> Option<usize> {
        let (cells, areas, segments) = (self.containing.len(), self.areas.len(), self.tall.list.len());
        if v < cells {
            let (direct, held) = (&self.containing[v], self.tall.holding(FormulaId::at(v)));
            return match i {
                _ if i < direct.len() => Some(cells + direct[i].index()),
                _ if i < direct.len() + held.len() => Some(cells + areas + held[i - direct.len()]),
                _ => {
                    let hubs = self.hubs.get(v)?;
                    let h = *hubs.get(i - direct.len() - held.len())? as usize;
                    Some(cells + areas + segments + h)
                }
            };
        }
        let v = v - cells;
        if v < areas {
            return self.readers[v].get(i).map(|f| f.index());
        }
        let v = v - areas;
        if v < segments {
            return self.tall.areas[v].get(i).map(|a| cells + a.index());
        }
        self.runtime_sheets[v - segments].1.get(i).map(|f| f.index())
    }

    /// The nodes node `v` points to.
    pub(super) fn successors(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        (0..).map_while(move |i| self.successor(v, i))
    }

    /// Orders each formula with run-time references (OFFSET with computed
    /// arguments, INDIRECT) after every formula on the sheets it can reach
    /// that no such formula feeds: those formulas point to one node per
    /// sheet, which points to each reader reaching the sheet, so the edges
    /// grow with the cells plus the readers, never their product. Formulas
    /// fed by a reader are left unordered: each reader may reach the
    /// others' dependents, so ordering them too would make false circular
    /// references (a column of INDIRECT cells with a column of formulas
    /// reading them). Their order is settled when the pass runs: a reader
    /// that read one of them before it changed is dirty again and is
    /// calculated again in the same pass (`engine::recalc`).
    fn runtime_reads(&self, cells: &[FormulaCell], reachable: &[(FormulaId, Box<[Area]>)]) -> Runtime {
        if reachable.is_empty() {
            // No formula is fed by one: `fed` and `hubs` stay empty.
            return Runtime { reads: Vec::new(), sheets: Vec::new(), fed: Vec::new(), hubs: Vec::new() };
        }
        // Everything a reader feeds, the readers included. A walk from each
        // reader stops where it was already, or where several readers were:
        // a node's label changes at most twice, so the walks are linear
        // together.
        let mut fed = vec![Fed::None; cells.len()];
        let mut stack = Vec::new();
        for &(r, _) in reachable {
            stack.push(r.index());
            while let Some(n) = stack.pop() {
                if let Some(f) = cell_at(n, cells.len()) {
                    let label = &mut fed[f.index()];
                    *label = match *label {
                        Fed::None => Fed::By(r),
                        Fed::By(o) if o != r => Fed::Several,
                        _ => continue,
                    };
                }
                stack.extend(self.successors(n));
            }
        }
        let mut sheets: Vec<(Area, Vec<FormulaId>)> = Vec::new();
        let mut reads = Vec::with_capacity(reachable.len());
        for (r, reach) in reachable {
            for s in reach {
                match sheets.iter_mut().find(|(a, _)| a == s) {
                    Some((_, list)) => list.push(*r),
                    None => sheets.push((*s, vec![*r])),
                }
            }
            reads.push(RuntimeRead { reader: *r, sheets: reach.to_vec() });
        }
        let mut hubs = vec![Ids::new(); cells.len()];
        for (h, (sheet, _)) in sheets.iter().enumerate() {
            for (f, c) in cells.iter().enumerate() {
                if fed[f] == Fed::None && sheet.contains(c.addr) {
                    hubs[f].push(h as u32);
                }
            }
        }
        Runtime { reads, sheets, fed, hubs }
    }

    /// Whether the graph can follow an edit in place ([`DepGraph::update`]):
    /// no formula has run-time references, whose sheet nodes follow the
    /// area nodes.
    pub fn updatable(&self) -> bool {
        self.runtime.is_empty() && self.runtime_sheets.is_empty()
    }

    /// Follows the formulas `changed` of `cells` (the same formula cells),
    /// each with what it now reads, none with run-time references (see
    /// [`DepGraph::updatable`]): their reads are replaced, areas met for
    /// the first time are added with the cells they contain, and the
    /// readers are derived again from the reads. An area no formula reads
    /// any more stays, read by none. A formula listed twice reads what its
    /// last entry says.
    pub fn update(&mut self, cells: &[FormulaCell], changed: &[(FormulaId, &[Area])]) {
        let mut ids: FxHashMap<Area, AreaId> =
            self.areas.iter().enumerate().map(|(i, a)| (*a, AreaId::at(i))).collect();
        let first_new = self.areas.len();
        let mut now: BTreeMap<usize, Vec<AreaId>> = BTreeMap::new();
        for &(f, deps) in changed {
            let mut list: Vec<AreaId> = Vec::with_capacity(deps.len());
            for area in deps {
                let a = *ids.entry(*area).or_insert_with(|| {
                    self.areas.push(*area);
                    AreaId::at(self.areas.len() - 1)
                });
                if !list.contains(&a) {
                    list.push(a);
                }
            }
            now.insert(f.index(), list);
        }
        let now: Vec<(usize, &[AreaId])> = now.iter().map(|(f, list)| (*f, &list[..])).collect();
        self.reads = self.reads.replaced(&now);
        self.readers = self.reads.transposed(self.areas.len(), AreaId::index, FormulaId::at);
        if self.areas.len() == first_new {
            return;
        }
        let by_column = ByColumn::new(cells);
        for id in first_new..self.areas.len() {
            let (a, area) = (AreaId::at(id), self.areas[id]);
            link_tall(&by_column, &self.areas, a, &mut self.tall);
            match area.is_cell() {
                true => {
                    let at = self.single.partition_point(|s| self.areas[s.index()].top_left() < area.top_left());
                    self.single.insert(at, a);
                }
                false => self.ranges.push(a),
            }
        }
        // The new areas follow the old in each cell's list, in order.
        let more = Lists::grouped(cells.len(), |put| short_inside(&by_column, &self.areas, first_new, put));
        let mut containing = Lists::with_capacity(cells.len(), self.containing.items() + more.items());
        for f in 0..cells.len() {
            containing.push(self.containing.get(f).iter().chain(more.get(f)).copied());
        }
        self.containing = containing;
    }

    /// The distinct areas formulas read; an [`AreaId`] is a position here.
    pub fn areas(&self) -> &[Area] {
        &self.areas
    }

    /// The areas formula cell `f` reads through its references, in the
    /// order its formula names them (sorted when the program was built),
    /// each once.
    pub fn reads_of(&self, f: FormulaId) -> impl Iterator<Item = Area> + '_ {
        self.reads[f.index()].iter().map(|a| self.areas[a.index()])
    }

    /// The whole sheets formula cell `f`'s run-time references (OFFSET
    /// with computed arguments, INDIRECT) can reach.
    pub fn reachable(&self, f: FormulaId) -> &[Area] {
        match self.runtime.binary_search_by_key(&f, |r| r.reader) {
            Ok(i) => &self.runtime[i].sheets,
            Err(_) => &[],
        }
    }

    /// The formulas that read area `a`.
    pub fn readers(&self, a: AreaId) -> &[FormulaId] {
        &self.readers[a.index()]
    }

    /// The areas read by formulas that contain formula cell `f`: directly,
    /// then the tall ones through their segments.
    pub fn containing(&self, f: FormulaId) -> impl Iterator<Item = AreaId> + '_ {
        self.containing[f.index()].iter().copied().chain(self.tall.areas_holding(f))
    }

    /// The areas that contain `c`, for a cell without a formula, in
    /// [`AreaId`] order: its one-cell area found by binary search, the ranges
    /// checked one by one.
    pub fn areas_containing(&self, c: CellAddr) -> impl Iterator<Item = AreaId> + '_ {
        let at = self.single.partition_point(|a| self.areas[a.index()].top_left() < c);
        let single = self.single.get(at).copied().filter(|a| self.areas[a.index()].top_left() == c);
        let (before, after) =
            self.ranges.split_at(single.map_or(self.ranges.len(), |s| self.ranges.partition_point(|&a| a < s)));
        before
            .iter()
            .copied()
            .chain(single)
            .chain(after.iter().copied())
            .filter(move |&a| self.areas[a.index()].contains(c))
    }
}

/// Links the formula cells inside area `a` of `areas` to it through its
/// segments when it is tall (a new segment linked from the formula cells
/// inside it); a short area is linked by [`short_inside`].
fn link_tall(by_column: &ByColumn, areas: &[Area], a: AreaId, tall: &mut Segments) {
    let area = areas[a.index()];
    if !is_tall(&area) {
        return;
    }
    for tile in tiling(&area) {
        let (s, new) = tall.id(tile);
        if new {
            by_column.each_inside(&tile.area(), |f| tall.hold(f, s));
        }
        tall.areas[s].push(a);
    }
}

/// Gives each formula cell inside each short area of `areas` from the
/// `from`th on, with the area, in the areas' order: a cell's containing
/// areas.
fn short_inside(by_column: &ByColumn, areas: &[Area], from: usize, put: &mut dyn FnMut(usize, AreaId)) {
    for (id, area) in areas.iter().enumerate().skip(from) {
        if !is_tall(area) {
            by_column.each_inside(area, |f| put(f.index(), AreaId::at(id)));
        }
    }
}

/// The formula cells by (sheet, column, row), so that the formula cells
/// inside an area are found column by column, each column's run by binary
/// search, without visiting the area's empty or constant cells.
struct ByColumn(Vec<((SheetId, u32, u32), FormulaId)>);

impl ByColumn {
    fn new(cells: &[FormulaCell]) -> ByColumn {
        let mut v: Vec<_> =
            cells.iter().enumerate().map(|(i, c)| ((c.addr.sheet, c.addr.col, c.addr.row), FormulaId::at(i))).collect();
        v.sort_unstable();
        ByColumn(v)
    }

    /// Calls `f` for each formula cell inside `a`, column by column. Each
    /// step either lists a column's run or jumps to the next column holding
    /// a formula, so the cost is O((columns with formulas + output) · log).
    fn each_inside(&self, a: &Area, mut f: impl FnMut(FormulaId)) {
        let v = &self.0;
        // Most areas are one cell: one search.
        if a.is_cell() {
            if let Ok(i) = v.binary_search_by_key(&(a.sheet, a.c0, a.r0), |&(k, _)| k) {
                f(v[i].1);
            }
            return;
        }
        let (mut i, mut col) = (0, a.c0);
        loop {
            i += v[i..].partition_point(|(k, _)| *k < (a.sheet, col, a.r0));
            let Some(&((sheet, c, _), _)) = v.get(i) else { return };
            if sheet != a.sheet || c > a.c1 {
                return;
            }
            if c > col {
                col = c;
                continue;
            }
            let end = i + v[i..].partition_point(|(k, _)| *k <= (a.sheet, col, a.r1));
            v[i..end].iter().for_each(|&(_, id)| f(id));
            if col >= a.c1 {
                return;
            }
            (i, col) = (end, col + 1);
        }
    }
}
