//! The schedule: the dependency graph split into strongly connected
//! components, which in dependency order are the stages of a pass (single
//! cells calculated once, and cycles iterated). The split is Tarjan's
//! algorithm in Pearce's form (one number a node, not three: "A space-
//! efficient algorithm for finding strongly connected components", 2016),
//! walked with an explicit stack of (node, next edge) pairs, so a chain of
//! 100,000 cells needs no deep recursion; the walk's vectors are the
//! largest thing alive while a chain's program is assembled. Each node's
//! component is numbered in one flat vector: no list per component is
//! built (petgraph's `kosaraju_scc` returned one vector per component,
//! 200,000 of them for a 100,000-cell chain). The components' members are
//! then listed once, sorted by component, for the few stages that need
//! them.

use super::graph::{DepGraph, Stage, cell_at};
use crate::ids::FormulaId;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No node, no component, no cell: the vectors' empty mark.
const NONE: u32 = u32::MAX;

/// Not reached yet, in [`Walk::rindex`].
const UNSEEN: u32 = 0;

/// The bit of a call's edge position that says no edge has yet led to a
/// node found before it: the node is the root of its component.
const ROOT: u32 = 1 << 31;

/// Each node's strongly connected component, numbered from 0 in the
/// order the walk completes them.
struct Components {
    of: Vec<u32>,
    count: usize,
}

/// Pearce's walk. A node being walked, or walked and waiting on `stack`
/// for its component, holds its discovery number, lowered to the least
/// number it reaches; a node given a component holds the component's
/// number, counted down from the last node so that it is never below any
/// discovery number (the discovery count goes down by one for each node
/// given a component), the first component `n - 1` of `n` nodes.
/// `calls` stands for the recursion: each node being
/// walked with the position of the next of its edges to follow and the
/// [`ROOT`] bit.
struct Walk<'g> {
    g: &'g DepGraph,
    rindex: Vec<u32>,
    stack: Vec<u32>,
    calls: Vec<(u32, u32)>,
    next: u32,
    component: u32,
}

impl Walk<'_> {
    fn enter(&mut self, v: usize) {
        self.rindex[v] = self.next;
        self.next += 1;
        self.calls.push((v as u32, ROOT));
    }

    /// What an edge from `v` to `w`, walked or found before, tells `v`.
    fn reach(&mut self, v: usize, w: usize) {
        if self.rindex[w] < self.rindex[v] {
            self.rindex[v] = self.rindex[w];
            if let Some((_, at)) = self.calls.last_mut() {
                *at &= !ROOT;
            }
        }
    }

    /// Walks everything reachable from `root` not walked yet.
    fn from(&mut self, root: usize) {
        self.enter(root);
        while let Some(&mut (v, ref mut at)) = self.calls.last_mut() {
            let v = v as usize;
            if let Some(w) = self.g.successor(v, (*at & !ROOT) as usize) {
                *at += 1;
                match self.rindex[w] {
                    UNSEEN => self.enter(w),
                    _ => self.reach(v, w),
                }
                continue;
            }
            let Some((_, at)) = self.calls.pop() else { break };
            if at & ROOT == 0 {
                self.stack.push(v as u32);
            } else {
                self.next -= 1;
                while let Some(&w) = self.stack.last()
                    && self.rindex[v] <= self.rindex[w as usize]
                {
                    self.stack.pop();
                    self.rindex[w as usize] = self.component - 1;
                    self.next -= 1;
                }
                self.component -= 1;
                self.rindex[v] = self.component;
            }
            if let Some(&(u, _)) = self.calls.last() {
                self.reach(u as usize, v);
            }
        }
    }
}

impl Components {
    fn of(g: &DepGraph) -> Components {
        let n = g.node_count();
        let mut walk =
            Walk { g, rindex: vec![UNSEEN; n], stack: Vec::new(), calls: Vec::new(), next: 1, component: n as u32 };
        for root in 0..n {
            if walk.rindex[root] == UNSEEN {
                walk.from(root);
            }
        }
        // Numbered from the last node down: the first completed is 0.
        let mut of = walk.rindex;
        of.iter_mut().for_each(|c| *c = n as u32 - 1 - *c);
        Components { of, count: n - walk.component as usize }
    }

    /// The nodes of each component, listed component after component, and
    /// where each component's list starts (`count + 1` starts).
    fn members(&self) -> (Vec<u32>, Vec<u32>) {
        // Each component's end, then its nodes placed from the end down
        // (last node first), which leaves each entry at its component's
        // start: no second vector of positions.
        let mut start = vec![0u32; self.count + 1];
        self.of.iter().for_each(|&c| start[c as usize + 1] += 1);
        (1..start.len()).for_each(|i| start[i] += start[i - 1]);
        let mut nodes = vec![0u32; self.of.len()];
        for (v, &c) in self.of.iter().enumerate().rev() {
            start[c as usize + 1] -= 1;
            nodes[start[c as usize + 1] as usize] = v as u32;
        }
        // Entry `c + 1` now holds where component `c` starts.
        start.remove(0);
        start.push(self.of.len() as u32);
        (nodes, start)
    }
}

impl DepGraph {
    /// Components in dependency order: every stage comes after the stages
    /// it reads, and among the stages ready at any point, the one holding
    /// the first cell in calculation order (sheet, row, column) comes
    /// first. So the schedule depends on the dependencies alone, never on
    /// the order the graph was built in (a fresh load and an edit made in
    /// place schedule alike), nor on how the components are numbered, and
    /// independent cells go in Excel's row-major order.
    pub fn schedule(&self) -> Vec<Stage> {
        let comps = Components::of(self);
        let cell = |v: usize| cell_at(v, self.containing.len());
        // Each component's first cell (none: it holds only areas and sheet
        // nodes, passed through first), and the edges into it from others.
        let mut first = vec![NONE; comps.count];
        for (v, &c) in comps.of.iter().enumerate() {
            if let Some(f) = cell(v) {
                first[c as usize] = first[c as usize].min(f.index() as u32);
            }
        }
        let mut waiting = vec![0u32; comps.count];
        for (v, &a) in comps.of.iter().enumerate() {
            for w in self.successors(v) {
                let b = comps.of[w];
                if a != b {
                    waiting[b as usize] += 1;
                }
            }
        }
        let (nodes, start) = comps.members();
        let key = |c: usize| Reverse((first[c] != NONE, first[c], c));
        let mut ready: BinaryHeap<_> = (0..comps.count).filter(|&c| waiting[c] == 0).map(key).collect();
        let mut stages = Vec::new();
        while let Some(Reverse((_, _, c))) = ready.pop() {
            let scc = &nodes[start[c] as usize..start[c + 1] as usize];
            match (scc, first[c]) {
                (_, NONE) => {}
                ([_], f) => match stages.last_mut() {
                    Some(Stage::Run { first, len }) if first.0 + *len == f => *len += 1,
                    _ => stages.push(Stage::Run { first: FormulaId(f), len: 1 }),
                },
                _ => {
                    let mut cells: Vec<FormulaId> = scc.iter().filter_map(|&v| cell(v as usize)).collect();
                    cells.sort_unstable();
                    stages.push(Stage::Cycle(cells));
                }
            }
            for &v in scc {
                for m in self.successors(v as usize) {
                    let d = comps.of[m] as usize;
                    if d != c {
                        waiting[d] -= 1;
                        if waiting[d] == 0 {
                            ready.push(key(d));
                        }
                    }
                }
            }
        }
        stages.shrink_to_fit();
        stages
    }
}

impl Stage {
    /// The cells of a run, in order; none for a cycle.
    pub fn run(&self) -> impl Iterator<Item = FormulaId> + use<> {
        let cells = match *self {
            Stage::Run { first, len } => first.index()..first.index() + len as usize,
            Stage::Cycle(_) => 0..0,
        };
        cells.map(FormulaId::at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::{Area, CellAddr};
    use crate::engine::cell::FormulaCell;
    use crate::engine::graph::CellReads;
    use crate::eval::BExpr;
    use crate::ids::{AreaId, EntryId};
    use crate::value::Value;
    use proptest::prelude::*;

    /// Formula cells at `rows` (column A, sorted) reading the areas of
    /// column A from row `r0` to `r1` given for each; rows reach past 64 so
    /// that tall areas link through segments.
    fn graph(rows: &[u32], reads: &[Vec<(u32, u32)>]) -> (Vec<FormulaCell>, Vec<Vec<Area>>, DepGraph) {
        let cells: Vec<FormulaCell> = rows
            .iter()
            .map(|&r| FormulaCell::new(CellAddr::new(0, r, 0), EntryId::at(0), BExpr::Const(Value::Empty)))
            .collect();
        let deps: Vec<Vec<Area>> = reads
            .iter()
            .map(|areas| {
                areas.iter().map(|&(a, b)| Area { sheet: 0, r0: a.min(b), c0: 0, r1: a.max(b), c1: 0 }).collect()
            })
            .collect();
        let mut read = CellReads::with_capacity(cells.len());
        deps.iter().for_each(|d| read.push(d, &[]));
        let g = DepGraph::new(&cells, &read);
        (cells, deps, g)
    }

    proptest! {
        // Cases are drawn afresh each run; a failure prints its input.
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// Pearce's walk splits the graph as petgraph's Tarjan does, and the
        /// schedule puts every cell once, after the cells it reads outside
        /// its own cycle.
        #[test]
        fn the_walk_finds_the_components_petgraph_finds(
            spec in proptest::collection::btree_map(0u32..200, proptest::collection::vec((0u32..200, 0u32..200), 0..3), 1..40)
        ) {
            let (rows, reads): (Vec<u32>, Vec<_>) = spec.into_iter().map(|(r, a)| (r, a.into_iter().map(|(x, y)| (x, if y % 3 == 0 { y } else { x })).collect())).unzip();
            let (cells, deps, g) = graph(&rows, &reads);
            let n = g.node_count();
            let mut pg = petgraph::graph::DiGraph::<(), ()>::new();
            (0..n).for_each(|_| { pg.add_node(()); });
            for v in 0..n {
                for w in g.successors(v) {
                    pg.add_edge(petgraph::graph::NodeIndex::new(v), petgraph::graph::NodeIndex::new(w), ());
                }
            }
            let mut expected = vec![0; n];
            for scc in petgraph::algo::tarjan_scc(&pg) {
                let least = scc.iter().map(|v| v.index()).min().unwrap_or(0);
                scc.iter().for_each(|v| expected[v.index()] = least);
            }
            let comps = Components::of(&g);
            prop_assert!(comps.of.iter().all(|&c| (c as usize) < comps.count));
            let mut least = vec![usize::MAX; comps.count];
            comps.of.iter().enumerate().for_each(|(v, &c)| least[c as usize] = least[c as usize].min(v));
            let found: Vec<usize> = comps.of.iter().map(|&c| least[c as usize]).collect();
            prop_assert_eq!(found, expected);
            // Each cell once; a cell read from outside its stage comes before.
            let mut stage_of = vec![usize::MAX; cells.len()];
            for (i, s) in g.schedule().iter().enumerate() {
                let members: Vec<FormulaId> = match s { Stage::Cycle(c) => c.clone(), _ => s.run().collect() };
                for f in members {
                    prop_assert_eq!(stage_of[f.index()], usize::MAX);
                    stage_of[f.index()] = i;
                }
            }
            prop_assert!(stage_of.iter().all(|&s| s != usize::MAX));
            for (f, c) in cells.iter().enumerate() {
                for (d, other) in cells.iter().enumerate() {
                    if deps[f].iter().any(|a| a.contains(other.addr)) && stage_of[d] != stage_of[f] {
                        prop_assert!(stage_of[d] < stage_of[f], "{:?} reads {:?} scheduled after it", c.addr, other.addr);
                    }
                }
            }
        }

        /// A graph following an edit in place (`DepGraph::update`, with
        /// areas met for the first time, tall ones among them) is the
        /// graph built afresh from what the cells now read: the same reads,
        /// containing areas read by some formula and readers by area, and
        /// the same schedule.
        #[test]
        fn an_updated_graph_is_the_graph_built_afresh(
            spec in proptest::collection::btree_map(0u32..200, proptest::collection::vec((0u32..200, 0u32..200), 0..3), 1..30),
            edits in proptest::collection::vec((0usize..30, proptest::collection::vec((0u32..200, 0u32..200), 0..3)), 1..6)
        ) {
            let (rows, reads): (Vec<u32>, Vec<Vec<(u32, u32)>>) = spec.into_iter().unzip();
            let (cells, _, mut g) = graph(&rows, &reads);
            let mut now = reads.clone();
            let edits: Vec<(usize, Vec<(u32, u32)>)> = edits.into_iter().map(|(f, a)| (f % cells.len(), a)).collect();
            edits.iter().for_each(|(f, a)| now[*f] = a.clone());
            let (_, deps, fresh) = graph(&rows, &now);
            let changed: Vec<(FormulaId, Vec<Area>)> = edits.iter().map(|(f, _)| (FormulaId::at(*f), deps[*f].clone())).collect();
            let changed: Vec<(FormulaId, &[Area])> = changed.iter().map(|(f, a)| (*f, &a[..])).collect();
            g.update(&cells, &changed);
            let sorted = |mut v: Vec<Area>| { v.sort_by_key(|a| (a.r0, a.r1)); v.dedup(); v };
            for f in (0..cells.len()).map(FormulaId::at) {
                prop_assert_eq!(sorted(g.reads_of(f).collect()), sorted(fresh.reads_of(f).collect()));
                // An area no formula reads any more stays, read by none.
                let within = |g: &DepGraph| {
                    sorted(g.containing(f).filter(|&a| !g.readers(a).is_empty()).map(|a| g.areas()[a.index()]).collect())
                };
                prop_assert_eq!(within(&g), within(&fresh));
            }
            for (a, area) in g.areas().iter().enumerate() {
                let there = fresh.areas().iter().position(|b| b == area);
                let expected = there.map_or(&[][..], |b| fresh.readers(AreaId::at(b)));
                prop_assert_eq!(g.readers(AreaId::at(a)), expected, "readers of {:?}", area);
            }
            prop_assert_eq!(g.schedule(), fresh.schedule());
        }
    }
}
