//! The strategies of the board workbooks (formulas/boards/shelf/) in
//! Rust, generalised to a box side `n` and a list of units (rows, columns,
//! boxes and any extra region), and a pass-by-pass model of the gate and
//! the turns that checks every board of a session against them, as
//! tests/strategies.rs does for the 9×9 article.

use dataflow::address::Area;
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;

/// Candidates as `[cell][digit - 1]`, cells in reading order.
pub type Cands = Vec<Vec<bool>>;

/// A rule: the removals it finds in some candidates.
pub type Rule<'a> = &'a dyn Fn(&Cands) -> Cands;

/// A rule held in a box, as [`all_boards`] lists them.
pub type OwnedRule<'a> = Box<dyn Fn(&Cands) -> Cands + 'a>;

/// The values of an area or name, row by row.
pub fn read(s: &Session, area: &str) -> Vec<Vec<Value>> {
    s.read(&s.area(area).unwrap_or_else(|e| panic!("no area {area}: {e:?}")))
}

/// A board shaped like the valid-values board (box side `n`) as candidates:
/// true where it holds a number.
pub fn board(s: &Session, area: &str, n: usize) -> Cands {
    let size = n * n;
    let mut c = vec![vec![false; size]; size * size];
    for (i, row) in read(s, area).iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            c[(i / n) * size + j / n][(i % n) * n + j % n] = matches!(v, Value::Number(_));
        }
    }
    c
}

/// Rows, columns and boxes of a board of box side `n`, as lists of cells.
pub fn plain_units(n: usize) -> Vec<Vec<usize>> {
    let size = n * n;
    let mut u: Vec<Vec<usize>> = (0..size).map(|r| (0..size).map(|c| r * size + c).collect()).collect();
    u.extend((0..size).map(|c| (0..size).map(|r| r * size + c).collect()));
    u.extend((0..size).map(|b| (0..size).map(|p| (b / n * n + p / n) * size + b % n * n + p % n).collect()));
    u
}

/// The units of a board of box side `n`: rows, columns, boxes, then the
/// extra regions of `regions` (a region number per cell, 0 for none).
pub fn units(n: usize, regions: &[usize]) -> Vec<Vec<usize>> {
    let mut u = plain_units(n);
    let count = regions.iter().copied().max().unwrap_or(0);
    u.extend((1..=count).map(|k| (0..regions.len()).filter(|&c| regions[c] == k).collect()));
    u
}

/// hyper.ron's region map: four 3×3 regions at rows and columns 2-4 and 6-8.
pub fn hyper_regions() -> Vec<usize> {
    let band = |i: usize| match i {
        1..=3 => Some(0),
        5..=7 => Some(1),
        _ => None,
    };
    (0..81).map(|c| band(c / 9).zip(band(c % 9)).map_or(0, |(r, k)| 1 + 2 * r + k)).collect()
}

/// The subsets of `k` out of `0..m`, each in increasing order.
pub fn subsets(m: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    (k - 1..m).flat_map(|last| subsets(last, k - 1).into_iter().map(move |mut s| (s.push(last), s).1)).collect()
}

/// Locked candidates: for each unit U and digit, when its places (two or
/// more) all lie in another unit V, the digit is removed from V outside U.
/// `pairs` says which pairs of units (by index) are looked at.
pub fn locked(v: &Cands, units: &[Vec<usize>], pairs: impl Fn(usize, usize) -> bool) -> Cands {
    let mut e = vec![vec![false; v[0].len()]; v.len()];
    for d in 0..v[0].len() {
        for (i, a) in units.iter().enumerate() {
            let places: Vec<usize> = a.iter().copied().filter(|&c| v[c][d]).collect();
            if places.len() < 2 {
                continue;
            }
            for (j, b) in units.iter().enumerate() {
                if i == j || !pairs(i, j) || !places.iter().all(|p| b.contains(p)) {
                    continue;
                }
                b.iter().filter(|c| !a.contains(c)).for_each(|&c| e[c][d] = true);
            }
        }
    }
    e
}

/// Naked subsets of `k`: `k` cells (two or more candidates each) of a unit
/// inside `k` digits remove those digits from the unit's other cells.
pub fn naked(v: &Cands, units: &[Vec<usize>], k: usize) -> Cands {
    let m = v[0].len();
    let mut e = vec![vec![false; m]; v.len()];
    let masks: Vec<u64> = v.iter().map(|c| (0..m).filter(|&d| c[d]).map(|d| 1u64 << d).sum()).collect();
    for set in subsets(m, k) {
        let s: u64 = set.iter().map(|&d| 1u64 << d).sum();
        for unit in units {
            let inside = |c: usize| masks[c] & !s == 0;
            if unit.iter().filter(|&&c| inside(c) && masks[c].count_ones() >= 2).count() >= k {
                for &c in unit.iter().filter(|&&c| !inside(c)) {
                    set.iter().for_each(|&d| e[c][d] = true);
                }
            }
        }
    }
    e
}

/// Hidden subsets of `k`: `k` digits (two or more places each) of a unit
/// inside `k` of its positions remove every other digit from those cells.
pub fn hidden(v: &Cands, units: &[Vec<usize>], k: usize) -> Cands {
    let m = v[0].len();
    let mut e = vec![vec![false; m]; v.len()];
    for unit in units {
        // The places of each digit, as a mask of positions in the unit.
        let places: Vec<u64> =
            (0..m).map(|d| (0..unit.len()).filter(|&p| v[unit[p]][d]).map(|p| 1u64 << p).sum()).collect();
        for set in subsets(unit.len(), k) {
            let s: u64 = set.iter().map(|&p| 1u64 << p).sum();
            let inside = |d: usize| places[d] & !s == 0;
            if (0..m).filter(|&d| inside(d) && places[d].count_ones() >= 2).count() >= k {
                for d in (0..m).filter(|&d| !inside(d)) {
                    set.iter().for_each(|&p| e[unit[p]][d] = true);
                }
            }
        }
    }
    e
}

/// Fish of `k` (X-Wing for 2) on a board of box side `n`: `k` lines of one
/// kind (rows, or columns) whose places for a digit (two or more each) lie
/// in `k` positions remove the digit from those positions in every other line.
pub fn fish(v: &Cands, n: usize, k: usize) -> Cands {
    let size = n * n;
    let mut e = vec![vec![false; size]; v.len()];
    for d in 0..size {
        for rows in [true, false] {
            let at = |line: usize, p: usize| if rows { line * size + p } else { p * size + line };
            let places: Vec<u64> =
                (0..size).map(|line| (0..size).filter(|&p| v[at(line, p)][d]).map(|p| 1u64 << p).sum()).collect();
            for set in subsets(size, k) {
                let s: u64 = set.iter().map(|&p| 1u64 << p).sum();
                let base = |line: usize| places[line].count_ones() >= 2 && places[line] & !s == 0;
                if (0..size).filter(|&line| base(line)).count() >= k {
                    for line in (0..size).filter(|&line| !base(line)) {
                        set.iter().for_each(|&p| e[at(line, p)][d] = true);
                    }
                }
            }
        }
    }
    e
}

/// The boards of a workbook's `--with all`, in rank order (their places on
/// the shelf), with their rules over `units` on a board of box side `n`:
/// locked candidates, naked and hidden pairs and triples, naked quads,
/// X-Wing, hidden quads, Swordfish, Jellyfish, then the strategies over
/// pairs of cells (common::wings) in rank order (at 25×25 the quads, the
/// Swordfish, the Jellyfish and the wings are not parts).
pub fn all_boards(n: usize, units: &[Vec<usize>]) -> Vec<(&'static str, OwnedRule<'_>)> {
    let mut b: Vec<(&'static str, OwnedRule<'_>)> = vec![
        ("locked_board", Box::new(move |c: &Cands| locked(c, units, |_, _| true))),
        ("naked_pairs_board", Box::new(move |c: &Cands| naked(c, units, 2))),
        ("hidden_pairs_board", Box::new(move |c: &Cands| hidden(c, units, 2))),
        ("naked_triples_board", Box::new(move |c: &Cands| naked(c, units, 3))),
        ("hidden_triples_board", Box::new(move |c: &Cands| hidden(c, units, 3))),
    ];
    if n < 5 {
        b.push(("naked_quads_board", Box::new(move |c: &Cands| naked(c, units, 4))));
    }
    b.push(("x_wing_board", Box::new(move |c: &Cands| fish(c, n, 2))));
    if n < 5 {
        b.push(("hidden_quads_board", Box::new(move |c: &Cands| hidden(c, units, 4))));
        b.push(("swordfish_board", Box::new(move |c: &Cands| fish(c, n, 3))));
        b.push(("jellyfish_board", Box::new(move |c: &Cands| fish(c, n, 4))));
        b.extend(wings(n, units));
    }
    b
}

/// The strategies over pairs of cells (common::wings) in rank order, as
/// the board workbooks' parts of ranks 11 to 17 (not at 25×25).
pub fn wings(n: usize, units: &[Vec<usize>]) -> Vec<(&'static str, OwnedRule<'_>)> {
    use super::wings::{colouring, kite, skyscraper, unique_rectangle, w_wing, xy_wing, xyz_wing};
    vec![
        ("skyscraper_board", Box::new(move |c: &Cands| skyscraper(c, n, units))),
        ("kite_board", Box::new(move |c: &Cands| kite(c, n, units))),
        ("xy_wing_board", Box::new(move |c: &Cands| xy_wing(c, units))),
        ("xyz_wing_board", Box::new(move |c: &Cands| xyz_wing(c, units))),
        ("w_wing_board", Box::new(move |c: &Cands| w_wing(c, units))),
        ("unique_rectangle_board", Box::new(move |c: &Cands| unique_rectangle(c, n, units))),
        ("colouring_board", Box::new(move |c: &Cands| colouring(c, units))),
    ]
}

/// Counts the evaluations of cells inside some areas (the strategy boards) in a pass.
struct Evaluations(Vec<Area>, usize);

impl dataflow::engine::Observer for Evaluations {
    fn evaluate(&mut self, cell: dataflow::address::CellAddr) {
        self.1 += usize::from(self.0.iter().any(|a| a.contains(cell)));
    }
}

/// The snapshot row (n⁴ bit masks, then the progress they were taken at)
/// as candidates and that progress; `None` before one is taken (-1 everywhere).
fn snapshot(s: &Session, n: usize) -> Option<(Cands, f64)> {
    let row = &read(s, "snapshot")[0];
    let cells = n.pow(4);
    assert_eq!(row.len(), cells + 1);
    if row[cells] == Value::Number(-1.0) {
        assert!(row.iter().all(|v| *v == Value::Number(-1.0)), "{row:?}");
        return None;
    }
    let masks = row[..cells].iter().map(|v| match v {
        Value::Number(mask) => (0..n * n).map(|d| (*mask as u64) >> d & 1 == 1).collect(),
        _ => panic!("snapshot cell: {v:?}"),
    });
    let Value::Number(taken) = row[cells] else { panic!("{:?}", row[cells]) };
    Some((masks.collect(), taken))
}

/// The progress the formulas compare: candidates left × (cells + 1) + digits placed.
fn progress(s: &Session, cands: &Cands) -> f64 {
    let placed = read(s, "sol_board").iter().flatten().filter(|v| matches!(v, Value::Number(_))).count();
    (cands.iter().flatten().filter(|&&x| x).count() * (cands.len() + 1) + placed) as f64
}

/// Runs `puzzle` pass by pass on `s` (loaded with the parts of `boards`, in
/// rank order: their places on the shelf) and checks, as
/// tests/strategies.rs does for the 9×9 article: the snapshot is taken (the
/// candidates and progress read, row-major: this pass's; synchronous: the
/// last pass's) only in a pass whose progress equals the one read in the
/// pass before and not every digit is placed, and kept otherwise; each
/// board adds exactly what its rule removes from the snapshot it read
/// (where the snapshot holds the candidate) when it searches, and drops
/// nothing; the boards take turns (the first for a new snapshot, the same
/// while it has found something there, the next once it found nothing) or
/// search together; the gate's and the turn's memories hold what the model
/// says; and no board cell is calculated in a pass where neither the
/// snapshot the boards read, the turn nor a board changed. Returns how many
/// removals each board listed in the end and how many snapshots were searched.
pub fn check_boards(
    mut s: Session,
    n: usize,
    boards: &[(&str, Rule)],
    puzzle: &str,
    order: Order,
    together: bool,
) -> (Vec<usize>, usize) {
    let size = n * n;
    let cells = size * size;
    s.settings_mut().order = order;
    if together {
        s.set(s.area("strategies_order").unwrap().top_left(), Value::Text("together".into())).unwrap();
    }
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    let areas: Vec<Area> = boards.iter().map(|(a, _)| s.area(a).unwrap()).collect();
    let mut listed: Vec<Cands> = boards.iter().map(|(a, _)| board(&s, a, n)).collect();
    assert!(listed.iter().flatten().flatten().all(|&x| !x), "the reset protocol clears the boards");
    let cands = board(&s, "val_board", n);
    let mut before = (cands.clone(), progress(&s, &cands));
    let (mut seen, mut taken, mut searched, mut searches, mut boards_changed) = (None, None, None, 0, true);
    let (mut turn, mut found, mut turn_before, mut new_snapshot) = (0, false, 0, false);
    let nothing = vec![vec![false; size]; cells];
    for pass in 1..300 {
        let mut evaluations = Evaluations(areas.clone(), 0);
        let report = s.engine_mut().step_with(&mut evaluations);
        let cands = board(&s, "val_board", n);
        let after = (cands.clone(), progress(&s, &cands));
        let read_now = if order == Order::RowMajor { &after } else { &before };
        let stalled = seen == Some(read_now.1) && read_now.1 % (cells as f64 + 1.0) < cells as f64;
        seen = Some(read_now.1);
        let last_taken = taken.clone();
        if stalled {
            taken = Some(read_now.clone());
        }
        assert_eq!(snapshot(&s, n), taken, "{puzzle}: snapshot, pass {pass}");
        let read_by_boards = if order == Order::RowMajor { taken.clone() } else { last_taken };
        let last_turn = std::mem::replace(&mut turn_before, turn);
        turn = match read_by_boards {
            _ if together => 0,
            None => 0,
            Some(_) if read_by_boards != searched => 1,
            Some(_) if turn <= boards.len() && !found => turn + 1,
            Some(_) => turn,
        };
        let woken = std::mem::replace(&mut new_snapshot, read_by_boards != searched);
        if read_by_boards != searched {
            searches += 1;
        } else if !boards_changed && !woken && turn == turn_before && turn == last_turn {
            assert_eq!(evaluations.1, 0, "{puzzle}: board cells calculated in pass {pass} with nothing new to read");
        }
        searched = read_by_boards;
        let cell = |a: &str, i: usize| read(&s, a)[0][i].clone();
        let stamp = searched.as_ref().map_or(-1.0, |t| t.1);
        assert_eq!(cell("gate_memory", 1), Value::Number(stamp), "{puzzle}: progress searched, pass {pass}");
        assert_eq!(cell("gate_memory", 2), Value::Number(read_now.1), "{puzzle}: progress seen, pass {pass}");
        assert_eq!(cell("turn_memory", 1), Value::Number(turn as f64), "{puzzle}: turn, pass {pass}");
        boards_changed = false;
        for (k, (area, rule)) in boards.iter().enumerate() {
            let (snap, found_now) = match &searched {
                Some((c, _)) if together || k + 1 == turn => (c.clone(), rule(c)),
                _ => (nothing.clone(), nothing.clone()),
            };
            let now = board(&s, area, n);
            for (c, d) in (0..cells).flat_map(|c| (0..size).map(move |d| (c, d))) {
                let expected = listed[k][c][d] || (found_now[c][d] && snap[c][d]);
                let (r, col) = (c / size + 1, c % size + 1);
                assert_eq!(now[c][d], expected, "{puzzle}: {area}, pass {pass}, r{r}c{col} digit {}", d + 1);
            }
            if k + 1 == turn {
                let snap = searched.as_ref().map(|t| &t.0).unwrap_or(&nothing);
                found = (0..cells).any(|c| (0..size).any(|d| now[c][d] && snap[c][d]));
            }
            boards_changed |= now != listed[k];
            listed[k] = now;
        }
        before = after;
        if report.converged {
            let counts = listed.iter().map(|b| b.iter().flatten().filter(|&&x| x).count()).collect();
            return (counts, searches);
        }
    }
    panic!("{puzzle}: no fixpoint");
}

/// Checks every board of `workbook --with all` (in rank order, as
/// [`all_boards`] lists them) on `puzzles` with [`check_boards`], in both
/// orders taking turns and row-major together; returns how many removals
/// each board listed, over all runs, by board name.
pub fn check_all(workbook: &str, n: usize, regions: &[usize], puzzles: &[&str]) -> Vec<(&'static str, usize)> {
    let u = units(n, regions);
    let owned = all_boards(n, &u);
    let boards: Vec<(&str, Rule)> = owned.iter().map(|(a, r)| (*a, r.as_ref() as Rule)).collect();
    let mut total = vec![0; boards.len()];
    for p in puzzles {
        for (order, together) in [(Order::RowMajor, false), (Order::Synchronous, false), (Order::RowMajor, true)] {
            let s = Session::load_with(std::path::Path::new(workbook), &["all".to_string()])
                .unwrap_or_else(|d| panic!("{workbook} --with all does not load: {d:?}"));
            let (listed, searches) = check_boards(s, n, &boards, p, order, together);
            assert!(searches > 0, "{workbook} {p}: the singles stall");
            total.iter_mut().zip(&listed).for_each(|(t, l)| *t += l);
        }
    }
    owned.iter().map(|(a, _)| *a).zip(total).collect()
}
