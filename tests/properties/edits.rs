//! Live edits on random workbooks (`workbooks.rs`): a session built by
//! typing every cell into an empty workbook, then edited further (cells,
//! ranges with Ctrl+Enter, array blocks, the name), gives what a fresh load
//! of the edited workbook gives. Before any recalculation the two agree on
//! everything, cycles included: the reports (iterations, evaluations) and
//! every value, bit for bit. On acyclic workbooks, edits made between
//! recalculations give the fresh workbook's values too (equal as the engine
//! compares a cell's new value with its old one: -0 is 0). An edit that does
//! not bind leaves the workbook as it was.

use super::workbooks::{CELLS, Content, cell, contents, formula, rectangle, resolve};
use dataflow::address::Area;
use dataflow::session::{Session, Undo};
use dataflow::value::Value;
use dataflow::value::date::Clock;
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;
use proptest::prelude::*;

/// One edit: a cell typed, a formula over a rectangle (Ctrl+Enter or an
/// array formula), the name redefined, or a rectangle cleared.
#[derive(Clone, Debug)]
enum Edit {
    Cell(usize, Content),
    Range(usize, usize, String, bool),
    Name(String),
    Clear(usize, usize),
}

fn edits(acyclic: bool) -> impl Strategy<Value = Vec<Edit>> {
    let content = prop_oneof![
        1 => Just(Content::Empty),
        1 => (-3i32..9).prop_map(|n| Content::Constant(n.to_string())),
        3 => formula(acyclic).prop_map(Content::Formula),
    ];
    let edit = prop_oneof![
        4 => (0..CELLS, content).prop_map(|(i, c)| Edit::Cell(i, c)),
        2 => (0..CELLS, 0..CELLS, formula(acyclic), any::<bool>()).prop_map(|(i, j, f, a)| Edit::Range(i, j, f, a)),
        1 => formula(acyclic).prop_map(Edit::Name),
        1 => (0..CELLS, 0..CELLS).prop_map(|(i, j)| Edit::Clear(i, j)),
    ];
    proptest::collection::vec(edit, 1..6)
}

/// An empty one-sheet workbook, iteration on (at most 20 iterations), RAND
/// seeded (a fresh load draws what the session draws).
fn empty() -> Session {
    let ron = r#"(sheets: ["Main"], calc: (iterate: true, max_iterations: 20, max_change: 0.001, seed: 1))"#;
    session(Workbook::from_memory(ron, &MemoryFiles::new(), &[]).unwrap())
}

/// A session over `wb` whose TODAY and NOW read a fixed moment, so that
/// two sessions calculate the same values.
fn session(wb: Workbook) -> Session {
    let mut s = Session::new(wb).unwrap();
    s.settings_mut().clock = Clock::Fixed(46_354.75);
    s
}

fn area(s: &Session, a1: &str) -> Area {
    s.area(a1).unwrap()
}

/// Applies `edit`, its references resolved by `refs` (given the cell the
/// formula is typed in); an edit that fails must leave the workbook as it
/// was. Returns what undoes it, when it was made.
fn apply(s: &mut Session, edit: &Edit, refs: &dyn Fn(usize, &str) -> String) -> Result<Option<Undo>, TestCaseError> {
    let before = s.workbook().clone();
    let done = match edit {
        Edit::Cell(i, Content::Empty) => s.clear(area(s, &cell(*i))),
        Edit::Cell(i, Content::Constant(c)) => s.enter(area(s, &cell(*i)), c),
        Edit::Cell(i, Content::Formula(f)) => s.enter(area(s, &cell(*i)), &format!("={}", refs(*i, f))),
        Edit::Range(i, j, f, array) => {
            let (a, inside) = rectangle(*i, *j);
            let text = refs(inside[0], f);
            let text = if *array { format!("{{={text}}}") } else { format!("={text}") };
            s.enter(area(s, &a), &text)
        }
        Edit::Name(f) => s.define_name("nm", &refs(0, f), None),
        Edit::Clear(i, j) => s.clear(area(s, &rectangle(*i, *j).0)),
    };
    match done {
        Ok(undo) => Ok(Some(undo)),
        Err(e) => {
            prop_assert_eq!(s.workbook(), &before, "the failed edit {:?} ({}) changed the workbook", edit, e);
            Ok(None)
        }
    }
}

fn values(s: &Session) -> Vec<Value> {
    (0..CELLS).map(|i| s.engine().get(area(s, &cell(i)).top_left()).clone()).collect()
}

/// Equal, numbers bit for bit.
fn same(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Value::Number(p), Value::Number(q)) => p.to_bits() == q.to_bits(),
            _ => x == y,
        })
}

/// References anywhere in the box: cycles welcome.
fn anywhere(_: usize, text: &str) -> String {
    resolve(text, cell, |i, j| rectangle(i, j).0)
}

/// References only to cells before the cell typed into (row by row), the
/// others becoming G9 (outside the box, empty): no edit makes a cycle.
fn earlier(at: usize, text: &str) -> String {
    let one = |i: usize| if i < at { cell(i) } else { "G9".to_string() };
    resolve(text, one, |i, j| {
        let (area, inside) = rectangle(i, j);
        if inside.iter().all(|&c| c < at) { area } else { one(i) }
    })
}

/// The box typed in cell by cell, the name first.
fn typed(cells: &[Content], name: &str, refs: &dyn Fn(usize, &str) -> String) -> Result<Session, TestCaseError> {
    let mut s = empty();
    apply(&mut s, &Edit::Name(name.to_string()), refs)?;
    for (i, c) in cells.iter().enumerate() {
        apply(&mut s, &Edit::Cell(i, c.clone()), refs)?;
    }
    Ok(s)
}

thread_local! {
    /// Edits made in place and by a rebuild, by the property on this thread.
    static MET: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

proptest! {
    #![proptest_config(super::config(48))]

    #[test]
    fn edits_before_a_recalculation_give_a_fresh_loads_run(
        cells in contents(false),
        name in formula(false),
        more in edits(false),
    ) {
        let mut s = typed(&cells, &name, &anywhere)?;
        let original = s.workbook().clone();
        let mut undos = Vec::new();
        for e in &more {
            undos.extend(apply(&mut s, e, &anywhere)?);
        }
        // Both ways of editing are met: in place and by a rebuild.
        let in_place = undos.iter().filter(|u| u.in_place()).count();
        MET.with(|m| m.set((m.get().0 + in_place, m.get().1 + undos.len() - in_place)));
        let mut fresh = session(s.workbook().clone());
        let (a, b) = (s.recalc(), fresh.recalc());
        prop_assert_eq!(format!("{a:?}"), format!("{b:?}"));
        let (va, vb) = (values(&s), values(&fresh));
        prop_assert!(same(&va, &vb), "after the edits {:?}:\n{:?}\n{:?}", more, va, vb);
        // Undone in reverse, the edits leave the workbook typed first, and
        // its values once recalculated (from where the edits left them: as
        // the engine compares values, -0 is 0).
        for u in undos.into_iter().rev() {
            s.undo_edit(u);
        }
        prop_assert_eq!(s.workbook(), &original);
        s.recalc();
        let mut fresh = session(original);
        fresh.recalc();
        // (RAND and RANDBETWEEN draw on: the session has recalculated twice.)
        let draws = format!("{:?}", s.workbook()).contains("RAND");
        if s.engine().program().cycles().next().is_none() && !draws {
            prop_assert_eq!(values(&s), values(&fresh), "after undoing {:?}", more);
        }
    }

    #[test]
    fn edits_between_recalculations_give_a_fresh_loads_values_when_acyclic(
        cells in contents(true),
        more in edits(true),
    ) {
        let mut s = typed(&cells, "2*3", &earlier)?;
        s.recalc();
        // Compared as the engine compares a new value with the old one (so
        // -0 is 0): a cell that held -0 keeps it when it calculates to 0,
        // where a fresh load shows the 0 (both print `0`).
        let like_fresh = |s: &Session, what: &str| {
            let mut fresh = session(s.workbook().clone());
            fresh.recalc();
            prop_assert_eq!(values(s), values(&fresh), "after {}", what);
            Ok(())
        };
        let mut undos = Vec::new();
        for e in &more {
            undos.extend(apply(&mut s, e, &earlier)?);
            s.recalc();
            like_fresh(&s, &format!("{e:?}"))?;
        }
        // Undone one by one, each followed by a recalculation: what reads
        // the cells an undo puts back is calculated again.
        for u in undos.into_iter().rev() {
            let what = format!("undoing {u:?}");
            s.undo_edit(u);
            s.recalc();
            like_fresh(&s, &what)?;
        }
    }
}

#[test]
fn both_ways_of_editing_are_met() {
    // The property's cases, run again on this thread, edit both ways.
    edits_before_a_recalculation_give_a_fresh_loads_run();
    let (in_place, rebuilt) = MET.with(std::cell::Cell::get);
    assert!(in_place > 0 && rebuilt > 0, "{in_place} edits in place, {rebuilt} rebuilt");
}

/// Found by the property: after a name changed in place, the schedule put
/// independent stages in another order than a fresh load did, and the run
/// evaluated other cells (the same values); the schedule is now canonical
/// (`DepGraph::schedule`).
#[test]
fn found_by_the_property_independent_stages_in_a_canonical_order() {
    let f = |t: &str| Content::Formula(t.to_string());
    let k = |t: &str| Content::Constant(t.to_string());
    let mut cells = vec![Content::Empty; CELLS];
    cells[1] = f("nm");
    cells[4] = k("6");
    cells[5] = f("IFS(1,1)");
    cells[6] = k("#N/A");
    cells[8] = k("0.25");
    cells[10] = f("AREAS(3)");
    cells[11] = k("3");
    cells[12] = f("(«12»^«19»)");
    cells[13] = f("LET(x,8,x*«17»+x)");
    cells[14] = k("TRUE");
    cells[15] = f("(«8:17»&(«24»=0))");
    cells[16] = f("XMATCH(«7»,6,5,«20»)");
    cells[17] = k("13");
    cells[18] = f("«16:1»");
    cells[20] = f("(ADDRESS(«3»,#DIV/0!,«3»)<>«3»)");
    cells[21] = f("(INDEX(«2:1»,0,2):«5»)");
    cells[22] = f("0");
    cells[23] = f("(0/(0/0.5))");
    cells[24] = f("(«20:2» «17:16»)");
    let more = [
        Edit::Cell(5, k("4")),
        Edit::Range(8, 18, "CODE(-1)".to_string(), true),
        Edit::Name("(INDEX(«18:3»,«16:9»,1):«10»)".to_string()),
    ];
    let mut s = typed(&cells, "(«22:8» «18:12»)", &anywhere).unwrap();
    for e in &more {
        apply(&mut s, e, &anywhere).unwrap();
    }
    let mut fresh = session(s.workbook().clone());
    assert_eq!(s.engine().program().schedule(), fresh.engine().program().schedule());
    let (a, b) = (s.recalc(), fresh.recalc());
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    assert!(same(&values(&s), &values(&fresh)));
}
