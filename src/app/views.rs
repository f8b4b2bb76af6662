//! What to show: the workbook's views, or ranges the user names. `--show`
//! keys are resolved here for `run`, `step` and `watch`; `batch` reads its
//! answer and its `--collect` keys from views or ranges resolved the same way.

use super::Failure;
use dataflow::address::Area;
use dataflow::address::CellAddr;
use dataflow::render::{Display, Layout};
use dataflow::session::Session;
use dataflow::workbook::{MAX_SHOWN_CELLS, ViewDef};

/// One area to show, under the key the user gave.
#[derive(Clone, Debug)]
pub struct Shown {
    pub key: String,
    pub area: Area,
    pub layout: Layout,
    /// Symbols, number format, compact form and region marks.
    pub display: Display,
    /// The view's reason area (see [`ViewDef::reasons`]).
    pub reasons: Option<Area>,
}

impl Shown {
    pub fn view(v: &ViewDef) -> Shown {
        Shown {
            key: v.name.clone(),
            area: v.area,
            layout: Layout { group: v.group, blank: v.blank.clone() },
            display: v.display.clone(),
            reasons: v.reasons,
        }
    }

    /// A range the user named, shown as it is.
    pub fn range(key: String, area: Area) -> Shown {
        Shown { key, area, layout: Layout::default(), display: Display::default(), reasons: None }
    }

    /// The reason cell aligned with `cell` of the view, if it has reasons.
    pub fn reason_cell(&self, cell: CellAddr) -> Option<CellAddr> {
        self.area.aligned(&self.reasons?, cell)
    }

    /// The (rows, columns) of cells shown: one per group when compact.
    pub fn shape(&self) -> (u32, u32) {
        self.display.shape(&self.area)
    }

    /// The first cell of those shown at (`row`, `col`).
    pub fn cell_at(&self, row: u32, col: u32) -> CellAddr {
        self.display.cells(&self.area, row, col).top_left()
    }
}

/// A view's area, or a range (`Main!D16:L24`; the first sheet when none
/// is named) of at most [`MAX_SHOWN_CELLS`].
pub fn resolve_area(session: &Session, key: &str) -> Result<Area, String> {
    match session.workbook().view(key) {
        Some(v) => Ok(v.area),
        None => session.area(key).map_err(|e| e.to_string()).and_then(|a| showable(session, a)),
    }
}

/// The area, unless it is too large to show (views are checked at load):
/// at most [`shown_bound`] cells.
fn showable(session: &Session, area: Area) -> Result<Area, String> {
    let bound = shown_bound(session);
    if area.size() > bound {
        return Err(format!(
            "the area has {} cells; at most {bound} can be shown (the larger of {MAX_SHOWN_CELLS} and the \
             workbook's used cells)",
            area.size()
        ));
    }
    Ok(area)
}

/// The most cells a range named on the command line may show: the larger
/// of [`MAX_SHOWN_CELLS`] and the cells of every sheet's used range, so a
/// workbook can always be printed whole, and a range no larger than what
/// the workbook already holds in memory.
pub fn shown_bound(session: &Session) -> u64 {
    let used: u64 = used_areas(session).iter().map(Area::size).sum();
    used.max(MAX_SHOWN_CELLS)
}

/// Each non-empty sheet's used range, from A1 to its last used row and
/// column, under the range's name (`Sheet1!A1:D20`).
fn used_ranges(session: &Session) -> Vec<Shown> {
    let sheets = &session.workbook().sheets;
    used_areas(session).into_iter().map(|area| Shown::range(sheets.area(area), area)).collect()
}

fn used_areas(session: &Session) -> Vec<Area> {
    let grid = session.engine().grid();
    (0..session.workbook().sheets.len() as u16)
        .filter_map(|sheet| {
            let (rows, cols) = grid.extent(sheet);
            (rows > 0 && cols > 0).then(|| Area { sheet, r0: 0, c0: 0, r1: rows - 1, c1: cols - 1 })
        })
        .collect()
}

/// Resolves `--show` keys (view names or ranges) to areas and layouts;
/// every view when there are none, and every sheet's used range when the
/// workbook has no views (an Excel file).
pub fn resolve_views(session: &Session, keys: &[String]) -> Result<Vec<Shown>, Failure> {
    let wb = &session.workbook();
    if keys.is_empty() && wb.views.is_empty() {
        return Ok(used_ranges(session));
    }
    if keys.is_empty() {
        return Ok(wb.views.iter().map(Shown::view).collect());
    }
    keys.iter().map(|k| resolve_key(session, "--show", k)).collect()
}

/// One key of `option` (`--show`, `--collect`): a view, or a range of at
/// most [`MAX_SHOWN_CELLS`]; a usage error naming the key otherwise.
pub fn resolve_key(session: &Session, option: &str, k: &str) -> Result<Shown, Failure> {
    let wb = &session.workbook();
    match wb.view(k) {
        Some(v) => Ok(Shown { key: k.to_string(), ..Shown::view(v) }),
        None => {
            let area = session.area(k).map_err(|m| {
                let views: Vec<&str> = wb.views.iter().map(|v| v.name.as_str()).collect();
                Failure::usage(format!("{option} `{k}` is neither a view ({}) nor a range: {m}", views.join(", ")))
            })?;
            let area = showable(session, area).map_err(|m| Failure::usage(format!("{option} `{k}`: {m}")))?;
            Ok(Shown::range(k.to_string(), area))
        }
    }
}
