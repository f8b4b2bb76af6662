//! What `dataflow check` loads: every shipped workbook, with and without
//! its parts, loaded for checking (`Session::load_checking`, no fast path
//! compiled for calculating) and for running (`Session::load_with`). The
//! check's program holds no shared subformula and no kernel where the
//! running one does, and it reports the same: the same formula cells,
//! warnings and cycles; on the Ellis workbook it also calculates the same
//! board, evaluating more.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use std::path::Path;

/// The workbooks in `workbooks/`, by path.
fn workbooks() -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir("workbooks")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    found.sort();
    found
}

/// What `check` reports of a session: the formula cells, the warnings
/// and each cycle's cells.
fn reported(s: &Session) -> (usize, Vec<String>, Vec<Vec<String>>) {
    let p = s.engine().program();
    let warnings = s.warnings().iter().map(|w| format!("{w:?}")).collect();
    let cycles = p.cycles().map(|c| c.iter().map(|&f| p.cell_name(p.cell(f).addr)).collect()).collect();
    (p.cells().len(), warnings, cycles)
}

#[test]
fn a_check_reports_what_a_run_loads() {
    let all = ["all".to_string()];
    let mut compared = 0;
    for path in workbooks() {
        for with in [&[][..], &all[..]] {
            let Ok(running) = Session::load_with(&path, with) else { continue };
            let checking = Session::load_checking(&path, with).unwrap();
            let name = format!("{} {with:?}", path.display());
            assert_eq!(reported(&checking), reported(&running), "{name}");
            let (c, r) = (checking.engine().program(), running.engine().program());
            assert_eq!((c.kernel_count(), c.shared().len()), (0, 0), "{name}: the check compiled a fast path");
            if path.file_stem().is_some_and(|s| s.to_string_lossy().starts_with("sudoku")) {
                assert!(r.kernel_count() > 0 && !r.shared().is_empty(), "{name}: the run compiled no fast path");
            }
            compared += 1;
        }
    }
    // Every shipped workbook loads without its parts.
    assert!(compared > workbooks().len(), "{compared} loads compared");
}

#[test]
fn a_session_loaded_for_checking_calculates_the_same_board() {
    let path = Path::new("workbooks/sudoku.ron");
    let mut checking = Session::load_checking(path, &[]).unwrap();
    let mut running = Session::load_with(path, &[]).unwrap();
    let (c, r) = (checking.recalc(), running.recalc());
    assert_eq!(c.iterations, r.iterations);
    // Without shared subformulas each cell evaluates its own counts.
    assert!(c.evaluated >= r.evaluated, "{} against {}", c.evaluated, r.evaluated);
    let grid = |s: &Session| {
        let p = s.engine().program();
        p.cells().iter().map(|c| (c.addr, s.engine().get(c.addr).clone())).collect::<Vec<_>>()
    };
    assert_eq!(grid(&checking), grid(&running));
}
