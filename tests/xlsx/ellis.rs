//! Charlie Ellis's Sudoku solver (`formulas/ellis/*.dfl`) as Excel stores
//! it: the names defined at their real anchors (P4 for the valid-values
//! board, D16 for the solution board) and so written relative to A1 with
//! wrap-around (`ROW(Main!A1)` seen from P4 is `ROW(Main!XEP1048574)`, the
//! given digit 12 rows above D16 is `Main!A1048565`), both boards as
//! shared formulas, iteration on, and the cached values of a workbook saved
//! just after "reset": every candidate present, the solution board holding
//! the givens.

use super::{Book, num};

/// `A1` seen from P4 and from D16, as Excel stores a relative reference.
const FROM_P4: &str = "Main!XEP1048574";
const FROM_D16: &str = "Main!XFB1048562";

/// The names, as `<definedName>` text.
pub fn names() -> Vec<(&'static str, String)> {
    let p = FROM_P4;
    let d = FROM_D16;
    vec![
        ("array1to9", "ROW(Main!$A$1:$A$9)".into()),
        ("in_board", "Main!$D$4:$L$12".into()),
        ("in_cell_from_sol", "Main!A1048565".into()),
        ("onetonine", "MOD(COLUMN(Main!A1)-1,3)+1+MOD(ROW(Main!A1)-1,3)*3".into()),
        (
            "single_sol_in_box",
            "MAX((COUNTIF(val_bigbox_from_sol,array1to9)=1)*(COUNTIF(val_bigcell_from_sol,array1to9)=1)*array1to9)".into(),
        ),
        (
            "single_sol_in_col",
            "MAX((COUNTIF(val_bigcol_from_sol,array1to9)=1)*(COUNTIF(val_bigcell_from_sol,array1to9)=1)*array1to9)".into(),
        ),
        (
            "single_sol_in_rcb",
            "CHOOSE(MAX(single_sol_in_row,single_sol_in_col,single_sol_in_box)+1,\"\",1,2,3,4,5,6,7,8,9)".into(),
        ),
        (
            "single_sol_in_row",
            "MAX((COUNTIF(val_bigrow_from_sol,array1to9)=1)*(COUNTIF(val_bigcell_from_sol,array1to9)=1)*array1to9)".into(),
        ),
        ("sol_bigbox_from_val", format!(
            "INDEX(sol_board,INT((ROW({p})-1)/9)*3+1,INT((COLUMN({p})-1)/9)*3+1):INDEX(sol_board,INT((ROW({p})-1)/9)*3+3,INT((COLUMN({p})-1)/9)*3+3)"
        )),
        ("sol_board", "Main!$D$16:$L$24".into()),
        ("sol_cell_from_val", format!("INDEX(sol_board,INT((ROW({p})-1)/3)+1,INT((COLUMN({p})-1)/3)+1)")),
        ("sol_col_from_val", format!("INDEX(sol_board,0,INT((COLUMN({p})-1)/3)+1)")),
        ("sol_row_from_val", format!("INDEX(sol_board,INT((ROW({p})-1)/3)+1,0)")),
        (
            "solution_in_rcb",
            "OR(COUNTIF(sol_row_from_val,onetonine)>0,COUNTIF(sol_col_from_val,onetonine)>0,COUNTIF(sol_bigbox_from_val,onetonine)>0)".into(),
        ),
        ("state", "Main!$D$27".into()),
        ("val_bigbox_from_sol", format!(
            "INDEX(val_board,INT((ROW({d})-1)/3)*9+1,INT((COLUMN({d})-1)/3)*9+1):INDEX(val_board,INT((ROW({d})-1)/3)*9+9,INT((COLUMN({d})-1)/3)*9+9)"
        )),
        ("val_bigcell_from_sol", format!(
            "INDEX(val_board,ROW({d})*3-2,COLUMN({d})*3-2):INDEX(val_board,ROW({d})*3,COLUMN({d})*3)"
        )),
        ("val_bigcol_from_sol", format!("INDEX(val_board,0,COLUMN({d})*3-2):INDEX(val_board,0,COLUMN({d})*3)")),
        ("val_bigrow_from_sol", format!("INDEX(val_board,ROW({d})*3-2,0):INDEX(val_board,ROW({d})*3,0)")),
        ("val_board", "Main!$P$4:$AP$30".into()),
    ]
}

const CANDIDATES: &str = "IF(state=\"reset\",onetonine,IF(sol_cell_from_val<>\"\",IF(sol_cell_from_val=onetonine,onetonine,\"\"),IF(solution_in_rcb,\"\",onetonine)))";
const SOLUTION: &str = "IF(in_cell_from_sol,in_cell_from_sol,IF(state=\"Reset\",\"\",IF(COUNT(val_bigcell_from_sol)=1,SUM(val_bigcell_from_sol),single_sol_in_rcb)))";

fn a1(row: u32, col: u32) -> String {
    let mut name = String::new();
    let mut n = col + 1;
    while n > 0 {
        let r = (n - 1) % 26;
        name.insert(0, (b'A' + r as u8) as char);
        n = (n - 1) / 26;
    }
    format!("{name}{}", row + 1)
}

/// One cell of a shared formula: the master (top-left) holds the text and
/// the range, the others only the group's index.
fn shared(r: &str, si: u32, master: Option<(&str, &str)>, cached: &str) -> String {
    let f = match master {
        Some((text, range)) => format!(r#"<f t="shared" ref="{range}" si="{si}">{}</f>"#, super::esc(text)),
        None => format!(r#"<f t="shared" si="{si}"/>"#),
    };
    if let Ok(n) = cached.parse::<f64>() {
        format!(r#"<c r="{r}">{f}<v>{n}</v></c>"#)
    } else {
        format!(r#"<c r="{r}" t="str">{f}<v>{cached}</v></c>"#)
    }
}

/// The workbook for `puzzle` (81 symbols, `.` blank), saved after reset.
pub fn book(puzzle: &str) -> Book {
    let digits: Vec<Option<u32>> = puzzle.chars().map(|c| c.to_digit(10).filter(|d| *d > 0)).collect();
    let mut cells = vec![r#"<c r="D2" t="s"><v>0</v></c>"#.to_string(), r#"<c r="D27" t="s"><v>1</v></c>"#.to_string()];
    for (i, d) in digits.iter().enumerate() {
        let (r, c) = (3 + i as u32 / 9, 3 + i as u32 % 9);
        if let Some(d) = d {
            cells.push(num(&a1(r, c), f64::from(*d)));
        }
        let cached = d.map_or(String::new(), |d| d.to_string());
        let master = (i == 0).then_some((SOLUTION, "D16:L24"));
        cells.push(shared(&a1(r + 12, c), 1, master, &cached));
    }
    for r in 3..30 {
        for c in 15..42 {
            let onetonine = (c - 15) % 3 + 1 + (r - 3) % 3 * 3;
            let master = (r == 3 && c == 15).then_some((CANDIDATES, "P4:AP30"));
            cells.push(shared(&a1(r, c), 0, master, &onetonine.to_string()));
        }
    }
    let mut book = Book { strings: vec!["Input".into(), "solve".into()], ..Book::default() }
        .sheet("Main", cells)
        .calc(r#"<calcPr calcId="191029" iterate="1" iterateCount="100" iterateDelta="0.001"/>"#);
    for (name, text) in names() {
        book = book.name(name, &text, "");
    }
    book
}
