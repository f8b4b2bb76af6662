//! The pass-by-pass model of the strategy boards of `workbooks/sudoku.ron
//! --with all`: the snapshot, the gate, the turns, and each board checked
//! against its reference rule (rules.rs, wings.rs) in every pass. Included
//! by tests/strategies.rs (`#[path]`).

use crate::common;
use crate::rules::{Cands, fish, hidden, locked, naked};
use crate::wings::{colouring, kite, skyscraper, unique_rectangle, w_wing, xy_wing, xyz_wing};
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

/// A 27x27 board (valid values or a strategy board) as candidates: true
/// where it holds a number.
pub fn board(s: &Session, area: &str) -> Cands {
    let values = s.read(&s.area(area).unwrap());
    let mut c = [[[false; 9]; 9]; 9];
    for (i, row) in values.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            c[i / 3][j / 3][(i % 3) * 3 + j % 3] = matches!(v, Value::Number(_));
        }
    }
    c
}

/// A strategy's reference rule: the removals it finds in some candidates.
pub type Rule = fn(&Cands) -> Cands;

/// The boards of `--with all`: area, reference rule.
pub const BOARDS: [(&str, Rule); 17] = [
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
    ("skyscraper_board", skyscraper),
    ("kite_board", kite),
    ("xy_wing_board", xy_wing),
    ("xyz_wing_board", xyz_wing),
    ("w_wing_board", w_wing),
    ("unique_rectangle_board", unique_rectangle),
    ("colouring_board", colouring),
];

/// How many boards `--with all` has.
pub const N: usize = BOARDS.len();

/// The progress the boards compare: candidates left x 100 + digits placed.
pub fn progress(v: &Cands, s: &Session) -> f64 {
    let placed =
        s.read(&s.area("Main!D16:L24").unwrap()).iter().flatten().filter(|v| matches!(v, Value::Number(_))).count();
    (v.iter().flatten().flatten().filter(|&&x| x).count() * 100 + placed) as f64
}

/// Counts the evaluations of strategy-board cells (the shelf's N
/// places, 30 rows apart from P34:AP60) in a pass.
#[derive(Default)]
pub struct BoardEvaluations(usize);

impl dataflow::engine::Observer for BoardEvaluations {
    fn evaluate(&mut self, cell: dataflow::address::CellAddr) {
        self.0 += usize::from((33..30 + 30 * N as u32).contains(&cell.row) && (15..=41).contains(&cell.col));
    }
}

/// The snapshot (`Main!P32:CS32`) as candidates and the progress it was
/// taken at; `None` before one is taken (-1 everywhere).
pub fn snapshot(s: &Session) -> Option<(Cands, f64)> {
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
pub fn check_boards(puzzle: &str, order: Order, together: bool) -> ([usize; N], usize) {
    let mut s = Session::load_with(Path::new(common::SUDOKU), &["all".to_string()]).unwrap();
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
