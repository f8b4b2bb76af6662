//! RAND and RANDBETWEEN: volatile (a new draw on every recalculation) and
//! seedable. With `CalcSettings::seed` (the workbook's `calc: (seed: N)`)
//! a fresh engine draws the same numbers, run after run; another seed
//! draws others; without a seed, two engines draw different numbers.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;

/// A sheet drawing in A1:A3, recalculated `runs` times; the values after each.
fn draws(seed: Option<u64>, runs: usize) -> Vec<Vec<Value>> {
    let mut s = Sheet::new();
    s.settings_mut().seed = seed;
    s.set("A1", "=RAND()");
    s.set("A2", "=RANDBETWEEN(1,1000000)");
    s.set("A3", "=RAND()*0+A1");
    (0..runs)
        .map(|_| {
            s.mark_all_dirty();
            s.recalc();
            ["A1", "A2", "A3"].map(|c| s.value(c)).to_vec()
        })
        .collect()
}

#[test]
fn a_seed_makes_runs_reproducible() {
    let (a, b) = (draws(Some(42), 3), draws(Some(42), 3));
    assert_eq!(a, b, "the same seed draws the same numbers");
    assert_ne!(a[0], a[1], "each recalculation draws anew");
    assert_ne!(a, draws(Some(43), 3), "another seed draws others");
    for run in &a {
        let Value::Number(x) = run[0] else { panic!("{run:?}") };
        let Value::Number(k) = run[1] else { panic!("{run:?}") };
        assert!((0.0..1.0).contains(&x) && (1.0..=1e6).contains(&k) && k.fract() == 0.0, "{run:?}");
        assert_eq!(run[2], run[0], "a cell reading A1 sees this run's draw");
    }
}

#[test]
fn without_a_seed_engines_differ() {
    assert_ne!(draws(None, 1), draws(None, 1));
}

#[test]
fn volatile_cells_recalculate_without_a_change() {
    let mut s = Sheet::new();
    s.settings_mut().seed = Some(1);
    s.set("A1", "=RAND()");
    s.recalc();
    let first = s.value("A1");
    s.recalc();
    assert_ne!(s.value("A1"), first, "a recalculation with nothing changed draws again");
}

#[test]
fn the_workbook_file_sets_the_seed() {
    let ron = r#"Workbook(
        sheets: ["Main"],
        calc: (seed: 7),
        cells: { "Main!A1": "=RANDBETWEEN(1,1000000000)" },
    )"#;
    let run = || {
        let wb = Workbook::from_memory(ron, &MemoryFiles::default(), &[]).expect("it loads");
        assert_eq!(wb.calc.seed, Some(7));
        let mut s = Session::new(wb).expect("it binds");
        s.recalc();
        s.engine().get(dataflow::address::CellAddr::new(0, 0, 0)).clone()
    };
    assert_eq!(run(), run());
}
