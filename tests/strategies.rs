//! The strategy formula files (formulas/strategies/), turned on as parts of
//! `workbooks/sudoku.ron` (`--with locked`, ...): every
//! board checked pass by pass against a reference implementation of its
//! rule, the status and history cells, and the puzzle collections the
//! repository ships (workbooks/puzzles/9x9): PE96 counts per combination
//! and the 17-clue tiers of the 2,000-puzzle sample in both orders, 0
//! wrong, no cap hit.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{GRID2, dataflow};
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

// The parts of workbooks/sudoku.ron turned on (`--with`); "" is the article.
const SINGLES: &str = "";
const LOCKED: &str = "locked";
const PAIRS: &str = "locked,naked-pairs,hidden-pairs";
const FIVE: &str = "locked,naked-pairs,hidden-pairs,naked-triples,hidden-triples";
const ALL: &str = "all";

/// `COMMAND workbooks/sudoku.ron --with WITH` (no `--with` for the article).
fn command<'a>(command: &'a str, with: &'a str) -> Vec<&'a str> {
    let mut args = vec![command, common::SUDOKU];
    if !with.is_empty() {
        args.extend(["--with", with]);
    }
    args
}
const CORPORA: &str = "workbooks/puzzles/9x9";

/// Candidates as `[row][col][digit - 1]`.
type Cands = [[[bool; 9]; 9]; 9];

/// A 27x27 board (valid values or a strategy board) as candidates: true
/// where it holds a number.
fn board(s: &Session, area: &str) -> Cands {
    let values = s.read(&s.area(area).unwrap());
    let mut c = [[[false; 9]; 9]; 9];
    for (i, row) in values.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            c[i / 3][j / 3][(i % 3) * 3 + j % 3] = matches!(v, Value::Number(_));
        }
    }
    c
}

/// The 27 units as lists of (row, col).
fn units() -> Vec<Vec<(usize, usize)>> {
    let mut u: Vec<Vec<(usize, usize)>> = (0..9).map(|r| (0..9).map(|c| (r, c)).collect()).collect();
    u.extend((0..9).map(|c| (0..9).map(|r| (r, c)).collect()));
    u.extend((0..9).map(|b| (0..9).map(|p| (b / 3 * 3 + p / 3, b % 3 * 3 + p % 3)).collect()));
    u
}

/// The subsets of `n` out of 0..9.
fn subsets(n: usize) -> Vec<Vec<usize>> {
    (0u32..512).filter(|m| m.count_ones() as usize == n).map(|m| (0..9).filter(|i| m >> i & 1 == 1).collect()).collect()
}

/// Locked candidates: a digit's places (two or more) in a box all in one
/// row or column, or in a row or column all in one box.
fn locked(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for d in 0..9 {
        let units = units();
        for (i, a) in units.iter().enumerate() {
            let places: Vec<_> = a.iter().filter(|&&(r, c)| v[r][c][d]).copied().collect();
            if places.len() < 2 {
                continue;
            }
            for (j, b) in units.iter().enumerate() {
                // A box and a line, or a line and a box (never two lines or two boxes).
                if (i >= 18) == (j >= 18) || !places.iter().all(|p| b.contains(p)) {
                    continue;
                }
                for &(r, c) in b.iter().filter(|p| !a.contains(p)) {
                    e[r][c][d] = true;
                }
            }
        }
    }
    e
}

/// Naked subsets of `n`: `n` cells (two or more candidates each) of a unit
/// inside `n` digits remove those digits from the unit's other cells.
fn naked(v: &Cands, n: usize) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for unit in units() {
        for set in subsets(n) {
            let inside = |&(r, c): &(usize, usize)| (0..9).all(|d| !v[r][c][d] || set.contains(&d));
            let size = |&(r, c): &(usize, usize)| v[r][c].iter().filter(|&&b| b).count();
            if unit.iter().filter(|p| inside(p) && size(p) >= 2).count() >= n {
                for &(r, c) in unit.iter().filter(|p| !inside(p)) {
                    set.iter().for_each(|&d| e[r][c][d] = true);
                }
            }
        }
    }
    e
}

/// Hidden subsets of `n`: `n` digits (two or more places each) of a unit
/// inside `n` cells remove every other digit from those cells.
fn hidden(v: &Cands, n: usize) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for unit in units() {
        let places = |d: usize| -> Vec<usize> { (0..9).filter(|&p| v[unit[p].0][unit[p].1][d]).collect() };
        for set in subsets(n) {
            let inside = |d: usize| places(d).iter().all(|p| set.contains(p));
            if (0..9).filter(|&d| inside(d) && places(d).len() >= 2).count() >= n {
                for d in (0..9).filter(|&d| !inside(d)) {
                    set.iter().for_each(|&p| e[unit[p].0][unit[p].1][d] = true);
                }
            }
        }
    }
    e
}

/// Fish of size `n` (X-Wing for 2): `n` lines of one kind (rows, or
/// columns) whose places for a digit (two or more each) lie in `n`
/// positions remove the digit from those positions in every other line.
fn fish(v: &Cands, n: usize) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for d in 0..9 {
        for rows in [true, false] {
            let at = |line: usize, p: usize| if rows { (line, p) } else { (p, line) };
            let places =
                |line: usize| -> Vec<usize> { (0..9).filter(|&p| v[at(line, p).0][at(line, p).1][d]).collect() };
            for set in subsets(n) {
                let base = |line: usize| places(line).len() >= 2 && places(line).iter().all(|p| set.contains(p));
                if (0..9).filter(|&line| base(line)).count() >= n {
                    for line in (0..9).filter(|&line| !base(line)) {
                        set.iter().for_each(|&p| e[at(line, p).0][at(line, p).1][d] = true);
                    }
                }
            }
        }
    }
    e
}

/// A strategy's reference rule: the removals it finds in some candidates.
type Rule = fn(&Cands) -> Cands;

/// The boards of `--with all`: area, reference rule.
const BOARDS: [(&str, Rule); 10] = [
    ("locked_board", locked),
    ("naked_pairs_board", |v| naked(v, 2)),
    ("hidden_pairs_board", |v| hidden(v, 2)),
    ("naked_triples_board", |v| naked(v, 3)),
    ("hidden_triples_board", |v| hidden(v, 3)),
    ("naked_quads_board", |v| naked(v, 4)),
    ("x_wing_board", |v| fish(v, 2)),
    ("hidden_quads_board", |v| hidden(v, 4)),
    ("swordfish_board", |v| fish(v, 3)),
    ("jellyfish_board", |v| fish(v, 4)),
];

/// The progress the boards compare: candidates left x 100 + digits placed.
fn progress(v: &Cands, s: &Session) -> f64 {
    let placed =
        s.read(&s.area("Main!D16:L24").unwrap()).iter().flatten().filter(|v| matches!(v, Value::Number(_))).count();
    (v.iter().flatten().flatten().filter(|&&x| x).count() * 100 + placed) as f64
}

/// Counts the evaluations of strategy-board cells (the shelf's ten
/// places, P34:AP330) in a pass.
#[derive(Default)]
struct BoardEvaluations(usize);

impl dataflow::engine::Observer for BoardEvaluations {
    fn evaluate(&mut self, cell: dataflow::address::CellAddr) {
        self.0 += usize::from((33..330).contains(&cell.row) && (15..=41).contains(&cell.col));
    }
}

/// The snapshot (`Main!P32:CS32`) as candidates and the progress it was
/// taken at; `None` before one is taken (-1 everywhere).
fn snapshot(s: &Session) -> Option<(Cands, f64)> {
    let row = &s.read(&s.area("Main!P32:CS32").unwrap())[0];
    if row[81] == Value::Number(-1.0) {
        assert!(row.iter().all(|v| *v == Value::Number(-1.0)), "{row:?}");
        return None;
    }
    let mut c = [[[false; 9]; 9]; 9];
    for (n, v) in row[..81].iter().enumerate() {
        let Value::Number(mask) = v else { panic!("snapshot cell {n}: {v:?}") };
        (0..9).for_each(|d| c[n / 9][n % 9][d] = (*mask as u32) >> d & 1 == 1);
    }
    let Value::Number(taken) = row[81] else { panic!("{:?}", row[81]) };
    Some((c, taken))
}

/// Runs `puzzle` pass by pass and checks that each board adds exactly what
/// its rule removes from the snapshot it read, when it searches, and drops
/// nothing; that the snapshot is taken (the candidates and progress read,
/// row-major: this pass's; synchronous: the last pass's) only in a pass
/// whose progress equals the one read in the pass before (the singles
/// stalled) and not every digit is placed, and kept otherwise; that the
/// boards read it as it is (row-major) or as the last pass left it
/// (synchronous). `together`: every board searches every snapshot. Else the
/// boards take turns: the first for a new snapshot, the same while it has
/// found something there, the next once it has searched it and found
/// nothing (a model of the rule, run beside the workbook). And that the
/// boards are not even calculated in a pass where neither that snapshot,
/// the turn nor a board changed. Returns how many removals each board
/// listed in the end and how many snapshots the boards searched.
fn check_boards(puzzle: &str, order: Order, together: bool) -> ([usize; 10], usize) {
    let mut s = Session::load_with(Path::new(common::SUDOKU), &[ALL.to_string()]).unwrap();
    s.settings_mut().order = order;
    if together {
        s.set(s.area("Main!D32").unwrap().top_left(), Value::Text("together".into())).unwrap();
    }
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    let mut listed: Vec<Cands> = BOARDS.iter().map(|(a, _)| board(&s, a)).collect();
    let mut before = (board(&s, "Main!P4:AP30"), progress(&board(&s, "Main!P4:AP30"), &s));
    let (mut seen, mut taken, mut searched, mut searches, mut boards_changed) = (None, None, None, 0, true);
    let (mut turn, mut found, mut turn_before, mut new_snapshot) = (0, false, 0, false);
    for pass in 1..100 {
        let mut evaluations = BoardEvaluations::default();
        let report = s.engine_mut().step_with(&mut evaluations);
        let after = board(&s, "Main!P4:AP30");
        let after = (after, progress(&after, &s));
        let read = if order == Order::RowMajor { &after } else { &before };
        let stalled = seen == Some(read.1) && read.1 % 100.0 < 81.0;
        seen = Some(read.1);
        let last_taken = taken;
        if stalled {
            taken = Some(*read);
        }
        assert_eq!(snapshot(&s), taken, "snapshot, pass {pass}");
        let read_by_boards = if order == Order::RowMajor { taken } else { last_taken };
        // The boards read the turn's memory of the pass before, so a turn
        // that passed in either of the last two passes wakes them.
        let last_turn = std::mem::replace(&mut turn_before, turn);
        turn = match read_by_boards {
            _ if together => 0,
            None => 0,
            Some(_) if read_by_boards != searched => 1,
            Some(_) if turn <= BOARDS.len() && !found => turn + 1,
            Some(_) => turn,
        };
        // The turn's memory also keeps the stamp of the snapshot searched:
        // a new snapshot wakes the boards again in the pass after.
        let woken = std::mem::replace(&mut new_snapshot, read_by_boards != searched);
        if read_by_boards != searched {
            searches += 1;
        } else if !boards_changed && !woken && turn == turn_before && turn == last_turn {
            assert_eq!(evaluations.0, 0, "board cells calculated in pass {pass} with nothing new to read");
        }
        searched = read_by_boards;
        let cell = |a: &str, i: usize| s.read(&s.area(a).unwrap())[0][i].clone();
        let stamp = searched.as_ref().map_or(-1.0, |t| t.1);
        assert_eq!(cell("gate_memory", 1), Value::Number(stamp), "progress searched, pass {pass}");
        assert_eq!(cell("gate_memory", 2), Value::Number(read.1), "progress seen, pass {pass}");
        assert_eq!(cell("turn_memory", 1), Value::Number(turn as f64), "turn, pass {pass}");
        boards_changed = false;
        for (k, (area, rule)) in BOARDS.iter().enumerate() {
            let searches_now = together || k + 1 == turn;
            let (cands, found_now) = match &searched {
                Some((c, _)) if searches_now => (*c, rule(c)),
                _ => ([[[false; 9]; 9]; 9], [[[false; 9]; 9]; 9]),
            };
            let now = board(&s, area);
            for (r, c, d) in (0..9).flat_map(|r| (0..9).flat_map(move |c| (0..9).map(move |d| (r, c, d)))) {
                let expected = listed[k][r][c][d] || (found_now[r][c][d] && cands[r][c][d]);
                assert_eq!(now[r][c][d], expected, "{area}, pass {pass}, r{}c{} digit {}", r + 1, c + 1, d + 1);
            }
            if k + 1 == turn {
                let snap = searched.map(|t| t.0).unwrap_or_default();
                found = (0..729).any(|i| now[i / 81][i / 9 % 9][i % 9] && snap[i / 81][i / 9 % 9][i % 9]);
            }
            boards_changed |= now != listed[k];
            listed[k] = now;
        }
        before = after;
        if report.converged {
            break;
        }
    }
    let counts: Vec<usize> = listed.iter().map(|b| b.iter().flatten().flatten().filter(|&&x| x).count()).collect();
    (counts.try_into().unwrap(), searches)
}

// Three 17-clue puzzles of tier S+LC+PT (the 1st, 3rd and 6th of that tier
// in royle_17clue_49151.txt), where every board fires.
// Then a puzzle where the X-Wing board fires (on 7; history `i!*!Xiiiiii`),
// the X-Wing example of solving guides (SudokuWiki's among them), and the
// sample's three puzzles of tier S+LC+PTQ, which need a naked quad, and
// the 14th of tier ALL, where a swordfish and a jellyfish fire together,
// and the 37th, where a swordfish fires taking turns.
const PT: [&str; 9] = [
    ".......31.8.....7....92....4.1.........2..8..3.........9....25.....8.6.......1...",
    ".....13..2.......45.........6....13.4..75.......2......38....6.....7...5.........",
    ".....19..7...3....2.........5.....7..1...4......2.........6.1.58..7...3.......4..",
    "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5",
    "7.1..........6.2.........8....3.1...2......6....7.....68..4.......1....3.5....7..",
    "..1....9....46.......2.....62............91.........8..6....2.43...85.........7..",
    "2.......1....54........6.........65..1.2.....8...........38..7..64...5....9......",
    "..3...2........4.9.1.3......5.....1.4...8........2....2.....6.....1.7......53....",
    "7...1.....9.....8..........6.....1.2.4.8.9......3.....1.2...6..5......9....4.....",
];

/// Checks the boards on the nine puzzles; every board fires on some. Taking
/// turns, hidden quads, the last, never get to: in a unit of eight open
/// cells a hidden quad is a naked quad of the others, found first (one of
/// nine open cells, a naked quint, is left to a puzzle yet to be found).
fn check_boards_on_pt(order: Order, together: bool) {
    let total = PT
        .map(|p| check_boards(p, order, together).0)
        .iter()
        .fold([0; 10], |t, n| std::array::from_fn(|k| t[k] + n[k]));
    // Hidden quads and jellyfish (as rare) never get to, taking turns, on
    // these or any puzzle of the 2,000-puzzle sample.
    let (hidden_quads, jellyfish) = (7, 9);
    let fire = |k: usize| together || (k != hidden_quads && k != jellyfish);
    assert!((0..total.len()).all(|k| !fire(k) || total[k] > 0), "every board fires on these puzzles: {total:?}");
}

/// On a puzzle the singles solve, no snapshot is taken, so the boards list
/// nothing and are never calculated after the first pass; in both orders,
/// taking turns or together.
#[test]
fn boards_search_only_when_the_singles_stall() {
    for (order, together) in [(Order::RowMajor, false), (Order::Synchronous, false), (Order::RowMajor, true)] {
        assert_eq!(check_boards(GRID2, order, together), ([0; 10], 0), "{order:?}");
        // The S+LC+P puzzle of `status_and_history`: the boards search a
        // few snapshots only, each taken in a pass of no progress.
        let p = ".......21..5.8....6...........67.3..12....5..4...........2.1.4...3.......8.......";
        let (listed, searches) = check_boards(p, order, together);
        assert!(listed.iter().sum::<usize>() > 0 && (1..=4).contains(&searches), "{order:?}: {listed:?}, {searches}");
    }
}

#[test]
fn every_board_lists_exactly_its_rules_removals_in_turn_row_major() {
    check_boards_on_pt(Order::RowMajor, false);
}

#[test]
fn every_board_lists_exactly_its_rules_removals_in_turn_synchronous() {
    check_boards_on_pt(Order::Synchronous, false);
}

#[test]
fn every_board_lists_exactly_its_rules_removals_together_row_major() {
    check_boards_on_pt(Order::RowMajor, true);
}

#[test]
fn every_board_lists_exactly_its_rules_removals_together_synchronous() {
    check_boards_on_pt(Order::Synchronous, true);
}

/// The status and history cells after a plain run.
/// An order ending in `+together` runs the strategies together
/// (`--order-strategies together`).
fn status(with: &str, puzzle: &str, order: &str) -> (String, String) {
    let input = format!("puzzle={puzzle}");
    let mut args = command("run", with);
    let (order, together) = order.split_once('+').unwrap_or((order, ""));
    if !together.is_empty() {
        args.extend(["--order-strategies", "together"]);
    }
    args.extend(["--input", &input, "--order", order, "--show", "Main!D29", "--show", "Main!D30"]);
    let out = dataflow(&args);
    assert_eq!(out.code, 0, "{out:?}");
    let after = |label: &str| {
        let mut lines = out.stdout.lines().skip_while(|l| *l != label);
        lines.nth(1).unwrap_or_default().to_string()
    };
    (after("Main!D29:"), after("Main!D30:"))
}

#[test]
fn status_and_history() {
    // PE96 grid 2 needs singles only: the singles never stall, and locked
    // candidates never search.
    assert_eq!(status(LOCKED, GRID2, "row-major"), ("solved".into(), "iiiiiii".into()));
    assert_eq!(status(ALL, GRID2, "synchronous"), ("solved".into(), "iiiiiii".into()));
    // The first 17-clue puzzle of tier S+LC+P: locked candidates alone give up, pairs solve it.
    let p = ".......21..5.8....6...........67.3..12....5..4...........2.1.4...3.......8.......";
    let (s, h) = status(LOCKED, p, "row-major");
    assert_eq!(s, "Give UP");
    assert!(h.starts_with('i') && h.contains('!') && !h.contains(['p', '*', 't', '^']), "{h}");
    let (s, h) = status(PAIRS, p, "synchronous");
    assert_eq!(s, "solved");
    assert!(h.contains(['p', '*']) && !h.contains(['t', '^']), "{h}");
    // The X-Wing puzzle: the five give up, the X-Wing (mark X) solves it.
    // Taking turns, each success goes back to the singles and the simplest
    // first (locked candidates again before the X-Wing); together, every
    // board that finds something in an iteration adds its mark, in rank
    // order. Both orders alike.
    assert_eq!(status(FIVE, PT[3], "row-major").0, "Give UP");
    for order in ["row-major", "synchronous"] {
        assert_eq!(status(ALL, PT[3], order), ("solved".into(), "i!*!Xiiiiii".into()), "{order}");
        let together = format!("{order}+together");
        assert_eq!(status(ALL, PT[3], &together), ("solved".into(), "i!*tqXsiiiiii".into()), "{order}");
    }
    // Without a strategy part on, there is nothing to order.
    let out = dataflow(&["run", common::SUDOKU, "--order-strategies", "together"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("no cell named `strategies_order`"), "{}", out.stderr);
    // Two 1s in the first row: a contradiction, and the history stops.
    let bad = format!("1.......1{}", &GRID2[9..]);
    assert_eq!(status(LOCKED, &bad, "row-major").0, "contradiction");
}

/// Runs `batch` in JSON and returns (solved, wrong, others) and checks that
/// no puzzle hit the iteration cap.
fn batch(workbook: &str, puzzles: &Path, solutions: &Path, order: &str) -> (usize, usize, usize) {
    let (p, e) = (format!("puzzle=@{}", puzzles.display()), solutions.display().to_string());
    let mut args = command("batch", workbook);
    args.extend(["--input", &p, "--expect", &e, "--order", order, "--format", "jsonl"]);
    let out = dataflow(&args);
    assert_eq!(out.code, 0, "{out:?}");
    let (mut solved, mut wrong, mut other) = (0, 0, 0);
    for line in out.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["iterations"].as_u64().unwrap() < 100, "{workbook} hit the iteration cap: {line}");
        match v["status"].as_str().unwrap() {
            "solved" => solved += 1,
            "wrong" => wrong += 1,
            "unsolved" => other += 1,
            s => panic!("{workbook} {order}: status {s}: {line}"),
        }
    }
    (solved, wrong, other)
}

#[test]
fn pe96_counts_per_combination() {
    let (p, s) = (Path::new(common::PE96), Path::new(common::PE96_SOLUTIONS));
    for (workbook, solved) in [(SINGLES, 40), (LOCKED, 44), (PAIRS, 49), (FIVE, 49), (ALL, 50)] {
        assert_eq!(batch(workbook, p, s, "row-major"), (solved, 0, 50 - solved), "{workbook}");
    }
}

/// The first `n` puzzles of a tier of the 17-clue sample, written to the
/// test's temporary directory; returns the puzzle and solution files.
fn tier(name: &str, n: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let read = |f: &str| std::fs::read_to_string(format!("{CORPORA}/royle_17clue_2000{f}")).unwrap();
    let (tiers, puzzles, solutions) = (read(".tiers.txt"), read(".txt"), read(".solutions.txt"));
    let rows: Vec<(&str, &str)> = tiers
        .lines()
        .zip(puzzles.lines().zip(solutions.lines()))
        .filter(|(t, _)| *t == name)
        .map(|(_, ps)| ps)
        .take(n)
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (p, s) = (dir.join(format!("tier-{name}-{n}.txt")), dir.join(format!("tier-{name}-{n}.solutions.txt")));
    std::fs::write(&p, rows.iter().map(|r| format!("{}\n", r.0)).collect::<String>()).unwrap();
    std::fs::write(&s, rows.iter().map(|r| format!("{}\n", r.1)).collect::<String>()).unwrap();
    (p, s)
}

/// Each combination solves every sampled puzzle of the tiers it covers and
/// none of the next tier, in both orders, with none wrong.
fn tiers(workbook: &str, covered: &[&str], beyond: &str, n: usize) {
    for order in ["row-major", "synchronous"] {
        for t in covered {
            let (p, s) = tier(t, n);
            assert_eq!(batch(workbook, &p, &s, order), (n, 0, 0), "{workbook} {order} tier {t}");
        }
        let (p, s) = tier(beyond, n);
        assert_eq!(batch(workbook, &p, &s, order), (0, 0, n), "{workbook} {order} tier {beyond}");
    }
}

#[test]
fn locked_solves_exactly_the_s_and_lc_tiers() {
    tiers(LOCKED, &["S", "S+LC"], "S+LC+P", 100);
}

#[test]
fn pairs_solve_exactly_up_to_the_pairs_tier() {
    // The sample has 20 puzzles of the triples tier.
    tiers(PAIRS, &["S+LC", "S+LC+P"], "S+LC+PT", 20);
}

#[test]
fn all_five_solve_exactly_up_to_the_triples_tier() {
    tiers(FIVE, &["S+LC+P", "S+LC+PT"], "ALL", 12);
}

/// `batch --collect grade` (the mark of the hardest strategy the history
/// holds) is the puzzle's tier for every puzzle the strategies solve,
/// taking turns, in both orders: the first 40 of each tier of the sample
/// the eight solve (the quads the three of S+LC+PTQ).
#[test]
fn the_grade_is_the_tier() {
    let tier_of = |grade: &str| match grade {
        "" | "i" => "S",
        "!" => "S+LC",
        "p" | "*" => "S+LC+P",
        "t" | "^" => "S+LC+PT",
        "q" | "Q" => "S+LC+PTQ",
        g => panic!("grade {g}"),
    };
    for order in ["row-major", "synchronous"] {
        for t in ["S", "S+LC", "S+LC+P", "S+LC+PT", "S+LC+PTQ"] {
            let (p, e) = tier(t, 40);
            let (p, e) = (format!("puzzle=@{}", p.display()), e.display().to_string());
            let mut args = command("batch", ALL);
            args.extend(["--input", &p, "--expect", &e, "--order", order, "--collect", "grade", "--format", "jsonl"]);
            let out = dataflow(&args);
            assert_eq!(out.code, 0, "{out:?}");
            for line in out.stdout.lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                assert_eq!(v["status"], "solved", "{order} {t}: {line}");
                assert_eq!(tier_of(v["collected"]["grade"].as_str().unwrap()), t, "{order}: {line}");
            }
        }
    }
}
