//! Benchmarks of the general workloads, as generated workbooks: a chain of
//! 100,000 cells (`A2:A100000 = A1+1`), cumulative sums (`B{i} =
//! SUM($A$1:A{i})`), running counts (`COUNTIF($A$1:A{i},">3")` and the
//! occurrence count `COUNTIF($A$1:A{i},A{i})` of seven values; each also
//! alone, over constants, as the sums are) and a
//! circular heat grid (each interior cell the mean of
//! its four neighbours, iteration on, max change 0, 100 iterations). `load/`
//! reads, binds and builds the graph and engine (no recalculation);
//! `recalc/` (the cumulative sums and counts down 10,000 and 100,000 rows) and `edit/`
//! start from a loaded state; `load/sudoku_ron` is the showcase workbook.

// Benches fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use dataflow::address::CellAddr;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn chain(n: usize) -> String {
    format!(r#"Workbook(sheets: ["Main"], cells: {{ "Main!A1": 1, "Main!A2:A{n}": "=A1+1" }})"#)
}

fn cumsum(n: usize) -> String {
    format!(r#"Workbook(sheets: ["Main"], cells: {{ "Main!A1:A{n}": 1, "Main!B1:B{n}": "=SUM($A$1:A1)" }})"#)
}

/// One column of running counts over the numbers 0 to 6 as constants, as
/// `cumsum` is one column of sums: `COUNTIF($A$1:A{i},">3")` (`"A1"` as
/// the criterion: the occurrence count).
fn countif_column(n: usize, criterion: &str) -> String {
    let constants: String = (1..=n).map(|i| format!(r#""Main!A{i}": {}, "#, i % 7)).collect();
    format!(r#"Workbook(sheets: ["Main"], cells: {{ {constants}"Main!B1:B{n}": "=COUNTIF($A$1:A1,{criterion})" }})"#)
}

fn countif(n: usize) -> String {
    format!(
        r#"Workbook(sheets: ["Main"], cells: {{ "Main!A1:A{n}": "=MOD(ROW(),7)",
        "Main!B1:B{n}": "=COUNTIF($A$1:A1,\">3\")", "Main!C1:C{n}": "=COUNTIF($A$1:A1,A1)" }})"#
    )
}

const HEAT: &str = r#"Workbook(sheets: ["Main"], calc: (iterate: true, max_iterations: 100, max_change: 0), cells: {
    "Main!A1:CV1": 100, "Main!A100:CV100": 0, "Main!A2:A99": 0, "Main!CV2:CV99": 0,
    "Main!B2:CU99": "=(A2+C2+B1+B3)/4" })"#;

/// Reads, binds and builds: a session ready to recalculate.
fn load(text: &str) -> Session {
    Session::new(Workbook::from_str(text, Path::new("general.ron"), Path::new(".")).unwrap()).unwrap()
}

fn loading(c: &mut Criterion) {
    let mut g = c.benchmark_group("load");
    g.sample_size(10);
    for (name, text) in [("chain_100000", chain(100_000)), ("cumsum_10000", cumsum(10_000))] {
        g.bench_function(name, |b| b.iter(|| black_box(load(&text))));
    }
    let text = cumsum(100_000);
    g.bench_function("cumsum_100000", |b| b.iter(|| black_box(load(&text))));
    g.bench_function("sudoku_ron", |b| b.iter(|| black_box(Session::load(Path::new("workbooks/sudoku.ron")).unwrap())));
    g.finish();
}

fn recalculating(c: &mut Criterion) {
    let mut g = c.benchmark_group("recalc");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let cases = [
        ("cumsum_10000", cumsum(10_000)),
        ("heat_100x100_100_iterations", HEAT.to_string()),
        ("countif_10000", countif(10_000)),
        ("cumsum_100000", cumsum(100_000)),
        ("countif_100000", countif(100_000)),
        ("countif_column_100000", countif_column(100_000, r#"\">3\""#)),
        ("countif_occurrences_100000", countif_column(100_000, "A1")),
    ];
    for (name, text) in cases {
        let base = load(&text);
        if name == "cumsum_100000" {
            // One recalculation a sample: the loaded state is cloned for each.
            g.sampling_mode(SamplingMode::Flat);
        }
        g.bench_function(name, |b| {
            b.iter_batched(|| base.clone(), |mut s| black_box(s.recalc()), BatchSize::LargeInput)
        });
    }
    g.finish();
}

fn editing(c: &mut Criterion) {
    let mut g = c.benchmark_group("edit");
    g.sample_size(20);
    let mut base = load(&chain(100_000));
    base.recalc();
    let a1 = CellAddr::new(0, 0, 0);
    let mut next = 1.0;
    // Each edit sets A1 to a value it did not hold, so all 99,999 cells change.
    g.bench_function("chain_100000_input", |b| {
        b.iter(|| {
            next += 1.0;
            base.set(a1, Value::Number(next)).unwrap();
            black_box(base.recalc())
        })
    });
    g.finish();
}

criterion_group!(benches, loading, recalculating, editing);
criterion_main!(benches);
