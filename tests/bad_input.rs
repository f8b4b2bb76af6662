//! Every bad input has a defined, tested outcome: a clear message located in
//! its file (snapshots of `Diagnostic::render(false)` in `tests/snapshots/`),
//! or an Excel error value; never a panic, a hang, a stack overflow or an
//! out-of-memory abort. Fixtures live in `tests/data/bad/`; paths are given
//! relative to the crate so that messages are stable. Inputs that could
//! abort the process run in the `dataflow` binary rather than in this one.
//! Tests that show a known bug are `#[ignore = "bug: ..."]`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::diagnostic::Diagnostic;
use dataflow::eval::MAX_ARRAY_CELLS;
use dataflow::eval::bind::{MAX_BOUND_DEPTH, MAX_BOUND_NODES, MAX_NAME_DEPTH};
use dataflow::grid::MAX_GRID_CELLS;
use dataflow::parse::{MAX_NESTING, parse_formula};
use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::{Workbook, load};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const DIR: &str = "tests/data/bad";

fn path(name: &str) -> std::path::PathBuf {
    Path::new(DIR).join(name)
}

/// Every diagnostic rendered without colour, trailing blanks removed.
fn render_all(diags: &[Diagnostic]) -> String {
    let text: Vec<String> = diags.iter().map(|d| d.render(false)).collect();
    text.join("\n").lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

/// The problems `workbook::load` finds (parsing only).
fn load_errors(name: &str) -> Vec<Diagnostic> {
    match load(&path(name)) {
        Ok(_) => panic!("{name} loaded without errors"),
        Err(diags) => diags,
    }
}

fn loads(name: &str) -> Workbook {
    load(&path(name)).unwrap_or_else(|d| panic!("{name}:\n{}", render_all(&d)))
}

/// The problems `Session::load` finds (parsing, then binding).
fn session_errors(name: &str) -> Vec<Diagnostic> {
    match Session::load(&path(name)) {
        Ok(_) => panic!("{name} loaded and bound without errors"),
        Err(diags) => diags,
    }
}

fn session(name: &str) -> Session {
    Session::load(&path(name)).unwrap_or_else(|d| panic!("{name}:\n{}", render_all(&d)))
}

fn cell(s: &Session, a1: &str) -> Value {
    s.engine().get(s.area(a1).unwrap_or_else(|m| panic!("{a1}: {m}")).top_left()).clone()
}

fn messages(diags: &[Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.message.as_str()).collect()
}

fn locations(diags: &[Diagnostic]) -> Vec<String> {
    diags.iter().map(|d| d.location().unwrap_or_else(|| format!("(no file) {}", d.message))).collect()
}

fn err(k: ErrorKind) -> Value {
    Value::Error(k)
}

/// What one run of the binary gave: exit code (None when killed by a
/// signal, as on an abort), stdout, stderr.
fn dataflow(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the dataflow binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

// ------------------------------------------------------------ workbook files

#[test]
fn malformed_ron_is_located() {
    // An unclosed string swallows a line break; ron notices on the next line.
    let diags = load_errors("malformed.ron");
    assert_eq!(diags.len(), 1);
    insta::assert_snapshot!("malformed_ron", render_all(&diags));
}

#[test]
fn malformed_ron_unclosed_string_points_at_the_string() {
    let diags = load_errors("malformed.ron");
    let d = &diags[0];
    let at = d.location().unwrap_or_default();
    let mentions_string = d.message.contains("string") || d.note.as_deref().is_some_and(|n| n.contains("string"));
    assert!(at.starts_with("tests/data/bad/malformed.ron:3:") || mentions_string, "{}", render_all(&diags));
}

#[test]
fn empty_and_unreadable_workbook_files() {
    let diags = load_errors("empty.ron");
    assert_eq!(locations(&diags), ["tests/data/bad/empty.ron:1:1"]);
    assert!(diags[0].message.starts_with("malformed workbook file"), "{}", diags[0].message);

    let diags = load_errors("not_utf8.ron");
    assert_eq!(
        messages(&diags),
        ["cannot read the workbook file `tests/data/bad/not_utf8.ron`: stream did not contain valid UTF-8"]
    );
    let diags = load_errors("no_such_workbook.ron");
    assert!(diags[0].message.starts_with("cannot read the workbook file `tests/data/bad/no_such_workbook.ron`"));
    // A directory is not a workbook either.
    let diags = load_errors("");
    assert!(diags[0].message.starts_with("cannot read the workbook file"), "{}", diags[0].message);
}

#[test]
fn missing_formula_file_is_reported_at_its_include() {
    let diags = load_errors("missing_include.ron");
    assert_eq!(diags.len(), 1, "the file that exists loads: {}", render_all(&diags));
    assert_eq!(locations(&diags), ["tests/data/bad/missing_include.ron:3:31"]);
    insta::assert_snapshot!("missing_include", render_all(&diags));
}

#[test]
fn corrupt_formula_file_is_a_diagnostic() {
    let diags = load_errors("corrupt.ron");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].label, "not UTF-8 text");
    insta::assert_snapshot!("corrupt_dfl", render_all(&diags));
    // Control characters in valid UTF-8: a parse error at the first NUL.
    let diags = load_errors("control_chars.ron");
    assert_eq!(locations(&diags), ["tests/data/bad/control_chars.dfl:1:11"]);
    assert!(diags[0].label.starts_with("unexpected"), "{}", diags[0].label);
}

#[test]
fn every_parse_error_is_reported_at_once() {
    let diags = load_errors("parse_errors.ron");
    let at = locations(&diags);
    // Every broken cell and name of the workbook file...
    for line in [7, 8, 9, 10, 13] {
        let want = format!("tests/data/bad/parse_errors.ron:{line}:");
        assert!(at.iter().any(|l| l.starts_with(&want)), "{want} in {at:?}");
    }
    // ...and of the formula file, in file order.
    for line in [2, 6, 8, 11] {
        let want = format!("tests/data/bad/parse_errors.dfl:{line}:");
        assert!(at.iter().any(|l| l.starts_with(&want)), "{want} in {at:?}");
    }
    let first_dfl = at.iter().position(|l| l.contains(".dfl")).unwrap();
    assert!(at[..first_dfl].iter().all(|l| l.contains(".ron")) && at[first_dfl..].iter().all(|l| l.contains(".dfl")));
    insta::assert_snapshot!("parse_errors", render_all(&diags));
}

// ------------------------------------------------------------ binding

#[test]
fn unknown_names_functions_and_argument_counts_are_located() {
    // They parse: `load` accepts the files, binding finds the problems.
    loads("binding.ron");
    let diags = session_errors("binding.ron");
    assert_eq!(
        messages(&diags),
        [
            "unknown name `nobody`",
            "unknown function `NOSUCHFN`",
            "IF takes 2 to 3 arguments, got 1",
            "MOD takes 2 arguments, got 3",
            "IF takes 2 to 3 arguments, got 1",
            "MOD takes 2 arguments, got 3",
        ]
    );
    assert_eq!(
        locations(&diags),
        [
            "tests/data/bad/binding.ron:7:22",
            "tests/data/bad/binding.ron:8:22",
            "tests/data/bad/binding.ron:9:22",
            "tests/data/bad/binding.ron:10:22",
            "tests/data/bad/binding.dfl:3:5",
            "tests/data/bad/binding.dfl:6:5",
        ]
    );
    insta::assert_snapshot!("binding", render_all(&diags));
}

#[test]
fn wrong_argument_counts_in_a_sheet_are_errors_not_panics() {
    let mut s = Sheet::new();
    s.set("A1", "=IF(1)");
    s.set("A2", "=MOD(1,2,3)");
    s.set("A3", "=NOSUCHFN(1)");
    s.set("A4", "=nobody");
    s.set("A5", "=SUM()");
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Value));
    assert_eq!(s.value("A2"), err(ErrorKind::Value));
    assert_eq!(s.value("A3"), err(ErrorKind::Name));
    assert_eq!(s.value("A4"), err(ErrorKind::Name));
    assert_eq!(s.value("A5"), err(ErrorKind::Value));
    let mut issues = s.issues();
    issues.sort();
    assert_eq!(
        issues,
        [
            "Sheet1!A1: IF takes 2 to 3 arguments, got 1",
            "Sheet1!A2: MOD takes 2 arguments, got 3",
            "Sheet1!A3: unknown function `NOSUCHFN`",
            "Sheet1!A4: unknown name `nobody`",
            "Sheet1!A5: SUM takes at least 1 argument, got 0",
        ]
    );
}

#[test]
fn name_loops_name_the_loop() {
    let diags = session_errors("name_loops.ron");
    assert_eq!(
        messages(&diags),
        ["name `me` refers to itself: me -> me", "name `alpha` refers to itself: alpha -> beta -> gamma -> alpha"]
    );
    assert_eq!(locations(&diags), ["tests/data/bad/name_loops.dfl:2:11", "tests/data/bad/name_loops.dfl:7:23"]);
    insta::assert_snapshot!("name_loops", render_all(&diags));
}

#[test]
fn name_loops_in_a_sheet_give_name_errors() {
    let mut s = Sheet::new();
    s.name("me", "=me+1");
    s.name("alpha", "=beta");
    s.name("beta", "=alpha");
    s.set("A1", "=me");
    s.set("A2", "=alpha");
    s.set("A3", "=IFERROR(beta, 7)");
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Name));
    assert_eq!(s.value("A2"), err(ErrorKind::Name));
    assert_eq!(s.value("A3"), Value::Number(7.0));
    let issues = s.issues();
    assert!(issues.contains(&"Sheet1!A1: name `me` refers to itself: me -> me".to_string()), "{issues:?}");
    assert!(
        issues.contains(&"Sheet1!A2: name `alpha` refers to itself: alpha -> beta -> alpha".to_string()),
        "{issues:?}"
    );
    // The loop is reported once, from its first name (issue 13 item 20).
    assert_eq!(issues.len(), 2, "{issues:?}");
}

// ------------------------------------------------------------ nesting and size limits

#[test]
fn formulas_nested_thousands_deep_in_a_formula_file() {
    let diags = load_errors("deep.ron");
    let want = format!("formula nested too deeply (more than {MAX_NESTING} levels)");
    assert_eq!(diags.len(), 3, "{}", render_all(&diags));
    assert!(diags.iter().all(|d| d.label == want), "{}", render_all(&diags));
    assert_eq!(
        locations(&diags),
        ["tests/data/bad/deep.dfl:5:61", "tests/data/bad/deep.dfl:109:61", "tests/data/bad/deep.dfl:151:32"]
    );
    insta::assert_snapshot!("deep_dfl", render_all(&diags));
}

#[test]
fn formulas_nested_thousands_deep_are_parse_errors() {
    for src in [
        "(".repeat(100_000) + "1" + &")".repeat(100_000),
        "-".repeat(100_000) + "1",
        "SUM(".repeat(20_000) + "1" + &")".repeat(20_000),
        "1".to_string() + &"^1".repeat(50_000),
        "{".repeat(10_000) + "1",
        "(".repeat(100_000),
        "1".to_string() + &"%".repeat(100_000),
    ] {
        let t = Instant::now();
        let errors = parse_formula(&src).expect_err("too deep");
        assert!(errors.iter().any(|e| e.message.contains("nested too deeply")), "{:?}", &errors[..1]);
        assert!(t.elapsed() < Duration::from_secs(5), "slow: {:?}", t.elapsed());
    }
    // At the limit itself the formula parses and evaluates.
    let mut s = Sheet::new();
    s.set("A1", &format!("={}1{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING)));
    s.set("A2", &format!("={}1{}", "ABS(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING)));
    s.set("A3", &format!("={}1{}", "-(".repeat(MAX_NESTING / 2), ")".repeat(MAX_NESTING / 2)));
    s.recalc();
    assert_eq!(s.value("A1"), Value::Number(1.0));
    assert_eq!(s.value("A2"), Value::Number(1.0));
    assert_eq!(s.value("A3"), Value::Number(1.0));
}

#[test]
#[should_panic(expected = "nested too deeply")]
fn sheet_set_of_a_formula_nested_thousands_deep_panics_with_the_parse_error() {
    // Sheet's documented contract for malformed formulas: a panic with the message.
    Sheet::new().set("A1", &format!("={}1{}", "(".repeat(5000), ")".repeat(5000)));
}

#[test]
fn names_that_nest_formulas_too_deep_are_refused_when_bound() {
    // Each formula is within MAX_NESTING, together past MAX_BOUND_DEPTH.
    let n = MAX_NESTING - 6;
    let mut s = Sheet::new();
    s.set("B1", "-3");
    s.name("deep_name", &format!("={}$B$1{}", "ABS(".repeat(n), ")".repeat(n)));
    s.set("A1", &format!("={}deep_name{}", "ABS(".repeat(n), ")".repeat(n)));
    // Together within the limit: evaluated, no stack overflow.
    let m = MAX_BOUND_DEPTH - n - 10;
    s.set("A2", &format!("={}deep_name{}", "ABS(".repeat(m), ")".repeat(m)));
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Num));
    assert_eq!(s.value("A2"), Value::Number(3.0));
    let want = format!("Sheet1!A1: formula with its names expanded is nested deeper than {MAX_BOUND_DEPTH}");
    assert_eq!(s.issues(), [want]);
}

#[test]
fn a_chain_of_100_names_is_refused_past_the_name_depth() {
    let diags = session_errors("name_chain.ron");
    // From A1 the chain is 101 names deep; from A2 (nm_50) it is 51: fine.
    assert_eq!(messages(&diags), [format!("names nested more than {MAX_NAME_DEPTH} deep")]);
    assert_eq!(diags[0].note.as_deref(), Some("in name `nm_63`, evaluated at Main!A1"));
    insta::assert_snapshot!("name_chain", render_all(&diags));

    let mut s = Sheet::new();
    for i in 0..100 {
        s.name(&format!("nm_{i}"), &format!("=nm_{}+1", i + 1));
    }
    s.name("nm_100", "=1");
    s.set("A1", "=nm_0");
    s.set("A2", "=nm_50");
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Name));
    assert_eq!(s.value("A2"), Value::Number(51.0));
}

#[test]
fn exponential_name_expansion_is_refused_quickly() {
    let t = Instant::now();
    let diags = session_errors("expansion.ron");
    assert!(t.elapsed() < Duration::from_secs(10), "slow: {:?}", t.elapsed());
    let want = format!("formula with its names expanded is larger than {MAX_BOUND_NODES}");
    assert!(diags.iter().all(|d| d.message == want), "{}", render_all(&diags));
    // A1 (ex_0, 2^40 copies) is refused; A2 (ex_30, 2^10 copies) is not.
    for d in &diags {
        let note = d.note.as_deref().unwrap_or("");
        assert!(note.starts_with("in name `ex_") && note.ends_with("evaluated at Main!A1"), "{note}");
    }
    insta::assert_snapshot!("expansion_first", render_all(&diags[..1]));

    let mut s = Sheet::new();
    for i in 0..40 {
        s.name(&format!("ex_{i}"), &format!("=ex_{0}+ex_{0}", i + 1));
    }
    s.name("ex_40", "=$B$1");
    s.set("B1", "1");
    s.set("A1", "=ex_0");
    s.set("A2", "=ex_30");
    let t = Instant::now();
    s.recalc();
    assert!(t.elapsed() < Duration::from_secs(10), "slow: {:?}", t.elapsed());
    assert_eq!(s.value("A1"), err(ErrorKind::Num));
    assert_eq!(s.value("A2"), Value::Number(1024.0));
}

#[test]
fn a_formula_over_the_whole_sheet_is_refused() {
    // It parses; the loader refuses it, without allocating the grid.
    let diags = load_errors("huge_area.ron");
    assert_eq!(
        messages(&diags),
        [format!(
            "Main!A1:XFD1048576 would make the stored grid 17179869184 cells; a workbook stores at most {MAX_GRID_CELLS}"
        )]
    );
    insta::assert_snapshot!("huge_area", render_all(&diags));
    // One cell far from A1 makes the dense grid as big: refused too.
    let diags = load_errors("far_cell.ron");
    assert_eq!(
        messages(&diags),
        [format!(
            "Main!XFD1048576 would make the stored grid 17179869184 cells; a workbook stores at most {MAX_GRID_CELLS}"
        )]
    );
}

#[test]
fn grid_size_refusals_are_located() {
    let diags = session_errors("huge_area.ron");
    assert_eq!(diags[0].location().as_deref(), Some("tests/data/bad/huge_area.dfl:2:7"));
    assert!(diags[0].message.contains("Main!A1:XFD1048576"), "the sheet is named: {}", diags[0].message);
    let diags = session_errors("far_cell.ron");
    assert!(diags[0].location().is_some_and(|l| l.starts_with("tests/data/bad/far_cell.ron:2:")), "{diags:?}");
}

#[test]
fn huge_ranges_read_as_arrays_give_num_not_oom() {
    let mut s = session("huge_array.ron");
    s.recalc();
    assert_eq!(cell(&s, "Out!A1"), err(ErrorKind::Num), "SUM over a name of five whole columns");
    assert_eq!(cell(&s, "Out!A2"), err(ErrorKind::Num), "SUMPRODUCT(Data!A:Z)");
    assert_eq!(cell(&s, "Out!A3"), Value::Number(6.0), "four whole columns: exactly {MAX_ARRAY_CELLS} cells");
    // Functions that read a reference without an array: fine at any size.
    assert_eq!(cell(&s, "Out!A4"), Value::Number(3.0));
    assert_eq!(cell(&s, "Out!A5"), Value::Number(1.0));
    assert_eq!(cell(&s, "Out!A6"), Value::Number(1_048_576.0));
    assert_eq!(cell(&s, "Out!A7"), Value::Number(2.0));

    let mut s = Sheet::with_sheets(&["Data", "Out"]);
    s.set("Data!A1", "1");
    s.name("cols", "=Data!A:D*2");
    s.name("more_cols", "=Data!A:E*2");
    s.set("Out!A1", "=SUM(more_cols)");
    s.set("Out!A2", "=SUMPRODUCT(Data!A:Z)");
    s.set("Out!A3", "=SUMPRODUCT(Data!A:XFD, Data!A:XFD)");
    s.set("Out!A4", "=SUM(cols)");
    s.recalc();
    assert_eq!(s.value("Out!A1"), err(ErrorKind::Num));
    assert_eq!(s.value("Out!A2"), err(ErrorKind::Num));
    assert_eq!(s.value("Out!A3"), err(ErrorKind::Num));
    assert_eq!(s.value("Out!A4"), Value::Number(2.0));
}

#[test]
fn a_dependency_chain_of_2000_cells_calculates() {
    let (code, stdout, stderr) = dataflow(&["run", "tests/data/bad/chain_2k.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("end:\n2000\n"), "{stdout}");
}

#[test]

fn a_dependency_chain_of_50000_cells_calculates() {
    let (code, stdout, stderr) = dataflow(&["run", "tests/data/bad/long_chain.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("end:\n50000\n"), "{stdout}");
    let (code, _, stderr) = dataflow(&["check", "tests/data/bad/long_chain.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]

fn a_cycle_of_50000_cells_iterates() {
    let (code, stdout, stderr) = dataflow(&["run", "tests/data/bad/long_cycle.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("not converged after 3 iterations"), "{stdout}");
}

// ------------------------------------------------------------ references outside the sheet

#[test]
fn references_outside_the_sheet() {
    let mut s = Sheet::new();
    // (A1048576 and XFD1 both set would need the whole sheet stored.)
    s.set("XFD1", "7");
    // A name entered from B1 reading A1 means "the cell to the left": from A1, it wraps to XFD1.
    s.name_at("left", "B1", "=A1");
    // Entered from A2 reading A1, "the cell above": from A1, it wraps to A1048576.
    s.name_at("up", "A2", "=A1");
    s.set("B2", "=left");
    s.set("C3", "=ROW(up)");
    s.set("D3", "=COLUMN(left)");
    s.set("A1", "=left");
    s.set("B1", "=up");
    s.recalc();
    assert_eq!(s.value("A1"), Value::Number(7.0), "left of A1 wraps to XFD1");
    assert_eq!(s.value("B1"), Value::Number(0.0), "above B1 wraps to B1048576, empty");
    assert_eq!(s.value("B2"), Value::Number(0.0), "A2 is empty");
    assert_eq!(s.value("C3"), Value::Number(2.0));
    assert_eq!(s.value("D3"), Value::Number(3.0));
    assert_eq!(s.eval_at("A1", "=ROW(up)"), Value::Number(1_048_576.0));
    assert_eq!(s.eval_at("A1", "=COLUMN(left)"), Value::Number(16_384.0));
    // OFFSET and INDEX past the sheet's edges: tests/formulas/lookup.txt.
}

// ------------------------------------------------------------ numbers

// Overflow, NaN and division by zero in formulas: tests/formulas/numbers.txt.

#[test]
fn a_literal_too_large_does_not_parse() {
    assert!(parse_formula("=1E999").is_err());
}

#[test]
fn a_diverging_cycle_ends_in_num_not_infinity() {
    let mut s = Sheet::new();
    s.iterate(2000, 0.001);
    s.set("A1", "=A1*10+1");
    let r = s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Num));
    assert!(r.iterations <= 2000);
    assert!(!r.max_change.is_nan(), "{r:?}");
}

// ------------------------------------------------------------ inputs

const HEX: &str = "123456789ABCDEFG";

#[test]
fn a_16_symbol_alphabet_input() {
    let mut s = session("hex.ron");
    let board = s.area("Main!A1:P16").unwrap();
    let line = HEX.repeat(16);
    s.set_input("puzzle", &line).expect("256 symbols of the alphabet");
    s.recalc();
    assert_eq!(cell(&s, "Main!R1"), Value::Number(16.0 * 136.0));
    assert_eq!(cell(&s, "Main!R2"), Value::Number(256.0));
    assert_eq!(cell(&s, "Main!R3"), Value::Number(16.0), "G is 16");
    assert_eq!(s.read_line(&board, HEX), line, "read back through the alphabet");
    // Blanks and whitespace.
    let sparse = format!("G{}", ".".repeat(255));
    s.set_input("puzzle", &sparse.replace("..", ". .")).unwrap();
    s.recalc();
    assert_eq!(cell(&s, "Main!R1"), Value::Number(16.0));
    assert_eq!(s.read_line(&board, HEX), sparse);

    let mut bad = |line: String| s.set_input("puzzle", &line).expect_err("refused");
    assert_eq!(
        bad(format!("{}H", &line[..255])),
        "input `puzzle`: symbol `H` at position 256 is not in the alphabet `123456789ABCDEFG` nor a blank (`.`)"
    );
    assert!(bad(format!("a{}", &line[1..])).contains("symbol `a` at position 1"), "symbols match case");
    assert!(bad(format!("0{}", &line[1..])).contains("symbol `0` at position 1"), "0 is no blank here");
    assert!(bad(format!("é{}", &line[1..])).contains("symbol `é` at position 1"));
    assert_eq!(bad(line[..255].to_string()), "input `puzzle` needs 256 symbols for A1:P16, got 255");
    assert_eq!(bad(HEX.repeat(17)), "input `puzzle` needs 256 symbols for A1:P16, got 272");
    assert!(bad(String::new()).contains("got 0"));
}

#[test]
fn a_16_symbol_alphabet_input_from_the_cli() {
    let line = HEX.repeat(16);
    let (code, stdout, stderr) = dataflow(&[
        "run",
        "tests/data/bad/hex.ron",
        "--input",
        &format!("puzzle={line}"),
        "--format",
        "json",
        "--show",
        "Main!R1:R3",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["ranges"]["Main!R1:R3"], serde_json::json!([[2176.0], [256.0], [16.0]]));

    let (code, _, stderr) = dataflow(&["run", "tests/data/bad/hex.ron", "--input", &format!("puzzle={}", &line[..81])]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "error: input `puzzle` needs 256 symbols for A1:P16, got 81\n");

    let corpus = "../shared/corpora/16x16/hexadoku_4.txt";
    let Ok(text) = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(corpus)) else {
        println!("skipping the hexadoku part: {corpus} is absent (the shared puzzle corpora sit beside the project)");
        return;
    };
    let puzzle = text.lines().next().expect("a puzzle");
    let (code, stdout, stderr) = dataflow(&[
        "run",
        "tests/data/bad/hex.ron",
        "--input",
        &format!("puzzle=@{corpus}:1"),
        "--format",
        "json",
        "--show",
        "Main!R1:R3",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let given: Vec<usize> = puzzle.chars().filter_map(|c| HEX.find(c).map(|k| k + 1)).collect();
    let sum = given.iter().sum::<usize>() as f64;
    assert_eq!(v["ranges"]["Main!R1:R3"], serde_json::json!([[sum], [given.len() as f64], [16.0]]));
}
