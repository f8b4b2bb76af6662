//! The schedule: the dependency graph split into strongly connected
//! components, which in dependency order are the stages of a pass (single
//! cells calculated once, and cycles iterated). The split is Tarjan's
//! algorithm walked with an explicit stack of (node, next edge) pairs, so a
//! chain of 100,000 cells needs no deep recursion, and it numbers each
//! node's component in one flat vector: no list per component is built
//! (petgraph's `kosaraju_scc` returned one vector per component, 200,000 of
//! them for a 100,000-cell chain, the largest thing alive while a program
//! was assembled). The components' members are then listed once, sorted
//! by component, for the few stages that need them.

use super::graph::{DepGraph, Graph, Stage, cell_at};
use crate::ids::FormulaId;
use petgraph::Direction::Outgoing;
use petgraph::graph::{EdgeIndex, NodeIndex};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No node, no component, no cell: the vectors' empty mark.
const NONE: u32 = u32::MAX;

/// Each node's strongly connected component, numbered from 0 in the
/// order Tarjan's algorithm completes them.
struct Components {
    of: Vec<u32>,
    count: usize,
}

/// Tarjan's walk: each node's discovery number and the lowest discovery
/// number it reaches; a node found but not yet given a component is on
/// `stack`. `calls` stands for the recursion: each node being walked with
/// the next of its edges to follow.
struct Walk<'g> {
    g: &'g Graph,
    index: Vec<u32>,
    low: Vec<u32>,
    of: Vec<u32>,
    stack: Vec<u32>,
    calls: Vec<(usize, Option<EdgeIndex>)>,
    next: u32,
    count: u32,
}

impl Walk<'_> {
    fn enter(&mut self, v: usize) {
        (self.index[v], self.low[v]) = (self.next, self.next);
        self.next += 1;
        self.stack.push(v as u32);
        self.calls.push((v, self.g.first_edge(NodeIndex::new(v), Outgoing)));
    }

    /// Walks everything reachable from `root` not walked yet.
    fn from(&mut self, root: usize) {
        self.enter(root);
        while let Some(&mut (v, ref mut edge)) = self.calls.last_mut() {
            if let Some(e) = *edge {
                *edge = self.g.next_edge(e, Outgoing);
                let w = self.g.raw_edges()[e.index()].target().index();
                if self.index[w] == NONE {
                    self.enter(w);
                } else if self.of[w] == NONE {
                    self.low[v] = self.low[v].min(self.index[w]);
                }
                continue;
            }
            self.calls.pop();
            if self.low[v] == self.index[v] {
                while let Some(w) = self.stack.pop() {
                    self.of[w as usize] = self.count;
                    if w as usize == v {
                        break;
                    }
                }
                self.count += 1;
            }
            if let Some(&(u, _)) = self.calls.last() {
                self.low[u] = self.low[u].min(self.low[v]);
            }
        }
    }
}

impl Components {
    fn of(g: &Graph) -> Components {
        let n = g.node_count();
        let mut walk = Walk {
            g,
            index: vec![NONE; n],
            low: vec![0; n],
            of: vec![NONE; n],
            stack: Vec::new(),
            calls: Vec::new(),
            next: 0,
            count: 0,
        };
        for root in 0..n {
            if walk.index[root] == NONE {
                walk.from(root);
            }
        }
        Components { of: walk.of, count: walk.count as usize }
    }

    /// The nodes of each component, listed component after component, and
    /// where each component's list starts (`count + 1` starts).
    fn members(&self) -> (Vec<u32>, Vec<u32>) {
        let mut start = vec![0u32; self.count + 1];
        self.of.iter().for_each(|&c| start[c as usize + 1] += 1);
        (1..start.len()).for_each(|i| start[i] += start[i - 1]);
        let mut at = start.clone();
        let mut nodes = vec![0u32; self.of.len()];
        for (v, &c) in self.of.iter().enumerate() {
            nodes[at[c as usize] as usize] = v as u32;
            at[c as usize] += 1;
        }
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
        let g = &self.graph;
        let comps = Components::of(g);
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
        for e in g.raw_edges() {
            let (a, b) = (comps.of[e.source().index()], comps.of[e.target().index()]);
            if a != b {
                waiting[b as usize] += 1;
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
                for m in g.neighbors(NodeIndex::new(v as usize)) {
                    let d = comps.of[m.index()] as usize;
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
