//! Two more variants as data on the board formula files: Sudoku X
//! (workbooks/sudokux.ron: the two long diagonals as units,
//! formulas/boards/diagonals.dfl) and jigsaw Sudoku (workbooks/jigsaw.ron:
//! irregular boxes as a region map, formulas/boards/jigsaw.dfl), with the
//! published puzzles of workbooks/puzzles/x and workbooks/puzzles/jigsaw:
//! solved with no wrong digit, and every strategy board checked pass by
//! pass against the reference rules over the variant's units
//! (tests/common/boards.rs).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::boards::{Rule, all_boards, check_boards, plain_units, read};
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

const SUDOKUX: &str = "workbooks/sudokux.ron";
const JIGSAW: &str = "workbooks/jigsaw.ron";

/// Line `line` (from 1) of a shipped puzzle file.
fn line(file: &str, line: usize) -> String {
    let text = std::fs::read_to_string(format!("workbooks/puzzles/{file}")).unwrap();
    text.lines().nth(line - 1).unwrap().to_string()
}

/// Sudoku X's units: rows, columns, boxes, the main and the anti-diagonal.
fn x_units() -> Vec<Vec<usize>> {
    let mut u = plain_units(3);
    u.push((0..9).map(|i| i * 10).collect());
    u.push((0..9).map(|i| i * 9 + 8 - i).collect());
    u
}

/// A jigsaw board's units: rows, columns, then the regions of `map` (81
/// digits, each cell's region).
fn jigsaw_units(map: &str) -> Vec<Vec<usize>> {
    let mut u: Vec<Vec<usize>> = plain_units(3).into_iter().take(18).collect();
    u.extend((b'1'..=b'9').map(|k| (0..81).filter(|&c| map.as_bytes()[c] == k).collect()));
    u
}

/// `workbook` with `parts`, the region map set to `regions` (jigsaw), run
/// on `puzzle`: the solution as 81 digits (`.` for a blank), the status
/// and the history (status and history blank without a strategy part).
fn solve(
    workbook: &str,
    parts: &[&str],
    regions: Option<&str>,
    puzzle: &str,
    order: Order,
) -> (String, String, String) {
    let parts: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
    let mut s = Session::load_with(Path::new(workbook), &parts).unwrap();
    s.settings_mut().order = order;
    if let Some(map) = regions {
        s.set_input("regions", map).unwrap();
    }
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    assert!(s.recalc().converged, "{workbook} {parts:?} {puzzle}");
    let digits: String = read(&s, "sol_board")
        .iter()
        .flatten()
        .map(|v| match v {
            Value::Number(n) => char::from_digit(*n as u32, 10).unwrap(),
            _ => '.',
        })
        .collect();
    let text = |v: &Value| if let Value::Text(t) = v { t.to_string() } else { String::new() };
    let (status, history) = match s.area("status_cells") {
        Ok(a) if !parts.is_empty() => {
            let cells = s.read(&a);
            (text(&cells[0][1]), text(&cells[1][1]))
        }
        _ => (String::new(), String::new()),
    };
    (digits, status, history)
}

/// Solved (the whole solution), or unsolved with no wrong digit.
fn solved(digits: &str, solution: &str) -> bool {
    assert!(
        digits.chars().zip(solution.chars()).all(|(a, b)| a == '.' || a == b),
        "wrong digit: {digits} / {solution}"
    );
    digits == solution
}

#[test]
fn sudoku_x_puzzles_are_solved_none_wrong() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let mut counts = vec![];
        for parts in [&[][..], &["locked"], &["all"]] {
            let n = (1..=15)
                .filter(|&i| {
                    let (p, e) = (line("x/dataflow_x_15.txt", i), line("x/dataflow_x_15.solutions.txt", i));
                    solved(&solve(SUDOKUX, parts, None, &p, order).0, &e)
                })
                .count();
            counts.push(n);
        }
        // Singles solve lines 1 to 6 and 10 to 12; line 7 needs locked
        // candidates over the diagonals, 8 and 9 naked and hidden pairs, 15
        // the wings (a W-Wing over the diagonals' links); 13 and 14
        // (minimal) stay unsolved.
        assert_eq!(counts, [9, 10, 13], "{order:?}");
    }
}

#[test]
fn jigsaw_puzzles_are_solved_none_wrong() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let mut counts = vec![];
        for parts in [&[][..], &["locked"], &["all"]] {
            let n = (1..=5)
                .filter(|&i| {
                    let f = |x: &str| line(&format!("jigsaw/janko_jigsaw_5{x}.txt"), i);
                    solved(&solve(JIGSAW, parts, Some(&f(".regions")), &f(""), order).0, &f(".solutions"))
                })
                .count();
            counts.push(n);
        }
        // Lines 4 and 5 need locked candidates across the irregular regions.
        assert_eq!(counts, [3, 5, 5], "{order:?}");
    }
}

/// Checks every board of `workbook --with all` on `puzzle` (the jigsaw map
/// set first) against the rules over `units`, in both orders taking turns
/// and row-major together; returns the removals each board listed.
/// `batch` fills one input per puzzle; the others keep their default
/// values, as in `run` (a batch once ran every puzzle with no region map at
/// all: unsolved, and the locked board full of `#VALUE!`). Line 1 of the
/// jigsaw file goes with the workbook's default map (its own).
#[test]
fn batch_keeps_the_other_inputs_default_values() {
    let puzzle = line("jigsaw/janko_jigsaw_5.txt", 1);
    let out =
        common::dataflow_stdin(&["batch", JIGSAW, "--with", "all", "--input", "puzzle=@-"], &format!("{puzzle}\n"));
    assert!(out.stdout.contains("solved: 1") && out.stdout.contains("errors: 0"), "{out:?}");
    assert!(!format!("{}{}", out.stdout, out.stderr).contains("held error values"), "{out:?}");
}

fn check_all(workbook: &str, units: &[Vec<usize>], regions: Option<&str>, puzzle: &str) -> Vec<usize> {
    let owned = all_boards(3, units);
    let boards: Vec<(&str, Rule)> = owned.iter().map(|(a, r)| (*a, r.as_ref() as Rule)).collect();
    let mut total = vec![0; boards.len()];
    for (order, together) in [(Order::RowMajor, false), (Order::Synchronous, false), (Order::RowMajor, true)] {
        let mut s = Session::load_with(Path::new(workbook), &["all".to_string()]).unwrap();
        if let Some(map) = regions {
            s.set_input("regions", map).unwrap();
        }
        let (listed, _) = check_boards(s, 3, &boards, puzzle, order, together);
        total.iter_mut().zip(&listed).for_each(|(t, l)| *t += l);
    }
    total
}

#[test]
fn sudoku_x_boards_list_exactly_their_rules_removals() {
    let mut all = vec![0; 17];
    for i in [7, 8, 9, 13, 14, 15] {
        let total = check_all(SUDOKUX, &x_units(), None, &line("x/dataflow_x_15.txt", i));
        assert!(total[0] > 0, "locked candidates fire: {total:?}");
        all.iter_mut().zip(&total).for_each(|(a, t)| *a += t);
    }
    // Naked and hidden pairs, the Skyscraper, the Kite, the W-Wing (line
    // 15, over the diagonals' strong links) and Simple Colouring fire.
    for (board, rank) in
        [("naked pairs", 2), ("hidden pairs", 3), ("Skyscraper", 11), ("Kite", 12), ("W-Wing", 15), ("Colouring", 17)]
    {
        assert!(all[rank - 1] > 0, "{board}: {all:?}");
    }
}

#[test]
fn jigsaw_boards_list_exactly_their_rules_removals() {
    let mut all = vec![0; 17];
    for i in 1..=5 {
        let map = line("jigsaw/janko_jigsaw_5.regions.txt", i);
        let total = check_all(JIGSAW, &jigsaw_units(&map), Some(&map), &line("jigsaw/janko_jigsaw_5.txt", i));
        // Lines 1 to 3 need singles only: no board ever searches.
        assert_eq!(total.iter().sum::<usize>() == 0, i <= 3, "line {i}: {total:?}");
        all.iter_mut().zip(&total).for_each(|(a, t)| *a += t);
    }
    // On lines 4 and 5 every board up to the triples fires (together at least).
    // Together, a Skyscraper and Two-String Kites (joined in an irregular
    // region, the boxes' place) fire too.
    assert!(all[..5].iter().all(|&t| t > 0) && all[10] > 0 && all[11] > 0, "{all:?}");
}

/// The solutions of `givens` (digits 1..9, `.` blank) over `units`, found
/// by backtracking on the cell with fewest candidates, up to `limit`.
fn solutions(givens: &str, units: &[Vec<usize>], limit: usize) -> Vec<String> {
    let mut peers = vec![Vec::new(); 81];
    for u in units {
        for &a in u {
            peers[a].extend(u.iter().copied().filter(|&b| b != a));
        }
    }
    let grid: Vec<u32> = givens.chars().map(|c| c.to_digit(10).unwrap_or(0)).collect();
    fn search(g: &mut Vec<u32>, peers: &[Vec<usize>], limit: usize, found: &mut Vec<String>) {
        let free =
            |g: &Vec<u32>, i: usize| (1..=9).filter(|d| peers[i].iter().all(|&p| g[p] != *d)).collect::<Vec<_>>();
        let best = (0..81).filter(|&i| g[i] == 0).min_by_key(|&i| free(g, i).len());
        let Some(i) = best else {
            found.push(g.iter().map(|d| char::from_digit(*d, 10).unwrap()).collect());
            return;
        };
        for d in free(g, i) {
            g[i] = d;
            search(g, peers, limit, found);
            if found.len() >= limit {
                break;
            }
        }
        g[i] = 0;
    }
    let mut found = Vec::new();
    search(&mut grid.clone(), &peers, limit, &mut found);
    found
}

/// The generated Sudoku X puzzles (PROVENANCE.md) each have exactly one
/// solution under the X rules, the solutions file's line, and a plain
/// Sudoku solver finds more than one for the minimal ones (the diagonals
/// are needed).
#[test]
fn sudoku_x_puzzles_have_one_solution_each() {
    for i in 1..=15 {
        let (p, e) = (line("x/dataflow_x_15.txt", i), line("x/dataflow_x_15.solutions.txt", i));
        assert_eq!(solutions(&p, &x_units(), 2), vec![e], "line {i}");
    }
    for i in [13, 14] {
        assert_eq!(solutions(&line("x/dataflow_x_15.txt", i), &plain_units(3), 2).len(), 2, "line {i}");
    }
}
