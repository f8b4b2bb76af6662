//! A saved calculation state: the values of a workbook's cells written to a
//! readable RON file, so that `dataflow run WORKBOOK --max-iter 1 --state
//! FILE` can be run again and again, each run starting from the values the
//! last one left, as repeated F9 on a saved workbook with "Maximum
//! Iterations" set to 1.
//!
//! ```ron
//! State(
//!     version: 1,
//!     workbook: "workbooks/sudoku.ron",
//!     fingerprint: "9f0c2c1e8d6a4b27",
//!     iterations_total: 3,
//!     cells: {
//!         "Main!D4": 2,
//!         "Main!D16": "",
//!         "Main!D27": "solve",
//!         "Main!X9": Error("#N/A"),
//!     },
//! )
//! ```
//!
//! Every non-empty cell is saved, constants and formula cells alike, in
//! address order: numbers as numbers, text as strings, booleans as `true`
//! and `false`, errors as `Error("#N/A")`; empty cells are left out. The
//! fingerprint is a hash of the texts of the workbook's files (the RON file
//! and every formula file) and of its sheet names: a state saved before the
//! formulas were edited is refused rather than silently mixed with them.

use crate::Error;
use crate::address::CellAddr;
use crate::session::Session;
use crate::value::{ErrorKind, Value};
use crate::workbook::{Workbook, parse_cell_ref};
use ron::value::RawValue;
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashSet;
use std::fmt;
use std::path::Path;

/// The format version written and accepted.
pub const VERSION: u32 = 1;

/// One saved state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "State", deny_unknown_fields)]
pub struct State {
    pub version: u32,
    /// The workbook file, as given on the command line when saved.
    pub workbook: String,
    /// See [`fingerprint`].
    pub fingerprint: String,
    /// Iterations made since the state was first saved (reset not counted).
    pub iterations_total: u64,
    pub cells: Cells,
}

/// Only the version of a state file, whatever else it holds.
#[derive(Deserialize)]
#[serde(rename = "State")]
struct Versioned {
    version: u32,
}

/// The saved cells, `Main!D4` style keys, in address order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Cells(pub Vec<(String, Value)>);

impl State {
    /// The values of every non-empty cell of the session, but the cells a
    /// dynamic array spills over: its formula spills them again (every
    /// formula is calculated again after [`State::apply`]).
    pub fn capture(session: &Session, workbook: &str, iterations_total: u64) -> State {
        let grid = session.engine().grid();
        let sheets = &session.workbook().sheets;
        let mut cells = Vec::new();
        for s in 0..grid.sheet_count() {
            let (rows, cols) = grid.extent(s as u16);
            for r in 0..rows {
                for c in 0..cols {
                    let at = CellAddr::new(s as u16, r, c);
                    let v = scalar(grid.get(at));
                    if !v.is_empty() && grid.spills().owner(at).is_none() {
                        cells.push((sheets.cell(CellAddr::new(s as u16, r, c)), v));
                    }
                }
            }
        }
        State {
            version: VERSION,
            workbook: workbook.to_string(),
            fingerprint: fingerprint(session.workbook()),
            iterations_total,
            cells: Cells(cells),
        }
    }

    /// Reads a state file; `Ok(None)` when there is no such file.
    pub fn read(path: &Path) -> Result<Option<State>, Error> {
        // A FIFO or a device would block the reader, or never end.
        if let Some(kind) = crate::workbook::files::not_regular(path) {
            return Err(Error::State(format!("it is {kind}, not a regular file")));
        }
        match std::fs::read_to_string(path) {
            Ok(text) => State::parse(&text).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::State(format!("cannot read it: {e}"))),
        }
    }

    /// Parses the text of a state file. The version is read first, so a
    /// file of another version (which may have fields this one does not
    /// know) gets the version message.
    pub fn parse(text: &str) -> Result<State, Error> {
        if let Ok(Versioned { version }) = ron::from_str(text)
            && version != VERSION
        {
            return Err(Error::State(format!(
                "it has format version {version}; this dataflow reads version {VERSION}"
            )));
        }
        ron::from_str(text).map_err(|e| Error::State(format!("it is not a readable state file: {e}")))
    }

    /// The state as RON text.
    pub fn to_ron(&self) -> Result<String, Error> {
        let config = ron::ser::PrettyConfig::default().struct_names(true);
        let text = ron::ser::to_string_pretty(self, config)
            .map_err(|e| Error::State(format!("cannot write the state: {e}")))?;
        Ok(text + "\n")
    }

    /// Writes the state atomically: to a temporary file beside `path`,
    /// then renamed over it, so an interrupted run never leaves half a file.
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        let text = self.to_ron()?;
        replace_file(path, text.as_bytes())
            .map_err(|e| Error::State(format!("cannot write the state file `{}`: {e}", path.display())))
    }

    /// Checks that the state belongs to `wb` (same fingerprint) and resolves
    /// its cells. Refuses unknown sheets, malformed cells, ranges and cells
    /// given twice.
    pub fn resolve(&self, wb: &Workbook) -> Result<Vec<(CellAddr, Value)>, Error> {
        let now = fingerprint(wb);
        if self.fingerprint != now {
            return Err(Error::State(format!(
                "it was saved for `{}` with fingerprint {}, but the workbook's files now give {now}: \
                 the workbook or its formulas were edited since",
                self.workbook, self.fingerprint
            )));
        }
        let mut seen = HashSet::new();
        let mut cells = Vec::with_capacity(self.cells.0.len());
        for (key, v) in &self.cells.0 {
            let area = parse_cell_ref(key, &wb.sheets, 0).map_err(|m| Error::State(format!("cell `{key}`: {m}")))?;
            if !area.is_cell() {
                return Err(Error::State(format!("`{key}` is a range; a state lists single cells")));
            }
            if !seen.insert(area.top_left()) {
                return Err(Error::State(format!("cell `{key}` is given twice")));
            }
            cells.push((area.top_left(), v.clone()));
        }
        Ok(cells)
    }

    /// Puts the saved values into a freshly loaded session: every cell the
    /// state lists gets its value, every other cell that holds something is
    /// emptied (constants with `Engine::set`, formula cells with
    /// `Engine::restore`, spilled cells with their spills); then every formula is marked dirty, as F9 does in
    /// a workbook with circular references.
    pub fn apply(&self, session: &mut Session) -> Result<(), Error> {
        let cells = self.resolve(session.workbook())?;
        // What the dynamic arrays spilled is not saved: they spill again.
        session.engine_mut().clear_spills();
        let saved: HashSet<CellAddr> = cells.iter().map(|(c, _)| *c).collect();
        let grid = session.engine().grid();
        let mut stale = Vec::new();
        for s in 0..grid.sheet_count() as u16 {
            let (rows, cols) = grid.extent(s);
            for r in 0..rows {
                for c in 0..cols {
                    let a = CellAddr::new(s, r, c);
                    if !grid.get(a).is_empty() && !saved.contains(&a) {
                        stale.push(a);
                    }
                }
            }
        }
        let program = session.engine().program().clone();
        let values = cells.into_iter().chain(stale.into_iter().map(|a| (a, Value::Empty)));
        for (cell, v) in values {
            if program.formula_at(cell).is_some() {
                session.engine_mut().restore(cell, v);
            } else {
                session
                    .engine_mut()
                    .set(cell, v)
                    .map_err(|m| Error::State(format!("cell {}: {m}", program.cell_name(cell))))?;
            }
        }
        session.engine_mut().mark_all_dirty();
        Ok(())
    }
}

/// A stable hash (64-bit FNV-1a, as 16 hex digits) of the texts of the
/// workbook's files, in order, and of its sheet names.
pub fn fingerprint(wb: &Workbook) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes.iter().chain(&[0xff]) {
            h ^= *b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for s in &wb.sources {
        feed(s.text.as_bytes());
    }
    for s in wb.sheets.iter() {
        feed(s.as_bytes());
    }
    format!("{h:016x}")
}

/// What a cell shows, as a scalar (a cell never keeps an array or a reference).
fn scalar(v: &Value) -> Value {
    match v {
        Value::Array(a) => a.first().as_ref().map_or(Value::Empty, scalar),
        Value::Ref(_) => Value::Error(ErrorKind::Value),
        v => v.clone(),
    }
}

/// How a value is written: the RON enum variant `Error("#N/A")` for errors.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Value")]
enum Tagged {
    Error(String),
}

struct Saved<'a>(&'a Value);

impl Serialize for Saved<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 && !(*n == 0.0 && n.is_sign_negative()) => {
                s.serialize_i64(*n as i64)
            }
            Value::Number(n) => s.serialize_f64(*n),
            Value::Text(t) => s.serialize_str(t),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Error(e) => Tagged::Error(e.text().to_string()).serialize(s),
            other => s.serialize_str(&other.to_string()),
        }
    }
}

impl Serialize for Cells {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, &Saved(v))?;
        }
        map.end()
    }
}

/// Reads one saved value: a number, a string, a boolean or `Error("#N/A")`.
fn read_value(raw: &RawValue) -> Result<Value, String> {
    let text = raw.get_ron().trim();
    if text.starts_with("Error") {
        let Tagged::Error(e) = raw.into_rust().map_err(|e| format!("`{text}`: {e}"))?;
        return ErrorKind::parse(&e).map(Value::Error).ok_or_else(|| format!("`{e}` is not an Excel error"));
    }
    raw.into_rust::<Scalar>()
        .map(|s| s.0)
        .map_err(|_| format!("`{text}` is not a value (a number, a string, true/false or Error(\"#N/A\"))"))
}

struct Scalar(Value);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, a string or a boolean")
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Scalar, E> {
                Ok(Scalar(Value::num(n)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Scalar, E> {
                Ok(Scalar(Value::Number(n as f64)))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Scalar, E> {
                Ok(Scalar(Value::Number(n as f64)))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Scalar, E> {
                Ok(Scalar(Value::Bool(b)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar(Value::text(s)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Cells {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cells, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cells;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map from cells to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cells, A::Error> {
                let mut cells = Vec::new();
                while let Some((key, raw)) = map.next_entry::<String, Box<RawValue>>()? {
                    let v = read_value(&raw).map_err(|m| de::Error::custom(format!("cell `{key}`: {m}")))?;
                    cells.push((key, v));
                }
                Ok(Cells(cells))
            }
        }
        d.deserialize_map(V)
    }
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file
/// beside it, synced, then renamed over it, so a failed write (disk full,
/// a signal) never leaves a truncated file or loses the old one.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let name = path.file_name().ok_or_else(|| std::io::Error::other("not a file name"))?;
    let tmp = path.with_file_name(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
