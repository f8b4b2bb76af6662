//! One sheet's cells through calamine: constants, formulas and the cached
//! value of every formula cell (`<v>`). A shared formula (`<f t="shared"
//! si ref>`) whose cells fill its whole `ref` becomes one formula over that
//! range (as Ctrl+Enter: relative references shift from the top-left cell,
//! which is what Excel's sharing means); otherwise each of its cells gets
//! the formula calamine expands for it. An array formula (from
//! `parts::array_blocks`) becomes one block array formula, or, when its
//! cell metadata marks a dynamic array (`metadata`), one dynamic-array
//! formula in its cell; the other cells of its block (or spill) hold only
//! cached values.

use super::parts::{ArrayBlock, Zip, array_blocks};
use crate::address::{Area, CellAddr, SheetId};
use crate::grid::MAX_GRID_CELLS;
use crate::value::date::{DateSystem, serial_of_iso};
use crate::value::{ErrorKind, Value};
use calamine::{DataRef, Xlsx, XlsxFormulaMetadata};
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Seek};

/// What one sheet holds, before parsing.
#[derive(Default)]
pub(super) struct SheetCells {
    pub constants: Vec<(CellAddr, Value)>,
    /// (area, formula text as stored, which kind of formula).
    pub formulas: Vec<(Area, String, FormulaKind)>,
    /// The cached value of every formula cell.
    pub cached: Vec<(CellAddr, Value)>,
    /// Cells with an empty formula (`<f ca="1"/>`), read as their saved
    /// values.
    pub kept: Vec<CellAddr>,
}

pub(super) use crate::workbook::listing::FormulaKind;

/// A shared formula group: its template, the range it is declared over,
/// and the cells that use it.
struct Shared {
    formula: String,
    at: (u32, u32),
    range: Option<Area>,
    cells: Vec<(u32, u32)>,
}

/// Reads sheet `sheet` (named `name`, its part at `path`) of a workbook
/// in the date system `dates`.
pub(super) fn read<R: Read + Seek>(
    xlsx: &mut Xlsx<R>,
    zip: &mut Zip<R>,
    sheet: SheetId,
    name: &str,
    path: &str,
    dates: DateSystem,
    dynamic: &[bool],
) -> Result<SheetCells, String> {
    let mut blocks: HashMap<(u32, u32), (Area, FormulaKind)> = HashMap::new();
    // The cells of the blocks but their top-left ones: cached values only.
    let mut inside = Spans::default();
    let mut in_blocks = 0u64;
    for ArrayBlock { cell, block: text, cm } in array_blocks(zip, path)? {
        let at = area(sheet, &cell).ok_or_else(|| format!("an array formula in `{path}` has no cell"))?;
        let block = area(sheet, &text).ok_or_else(|| format!("the array formula at {cell} has the block `{text}`"))?;
        if block.size() > MAX_GRID_CELLS || !block.contains(at.top_left()) {
            return Err(format!("the array formula at {cell} has the block `{text}`"));
        }
        // The blocks together cannot be larger than a grid can hold: a few
        // bytes of XML must not fill memory with the set below.
        in_blocks += block.size();
        if in_blocks > MAX_GRID_CELLS {
            return Err(format!("the array formulas reach {in_blocks} cells at {cell}, more than {MAX_GRID_CELLS}"));
        }
        inside.add(&block);
        let marked = cm.and_then(|k| k.checked_sub(1)).and_then(|k| dynamic.get(k)) == Some(&true);
        let kind = if marked { FormulaKind::Dynamic } else { FormulaKind::Block };
        blocks.insert((at.r0, at.c0), (block, kind));
    }
    let mut out = SheetCells::default();
    let mut shared: BTreeMap<usize, Shared> = BTreeMap::new();
    let mut reader = xlsx.worksheet_cells_reader(name).map_err(|e| e.to_string())?;
    while let Some(cell) = reader.next_cell_with_formula_metadata().map_err(|e| e.to_string())? {
        let (r, c) = cell.pos;
        let addr = CellAddr::new(sheet, r, c);
        let value = value(&cell.value, dates);
        let in_block = !blocks.contains_key(&(r, c)) && inside.contains(r, c);
        match cell.formula {
            None if in_block => out.cached.push((addr, value)),
            None => {
                if !value.is_empty() {
                    out.constants.push((addr, value));
                }
            }
            Some(f) => {
                out.cached.push((addr, value));
                match f {
                    // An empty formula inside an array formula's block or a
                    // dynamic array's spill: its cached value only.
                    XlsxFormulaMetadata::Normal { formula } if formula.trim().is_empty() && in_block => {}
                    // `<f ca="1"/>` elsewhere: a cell a data table fills (or
                    // a spill whose anchor is not marked): it keeps the
                    // value Excel saved.
                    XlsxFormulaMetadata::Normal { formula } if formula.trim().is_empty() => {
                        if let Some((_, v)) = out.cached.pop()
                            && !v.is_empty()
                        {
                            out.constants.push((addr, v));
                        }
                        out.kept.push(addr);
                    }
                    XlsxFormulaMetadata::Normal { formula } => {
                        let entry = match blocks.get(&(r, c)).copied() {
                            Some((block, FormulaKind::Block)) => (block, formula, FormulaKind::Block),
                            Some((_, kind)) => (Area::cell(addr), formula, kind),
                            None => (Area::cell(addr), formula, FormulaKind::Plain),
                        };
                        out.formulas.push(entry);
                    }
                    XlsxFormulaMetadata::Shared { shared_index, range, formula } => {
                        let g = shared.entry(shared_index).or_insert_with(|| Shared {
                            formula: String::new(),
                            at: (r, c),
                            range: None,
                            cells: Vec::new(),
                        });
                        g.formula = formula;
                        g.at = (r, c);
                        g.range = range.map(|d| Area::new(sheet, d.start.0, d.start.1, d.end.0, d.end.1));
                        g.cells.push((r, c));
                    }
                    XlsxFormulaMetadata::SharedDerived { shared_index } => {
                        let g = shared.entry(shared_index).or_insert_with(|| Shared {
                            formula: String::new(),
                            at: (r, c),
                            range: None,
                            cells: Vec::new(),
                        });
                        g.cells.push((r, c));
                    }
                    _ => {
                        return Err(format!(
                            "the formula of {} is of a kind this reader does not know",
                            crate::address::a1(r, c)
                        ));
                    }
                }
            }
        }
    }
    for g in shared.into_values() {
        out.formulas.extend(expand(sheet, g)?);
    }
    Ok(out)
}

/// A shared group as formula entries: one over its range when its cells
/// fill it, from its top-left cell; else one per cell.
fn expand(sheet: SheetId, g: Shared) -> Result<Vec<(Area, String, FormulaKind)>, String> {
    if let Some(range) = g.range
        && g.at == (range.r0, range.c0)
        && g.cells.len() as u64 == range.size()
        && g.cells.iter().all(|&(r, c)| range.contains(CellAddr::new(sheet, r, c)))
    {
        return Ok(vec![(range, g.formula, FormulaKind::Plain)]);
    }
    g.cells
        .iter()
        .map(|&(r, c)| {
            let text = calamine::expand_shared_formula(&g.formula, g.at, (r, c)).map_err(|e| e.to_string())?;
            Ok((Area::cell(CellAddr::new(sheet, r, c)), text, FormulaKind::Plain))
        })
        .collect()
}

/// `A1` or `A1:C3` on `sheet`.
fn area(sheet: SheetId, text: &str) -> Option<Area> {
    let (a, b) = text.split_once(':').unwrap_or((text, text));
    let (r0, c0) = crate::address::parse_a1(&a.replace('$', ""))?;
    let (r1, c1) = crate::address::parse_a1(&b.replace('$', ""))?;
    Some(Area::new(sheet, r0, c0, r1, c1))
}

/// A cell's value as calamine read it: dates and times are their serial
/// numbers (dataflow has no date type), those of strict Open XML
/// (`t="d"`, ISO 8601 text) in the workbook's date system; an ISO duration
/// stays text.
fn value(v: &DataRef<'_>, dates: DateSystem) -> Value {
    match v {
        DataRef::Int(i) => Value::Number(*i as f64),
        DataRef::Float(f) => Value::num(*f),
        DataRef::DateTimeIso(s) => serial_of_iso(s, dates).map_or_else(|| Value::text(s), Value::Number),
        DataRef::String(s) | DataRef::DurationIso(s) => Value::text(s),
        DataRef::SharedString(s) => Value::text(s),
        DataRef::Bool(b) => Value::Bool(*b),
        DataRef::DateTime(d) => Value::num(d.as_f64()),
        DataRef::Error(e) => Value::Error(ErrorKind::parse(&e.to_string()).unwrap_or(ErrorKind::NA)),
        DataRef::Empty => Value::Empty,
    }
}

/// The cells of array blocks, as column spans per row (a block of a million
/// rows costs a million spans, not sixteen million cells), sorted once
/// read so a cell is found by binary search.
#[derive(Default)]
struct Spans {
    rows: HashMap<u32, Vec<(u32, u32)>>,
    sorted: bool,
}

impl Spans {
    fn add(&mut self, block: &Area) {
        for r in block.r0..=block.r1 {
            self.rows.entry(r).or_default().push((block.c0, block.c1));
        }
        self.sorted = false;
    }

    fn contains(&mut self, r: u32, c: u32) -> bool {
        if !self.sorted {
            self.rows.values_mut().for_each(|v| v.sort_unstable());
            self.sorted = true;
        }
        let Some(spans) = self.rows.get(&r) else { return false };
        // Blocks do not overlap in a valid file; the last span starting at
        // or before `c` is the one that can hold it.
        let i = spans.partition_point(|&(c0, _)| c0 <= c);
        i > 0 && spans[i - 1].1 >= c
    }
}
