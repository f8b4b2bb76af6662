//! The formula corpus's reader: `tests/formulas/*.txt`, one case per
//! line, in blocks of inputs, names and cases (the format is described in
//! `tests/formulas.rs`). Shared by the corpus test, which evaluates each
//! case unstored, and `tests/formula_paths.rs`, which stores the cases and
//! runs them through every evaluation path.

use dataflow::address::parse_a1;
use dataflow::parse::parse_formula;
use dataflow::testing::typed_value;
use dataflow::value::{ErrorKind, Value};
use std::path::{Path, PathBuf};

pub const DIR: &str = "tests/formulas";

/// An input cell, a name or a case, with its line number.
pub struct Line<T> {
    pub line: usize,
    pub item: T,
}

pub struct Name {
    pub name: String,
    pub anchor: String,
    pub formula: String,
}

pub struct Case {
    pub at: String,
    pub formula: String,
    pub expected: Value,
    /// `~>`: a number within a relative [`CLOSE`] of the expected one.
    pub close: bool,
}

/// How near a `~>` case's number must be: relative, as the comparison of
/// Excel's cached values allows (`../shared/excel-files/README.md`).
pub const CLOSE: f64 = 1e-9;

impl Case {
    pub fn matches(&self, got: &Value) -> bool {
        match (self.close, &self.expected, got) {
            (true, Value::Number(a), Value::Number(b)) => (a - b).abs() <= CLOSE * a.abs().max(b.abs()),
            _ => *got == self.expected,
        }
    }
}

/// One sheet of a corpus file: inputs and names, then the cases.
pub struct Block {
    pub line: usize,
    pub cells: Vec<Line<(String, String)>>,
    pub names: Vec<Line<Name>>,
    pub cases: Vec<Line<Case>>,
}

impl Block {
    pub fn new(line: usize) -> Self {
        Block { line, cells: Vec::new(), names: Vec::new(), cases: Vec::new() }
    }
}

/// A problem with the line it is on.
pub type Problem = (usize, String);

/// Reads a corpus file; every malformed line is a problem.
pub fn parse_corpus(text: &str) -> Result<Vec<Block>, Vec<Problem>> {
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
pub fn input(src: &str) -> Result<(String, String), String> {
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
pub fn name(src: &str) -> Result<Name, String> {
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
pub fn case(src: &str) -> Result<Case, String> {
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
pub fn arrow(s: &str) -> Option<usize> {
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

pub fn formula(text: &str) -> Result<(), String> {
    let errors = parse_formula(text).err().unwrap_or_default();
    match errors.first() {
        None => Ok(()),
        Some(e) => Err(format!("`{text}` does not parse: {} at {:?}", e.message, e.span)),
    }
}

pub fn address(cell: &str) -> Result<String, String> {
    match parse_a1(&cell.replace('$', "")) {
        Some(_) => Ok(cell.to_string()),
        None => Err(format!("`{cell}` is not a cell of the sheet")),
    }
}

/// `"a""b"` to `a"b`; None unless the whole of `s` is one quoted text.
pub fn unquote(s: &str) -> Option<String> {
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
pub fn value(s: &str) -> Result<Value, String> {
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
pub fn show(v: &Value) -> String {
    match v {
        Value::Number(x) => x.to_string(),
        Value::Text(t) => format!("\"{}\"", t.replace('"', "\"\"")),
        Value::Empty => "(empty)".into(),
        Value::Array(_) | Value::Ref(_) => format!("{v:?}"),
        v => v.to_string(),
    }
}

pub fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    files
}
