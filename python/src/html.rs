//! A view as an HTML table, what Jupyter shows for a `View`: one table
//! cell per shown position, ruled off with thicker lines every `group`
//! cells as the text is, numbers right-aligned and text left-aligned, each
//! value through the view's display (alphabet, number format, blank). A
//! compact view's position is a group of cells (a valid-values board's big
//! cell): it shows them as pencil marks, a small grid of the group's shape
//! holding each cell's symbol where it sits. Cells the workbook's last step
//! changed carry the class `df-changed` and a highlight of their own
//! (inline, so it shows wherever the notebook's style sheet is; a compact
//! cell is outlined and its changed marks highlighted); a region map's
//! cells carry `df-region` and a grey ground.

use crate::view::View;
use dataflow::address::CellAddr;
use dataflow::value::Value;

/// The highlight of a changed cell or pencil mark.
const CHANGED_STYLE: &str = "background:#ffe08a;";
/// The outline of a compact cell some of whose marks changed.
const CHANGED_OUTLINE: &str = "box-shadow:inset 0 0 0 2px #e0a800;";
/// The ground of a cell the region map marks.
const REGION_STYLE: &str = "background:#e4e4e4;";
const THICK: &str = "2px solid #333";

/// The table's own style sheet: thin rules, alignment, the pencil marks'
/// grid; the thick rules and the highlights are inline.
const STYLE: &str = "<style>.dataflow-view{border-collapse:collapse;font-family:monospace}\
    .dataflow-view>tbody>tr>td{border:1px solid #bbb;padding:1px 6px;text-align:right}\
    .dataflow-view>tbody>tr>td.df-left{text-align:left}\
    .dataflow-compact>tbody>tr>td{padding:0;vertical-align:middle}\
    .df-marks{border-collapse:collapse;font-size:70%;line-height:1.1;margin:1px auto}\
    .df-marks td{border:none;padding:0 2px;text-align:center;min-width:0.8em}</style>";

/// The view's table (see the module's text).
pub fn view(v: &View) -> String {
    let (rows, cols) = v.display.shape(&v.area);
    let compact = v.display.compact.is_some();
    let mut out = format!(
        "{STYLE}<table class=\"dataflow-view{}\" style=\"border:{THICK}\">\
         <caption style=\"caption-side:top;text-align:left\">{} {}</caption>",
        if compact { " dataflow-compact" } else { "" },
        escape(&v.name),
        escape(&v.area_text)
    );
    for i in 0..rows {
        out.push_str("<tr>");
        for j in 0..cols {
            out.push_str(&position(v, i, j, rows, cols));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

/// The table cell of shown position (`i`, `j`).
fn position(v: &View, i: u32, j: u32, rows: u32, cols: u32) -> String {
    let (gr, gc) = v.layout.group.unwrap_or((0, 0));
    let thick = |at: u32, every: u32, last: u32| every > 0 && (at + 1).is_multiple_of(every) && at + 1 < last;
    let mut style = String::new();
    if thick(j, gc, cols) {
        style += &format!("border-right:{THICK};");
    }
    if thick(i, gr, rows) {
        style += &format!("border-bottom:{THICK};");
    }
    let group = v.display.cells(&v.area, i, j);
    let mut classes = Vec::new();
    if v.regions.as_ref().is_some_and(|r| r[i as usize][j as usize]) {
        classes.push("df-region");
        style += REGION_STYLE;
    }
    if group.cells().any(|c| v.is_changed(c)) {
        // A compact cell is outlined: its changed marks are highlighted.
        classes.push("df-changed");
        style += if v.display.compact.is_some() { CHANGED_OUTLINE } else { CHANGED_STYLE };
    }
    let value = v.value(group.top_left());
    let left = v.display.compact.is_none() && v.display.left_aligned(value);
    if left {
        classes.push("df-left");
    }
    let class = if classes.is_empty() { String::new() } else { format!(" class=\"{}\"", classes.join(" ")) };
    let style = if style.is_empty() { String::new() } else { format!(" style=\"{style}\"") };
    let text = match v.display.compact {
        Some(_) => marks(v, group),
        None => shown(&v.display.text(value, &v.layout.blank)),
    };
    format!("<td{class}{style}>{text}</td>")
}

/// A compact position's cells as pencil marks: a grid of the group's shape.
fn marks(v: &View, group: dataflow::address::Area) -> String {
    let mut out = String::from("<table class=\"df-marks\">");
    for r in group.r0..=group.r1 {
        out.push_str("<tr>");
        for c in group.c0..=group.c1 {
            let cell = CellAddr::new(group.sheet, r, c);
            let text = shown(&v.display.symbol(v.value(cell)).unwrap_or_default());
            match v.is_changed(cell) {
                true => out.push_str(&format!("<td class=\"df-changed\" style=\"{CHANGED_STYLE}\">{text}</td>")),
                false => out.push_str(&format!("<td>{text}</td>")),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

/// Text for a table cell: escaped, a non-breaking space when blank.
fn shown(text: &str) -> String {
    if text.trim().is_empty() { "&nbsp;".to_string() } else { escape(text) }
}

/// `&`, `<`, `>` and `"` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            ch => out.push(ch),
        }
    }
    out
}

impl View {
    /// The value of `cell` of the view's area.
    fn value(&self, cell: CellAddr) -> &Value {
        let (r, c) = ((cell.row - self.area.r0) as usize, (cell.col - self.area.c0) as usize);
        self.values.get(r).and_then(|row| row.get(c)).unwrap_or(&Value::Empty)
    }

    /// Whether the workbook's last step changed `cell` of the view's area.
    fn is_changed(&self, cell: CellAddr) -> bool {
        let (r, c) = ((cell.row - self.area.r0) as usize, (cell.col - self.area.c0) as usize);
        self.changed.get(r).and_then(|row| row.get(c)).copied().unwrap_or(false)
    }
}
