//! Real Excel workbooks against Excel's own answers: every workbook of
//! `../shared/excel-files/` (202 files saved by Microsoft Excel, from 21
//! public projects; its README says how they compare) is loaded,
//! recalculated, and each formula cell's value compared with the value
//! Excel cached in the file (numbers within a relative 1e-9, the rest
//! exactly), with TODAY and NOW reading the moment the file was saved.
//! Left out, as the folder's README says: cells calling a volatile
//! function (RAND, NOW, TODAY, OFFSET, INDIRECT, CELL, INFO) or a cube
//! function (CUBEVALUE, ...: an OLAP server's answers, cached), the cells
//! computed from random numbers, CELL, INFO or cubes, and the two files
//! saved in manual calculation mode (stale values). The report lists, per
//! file, whether it loaded and how many cells match, then the causes: why
//! files did not load, and the functions the mismatched cells call.
//!
//! Needs `../shared`, which a clone does not have: ignored by default, run
//! by `.ci/run` when the folder is there (`cargo test --release --test
//! excel_files -- --ignored --nocapture`). The floors below only rise: a
//! change that loads fewer files or matches fewer cells fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::{Area, CellAddr};
use dataflow::ids::FormulaId;
mod common;

use common::excel::same;
use dataflow::session::Session;
use dataflow::value::date::Clock;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

const DIR: &str = "../shared/excel-files/files";

/// Files that must load, and cells that must match, at least.
const FLOOR_FILES: usize = 200;
const FLOOR_CELLS: usize = 138_340;

/// Saved in manual calculation mode: their cached values are stale.
const STALE: [&str; 2] = ["sampleMINIFSAndMAXIFS.xlsx", "00D4EE78"];

const VOLATILE: [&str; 9] = ["RAND", "RANDBETWEEN", "RANDARRAY", "NOW", "TODAY", "OFFSET", "INDIRECT", "CELL", "INFO"];

/// The volatile functions whose values no run reproduces (random numbers)
/// or that describe the machine: what is computed from them is left out
/// too. TODAY and NOW are not among them: the clock is pinned to the
/// moment the file was last saved ([`saved_at`]), so what is computed
/// from them is compared.
const CHANGING: [&str; 5] = ["RAND", "RANDBETWEEN", "RANDARRAY", "CELL", "INFO"];

/// When the file was last saved (`dcterms:modified` in
/// `docProps/core.xml`, UTC), as a clock: what TODAY and NOW gave when
/// Excel calculated the values it cached, give or take the time zone.
fn saved_at(path: &Path) -> Option<Clock> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).ok()?).ok()?;
    let mut core = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("docProps/core.xml").ok()?, &mut core).ok()?;
    let start = core.find("<dcterms:modified")?;
    let text = core[start..].split('>').nth(1)?.split('<').next()?;
    Clock::parse(text.trim().trim_end_matches('Z')).ok()
}

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

/// The words of a formula text outside its strings, upper-cased, each
/// with whether it is called (followed by `(`).
fn words(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars().chain([' ']) {
        if c == '"' {
            quoted = !quoted;
        }
        if !quoted && (c.is_alphanumeric() || c == '.' || c == '_' || c == '\\') {
            word.push(c);
            continue;
        }
        if !word.is_empty() && !quoted {
            out.push((word.to_uppercase(), c == '('));
        }
        word.clear();
    }
    out
}

/// The function names a formula text calls, upper-cased.
fn functions(text: &str) -> Vec<String> {
    words(text).into_iter().filter(|(_, called)| *called).map(|(w, _)| w).collect()
}

/// Why a cell is left out of the comparison, if it is: it calls a volatile
/// function (its value when Excel saved the file is not reproducible), or
/// a cube function (an OLAP server's answer, cached), or it is computed
/// from such a cell or name (the README's "and the cells that depend on
/// them"). OFFSET and INDIRECT are left out where called, not followed:
/// their values do not change by themselves.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Left {
    Volatile,
    DataModel,
    Follows,
}

fn is_cube(f: &str) -> bool {
    f.strip_prefix("_XLFN.").unwrap_or(f).starts_with("CUBE")
}

/// The cells left out and why: those calling a volatile or cube function
/// (directly or through a name), then every formula cell reading one of
/// them, to the fixpoint.
fn left_out(s: &Session, texts: &BTreeMap<CellAddr, String>) -> HashMap<CellAddr, Left> {
    let changing = |f: &str| CHANGING.contains(&f) || is_cube(f);
    // Names computed from a changing function, directly or through names.
    let mut tainted: HashSet<String> = HashSet::new();
    loop {
        let before = tainted.len();
        for n in &s.workbook().names {
            let w = words(&n.formula.text);
            if w.iter().any(|(f, called)| (*called && changing(f)) || (!called && tainted.contains(f))) {
                tainted.insert(n.name.to_uppercase());
            }
        }
        if tainted.len() == before {
            break;
        }
    }
    let mut left = HashMap::new();
    for (c, text) in texts {
        let w = words(text);
        if w.iter().any(|(f, called)| *called && VOLATILE.contains(&f.as_str())) {
            left.insert(*c, Left::Volatile);
        } else if w.iter().any(|(f, called)| *called && is_cube(f)) {
            left.insert(*c, Left::DataModel);
        } else if w.iter().any(|(f, called)| !called && tainted.contains(f)) {
            left.insert(*c, Left::Follows);
        }
    }
    // Readers of what is left out, to the fixpoint; the sources of
    // change only (OFFSET and INDIRECT keep their readers).
    let program = s.engine().program();
    let mut sources: BTreeSet<CellAddr> = left
        .iter()
        .filter(|(c, why)| **why != Left::Volatile || functions(&texts[*c]).iter().any(|f| changing(f)))
        .map(|(c, _)| *c)
        .collect();
    sources.extend(left.iter().filter(|(_, why)| **why == Left::Follows).map(|(c, _)| *c));
    loop {
        let mut found = Vec::new();
        for (i, f) in program.cells().iter().enumerate() {
            if left.contains_key(&f.addr) {
                continue;
            }
            let reads = |a: &Area| {
                let from = CellAddr { sheet: a.sheet, row: a.r0, col: 0 };
                let to = CellAddr { sheet: a.sheet, row: a.r1, col: u32::MAX };
                sources.range(from..=to).any(|c| a.contains(*c))
            };
            if program.graph().reads_of(FormulaId::at(i)).any(|a| reads(&a)) {
                found.push(f.addr);
            }
        }
        if found.is_empty() {
            break;
        }
        for c in found {
            left.insert(c, Left::Follows);
            sources.insert(c);
        }
    }
    left
}

#[derive(Default)]
struct Tally {
    files: usize,
    loaded: usize,
    cells: usize,
    matched: usize,
    left: BTreeMap<Left, usize>,
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
    if let Some(clock) = saved_at(path) {
        s.settings_mut().clock = clock;
    }
    let expected = s.workbook().start.clone();
    let texts: BTreeMap<_, String> = s
        .workbook()
        .cells
        .iter()
        .filter_map(|e| e.content.formula().map(|f| (e.area, f.text.clone())))
        .flat_map(|(area, text)| area.cells().map(move |c| (c, text.clone())).collect::<Vec<_>>())
        .collect();
    s.recalc();
    let left = left_out(&s, &texts);
    let (mut cells, mut matched, mut shown) = (0, 0, 0);
    for (c, excel) in &expected {
        let text = texts.get(c).cloned().unwrap_or_default();
        let called = functions(&text);
        if let Some(why) = left.get(c) {
            *t.left.entry(*why).or_default() += 1;
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
    let out = expected.iter().filter(|(c, _)| left.contains_key(c)).count();
    let out = if out == 0 { String::new() } else { format!("  ({out} left out)") };
    t.lines.push(format!("{rate:6.1}%  {matched}/{cells}  {name}{out}"));
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
    let count = |why| t.left.get(&why).copied().unwrap_or(0);
    println!(
        "\n{} of {} files loaded; {} of {} formula cells match ({rate:.2}%); left out: {} calling a volatile function, {} calling a cube function, {} computed from those",
        t.loaded,
        t.files,
        t.matched,
        t.cells,
        count(Left::Volatile),
        count(Left::DataModel),
        count(Left::Follows)
    );
    assert!(t.loaded >= FLOOR_FILES, "{} files loaded, fewer than {FLOOR_FILES}", t.loaded);
    assert!(t.matched >= FLOOR_CELLS, "{} cells matched, fewer than {FLOOR_CELLS}", t.matched);
}
