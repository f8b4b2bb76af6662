//! The library's streaming pool (`dataflow::batch`): results in input
//! order whatever the number of workers, a source error after the puzzles
//! before it, a stream dropped early stopping its threads, and the cap on
//! workers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::batch::{Task, stream};
use dataflow::session::Session;

const PE96: &str = include_str!("../workbooks/puzzles/9x9/project_euler_96.txt");

fn sudoku() -> (Session, Task) {
    let s = Session::load("workbooks/sudoku.ron".as_ref()).unwrap();
    let def = s.workbook().input("puzzle").unwrap().clone();
    let show = s.workbook().view("solution").unwrap().area;
    let task = Task {
        input: def.name,
        alphabet: def.alphabet,
        show,
        collect: Vec::new(),
        reset: true,
        sets: Vec::new(),
        checked: Vec::new(),
    };
    (s, task)
}

fn puzzles() -> Vec<String> {
    PE96.lines().take(10).map(str::to_string).collect()
}

#[test]
fn results_come_in_input_order_for_any_number_of_workers() {
    let (s, task) = sudoku();
    let alone: Vec<String> = {
        let lines = puzzles().into_iter().enumerate().map(Ok::<_, ()>);
        stream(&s, &task, Some(1), lines).map(|f| f.unwrap().result.unwrap().grid).collect()
    };
    assert_eq!(alone.len(), 10);
    // Exactly the puzzles of tier S (singles) are solved, to their solutions.
    let tiers = include_str!("../workbooks/puzzles/9x9/project_euler_96.tiers.txt").lines();
    let solutions = include_str!("../workbooks/puzzles/9x9/project_euler_96.solutions.txt").lines();
    for ((grid, tier), solution) in alone.iter().zip(tiers).zip(solutions) {
        assert_eq!(grid == solution, tier == "S", "{grid} (tier {tier})");
    }
    for jobs in [2, 3, 7] {
        let lines = puzzles().into_iter().enumerate().map(Ok::<_, ()>);
        let got: Vec<(usize, String)> =
            stream(&s, &task, Some(jobs), lines).map(|f| f.unwrap()).map(|f| (f.tag, f.result.unwrap().grid)).collect();
        assert_eq!(got.iter().map(|(i, _)| *i).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        assert_eq!(got.into_iter().map(|(_, g)| g).collect::<Vec<_>>(), alone, "{jobs} workers");
    }
}

#[test]
fn a_source_error_comes_after_the_puzzles_before_it_and_bad_lines_are_results() {
    let (s, task) = sudoku();
    let mut lines: Vec<Result<(usize, String), String>> = puzzles().into_iter().take(3).enumerate().map(Ok).collect();
    lines.insert(1, Ok((99, "12".to_string())));
    lines.push(Err("cannot read more".to_string()));
    lines.push(Ok((100, puzzles()[0].clone())));
    let got: Vec<_> = stream(&s, &task, Some(2), lines.into_iter()).collect();
    assert_eq!(got.len(), 5, "four puzzles, then the error; nothing after it");
    let bad = got[1].as_ref().unwrap();
    assert_eq!(bad.tag, 99);
    assert!(bad.result.as_ref().unwrap_err().to_string().contains("needs 81 symbols"), "{:?}", bad.result);
    assert_eq!(got[4].as_ref().unwrap_err(), "cannot read more");
}

#[test]
fn a_stream_dropped_early_stops_without_waiting_for_its_input() {
    let (s, task) = sudoku();
    // An endless source: the stream is dropped after three results.
    let endless = puzzles().into_iter().cycle().enumerate().map(Ok::<_, ()>);
    let first: Vec<usize> = stream(&s, &task, Some(2), endless).take(3).map(|f| f.unwrap().tag).collect();
    assert_eq!(first, [0, 1, 2]);
}

#[test]
fn jobs_past_the_cap_run_at_the_cap() {
    let (s, task) = sudoku();
    let lines = puzzles().into_iter().take(2).enumerate().map(Ok::<_, ()>);
    let got: Vec<_> = stream(&s, &task, Some(1000), lines).map(|f| f.unwrap().tag).collect();
    assert_eq!(got, [0, 1]);
    assert_eq!(dataflow::batch::MAX_JOBS, 256);
}
