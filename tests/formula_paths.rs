//! The formula corpus through every evaluation path. `tests/formulas.rs`
//! evaluates each case unstored, by the tree walker; here each case is
//! *stored* as the formula of its cell, beside its sheet's inputs, and the
//! sheet recalculated under each of [`Paths::EACH`]: the walker alone,
//! shared subformulas alone, the binder's memo alone, the kernels alone,
//! dense arrays alone, remembered folds alone, and all of them. Every path must show, bit for bit,
//! what the walker shows unstored, for every case (a test, not a review:
//! a fast path that departs from a rule fails here with the case's line).
//!
//! The cases of a block are stored in layers: each layer holds at most one
//! case per cell (most cases are evaluated at A1), so one sheet per layer
//! and path. A case evaluated at a cell its sheet's inputs fill cannot be
//! stored there; the corpus has none, and a new one fails the test with
//! its line.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use common::corpus::{Block, Case, Line, corpus_files, parse_corpus, show};
use dataflow::address::{CellAddr, parse_a1};
use dataflow::engine::Paths;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

mod common;

/// The block's sheet with its inputs and names, built with `paths`.
fn sheet(block: &Block, paths: Paths) -> Sheet {
    let mut s = Sheet::new();
    s.paths(paths);
    for Line { item: (cell, input), .. } in &block.cells {
        s.set(cell, input);
    }
    for Line { item: n, .. } in &block.names {
        s.name_at(&n.name, &n.anchor, &n.formula);
    }
    s
}

fn addr(cell: &str) -> CellAddr {
    let (row, col) = parse_a1(&cell.replace('$', "")).expect("the reader checked the address");
    CellAddr::new(0, row, col)
}

/// The cells the block's inputs fill (an array formula's whole block).
fn input_cells(block: &Block) -> HashSet<CellAddr> {
    let mut cells = HashSet::new();
    for Line { item: (cell, _), .. } in &block.cells {
        let (first, last) = cell.split_once(':').unwrap_or((cell, cell));
        let (a, b) = (addr(first), addr(last));
        for row in a.row.min(b.row)..=a.row.max(b.row) {
            for col in a.col.min(b.col)..=a.col.max(b.col) {
                cells.insert(CellAddr::new(0, row, col));
            }
        }
    }
    cells
}

/// The block's cases in layers of distinct cells, in corpus order.
fn layers<'a>(cases: &[&'a Line<Case>]) -> Vec<Vec<&'a Line<Case>>> {
    let mut layers: Vec<(HashSet<CellAddr>, Vec<&Line<Case>>)> = Vec::new();
    for &c in cases {
        let at = addr(&c.item.at);
        match layers.iter_mut().find(|(used, _)| !used.contains(&at)) {
            Some((used, layer)) => {
                used.insert(at);
                layer.push(c);
            }
            None => layers.push((HashSet::from([at]), vec![c])),
        }
    }
    layers.into_iter().map(|(_, l)| l).collect()
}

/// The same value, numbers bit for bit (0 and -0 told apart).
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// What each case shows under each path (in [`Paths::EACH`]'s order), and
/// whether its cell is on a cycle (a case reading its own cell).
struct Shown {
    values: Vec<Value>,
    circular: bool,
}

/// A layer's cases stored and recalculated under every path.
fn stored(block: &Block, layer: &[&Line<Case>]) -> Result<Vec<Shown>, String> {
    let mut shown: Vec<Shown> = layer.iter().map(|_| Shown { values: Vec::new(), circular: false }).collect();
    for paths in Paths::EACH {
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut s = sheet(block, paths);
            layer.iter().for_each(|c| s.set(&c.item.at, &c.item.formula));
            let cycles: HashSet<CellAddr> = s.recalc().circular.into_iter().flatten().collect();
            layer.iter().map(|c| (s.value(&c.item.at), cycles.contains(&addr(&c.item.at)))).collect::<Vec<_>>()
        }));
        let run = run.map_err(|_| format!("panicked under {}", paths.name()))?;
        for (out, (v, circular)) in shown.iter_mut().zip(run) {
            out.values.push(v);
            out.circular |= circular;
        }
    }
    Ok(shown)
}

/// Each case evaluated unstored (`Sheet::eval_at`) under every path: for
/// the cases whose cell the inputs fill.
fn unstored(block: &Block, cases: &[&Line<Case>]) -> Vec<Vec<Value>> {
    let mut sheets: Vec<Sheet> = Paths::EACH.iter().map(|&p| sheet(block, p)).collect();
    sheets.iter_mut().for_each(|s| drop(s.recalc()));
    cases.iter().map(|c| sheets.iter_mut().map(|s| s.eval_at(&c.item.at, &c.item.formula)).collect()).collect()
}

/// One line per path whose value departs from the walker's (the first).
fn departures(file: &str, c: &Line<Case>, values: &[Value], how: &str) -> Vec<String> {
    let walker = &values[0];
    let paths = Paths::EACH.iter().zip(values).skip(1);
    paths
        .filter(|(_, v)| !identical(v, walker))
        .map(|(p, v)| {
            let (line, f) = (c.line, &c.item.formula);
            format!("{file}:{line}: {f} {how} under {}\n    walker {}\n    got    {}", p.name(), show(walker), show(v))
        })
        .collect()
}

/// Every case of the block through every path; one line per departure.
/// A case stored is compared with the walker's stored value, and that with
/// the walker's value unstored (the corpus test's) unless the case reads
/// its own cell. A case whose cell the inputs fill is evaluated unstored
/// under every path.
fn run(file: &str, block: &Block) -> (Vec<String>, Counts) {
    let mut failures = Vec::new();
    let mut counts = Counts::default();
    let inputs = input_cells(block);
    let (blocked, storable): (Vec<&Line<Case>>, Vec<&Line<Case>>) =
        block.cases.iter().partition(|c| inputs.contains(&addr(&c.item.at)));
    for (c, values) in blocked.iter().zip(unstored(block, &blocked)) {
        counts.unstored += 1;
        failures.extend(departures(file, c, &values, "unstored"));
    }
    let mut walker = sheet(block, Paths::WALKER);
    walker.recalc();
    for layer in layers(&storable) {
        let shown = match stored(block, &layer) {
            Ok(shown) => shown,
            Err(e) => {
                failures.push(format!("{file}:{}: {e}", layer[0].line));
                continue;
            }
        };
        for (c, shown) in layer.iter().zip(shown) {
            counts.stored += 1;
            failures.extend(departures(file, c, &shown.values, "stored"));
            if shown.circular {
                counts.circular += 1;
                continue;
            }
            let alone = walker.eval_at(&c.item.at, &c.item.formula);
            if !identical(&alone, &shown.values[0]) {
                failures.push(format!(
                    "{file}:{}: {} stored shows {}, unstored {}",
                    c.line,
                    c.item.formula,
                    show(&shown.values[0]),
                    show(&alone)
                ));
            }
        }
    }
    (failures, counts)
}

/// How the cases were run.
#[derive(Default, Debug)]
struct Counts {
    stored: usize,
    circular: usize,
    unstored: usize,
}

#[test]
fn every_case_gives_the_same_value_through_every_path() {
    let (mut failures, mut total) = (Vec::new(), Counts::default());
    for path in corpus_files() {
        let file = format!("{}/{}", common::corpus::DIR, path.file_name().expect("a file name").to_string_lossy());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let blocks = parse_corpus(&text).unwrap_or_else(|_| panic!("{file}: malformed (see the corpus test)"));
        for block in &blocks {
            let (f, counts) = run(&file, block);
            failures.extend(f);
            total.stored += counts.stored;
            total.circular += counts.circular;
            total.unstored += counts.unstored;
        }
    }
    println!("through {} paths: {total:?}", Paths::EACH.len());
    assert!(total.stored > 4_000, "{total:?}");
    assert!(failures.is_empty(), "{} departures:\n{}", failures.len(), failures.join("\n"));
}
