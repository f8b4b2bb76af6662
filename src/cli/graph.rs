//! `graph`: the dependency graph as Graphviz DOT
//! (`dataflow graph workbooks/sudoku.ron | dot -Tsvg > graph.svg`).
//!
//! - By default the whole workbook, collapsed: one node per formula entry
//!   (a range formula such as `Main!P4:AP30` is one node, a single-cell
//!   formula another), one per input and per constant read, and an edge
//!   from each to the entries whose formulas read it, labelled with the
//!   number of distinct areas read when there are several.
//! - `--cell Main!E17`: that cell, the areas it reads with what is in them,
//!   and the areas containing it with the formulas that read them; up to
//!   [`LISTED`] cells of one entry are shown one by one, more as one node.
//! - `--names`: what formulas use: entries → the names they use → the names
//!   and references those use (references that only give a position, in
//!   ROW, COLUMN, ROWS and COLUMNS, are left out).
//!
//! Nodes of a circular reference are red and drawn in a cluster per cycle.
//! Labels are quoted with `"` and `\` escaped, as DOT wants. The text is
//! written here rather than with `petgraph::dot::Dot`, which has no way to
//! draw a subgraph cluster or a graph label, the two things that make a
//! cycle stand out.

use super::Failure;
use dataflow::address::{Area, CellAddr};
use dataflow::ast::{Expr, ExprKind, RefExpr, RefKind};
use dataflow::engine::Program;
use dataflow::functions;
use dataflow::ids::{AreaId, FormulaId};
use dataflow::session::Session;
use dataflow::workbook::{Content, Workbook};
use indexmap::IndexMap;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::path::Path;

/// Cells of one entry shown one by one in `--cell` graphs; more are one node.
pub const LISTED: usize = 9;

pub fn graph(workbook: &Path, cell: Option<&str>, names: bool) -> Result<(), Failure> {
    let session = Session::load(workbook).map_err(Failure::from)?;
    let title = workbook.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let dot = match (cell, names) {
        (Some(_), true) => return Err(Failure::Usage("give either --cell or --names, not both".into())),
        (Some(c), false) => {
            let area = session.area(c).map_err(|m| Failure::Usage(format!("--cell `{c}`: {m}")))?;
            if !area.is_cell() {
                return Err(Failure::Usage(format!("--cell `{c}` is a range; give one cell")));
            }
            cell_graph(&session, &title, area.top_left())
        }
        (None, false) => collapsed(&session, &title),
        (None, true) => names_graph(&session, &title),
    };
    crate::app::print(&dot)
}

/// A DOT graph under construction: nodes by key, edges with the areas they stand for.
#[derive(Default)]
struct Dot {
    nodes: IndexMap<String, DotNode>,
    edges: IndexMap<(usize, usize), BTreeSet<usize>>,
}

struct DotNode {
    label: String,
    shape: &'static str,
    cycle: Option<usize>,
}

impl Dot {
    /// The node with this key, added with `label` the first time.
    fn node(
        &mut self,
        key: String,
        shape: &'static str,
        cycle: Option<usize>,
        label: impl FnOnce() -> String,
    ) -> usize {
        let entry = self.nodes.entry(key);
        let i = entry.index();
        entry.or_insert_with(|| DotNode { label: label(), shape, cycle });
        i
    }

    /// An edge, standing for `area` (counted in the label when several).
    fn edge(&mut self, from: usize, to: usize, area: Option<usize>) {
        self.edges.entry((from, to)).or_default().extend(area);
    }

    /// The DOT text; with `clusters`, the nodes of each cycle are drawn in a box.
    fn render(&self, title: &str, cycles: &[usize], clusters: bool) -> String {
        let mut out = String::from("digraph dataflow {\n");
        let _ = writeln!(out, "  label={};\n  labelloc=t;\n  rankdir=LR;\n  fontname=\"Helvetica\";", quote(title));
        out += "  node [shape=box, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
        let line = |i: usize, n: &DotNode| {
            let red = if n.cycle.is_some() { ", color=red, fontcolor=red" } else { "" };
            format!("n{i} [label={}, shape={}{red}];\n", quote(&n.label), n.shape)
        };
        for (k, size) in cycles.iter().enumerate().filter(|_| clusters) {
            let _ = writeln!(out, "  subgraph cluster_cycle{} {{", k + 1);
            let _ = writeln!(out, "    label={};\n    color=red;\n    fontcolor=red;", quote(&cycle_label(k, *size)));
            for (i, n) in self.nodes.values().enumerate().filter(|(_, n)| n.cycle == Some(k)) {
                out += &format!("    {}", line(i, n));
            }
            out += "  }\n";
        }
        for (i, n) in self.nodes.values().enumerate().filter(|(_, n)| !clusters || n.cycle.is_none()) {
            out += &format!("  {}", line(i, n));
        }
        for ((a, b), areas) in &self.edges {
            let mut attrs = Vec::new();
            if areas.len() > 1 {
                attrs.push(format!("label={}", quote(&format!("{} areas", areas.len()))));
            }
            let (ca, cb) = (self.nodes[*a].cycle, self.nodes[*b].cycle);
            if ca.is_some() && ca == cb {
                attrs.push("color=red".into());
            }
            let attrs = if attrs.is_empty() { String::new() } else { format!(" [{}]", attrs.join(", ")) };
            let _ = writeln!(out, "  n{a} -> n{b}{attrs};");
        }
        out + "}\n"
    }
}

fn cycle_label(k: usize, size: usize) -> String {
    format!("cycle {}: {}", k + 1, crate::app::plural(size as u64, "cell"))
}

/// A DOT string: quotes and backslashes escaped, newlines as `\n`.
pub fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for ch in s.chars() {
        match ch {
            '"' => q += "\\\"",
            '\\' => q += "\\\\",
            '\n' => q += "\\n",
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// What the graphs share: each formula cell's entry and cycle, and each
/// area's formula cells.
struct Facts<'s> {
    wb: &'s Workbook,
    p: &'s Program,
    /// Per formula cell (program index): the index of its entry in `wb.cells`.
    entry: Vec<usize>,
    /// Per formula cell: the cycle it is in.
    cycle: Vec<Option<usize>>,
    /// Cells per cycle.
    cycles: Vec<usize>,
    /// Per area of the dependency graph: the formula cells in it.
    members: Vec<Vec<FormulaId>>,
}

impl<'s> Facts<'s> {
    fn new(s: &'s Session) -> Facts<'s> {
        let (wb, p) = (s.workbook(), &**s.engine().program());
        let entry = p.cells().iter().map(|c| c.origin.index()).collect();
        let mut cycle = vec![None; p.cells().len()];
        let mut cycles = Vec::new();
        for (k, cells) in p.cycles().enumerate() {
            cells.iter().for_each(|&f| cycle[f.index()] = Some(k));
            cycles.push(cells.len());
        }
        let mut members = vec![Vec::new(); p.graph().areas().len()];
        for f in (0..p.cells().len()).map(FormulaId::at) {
            p.graph().containing(f).for_each(|a| members[a.index()].push(f));
        }
        Facts { wb, p, entry, cycle, cycles, members }
    }

    /// `Main!D4:L12`, `'My Sheet'!A1`.
    fn area_name(&self, a: &Area) -> String {
        self.p.scope().sheets.area(*a)
    }

    /// The node of a formula entry, labelled with its area, file and size.
    fn entry_node(&self, dot: &mut Dot, e: usize) -> usize {
        let cells: Vec<usize> = (0..self.entry.len()).filter(|&f| self.entry[f] == e).collect();
        let cycle = cells.iter().find_map(|&f| self.cycle[f]);
        dot.node(format!("entry {e}"), "box", cycle, || {
            let Some(entry) = self.wb.cells.get(e) else { return "formula".into() };
            let file = entry.content.formula().and_then(|f| f.origin.source.as_ref()?.path.file_name());
            let file = file.map_or_else(String::new, |f| format!("{}, ", f.to_string_lossy()));
            let n = cells.len();
            format!("{}\n{file}{}", self.area_name(&entry.area), crate::app::plural(n as u64, "cell"))
        })
    }

    /// Nodes for the inputs and constants an area overlaps, or for the area
    /// itself when it holds nothing known.
    fn value_nodes(&self, dot: &mut Dot, a: usize, show_part: bool) -> Vec<usize> {
        let a_id = a;
        let a = &self.p.graph().areas()[a];
        let mut nodes = Vec::new();
        for (i, input) in self.wb.inputs.iter().enumerate() {
            if let Some(part) = a.intersect(&input.area) {
                let (key, at) =
                    if show_part { (format!("input {i} {part}"), part) } else { (format!("input {i}"), input.area) };
                nodes.push(dot.node(key, "note", None, || format!("{}\ninput {}", self.area_name(&at), input.name)));
            }
        }
        for (i, e) in self.wb.cells.iter().enumerate() {
            if let (Content::Constant(v), Some(part)) = (&e.content, a.intersect(&e.area)) {
                if self.wb.inputs.iter().any(|inp| inp.area.intersect(&part) == Some(part)) {
                    continue;
                }
                let at = if show_part { part } else { e.area };
                let text = super::trace::trace_value(v);
                nodes.push(
                    dot.node(format!("constant {i} {at}"), "note", None, || {
                        format!("{} = {text}", self.area_name(&at))
                    }),
                );
            }
        }
        if nodes.is_empty() && self.members[a_id].is_empty() {
            nodes.push(dot.node(format!("area {a_id}"), "note", None, || format!("{}\n(empty)", self.area_name(a))));
        }
        nodes
    }

    /// Nodes for some formula cells: one per cell when an entry has at most
    /// [`LISTED`] of them, else one per entry with the count and bounds.
    fn cell_nodes(&self, dot: &mut Dot, cells: &[FormulaId]) -> Vec<usize> {
        let mut by_entry: BTreeMap<usize, Vec<FormulaId>> = BTreeMap::new();
        cells.iter().for_each(|&f| by_entry.entry(self.entry[f.index()]).or_default().push(f));
        let mut nodes = Vec::new();
        for (e, fs) in by_entry {
            if fs.len() <= LISTED {
                for f in fs {
                    nodes.push(self.cell_node(dot, self.p.cell(f).addr));
                }
                continue;
            }
            let addr = |f: &FormulaId| Area::cell(self.p.cell(*f).addr);
            let Some(bounds) = fs.iter().map(addr).reduce(|a, b| a.union(&b).unwrap_or(a)) else { continue };
            let of = self.wb.cells.get(e).map_or_else(String::new, |x| format!(" of {}", self.area_name(&x.area)));
            let cycle = self.cycle[fs[0].index()];
            nodes.push(dot.node(format!("part {e} {bounds}"), "box3d", cycle, || {
                format!("{} cells{of}\nin {}", fs.len(), self.area_name(&bounds))
            }));
        }
        nodes
    }

    fn cell_node(&self, dot: &mut Dot, c: CellAddr) -> usize {
        let cycle = self.p.formula_at(c).and_then(|f| self.cycle[f.index()]);
        dot.node(format!("cell {c:?}"), "box", cycle, || self.area_name(&Area::cell(c)))
    }
}

/// The whole workbook, formula cells grouped by the entry they come from.
fn collapsed(s: &Session, title: &str) -> String {
    let facts = Facts::new(s);
    let mut dot = Dot::default();
    let mut entries: Vec<usize> = facts.entry.clone();
    entries.sort_unstable();
    entries.dedup();
    for &e in &entries {
        facts.entry_node(&mut dot, e);
    }
    let g = &facts.p.graph();
    for (a, area) in g.areas().iter().enumerate() {
        let mut from: Vec<usize> = facts.members[a].iter().map(|&f| facts.entry[f.index()]).collect();
        from.sort_unstable();
        from.dedup();
        let mut sources: Vec<usize> = from.into_iter().map(|e| facts.entry_node(&mut dot, e)).collect();
        if facts.members[a].is_empty() || (area.size() as usize) > facts.members[a].len() {
            sources.extend(facts.value_nodes(&mut dot, a, false));
        }
        for &r in g.readers(AreaId::at(a)) {
            let to = facts.entry_node(&mut dot, facts.entry[r.index()]);
            sources.iter().for_each(|&from| dot.edge(from, to, Some(a)));
        }
    }
    dot.render(&format!("{title}: formulas grouped by entry"), &facts.cycles, true)
}

/// One cell: the areas it reads and what is in them; the areas that
/// contain it and the formulas reading them. A one-cell area is not drawn:
/// its cell links straight to the cell.
fn cell_graph(s: &Session, title: &str, c: CellAddr) -> String {
    let facts = Facts::new(s);
    let (p, g) = (facts.p, &facts.p.graph());
    let mut dot = Dot::default();
    let cycle = p.formula_at(c).and_then(|f| facts.cycle[f.index()]);
    let me = dot.node(format!("cell {c:?}"), "box, style=\"filled,bold\", fillcolor=lightyellow", cycle, || {
        facts.area_name(&Area::cell(c))
    });
    // The node standing for area `a`, or `at` when the area is one cell.
    let area_node = |dot: &mut Dot, a: usize, at: usize| {
        if g.areas()[a].is_cell() {
            return at;
        }
        dot.node(format!("read {a}"), "ellipse", None, || facts.area_name(&g.areas()[a]))
    };
    let index: HashMap<Area, usize> = g.areas().iter().enumerate().map(|(i, a)| (*a, i)).collect();
    if let Some(f) = p.formula_at(c) {
        for dep in p.graph().reads_of(f) {
            let Some(&a) = index.get(&dep) else { continue };
            let mut inside = facts.cell_nodes(&mut dot, &facts.members[a]);
            if (dep.size() as usize) > facts.members[a].len() {
                inside.extend(facts.value_nodes(&mut dot, a, true));
            }
            let an = area_node(&mut dot, a, me);
            if an != me {
                dot.edge(an, me, None);
            }
            inside.into_iter().for_each(|n| dot.edge(n, an, None));
        }
    }
    let containing: Vec<usize> = match p.formula_at(c) {
        Some(f) => g.containing(f).map(AreaId::index).collect(),
        None => g.areas_containing(c).map(AreaId::index).collect(),
    };
    for a in containing {
        let an = area_node(&mut dot, a, me);
        if an != me {
            dot.edge(me, an, None);
        }
        for n in facts.cell_nodes(&mut dot, g.readers(AreaId::at(a))) {
            dot.edge(an, n, None);
        }
    }
    dot.render(&format!("{title}: {}", facts.area_name(&Area::cell(c))), &facts.cycles, false)
}

/// Entries → names they use → names and references those use.
fn names_graph(s: &Session, title: &str) -> String {
    let facts = Facts::new(s);
    let wb = facts.wb;
    let mut dot = Dot::default();
    let name_node =
        |dot: &mut Dot, i: usize| dot.node(format!("name {i}"), "ellipse", None, || wb.names[i].name.clone());
    let used = |dot: &mut Dot, from: usize, expr: &Expr, anchor: CellAddr| {
        let (mut names, mut refs) = (Vec::new(), Vec::new());
        uses(expr, false, &mut names, &mut refs);
        for n in names {
            if let Some(i) = wb.names.iter().position(|d| d.name.eq_ignore_ascii_case(&n)) {
                let to = name_node(dot, i);
                dot.edge(from, to, None);
            }
        }
        for r in refs {
            let text = Expr::new(ExprKind::Ref(r.clone()), 0..0).to_string();
            let relative = !is_absolute(&r);
            let key = if relative { format!("ref {text} @{anchor:?}") } else { format!("ref {text} {}", anchor.sheet) };
            let to = dot.node(key, "note", None, || {
                if relative { format!("{text}\nfrom {}", facts.area_name(&Area::cell(anchor))) } else { text.clone() }
            });
            dot.edge(from, to, None);
        }
    };
    let mut entries: Vec<usize> = facts.entry.clone();
    entries.sort_unstable();
    entries.dedup();
    for e in entries {
        let Some(entry) = wb.cells.get(e) else { continue };
        if let Some(f) = entry.content.formula() {
            let from = facts.entry_node(&mut dot, e);
            used(&mut dot, from, &f.expr, entry.anchor);
        }
    }
    for (i, n) in wb.names.iter().enumerate() {
        let from = name_node(&mut dot, i);
        used(&mut dot, from, &n.formula.expr, n.anchor);
    }
    dot.render(&format!("{title}: formulas → names → references they use"), &facts.cycles, true)
}

/// The names and references an expression uses; references in an argument
/// that only gives a position (ROW's, COLUMNS', ...) are left out.
fn uses(e: &Expr, position: bool, names: &mut Vec<String>, refs: &mut Vec<RefExpr>) {
    match &e.kind {
        ExprKind::Name(n) if !names.contains(n) => names.push(n.clone()),
        ExprKind::Ref(r) if !position && !refs.contains(r) => refs.push(r.clone()),
        ExprKind::Call { name, args } => {
            let spec = functions::lookup(name);
            for (i, a) in args.iter().enumerate() {
                uses(a, position || spec.is_some_and(|f| f.position_only(i)), names, refs);
            }
        }
        ExprKind::Unary { expr, .. } => uses(expr, position, names, refs),
        ExprKind::Binary { lhs, rhs, .. } => {
            uses(lhs, position, names, refs);
            uses(rhs, position, names, refs);
        }
        _ => {}
    }
}

fn is_absolute(r: &RefExpr) -> bool {
    match r.kind {
        RefKind::Cell { row, col } => row.abs && col.abs,
        RefKind::Area { r0, c0, r1, c1 } => r0.abs && c0.abs && r1.abs && c1.abs,
        RefKind::Cols { c0, c1 } => c0.abs && c1.abs,
        RefKind::Rows { r0, r1 } => r0.abs && r1.abs,
    }
}
