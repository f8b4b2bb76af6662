//! Every workbook in `workbooks/` is picked up: it loads without a problem,
//! runs its reset protocol and recalculation, and its views are snapshotted
//! as text, as `dataflow run` prints them (through each view's alphabet,
//! compact groups and region marks). Drop a `.ron` file there and this test covers it.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::render::{Layout, render_view};
use dataflow::session::Session;
use std::path::Path;

#[test]
fn every_workbook_runs_and_its_views_match_the_snapshot() {
    let mut paths: Vec<_> = std::fs::read_dir("workbooks")
        .expect("workbooks/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no workbook found in workbooks/");
    for path in paths {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut s = Session::load(Path::new(&path)).unwrap_or_else(|diags| {
            let text: Vec<String> = diags.iter().map(|d| d.render(false)).collect();
            panic!("{} does not load:\n{}", path.display(), text.join("\n"))
        });
        s.reset().expect("reset protocol applies");
        let report = s.recalc();
        let mut out = format!(
            "iterations: {}, converged: {}, evaluated: {}\n",
            report.iterations, report.converged, report.evaluated
        );
        for v in &s.workbook().views {
            out.push_str(&format!("{}:\n", v.name));
            let layout = Layout { group: v.group, blank: v.blank.clone() };
            out.push_str(&render_view(s.engine().grid(), &v.area, &layout, &v.display));
        }
        insta::assert_snapshot!(format!("workbook_{name}"), out);
    }
}
