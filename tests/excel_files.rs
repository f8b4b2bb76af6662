//! Real Excel workbooks against Excel's own answers: every workbook of
//! `../shared/excel-files/` (202 files saved by Microsoft Excel, from 21
//! public projects; its README says how they compare) is loaded,
//! recalculated, and each formula cell's value compared with the value
//! Excel cached in the file (numbers within a relative 1e-9, the rest
//! exactly). Cells calling a volatile function (RAND, NOW, TODAY, OFFSET,
//! INDIRECT, CELL, INFO) are left out, as are the two files saved in manual
//! calculation mode (stale values). The report lists, per file, whether it
//! loaded and how many cells match, then the causes: why files did not
//! load, and the functions the mismatched cells call.
//!
//! Needs `../shared`, which a clone does not have: ignored by default, run
//! by `.ci/run` when the folder is there (`cargo test --release --test
//! excel_files -- --ignored --nocapture`). The floors below only rise: a
//! change that loads fewer files or matches fewer cells fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::value::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const DIR: &str = "../shared/excel-files/files";

/// Files that must load, and cells that must match, at least.
const FLOOR_FILES: usize = 200;
const FLOOR_CELLS: usize = 135_700;

/// Saved in manual calculation mode: their cached values are stale.
const STALE: [&str; 2] = ["sampleMINIFSAndMAXIFS.xlsx", "00D4EE78"];

const VOLATILE: [&str; 9] = ["RAND", "RANDBETWEEN", "RANDARRAY", "NOW", "TODAY", "OFFSET", "INDIRECT", "CELL", "INFO"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("xlsx") || x.eq_ignore_ascii_case("xlsm")) {
            out.push(p);
        }
    }
}

/// Excel's cached value and ours agree.
fn same(excel: &Value, ours: &Value) -> bool {
    match (excel, ours) {
        (Value::Number(a), Value::Number(b)) => a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()),
        (Value::Text(a), Value::Text(b)) => a == b,
        // An empty text cached is what an empty result shows.
        (Value::Text(a), Value::Empty) => a.is_empty(),
        _ => excel == ours,
    }
}

/// The function names a formula text calls, upper-cased.
fn functions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        if c == '"' {
            quoted = !quoted;
        }
        if !quoted && (c.is_ascii_alphanumeric() || c == '.' || c == '_') {
            word.push(c);
            continue;
        }
        if c == '(' && !word.is_empty() && !quoted {
            out.push(word.to_uppercase());
        }
        word.clear();
    }
    out
}

#[derive(Default)]
struct Tally {
    files: usize,
    loaded: usize,
    cells: usize,
    matched: usize,
    skipped: usize,
    load_causes: BTreeMap<String, usize>,
    mismatch_functions: BTreeMap<String, usize>,
    lines: Vec<String>,
    samples: Vec<String>,
}

/// A load failure's cause, without the file's own details.
fn cause(message: &str) -> String {
    let m = message.split(" (").next().unwrap_or(message);
    let m = match m.find('`') {
        Some(i) if m.starts_with("unknown name") || m.starts_with("unknown function") => {
            let rest = &m[i + 1..];
            let name = rest.split('`').next().unwrap_or(rest);
            format!("{} `{name}`", &m[..i].trim())
        }
        _ => m.to_string(),
    };
    m.chars().take(90).collect()
}

/// How many mismatched cells of each file to print (`EXCEL_FILES_SHOW=N`;
/// none by default): file, cell, formula, Excel's value and dataflow's.
fn show_samples() -> usize {
    std::env::var("EXCEL_FILES_SHOW").ok().and_then(|n| n.parse().ok()).unwrap_or(0)
}

fn check(path: &Path, root: &Path, t: &mut Tally) {
    let name = path.strip_prefix(root).unwrap_or(path).display().to_string();
    t.files += 1;
    let s = match Session::load(path) {
        Ok(s) => s,
        Err(e) => {
            let first = e.first().map_or("?".to_string(), |d| cause(&d.message));
            *t.load_causes.entry(first.clone()).or_default() += 1;
            t.lines.push(format!("not loaded  {name}: {first}"));
            return;
        }
    };
    t.loaded += 1;
    let mut s = s;
    let expected = s.workbook().start.clone();
    let texts: BTreeMap<_, String> = s
        .workbook()
        .cells
        .iter()
        .filter_map(|e| e.content.formula().map(|f| (e.area, f.text.clone())))
        .flat_map(|(area, text)| area.cells().map(move |c| (c, text.clone())).collect::<Vec<_>>())
        .collect();
    s.recalc();
    let (mut cells, mut matched, mut shown) = (0, 0, 0);
    for (c, excel) in &expected {
        let text = texts.get(c).cloned().unwrap_or_default();
        let called = functions(&text);
        if called.iter().any(|f| VOLATILE.contains(&f.as_str())) {
            t.skipped += 1;
            continue;
        }
        cells += 1;
        if same(excel, s.engine().get(*c)) {
            matched += 1;
        } else {
            let mut seen = called.clone();
            seen.sort();
            seen.dedup();
            for f in seen {
                *t.mismatch_functions.entry(f).or_default() += 1;
            }
            if called.is_empty() {
                *t.mismatch_functions.entry("(no function)".into()).or_default() += 1;
            }
            if shown < show_samples() {
                shown += 1;
                let cell = s.workbook().sheets.cell(*c);
                t.samples.push(format!("{name} {cell}: ={text}  Excel {excel:?}  dataflow {:?}", s.engine().get(*c)));
            }
        }
    }
    t.cells += cells;
    t.matched += matched;
    let rate = if cells == 0 { 100.0 } else { 100.0 * matched as f64 / cells as f64 };
    t.lines.push(format!("{rate:6.1}%  {matched}/{cells}  {name}"));
}

#[test]
#[ignore = "needs ../shared/excel-files (run by .ci/run when it is there)"]
fn excel_saved_workbooks_compute_what_excel_cached() {
    let root = Path::new(DIR);
    assert!(root.is_dir(), "{DIR} is missing: this test needs ../shared");
    let mut paths = Vec::new();
    files(root, &mut paths);
    paths.sort();
    paths.retain(|p| !STALE.iter().any(|s| p.to_string_lossy().contains(s)));
    let mut t = Tally::default();
    for p in &paths {
        check(p, root, &mut t);
    }
    println!("{}", t.lines.join("\n"));
    if !t.samples.is_empty() {
        println!("\nmismatched cells:\n{}", t.samples.join("\n"));
    }
    println!("\nwhy files did not load:");
    let mut causes: Vec<_> = t.load_causes.iter().collect();
    causes.sort_by(|a, b| b.1.cmp(a.1));
    causes.iter().for_each(|(c, n)| println!("  {n:4}  {c}"));
    println!("\nfunctions in mismatched cells:");
    let mut fns: Vec<_> = t.mismatch_functions.iter().collect();
    fns.sort_by(|a, b| b.1.cmp(a.1));
    fns.iter().take(40).for_each(|(f, n)| println!("  {n:6}  {f}"));
    let rate = 100.0 * t.matched as f64 / t.cells.max(1) as f64;
    println!(
        "\n{} of {} files loaded; {} of {} formula cells match ({rate:.1}%); {} volatile cells left out",
        t.loaded, t.files, t.matched, t.cells, t.skipped
    );
    assert!(t.loaded >= FLOOR_FILES, "{} files loaded, fewer than {FLOOR_FILES}", t.loaded);
    assert!(t.matched >= FLOOR_CELLS, "{} cells matched, fewer than {FLOOR_CELLS}", t.matched);
}
