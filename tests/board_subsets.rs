//! The strategies of the board workbooks beyond locked candidates
//! (formulas/boards/shelf/: naked and hidden pairs, triples and quads
//! over every unit, extra regions included), taking turns simplest first,
//! and the status, history and grade cells, on every board size: each board
//! checked pass by pass against a reference rule generalised to a box side
//! and a unit list (tests/common/boards.rs), in both orders, taking turns
//! and together; statuses and histories; and the shipped corpora with
//! `--with all` (0 wrong, nothing at the cap).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::boards::{hyper_regions, read};
use common::{dataflow, expect_exit};
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use serde_json::Value as Json;
use std::path::Path;

const SUDOKU9: &str = "workbooks/sudoku9.ron";
const HYPER: &str = "workbooks/hyper.ron";
const SUDOKU16: &str = "workbooks/sudoku16.ron";
const SUDOKU25: &str = "workbooks/sudoku25.ron";

/// How many removals each board of `workbook --with all` listed on
/// `puzzles` (common::boards::check_all), in rank order.
fn check_all(workbook: &str, n: usize, regions: &[usize], puzzles: &[&str]) -> Vec<usize> {
    common::boards::check_all(workbook, n, regions, puzzles).into_iter().map(|(_, listed)| listed).collect()
}

// Three 17-clue puzzles of tier S+LC+PT (as in tests/strategies.rs).
const PT: [&str; 3] = [
    ".......31.8.....7....92....4.1.........2..8..3.........9....25.....8.6.......1...",
    ".....13..2.......45.........6....13.4..75.......2......38....6.....7...5.........",
    ".....19..7...3....2.........5.....7..1...4......2.........6.1.58..7...3.......4..",
];

// The article's examples of the wings (tests/strategies.rs: lines 17,767,
// 14,530, 1,197, 25,173, 6,183, 46,072 and 4,418 of the 17-clue set, in
// the sample): a Skyscraper, a Two-String Kite, an XY-Wing, an XYZ-Wing,
// a W-Wing, a Unique Rectangle and Simple Colouring fire taking turns
// (tests/board_wings.rs checks them pass by pass).
const WINGS: [&str; 7] = common::wings::ARTICLE_WINGS;

// The X-Wing example of tests/strategies.rs (history `i!*!Xiiiiii`) and
// the 37th puzzle of the sample's tier ALL, where a swordfish fires.
const FISH: [&str; 2] = [
    "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5",
    "7...1.....9.....8..........6.....1.2.4.8.9......3.....1.2...6..5......9....4.....",
];

#[test]
fn sudoku9_boards_list_exactly_their_rules_removals() {
    let total = check_all(SUDOKU9, 3, &[0; 81], &PT);
    // Every board up to the triples fires; quads do not on these.
    assert!(total[..5].iter().all(|&t| t > 0), "{total:?}");
}

#[test]
fn sudoku9_fish_list_exactly_their_rules_removals() {
    let total = check_all(SUDOKU9, 3, &[0; 81], &FISH);
    // The X-Wing and the Swordfish fire.
    assert!(total[6] > 0 && total[8] > 0, "{total:?}");
}

// sudoku_space_hyper_192 lines 85, 115 and 145 (tier NONE for singles and
// locked candidates): hidden pairs and naked triples solve them.
const HYPER_SUBSETS: [usize; 3] = [85, 115, 145];

#[test]
fn hyper_boards_list_exactly_their_rules_removals_regions_included() {
    let puzzles = HYPER_SUBSETS.map(|l| corpus_line("hyper/sudoku_space_hyper_192", l));
    let total = check_all(HYPER, 3, &hyper_regions(), &puzzles.each_ref().map(String::as_str));
    assert!(total[..5].iter().all(|&t| t > 0), "{total:?}");
}

/// Line `line` of a shipped corpus.
fn corpus_line(corpus: &str, line: usize) -> String {
    let text = std::fs::read_to_string(format!("workbooks/puzzles/{corpus}.txt")).unwrap();
    text.lines().nth(line - 1).unwrap().to_string()
}

#[test]
fn sudoku16_boards_list_exactly_their_rules_removals() {
    // hexadoku_4 line 3: locked candidates and hidden pairs fire.
    let total = check_all(SUDOKU16, 4, &[0; 256], &[&corpus_line("16x16/hexadoku_4", 3)]);
    assert!(total[0] > 0 && total[2] > 0, "{total:?}");
}

#[test]
#[ignore = "a 25×25 board pass by pass, three runs of up to 100 passes: about 10 s"]
fn sudoku25_boards_list_exactly_their_rules_removals() {
    // alphadoku_7 line 7: naked pairs solve it.
    let total = check_all(SUDOKU25, 5, &[0; 625], &[&corpus_line("25x25/alphadoku_7", 7)]);
    assert!(total[0] > 0 && total[1] > 0, "{total:?}");
}

/// The status, history and grade after a run of `workbook --with with`.
fn status(workbook: &str, with: &str, puzzle: &str, order: &str) -> (String, String, String) {
    let mut s = Session::load_with(Path::new(workbook), &[with.to_string()]).unwrap();
    s.settings_mut().order = if order == "synchronous" { Order::Synchronous } else { Order::RowMajor };
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    let report = s.recalc();
    assert!(report.converged, "{workbook} {puzzle}");
    let text = |v: &Value| match v {
        Value::Text(t) => t.to_string(),
        v => panic!("{v:?}"),
    };
    let cells = read(&s, "status_cells");
    (text(&cells[0][1]), text(&cells[1][1]), text(&read(&s, "grade_cell")[0][1]))
}

#[test]
fn status_history_and_grade_on_every_board() {
    for order in ["row-major", "synchronous"] {
        // Singles solve hyper line 1 and PE96 grid 2: no strategy searches.
        let hyper1 = ".....4..9...........897..13.27....8......7..615....4.......53.7..2....9....72....";
        for (workbook, p) in [(HYPER, hyper1), (SUDOKU9, common::GRID2)] {
            let (s, h, g) = status(workbook, "all", p, order);
            assert_eq!((s.as_str(), g.as_str()), ("solved", "i"), "{h}");
            assert!(h.len() > 5 && h.chars().all(|c| c == 'i'), "{order}: {h}");
        }
        // Hyper line 85: locked candidates give up, hidden pairs solve it.
        let hyper85 = corpus_line("hyper/sudoku_space_hyper_192", HYPER_SUBSETS[0]);
        let (s, h, g) = status(HYPER, "locked", &hyper85, order);
        assert_eq!((s.as_str(), g.as_str()), ("Give UP", "!"), "{order}: {h}");
        let (s, h, g) = status(HYPER, "all", &hyper85, order);
        assert_eq!((s.as_str(), g.as_str()), ("solved", "*"), "{order}: {h}");
        assert!(h.starts_with('i') && h.contains('!') && h.contains('*') && !h.contains(['t', '^', 'q', 'Q']), "{h}");
    }
    // Two 1s in the first row: a contradiction, and the history stops.
    let bad = format!("1.......1{}", &common::GRID2[9..]);
    assert_eq!(status(SUDOKU9, "status", &bad, "row-major").0, "contradiction");
    let hex = corpus_line("16x16/hexadoku_4", 3);
    assert_eq!(status(SUDOKU16, "locked", &hex, "row-major").0, "Give UP");
}

/// The seventeen strategies both the article's workbook and the boards'
/// have (the article's has the reasons part too).
const SAME: &str = "locked,naked-pairs,hidden-pairs,naked-triples,hidden-triples,naked-quads,x-wing,hidden-quads,\
                   swordfish,jellyfish,skyscraper,two-string-kite,xy-wing,xyz-wing,w-wing,unique-rectangle,\
                    simple-colouring";

/// The 9×9 board with all its parts gives the article's status, history and
/// grade with the same seventeen strategies (ranks and marks), after every
/// puzzle: the same turns, the same marks, in both orders.
#[test]
fn sudoku9_status_and_history_are_the_articles() {
    let same = SAME;
    for order in ["row-major", "synchronous"] {
        for p in PT.iter().chain(&FISH).chain(&WINGS).chain([&common::GRID1]) {
            let input = format!("puzzle={p}");
            let args = ["run", common::SUDOKU, "--with", same, "--input", &input, "--order", order];
            let out =
                dataflow(&[&args[..], &["--show", "Main!D29", "--show", "Main!D30", "--show", "Main!F30"]].concat());
            let lines: Vec<&str> = out.stdout.lines().collect();
            let after = |label: &str| lines[lines.iter().position(|l| *l == label).unwrap() + 1].to_string();
            let article = (after("Main!D29:"), after("Main!D30:"), after("Main!F30:"));
            assert_eq!(status(SUDOKU9, "all", p, order), article, "{order} {p}");
        }
    }
}

/// `batch WORKBOOK --with all` over a shipped corpus in `order`: the
/// statuses, and the grades of the solved puzzles; none wrong, none near
/// the cap (200 iterations with a strategy part on; 400 at 25×25).
fn batch_all(workbook: &str, corpus: &str, order: &str) -> (usize, usize, Vec<String>) {
    let (input, expect) =
        (format!("puzzle=@workbooks/puzzles/{corpus}.txt"), format!("workbooks/puzzles/{corpus}.solutions.txt"));
    let args = ["batch", workbook, "--with", "all", "--input", &input, "--expect", &expect, "--order", order];
    let out = expect_exit(0, &[&args[..], &["--collect", "grade", "--format", "jsonl"]].concat());
    let (mut solved, mut unsolved, mut grades) = (0, 0, vec![]);
    for line in out.stdout.lines() {
        let o: Json = serde_json::from_str(line).unwrap();
        let cap = if workbook == SUDOKU25 { 400 } else { 200 };
        assert!(o["iterations"].as_u64().unwrap() < cap * 3 / 4, "{workbook} {order}: near the cap: {line}");
        match o["status"].as_str().unwrap() {
            "solved" => (solved, grades) = (solved + 1, [grades, vec![o["collected"]["grade"].to_string()]].concat()),
            "unsolved" => unsolved += 1,
            s => panic!("{workbook} {order}: {s}: {line}"),
        }
    }
    (solved, unsolved, grades)
}

#[test]
fn hyper_with_all_solves_188_of_192_in_both_orders() {
    for order in ["row-major", "synchronous"] {
        let (solved, unsolved, grades) = batch_all(HYPER, "hyper/sudoku_space_hyper_192", order);
        // 176 with locked candidates (tests/boards.rs), 5 more by the
        // subsets and fish, 7 more by the wings and Simple Colouring (181
        // before them; the unique rectangle fires on none taking turns).
        assert_eq!((solved, unsolved), (188, 4), "{order}");
        let beyond = grades.iter().filter(|g| !matches!(g.as_str(), "\"i\"" | "\"!\"")).count();
        assert_eq!(beyond, 12, "{order}: {grades:?}");
        let wings = grades
            .iter()
            .filter(|g| matches!(g.as_str(), "\"S\"" | "\"K\"" | "\"Y\"" | "\"Z\"" | "\"W\"" | "\"C\""))
            .count();
        assert_eq!(wings, 7, "{order}: {grades:?}");
    }
}

#[test]
fn hexadoku_with_all_solves_three_none_wrong() {
    for order in ["row-major", "synchronous"] {
        assert_eq!(batch_all(SUDOKU16, "16x16/hexadoku_4", order).0, 3, "{order}");
    }
}

#[test]
#[ignore = "seven 25×25 puzzles with every strategy, both orders: about 10 s"]
fn alphadoku_with_all_solves_two_none_wrong() {
    for order in ["row-major", "synchronous"] {
        let (solved, _, grades) = batch_all(SUDOKU25, "25x25/alphadoku_7", order);
        assert_eq!((solved, grades.len()), (2, 2), "{order}: {grades:?}");
    }
}

/// `batch WORKBOOK --with WITH` over `file`: each puzzle's line, status,
/// grade and iterations.
fn batch_lines(workbook: &str, with: &str, file: &str, solutions: &str) -> Vec<(u64, String, String, u64)> {
    let input = format!("puzzle=@{file}");
    let args = ["batch", workbook, "--with", with, "--input", &input, "--expect", solutions, "--collect", "grade"];
    let out = expect_exit(0, &[&args[..], &["--format", "jsonl"]].concat());
    let mut rows: Vec<(u64, String, String, u64)> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap())
        .map(|o| {
            let status = o["status"].as_str().unwrap().to_string();
            assert_ne!(status, "wrong", "{workbook}: {o}");
            (
                o["line"].as_u64().unwrap(),
                status,
                o["collected"]["grade"].to_string(),
                o["iterations"].as_u64().unwrap(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// `sudoku9.ron --with all` and `sudoku.ron` with the same seventeen strategy
/// files give every puzzle of `file` the same status, grade and number of
/// iterations; returns how many were solved.
fn same_as_the_article(file: &str, solutions: &str) -> usize {
    let article = batch_lines(common::SUDOKU, SAME, file, solutions);
    let boards = batch_lines(SUDOKU9, "all", file, solutions);
    assert_eq!(article, boards, "{file}");
    boards.iter().filter(|r| r.1 == "solved").count()
}

#[test]
#[ignore = "the 2,000-puzzle sample on both workbooks with every strategy: about a minute"]
fn sudoku9_with_all_is_the_article_on_the_17_clue_sample() {
    let f = "workbooks/puzzles/9x9/royle_17clue_2000";
    assert_eq!(same_as_the_article(&format!("{f}.txt"), &format!("{f}.solutions.txt")), 1914);
}

#[test]
#[ignore = "needs ../shared"]
fn sudoku9_with_all_is_the_article_on_norvig_top95() {
    let f = "../shared/corpora/9x9/norvig_top95";
    assert!(Path::new(&format!("{f}.txt")).exists(), "{f}.txt is missing");
    same_as_the_article(&format!("{f}.txt"), &format!("{f}.solutions.txt"));
}
