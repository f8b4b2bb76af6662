//! The formula corpus: every `tests/formulas/*.txt` file, one case per line,
//! checked by one test that reports every failing line at once. Adding a
//! case is adding a line; adding a file is dropping it in the directory.
//!
//! A file is one or more small sheets. Each sheet is a block of inputs, then
//! its cases; a line `---` starts a fresh sheet. Blank lines and lines
//! starting with `#` are ignored.
//!
//! ```text
//! B1 = 5                       a number, TRUE/FALSE or an error literal, as typed
//! B2 = "Hello"                 text, in double quotes ("" for a quote)
//! B3 = =B1*2                   a formula
//! C1:C3 = {=ROW()}             an array formula over a block (Ctrl+Shift+Enter)
//! name sq = B1:B3*B1:B3        a name anchored at A1 (no leading `=` needed)
//! name up @ B5 = B1            a name whose relative references count from B5
//!
//! =SUM(B1:B3)  ->  20          a case, evaluated in A1's context
//! @D2 =B1:B3*2  ->  10         a case evaluated in D2's context
//! =NORM.S.DIST(1,TRUE)  ~>  0.841344746068543
//!                              a number within a relative 1e-9 (as the
//!                              shared Excel-files comparison allows): for
//!                              values given to fewer digits than a double
//! ```
//!
//! Each case is evaluated on its own in the context of its cell, without
//! being stored (`Sheet::eval_at`), after the sheet's inputs were
//! recalculated; it shows what that cell would show. The expected value is
//! written as that cell shows it: a number (compared exactly, as Rust reads
//! it), `TRUE`/`FALSE`, an error literal such as `#DIV/0!`, or `"text"` in
//! quotes so that text is told from numbers. A line that does not read as
//! one of these fails the test with its file and line.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::parse_a1;
use dataflow::parse::parse_formula;
use dataflow::testing::{Sheet, typed_value};
use dataflow::value::{ErrorKind, Value};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

const DIR: &str = "tests/formulas";

/// An input cell, a name or a case, with its line number.
struct Line<T> {
    line: usize,
    item: T,
}

struct Name {
    name: String,
    anchor: String,
    formula: String,
}

struct Case {
    at: String,
    formula: String,
    expected: Value,
    /// `~>`: a number within a relative [`CLOSE`] of the expected one.
    close: bool,
}

/// How near a `~>` case's number must be: relative, as the comparison of
/// Excel's cached values allows (`../shared/excel-files/README.md`).
const CLOSE: f64 = 1e-9;

impl Case {
    fn matches(&self, got: &Value) -> bool {
        match (self.close, &self.expected, got) {
            (true, Value::Number(a), Value::Number(b)) => (a - b).abs() <= CLOSE * a.abs().max(b.abs()),
            _ => *got == self.expected,
        }
    }
}

/// One sheet of a corpus file: inputs and names, then the cases.
struct Block {
    line: usize,
    cells: Vec<Line<(String, String)>>,
    names: Vec<Line<Name>>,
    cases: Vec<Line<Case>>,
}

impl Block {
    fn new(line: usize) -> Self {
        Block { line, cells: Vec::new(), names: Vec::new(), cases: Vec::new() }
    }
}

/// A problem with the line it is on.
type Problem = (usize, String);

/// Reads a corpus file; every malformed line is a problem.
fn parse_corpus(text: &str) -> Result<Vec<Block>, Vec<Problem>> {
    let mut blocks = vec![Block::new(1)];
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let (line, src) = (i + 1, raw.trim());
        if src.is_empty() || src.starts_with('#') {
            continue;
        }
        if src == "---" {
            blocks.push(Block::new(line));
            continue;
        }
        let block = blocks.last_mut().expect("there is always a block");
        let is_case = src.starts_with(['=', '@']);
        if !is_case && !block.cases.is_empty() {
            problems.push((
                line,
                "inputs and names come before the cases of their sheet (`---` starts a new sheet)".into(),
            ));
            continue;
        }
        let read = if is_case {
            case(src).map(|item| block.cases.push(Line { line, item }))
        } else if let Some(rest) = src.strip_prefix("name ") {
            name(rest).map(|item| block.names.push(Line { line, item }))
        } else {
            input(src).map(|item| block.cells.push(Line { line, item }))
        };
        if let Err(message) = read {
            problems.push((line, message));
        }
    }
    if problems.is_empty() { Ok(blocks) } else { Err(problems) }
}

/// `B1 = 5`, `B2 = "text"`, `B3 = =B1*2`: the cell and what is typed in
/// it; `C1:C3 = {=ROW()}`: an array formula over a block.
fn input(src: &str) -> Result<(String, String), String> {
    let (cell, value) =
        src.split_once('=').ok_or("expected `CELL = VALUE`, `name ...` or a case `=FORMULA -> VALUE`")?;
    let value = value.trim();
    if let Some(f) = dataflow::parse::block_formula(value) {
        let (first, last) = cell.trim().split_once(':').unwrap_or((cell.trim(), cell.trim()));
        address(first)?;
        address(last)?;
        formula(f)?;
        return Ok((cell.trim().to_string(), value.to_string()));
    }
    let cell = address(cell.trim())?;
    if value.starts_with('=') {
        formula(value)?;
        return Ok((cell, value.to_string()));
    }
    if let Some(text) = value.starts_with('"').then(|| unquote(value)) {
        let text = text.ok_or_else(|| format!("`{value}` is not one quoted text"))?;
        if text.is_empty() || !matches!(typed_value(&text), Value::Text(_)) {
            return Err(format!("`{value}` would not be typed as text; write it as a formula: `=\"{text}\"`"));
        }
        return Ok((cell, text));
    }
    match typed_value(value) {
        Value::Text(_) | Value::Empty => Err(format!("`{value}` is not a number, boolean or error; text is quoted")),
        _ => Ok((cell, value.to_string())),
    }
}

/// `sq = B1:B3*B1:B3` or `up @ B5 = B1`, after the `name ` keyword.
fn name(src: &str) -> Result<Name, String> {
    let (head, body) = src.split_once('=').ok_or("expected `name NAME [@ CELL] = FORMULA`")?;
    let (name, anchor) = match head.split_once('@') {
        Some((name, anchor)) => (name.trim(), address(anchor.trim())?),
        None => (head.trim(), "A1".to_string()),
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(format!("`{}` is not a name", head.trim()));
    }
    formula(body.trim())?;
    Ok(Name { name: name.to_string(), anchor, formula: body.trim().to_string() })
}

/// `=FORMULA -> EXPECTED` or `@CELL =FORMULA -> EXPECTED`.
fn case(src: &str) -> Result<Case, String> {
    let (at, rest) = match src.strip_prefix('@') {
        Some(rest) => {
            let (cell, rest) = rest.split_once(char::is_whitespace).ok_or("expected `@CELL =FORMULA -> VALUE`")?;
            (address(cell)?, rest.trim_start())
        }
        None => ("A1".to_string(), src),
    };
    let arrow = arrow(rest).ok_or("expected `=FORMULA -> VALUE`: no `->` (or `~>`) outside quotes")?;
    let (text, expected) = (rest[..arrow].trim(), rest[arrow + 2..].trim());
    if !text.starts_with('=') {
        return Err(format!("a case's formula starts with `=`: `{text}`"));
    }
    formula(text)?;
    let close = rest[arrow..].starts_with('~');
    let expected = value(expected)?;
    if close && !matches!(expected, Value::Number(_)) {
        return Err(format!("`~>` compares numbers; `{}` is not one", show(&expected)));
    }
    Ok(Case { at, formula: text.to_string(), expected, close })
}

/// The byte offset of the first `->` or `~>` outside double quotes.
fn arrow(s: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '-' | '~' if !quoted && s[i + 1..].starts_with('>') => return Some(i),
            _ => {}
        }
    }
    None
}

fn formula(text: &str) -> Result<(), String> {
    let errors = parse_formula(text).err().unwrap_or_default();
    match errors.first() {
        None => Ok(()),
        Some(e) => Err(format!("`{text}` does not parse: {} at {:?}", e.message, e.span)),
    }
}

fn address(cell: &str) -> Result<String, String> {
    match parse_a1(&cell.replace('$', "")) {
        Some(_) => Ok(cell.to_string()),
        None => Err(format!("`{cell}` is not a cell of the sheet")),
    }
}

/// `"a""b"` to `a"b`; None unless the whole of `s` is one quoted text.
fn unquote(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut text = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '"' && chars.next() != Some('"') {
            return None;
        }
        text.push(c);
    }
    Some(text)
}

/// An expected value as the cell shows it.
fn value(s: &str) -> Result<Value, String> {
    if s.starts_with('"') {
        return unquote(s).map(|t| Value::text(&t)).ok_or_else(|| format!("`{s}` is not one quoted text"));
    }
    match s {
        "TRUE" => return Ok(Value::Bool(true)),
        "FALSE" => return Ok(Value::Bool(false)),
        _ => {}
    }
    if s.starts_with('#') {
        return ErrorKind::parse(s).map(Value::Error).ok_or_else(|| format!("`{s}` is not an error literal"));
    }
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Value::Number(x)),
        _ => Err(format!("`{s}` is not a value: a number, TRUE, FALSE, an error literal or \"text\"")),
    }
}

/// A value in the corpus notation (numbers with every digit Rust needs).
fn show(v: &Value) -> String {
    match v {
        Value::Number(x) => x.to_string(),
        Value::Text(t) => format!("\"{}\"", t.replace('"', "\"\"")),
        Value::Empty => "(empty)".into(),
        Value::Array(_) | Value::Ref(_) => format!("{v:?}"),
        v => v.to_string(),
    }
}

/// Builds the block's sheet and evaluates its cases; one line per failure.
fn run(file: &str, block: &Block) -> Vec<String> {
    let mut s = Sheet::new();
    for Line { item: (cell, input), .. } in &block.cells {
        s.set(cell, input);
    }
    for Line { item: n, .. } in &block.names {
        s.name_at(&n.name, &n.anchor, &n.formula);
    }
    s.recalc();
    let mut failures: Vec<String> =
        s.issues().iter().map(|issue| format!("{file}:{}: the sheet has a problem: {issue}", block.line)).collect();
    for Line { line, item: case } in &block.cases {
        let got = catch_unwind(AssertUnwindSafe(|| s.eval_at(&case.at, &case.formula)));
        let at = if case.at == "A1" { String::new() } else { format!("@{} ", case.at) };
        match got {
            Ok(v) if case.matches(&v) => {}
            Ok(v) => failures.push(format!(
                "{file}:{line}: {at}{}\n    expected {}\n    got      {}",
                case.formula,
                show(&case.expected),
                show(&v)
            )),
            Err(_) => failures.push(format!("{file}:{line}: {at}{} panicked", case.formula)),
        }
    }
    failures
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn corpus() {
    let files = corpus_files();
    assert!(!files.is_empty(), "no corpus files in {DIR}");
    let (mut failures, mut cases) = (Vec::new(), 0);
    for path in &files {
        let file = format!("{DIR}/{}", path.file_name().expect("a file name").to_string_lossy());
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        match parse_corpus(&text) {
            Err(problems) => failures.extend(problems.iter().map(|(line, m)| format!("{file}:{line}: {m}"))),
            Ok(blocks) => {
                let count: usize = blocks.iter().map(|b| b.cases.len()).sum();
                if count == 0 {
                    failures.push(format!("{file}: no cases"));
                }
                cases += count;
                for block in &blocks {
                    failures.extend(run(&file, block));
                }
            }
        }
    }
    println!("{cases} cases in {} files", files.len());
    assert!(failures.is_empty(), "{} corpus lines failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn malformed_lines_are_reported_with_their_line_numbers() {
    let text = [
        "B1 = 1",
        "B2 = abc",
        "B3 = \"12\"",
        "name two words = 1",
        "=SUM(  ->  1",
        "@ZZZ9999999 =1  ->  1",
        "=1  ->  one",
        "=2",
        "=\"a\"  ~>  \"a\"",
        "=1+1  ->  2",
        "B4 = 4",
    ]
    .join("\n");
    let problems = parse_corpus(&text).err().expect("malformed lines are refused");
    let lines: Vec<usize> = problems.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8, 9, 11], "{problems:?}");
}

#[test]
fn every_failing_case_is_reported() {
    let blocks = parse_corpus("B1 = \"a->b\"\n=B1  ->  \"a->b\"\n=1/0  ->  1\n\n=B1&\"\"\"\"  ->  \"a->b\"").unwrap();
    let failures = run("f.txt", &blocks[0]);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert_eq!(failures[0], "f.txt:3: =1/0\n    expected 1\n    got      #DIV/0!");
    assert!(failures[1].starts_with("f.txt:5: =B1&\"\"\"\"\n"), "{failures:?}");
    assert!(failures[1].ends_with("got      \"a->b\"\"\""), "{failures:?}");
}

#[test]
fn close_cases_allow_a_relative_billionth_and_no_more() {
    let case = |src: &str| case(src).expect("a case");
    let third = case("=1/3  ~>  0.333333333333");
    assert!(third.matches(&Value::Number(1.0 / 3.0)));
    assert!(!third.matches(&Value::Number(0.3333333)), "a relative 1e-7 off");
    assert!(!third.matches(&Value::text("0.333333333333")));
    let exact = case("=1/3  ->  0.333333333333");
    assert!(!exact.matches(&Value::Number(1.0 / 3.0)), "`->` is exact");
}
