//! Loading that grows linearly: the dependency graph finds the formula
//! cells inside each area through an index (checked here against a plain
//! scan of every area), so 100,000 cumulative sums load in a normal test
//! run, and the loader finds overlapping entries through an index, so a
//! 200×200 block listed cell by cell loads and its overlaps are reported
//! with the same messages as before. Nothing here is timed: before the
//! indexes these took minutes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::{Area, CellAddr, MAX_COLS, MAX_ROWS, a1};
use dataflow::engine::graph::{CellReads, DepGraph};
use dataflow::engine::program::FormulaCell;
use dataflow::eval::BExpr;
use dataflow::ids::{AreaId, EntryId, FormulaId};
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use std::path::Path;

/// A small deterministic generator (an LCG), enough to scatter cells.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as u32
    }
}

fn formula_cell(addr: CellAddr) -> FormulaCell {
    FormulaCell::new(addr, EntryId(0), BExpr::Const(Value::Empty))
}

#[test]
fn the_graph_finds_the_same_cells_inside_each_area_as_a_scan() {
    let mut rng = Lcg(12);
    let mut addrs: Vec<CellAddr> =
        (0..400).map(|_| CellAddr::new(rng.below(2) as u16, rng.below(40), rng.below(12))).collect();
    addrs.sort();
    addrs.dedup();
    let area = |rng: &mut Lcg| {
        let (sheet, r, c) = (rng.below(2) as u16, rng.below(42), rng.below(13));
        match rng.below(6) {
            0 | 1 => Area::new(sheet, r, c, r, c),
            2 => Area::new(sheet, r, c, r + rng.below(8), c + rng.below(4)),
            3 => Area::new(sheet, 0, c, MAX_ROWS - 1, c),
            4 => Area::new(sheet, r, 0, r, MAX_COLS - 1),
            _ => Area::new(sheet, r, c, r + rng.below(30), c + rng.below(12)),
        }
    };
    let cells: Vec<FormulaCell> = addrs.iter().map(|&a| formula_cell(a)).collect();
    let mut reads = CellReads::with_capacity(cells.len());
    for _ in &cells {
        let deps: Vec<Area> = (0..rng.below(4)).map(|_| area(&mut rng)).collect();
        reads.push(&deps, &[]);
    }
    let g = DepGraph::new(&cells, &reads);
    let scan = |c: CellAddr| -> Vec<AreaId> {
        (0..g.areas().len()).filter(|&i| g.areas()[i].contains(c)).map(AreaId::at).collect()
    };
    let mut found = 0;
    for (f, c) in cells.iter().enumerate() {
        // Short areas directly, tall ones through their segments: together
        // exactly the areas holding the cell.
        let mut holding: Vec<AreaId> = g.containing(FormulaId::at(f)).collect();
        holding.sort_unstable();
        assert_eq!(holding, scan(c.addr), "containing {:?}", c.addr);
        found += holding.len();
    }
    assert!(found > 400, "the areas cover formula cells: {found}");
    for sheet in 0..2 {
        for (r, c) in (0..45).flat_map(|r| (0..14).map(move |c| (r, c))) {
            let at = CellAddr::new(sheet, r, c);
            assert_eq!(g.areas_containing(at).collect::<Vec<_>>(), scan(at), "areas containing {at:?}");
        }
    }
}

#[test]
fn a_hundred_thousand_cumulative_sums_load() {
    let text = r#"Workbook(sheets: ["Main"], cells: { "Main!A1:A100000": 1, "Main!B1:B100000": "=SUM($A$1:A1)" })"#;
    let wb = Workbook::from_str(text, Path::new("cumsum.ron"), Path::new(".")).unwrap();
    let s = Session::new(wb).unwrap();
    let g = s.engine().program().graph();
    assert_eq!(g.areas().len(), 100_000);
    assert_eq!(g.areas_containing(CellAddr::new(0, 0, 0)).count(), 100_000);
    let last: Vec<AreaId> = g.areas_containing(CellAddr::new(0, 99_999, 0)).collect();
    assert_eq!(g.areas()[last[0].index()], Area::new(0, 0, 0, 99_999, 0));
    assert_eq!(last.len(), 1);
    assert!((0..100_000).all(|f| g.containing(FormulaId::at(f)).next().is_none()));
}

/// A 200×200 block of constants, one entry per line, listed from the last
/// row up, then `extra`: the entries of the lower rows come first.
fn block(extra: &str) -> String {
    let mut text = String::from("Workbook(sheets: [\"Main\"], cells: {\n");
    for r in (0..200).rev() {
        for c in 0..200 {
            text += &format!("    \"Main!{}\": {},\n", a1(r, c), r + c);
        }
    }
    text + extra + "})\n"
}

/// The line of `Main!CELL`'s entry in [`block`] (the first line is 1).
fn line_of(row: u32, col: u32) -> u32 {
    2 + (199 - row) * 200 + col
}

#[test]
fn a_block_listed_cell_by_cell_loads_and_reports_its_overlaps() {
    let wb = Workbook::from_str(&block(""), Path::new("block.ron"), Path::new(".")).unwrap();
    assert_eq!(wb.cells.len(), 40_000);
    let extra = "    \"Main!B2:C3\": 0,\n    \"Main!GR200\": 0,\n    \"Main!A1:A200\": 0,\n    \"Main!GS1\": 0,\n";
    let diags = Workbook::from_str(&block(extra), Path::new("block.ron"), Path::new(".")).unwrap_err();
    let got: Vec<(String, String)> = diags.iter().map(|d| (d.message.clone(), d.note.clone().unwrap())).collect();
    // Of the cells an entry overlaps, the note names the one set first.
    let want = [
        ("Main!B2:C3 overlaps Main!B3 set before", format!("Main!B3 is set at block.ron:{}:6", line_of(2, 1))),
        ("Main!GR200 is set twice", format!("Main!GR200 is set at block.ron:{}:6", line_of(199, 199))),
        ("Main!A1:A200 overlaps Main!A200 set before", format!("Main!A200 is set at block.ron:{}:6", line_of(199, 0))),
    ];
    let want: Vec<(String, String)> = want.into_iter().map(|(m, n)| (m.to_string(), n)).collect();
    assert_eq!(got, want);
}
