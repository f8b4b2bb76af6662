//! Loops of names, found once before binding: the names a name's formula
//! refers to (as the binder resolves them: LET variables hide names) form a
//! graph, and each strongly connected part of it, or a name referring to
//! itself, is one loop, reported once where it closes.

use super::{Issue, Scope, Site};
use crate::ast::{Expr, ExprKind, Span};
use crate::functions;
use crate::ids::NameId;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{HashMap, HashSet, VecDeque};

impl Scope {
    /// Walks the graph of names referring to names once: every loop
    /// (a strongly connected part, or a name referring to itself directly)
    /// gets one issue, at the reference that closes the shortest loop
    /// through its first-defined name, naming a few of its names.
    pub(super) fn name_loops(&self) -> (Vec<Option<usize>>, Vec<Issue>) {
        let mut graph: DiGraph<(), Span> = DiGraph::new();
        self.names.iter().for_each(|_| _ = graph.add_node(()));
        for (i, n) in self.names.iter().enumerate() {
            let mut refs = Vec::new();
            self.name_refs(&n.expr, &mut Vec::new(), &mut refs);
            for (to, span) in refs {
                graph.add_edge(NodeIndex::new(i), NodeIndex::new(to.index()), span);
            }
        }
        let mut in_loop = vec![None; self.names.len()];
        let mut issues = Vec::new();
        for scc in petgraph::algo::kosaraju_scc(&graph) {
            let Some(&start) = scc.iter().min() else { continue };
            if scc.len() == 1 && graph.find_edge(start, start).is_none() {
                continue;
            }
            if let Some(issue) = self.loop_issue(&graph, &scc, start) {
                scc.iter().for_each(|n| in_loop[n.index()] = Some(issues.len()));
                issues.push(issue);
            }
        }
        (in_loop, issues)
    }

    /// The issue for the loop `scc` through `start`: a breadth-first walk
    /// inside the loop finds the shortest way back to `start`.
    fn loop_issue(&self, graph: &DiGraph<(), Span>, scc: &[NodeIndex], start: NodeIndex) -> Option<Issue> {
        let inside: HashSet<NodeIndex> = scc.iter().copied().collect();
        let mut parent: HashMap<NodeIndex, NodeIndex> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(u) = queue.pop_front() {
            for e in graph.edges(u) {
                let v = e.target();
                if v == start {
                    let mut chain = vec![start];
                    let mut at = u;
                    while at != start {
                        chain.push(at);
                        at = parent[&at];
                    }
                    chain.push(start);
                    chain.reverse();
                    let names: Vec<&str> = chain.iter().map(|n| self.names[n.index()].name.as_str()).collect();
                    let shown = match names.len() {
                        ..=8 => names.join(" -> "),
                        n => format!(
                            "{} -> ... -> {} ({} names)",
                            names[..4].join(" -> "),
                            names[n - 2..].join(" -> "),
                            n - 1
                        ),
                    };
                    let message = format!("name `{}` refers to itself: {shown}", names[0]);
                    return Some(Issue { site: Site::Name(NameId::at(u.index())), span: e.weight().clone(), message });
                }
                if inside.contains(&v) && v != start && !parent.contains_key(&v) {
                    parent.insert(v, u);
                    queue.push_back(v);
                }
            }
        }
        None // not reached: a loop leads back to its start
    }

    /// The names `e` refers to, with the span of each reference, as the
    /// binder resolves them: LET variables hide names, and calls the binder
    /// refuses (unknown functions, wrong argument counts) are not entered.
    fn name_refs(&self, e: &Expr, locals: &mut Vec<String>, out: &mut Vec<(NameId, Span)>) {
        match &e.kind {
            ExprKind::Name(n) if !locals.iter().any(|l| l.eq_ignore_ascii_case(n)) => {
                out.extend(self.name_index(n).map(|i| (i, e.span.clone())));
            }
            ExprKind::Call { name, args } => {
                let Some(spec) = functions::lookup(name) else {
                    // A call of a function value: the callee (`LAMBDA(x, x)(nm)`'s,
                    // the first argument), a LET variable or a workbook name,
                    // which inside its own expansion is a call at run time
                    // (recursion), not a loop; its arguments are bound.
                    let value = name.is_empty()
                        || locals.iter().any(|l| l.eq_ignore_ascii_case(name))
                        || self.name_index(name).is_some();
                    if value {
                        args.iter().for_each(|a| self.name_refs(a, locals, out));
                    }
                    return;
                };
                if spec.arity_error(args.len()).is_some() {
                    return;
                }
                if spec.intrinsic == Some(functions::Intrinsic::Lambda) {
                    // Its parameters hide names in its body.
                    let (body, params) = args.split_last().unwrap_or((e, &[]));
                    let scope_len = locals.len();
                    locals.extend(params.iter().filter_map(|p| match &p.kind {
                        ExprKind::Name(n) => Some(n.clone()),
                        _ => None,
                    }));
                    self.name_refs(body, locals, out);
                    locals.truncate(scope_len);
                    return;
                }
                if !spec.is_scoped() {
                    args.iter().for_each(|a| self.name_refs(a, locals, out));
                    return;
                }
                let scope_len = locals.len();
                let (pairs, body) = args.split_at(args.len() - 1);
                for pair in pairs.chunks(2) {
                    let (ExprKind::Name(n), Some(v)) = (&pair[0].kind, pair.get(1)) else {
                        locals.truncate(scope_len);
                        return;
                    };
                    self.name_refs(v, locals, out);
                    locals.push(n.clone());
                }
                self.name_refs(&body[0], locals, out);
                locals.truncate(scope_len);
            }
            ExprKind::Unary { expr, .. } => self.name_refs(expr, locals, out),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.name_refs(lhs, locals, out);
                self.name_refs(rhs, locals, out);
            }
            _ => {}
        }
    }
}
