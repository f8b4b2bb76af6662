//! One pass over an `.ods` file's `content.xml`: the calculation settings
//! (`table:calculation-settings`: `table:iteration` with its status,
//! steps and maximum difference, `table:null-date`), each sheet's cells
//! (rows and cells repeated, `table:formula` in OpenFormula, an array
//! formula's block from `table:number-matrix-columns-spanned` and
//! `-rows-spanned`, the cached value from `office:value-type` and its
//! attribute, or the cell's text), and the named ranges and expressions
//! with their base cells. Repeated empty cells cost nothing; repeated
//! cells with content count against the grid's cap.

use crate::address::{MAX_COLS, MAX_ROWS};
use crate::grid::MAX_GRID_CELLS;
use crate::value::date::{DateSystem, serial_of_iso};
use crate::value::{ErrorKind, Value};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// What `content.xml` holds.
#[derive(Default)]
pub(super) struct Content {
    pub sheets: Vec<Sheet>,
    /// (name, expression as stored, base cell as stored, the sheet it is local to).
    pub names: Vec<(String, String, Option<String>, Option<usize>)>,
    pub iterate: bool,
    pub steps: Option<String>,
    pub max_difference: Option<String>,
    pub dates: DateSystem,
}

#[derive(Default)]
pub(super) struct Sheet {
    pub name: String,
    pub constants: Vec<((u32, u32), Value)>,
    pub formulas: Vec<FormulaCell>,
    pub cached: Vec<((u32, u32), Value)>,
}

/// A formula as stored, at its cell.
pub(super) struct FormulaCell {
    pub first: (u32, u32),
    /// The bottom-right cell of its block (its own cell but for an array formula).
    pub last: (u32, u32),
    pub text: String,
    pub array: bool,
}

/// A cell as read, before it is placed (it may be repeated).
#[derive(Default)]
struct Cell {
    repeat: u32,
    formula: Option<String>,
    span: (u32, u32),
    value_type: Option<String>,
    value: Option<String>,
    error: bool,
    text: Option<String>,
}

/// The longest text a cell keeps (Excel's limit, in bytes here); the
/// rest of a longer one is dropped, so repeated spaces (`<text:s
/// text:c="65535"/>`) cannot grow a cell's text past it.
const MAX_TEXT: usize = 32_767;

impl Cell {
    /// Appends to the cell's text, up to [`MAX_TEXT`].
    fn push(&mut self, s: &str) {
        let t = self.text.get_or_insert_with(String::new);
        let room = MAX_TEXT.saturating_sub(t.len());
        let mut end = s.len().min(room);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        t.push_str(&s[..end]);
    }
}

/// The value of attribute `key` (any prefix).
fn attr(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, String> {
    crate::workbook::xlsx::parts::attr(e, key)
}

fn count(e: &BytesStart<'_>, key: &str) -> Result<u32, String> {
    Ok(attr(e, key)?.and_then(|n| n.parse().ok()).unwrap_or(1).max(1))
}

/// Reads `content.xml`.
pub(super) fn read(text: &str) -> Result<Content, String> {
    let mut xml = Reader::from_str(text);
    let bad = |e: &dyn std::fmt::Display| format!("`content.xml` is not readable XML: {e}");
    let mut out = Content::default();
    let (mut row, mut col, mut row_repeat) = (0u32, 0u32, 1u32);
    let mut row_cells: Vec<(u32, Cell)> = Vec::new();
    let mut cell: Option<Cell> = None;
    let mut paragraphs = 0;
    let mut skipped = 0usize; // depth inside an annotation
    let mut placed = 0u64;
    // Inside a `table:table`: names there are the sheet's own.
    let mut in_sheet = false;
    loop {
        let event = xml.read_event().map_err(|e| bad(&e))?;
        let empty = matches!(event, Event::Empty(_));
        match event {
            Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                _ if skipped > 0 => skipped += usize::from(!empty),
                "annotation" if !empty => skipped = 1,
                "table" if e.name().as_ref() == "table:table" => {
                    let name = attr(&e, "name")?.unwrap_or_default();
                    out.sheets.push(Sheet { name, ..Sheet::default() });
                    (row, in_sheet) = (0, true);
                }
                "table-row" => {
                    (col, row_repeat) = (0, count(&e, "number-rows-repeated")?);
                    if empty {
                        row = row.saturating_add(row_repeat);
                    }
                }
                "table-cell" | "covered-table-cell" => {
                    let c = Cell {
                        repeat: count(&e, "number-columns-repeated")?,
                        formula: attr(&e, "formula")?,
                        span: (count(&e, "number-matrix-rows-spanned")?, count(&e, "number-matrix-columns-spanned")?),
                        value_type: attr(&e, "value-type")?,
                        value: ["value", "boolean-value", "date-value", "time-value", "string-value"]
                            .iter()
                            .find_map(|k| attr(&e, k).ok().flatten()),
                        error: e
                            .attributes()
                            .flatten()
                            .any(|a| a.key.as_ref() == "calcext:value-type" && &*a.value == "error"),
                        text: None,
                    };
                    paragraphs = 0;
                    if empty {
                        col = place(&mut row_cells, col, c);
                    } else {
                        cell = Some(c);
                    }
                }
                "p" if cell.is_some() => {
                    if let Some(c) = &mut cell
                        && paragraphs > 0
                    {
                        c.push("\n");
                    }
                    paragraphs += 1;
                }
                "s" if cell.is_some() => {
                    let n = count(&e, "c")? as usize;
                    if let Some(c) = &mut cell {
                        c.push(&" ".repeat(n.min(MAX_TEXT)));
                    }
                }
                "tab" | "line-break" => {
                    if let Some(c) = &mut cell {
                        c.push(if e.local_name().as_ref() == "tab" { "\t" } else { "\n" });
                    }
                }
                "named-range" | "named-expression" => {
                    let name = attr(&e, "name")?.unwrap_or_default();
                    let expr = match attr(&e, "expression")? {
                        Some(x) => x,
                        None => format!("[{}]", attr(&e, "cell-range-address")?.unwrap_or_default()),
                    };
                    let local = in_sheet.then(|| out.sheets.len() - 1);
                    out.names.push((name, expr, attr(&e, "base-cell-address")?, local));
                }
                "iteration" => {
                    out.iterate = attr(&e, "status")?.as_deref() == Some("enable");
                    out.steps = attr(&e, "steps")?;
                    // ODF's name; dataflow before 0.1 wrote `minimum-difference`.
                    out.max_difference = match attr(&e, "maximum-difference")? {
                        Some(d) => Some(d),
                        None => attr(&e, "minimum-difference")?,
                    };
                }
                "null-date" if attr(&e, "date-value")?.is_some_and(|d| d.starts_with("1904-01-01")) => {
                    out.dates = DateSystem::D1904;
                }
                _ => {}
            },
            Event::Text(t) if skipped == 0 => {
                if let Some(c) = &mut cell
                    && paragraphs > 0
                {
                    c.push(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) if skipped == 0 => {
                if let Some(c) = &mut cell {
                    let entity = r.xml10_content();
                    match quick_xml::escape::resolve_predefined_entity(&entity) {
                        Some(s) => c.push(s),
                        None => {
                            c.push(&r.resolve_char_ref().map_err(|e| bad(&e))?.map(String::from).unwrap_or_default())
                        }
                    }
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                _ if skipped > 0 => skipped -= 1,
                "table" if e.name().as_ref() == "table:table" => in_sheet = false,
                "table-cell" | "covered-table-cell" => {
                    if let Some(c) = cell.take() {
                        col = place(&mut row_cells, col, c);
                    }
                }
                "table-row" => {
                    let sheet = out.sheets.last_mut().ok_or("a row outside any sheet")?;
                    let cells = std::mem::take(&mut row_cells);
                    if !cells.is_empty() {
                        // Counted before any is placed: a repeat may be huge.
                        let per_row: u64 = cells.iter().map(|(_, c)| u64::from(c.repeat)).sum();
                        placed += per_row * u64::from(row_repeat);
                        if placed > MAX_GRID_CELLS {
                            return Err(format!("it holds more than {MAX_GRID_CELLS} cells"));
                        }
                        if row.saturating_add(row_repeat) > MAX_ROWS {
                            return Err(format!("sheet `{}` has cells past row {MAX_ROWS}", sheet.name));
                        }
                        for r in row..row + row_repeat {
                            for (at, c) in &cells {
                                put(sheet, r, *at, c, out.dates)?;
                            }
                        }
                    }
                    row = row.saturating_add(row_repeat);
                }
                _ => {}
            },
            Event::Eof => return Ok(out),
            _ => {}
        }
    }
}

/// Keeps a cell of the row being read (unless it is empty); the column after it.
fn place(row: &mut Vec<(u32, Cell)>, col: u32, c: Cell) -> u32 {
    let next = col.saturating_add(c.repeat);
    if c.formula.is_some() || c.value_type.is_some() || c.error {
        row.push((col, c));
    }
    next
}

/// Places a cell (each of its repeats) on row `r` of `sheet`.
fn put(sheet: &mut Sheet, r: u32, col: u32, c: &Cell, dates: DateSystem) -> Result<(), String> {
    if col.saturating_add(c.repeat) > MAX_COLS {
        return Err(format!("sheet `{}` has cells past column {MAX_COLS}", sheet.name));
    }
    let value = value(c, dates);
    for k in 0..c.repeat {
        let at = (r, col + k);
        match &c.formula {
            Some(f) => {
                let array = c.span != (1, 1);
                let end = (r + c.span.0 - 1, col + k + c.span.1 - 1);
                sheet.formulas.push(FormulaCell { first: at, last: end, text: f.clone(), array });
                sheet.cached.push((at, value.clone()));
            }
            None if inside_block(sheet, at) => sheet.cached.push((at, value.clone())),
            None => sheet.constants.push((at, value.clone())),
        }
    }
    Ok(())
}

/// Whether `at` is a cell of an array formula's block (other than its first).
fn inside_block(sheet: &Sheet, (r, c): (u32, u32)) -> bool {
    sheet.formulas.iter().rev().take(64).any(|f| {
        let ((r0, c0), (r1, c1)) = (f.first, f.last);
        f.array && (r0..=r1).contains(&r) && (c0..=c1).contains(&c) && (r, c) != (r0, c0)
    })
}

/// A cell's value: its typed attribute, or its text.
fn value(c: &Cell, dates: DateSystem) -> Value {
    let text = c.text.clone().unwrap_or_default();
    if c.error {
        return Value::Error(error(&text));
    }
    let v = c.value.as_deref();
    match c.value_type.as_deref() {
        Some("float" | "percentage" | "currency") => v.and_then(|n| n.parse().ok()).map_or(Value::Empty, Value::num),
        Some("boolean") => Value::Bool(v == Some("true")),
        Some("date") => {
            v.and_then(|d| serial_of_iso(d, dates)).map_or_else(|| Value::text(v.unwrap_or("")), Value::Number)
        }
        Some("time") => v.and_then(duration).map_or_else(|| Value::text(v.unwrap_or("")), Value::Number),
        Some("string") => Value::text(v.unwrap_or(&text)),
        _ => Value::Empty,
    }
}

/// An error shown as Excel shows it, or as LibreOffice does (`Err:502`):
/// those are read as the error Excel gives in their place (see
/// `docs/compatibility.md`).
fn error(text: &str) -> ErrorKind {
    ErrorKind::parse(text.trim()).unwrap_or(match text.trim() {
        "Err:503" | "Err:523" => ErrorKind::Num,
        _ => ErrorKind::Value,
    })
}

/// An ISO 8601 duration (`PT12H30M00S`, `-P1DT2H`) as a fraction of days.
fn duration(text: &str) -> Option<f64> {
    let (sign, t) = match text.strip_prefix('-') {
        Some(t) => (-1.0, t),
        None => (1.0, text),
    };
    let t = t.strip_prefix('P')?;
    let (days, time) = t.split_once('T').unwrap_or((t, ""));
    let mut total = 0.0;
    if !days.is_empty() {
        total += days.strip_suffix('D')?.parse::<f64>().ok()? * 86400.0;
    }
    let mut num = String::new();
    for ch in time.chars() {
        match ch {
            'H' | 'M' | 'S' => {
                let n: f64 = num.parse().ok()?;
                total += n * match ch {
                    'H' => 3600.0,
                    'M' => 60.0,
                    _ => 1.0,
                };
                num.clear();
            }
            c => num.push(c),
        }
    }
    num.is_empty().then_some(sign * total / 86400.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_errors_read() {
        assert_eq!(duration("PT12H00M00S"), Some(0.5));
        assert_eq!(duration("-P1DT6H"), Some(-1.25));
        assert_eq!(duration("12:00"), None);
        assert_eq!(error("#N/A"), ErrorKind::NA);
        assert_eq!(error("Err:502"), ErrorKind::Value);
    }
}
