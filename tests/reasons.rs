//! Reasons: a view's reason area (`reasons:` in the workbook file) gives
//! each of its cells a text saying why it holds its value, and `explain`,
//! `step --plain` and the stepper show the text of the cells that caused a
//! change. First the mechanism on a workbook written here (what is shown,
//! when, and the load error of a misshapen area); then the Sudoku
//! workbook's reasons, checked against the candidates they speak of: the
//! singles' (formulas/ellis/reasons.dfl) pass by pass against the
//! valid-values board each placement read, and every strategy board's
//! (their strategy files) against the snapshot searched; the seven
//! strategies over pairs of cells in reasons/wings.rs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
#[path = "reasons/wings.rs"]
mod wings;

use common::expect_exit;
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

/// Writes `text` as the workbook `name`.ron in this test run's directory.
fn workbook(name: &str, text: &str) -> String {
    common::temp_workbook("reasons", name, text)
}

/// A counter A1 going 1, 2, 3 (its reason in B1 says so) and C1 reading it.
fn counter(name: &str, reasons: &str) -> String {
    workbook(
        name,
        &format!(
            r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: true, max_iterations: 10, max_change: 0.001),
    cells: {{ "Main!A1": "=MIN(A1+1,3)", "Main!B1": "=\"counted to \"&A1", "Main!C1": "=A1*2" }},
    views: {{ "count": (range: "Main!A1", reasons: "{reasons}"), "double": (range: "Main!C1") }},
)"#
        ),
    )
}

#[test]
fn explain_shows_the_reason_of_each_cause_at_its_step() {
    let path = counter("counter-explain", "Main!B1");
    let out = expect_exit(0, &["explain", &path, "Main!C1"]).stdout;
    for line in [
        "step 1: empty -> 2",
        "  why Main!A1: counted to 1",
        "  why Main!A1: counted to 2",
        "  why Main!A1: counted to 3",
    ] {
        assert!(out.lines().any(|l| l.starts_with(line)), "{line}:\n{out}");
    }
    // The explained cell's own reason, when it is in a view with reasons.
    let own = expect_exit(0, &["explain", &path, "Main!A1"]).stdout;
    assert!(own.contains("\n  why: counted to 2\n"), "{own}");
    // A view without reasons gives none.
    let none = expect_exit(
        0,
        &[
            "explain",
            &workbook("plain", &std::fs::read_to_string(&path).unwrap().replace(", reasons: \"Main!B1\"", "")),
            "Main!C1",
        ],
    )
    .stdout;
    assert!(!none.contains("why"), "{none}");
}

#[test]
fn step_plain_lists_the_reasons_of_the_cells_a_step_changed() {
    let out = expect_exit(0, &["step", "--plain", &counter("counter-plain", "Main!B1")]).stdout;
    let step2: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("== step 2")).take_while(|l| !l.starts_with("== step 3")).collect();
    assert!(step2.contains(&"  why Main!A1: counted to 2"), "{out}");
    assert_eq!(step2.iter().filter(|l| l.contains("why")).count(), 1, "only the view with reasons: {step2:?}");
}

#[test]
fn a_reason_area_of_another_shape_is_refused_where_written() {
    let path = counter("counter-shape", "Main!B1:B2");
    let out = expect_exit(1, &["check", &path]);
    assert!(
        out.stderr.contains("the reason area has 2 rows and 1 columns; the view's range has 1 and 1"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("counter-shape.ron:5:"), "located: {}", out.stderr);
}

/// The text of the session's cells in `area`, row by row.
fn texts(s: &Session, area: &str) -> Vec<Vec<String>> {
    let text = |v: &Value| match v {
        Value::Text(t) => t.to_string(),
        _ => String::new(),
    };
    s.read(&s.area(area).unwrap()).iter().map(|row| row.iter().map(text).collect()).collect()
}

/// Candidates as `[row][col][digit - 1]`, from a 27x27 board.
pub type Cands = [[[bool; 9]; 9]; 9];

fn cands(s: &Session, area: &str) -> Cands {
    let mut c = [[[false; 9]; 9]; 9];
    for (i, row) in s.read(&s.area(area).unwrap()).iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            c[i / 3][j / 3][(i % 3) * 3 + j % 3] = matches!(v, Value::Number(_));
        }
    }
    c
}

/// The cells of row, column and box units, by name as the reasons say it.
fn unit(kind: &str, n: usize) -> Vec<(usize, usize)> {
    match kind {
        "row" => (0..9).map(|c| (n - 1, c)).collect(),
        "column" => (0..9).map(|r| (r, n - 1)).collect(),
        _ => (0..9).map(|p| ((n - 1) / 3 * 3 + p / 3, (n - 1) % 3 * 3 + p % 3)).collect(),
    }
}

fn sudoku(with: &[&str], puzzle: &str, order: Order) -> Session {
    let with: Vec<String> = with.iter().map(|w| w.to_string()).collect();
    let mut s = Session::load_with(Path::new(common::SUDOKU), &with).unwrap();
    s.settings_mut().order = order;
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    s
}

/// In a synchronous run every pass reads the last pass's candidates: each
/// digit placed in a pass has the reason those candidates give it, checked
/// here from the candidates themselves.
#[test]
fn every_placed_digit_has_the_single_that_placed_it() {
    let mut s = sudoku(&["reasons"], common::GRID2, Order::Synchronous);
    let mut before = cands(&s, "Main!P4:AP30");
    let mut placed = 0;
    for _ in 0..100 {
        let sol_before = s.read(&s.area("Main!D16:L24").unwrap());
        let report = s.step();
        let sol = s.read(&s.area("Main!D16:L24").unwrap());
        let reasons = texts(&s, "Main!AR16:AZ24");
        for (r, c) in (0..9).flat_map(|r| (0..9).map(move |c| (r, c))) {
            let Value::Number(d) = sol[r][c] else { continue };
            if sol_before[r][c] == sol[r][c] {
                continue;
            }
            placed += 1;
            let d = d as usize;
            let left = before[r][c].iter().filter(|&&x| x).count();
            let why = &reasons[r][c];
            if left == 1 {
                assert_eq!(why, &format!("naked single: only {d} left in r{}c{}", r + 1, c + 1));
            } else {
                let rest = why
                    .strip_prefix(&format!("hidden single: {d} has one place in "))
                    .unwrap_or_else(|| panic!("r{}c{}: {why}", r + 1, c + 1));
                let (kind, n) = rest.split_once(' ').unwrap();
                let places: Vec<_> =
                    unit(kind, n.parse().unwrap()).into_iter().filter(|&(y, x)| before[y][x][d - 1]).collect();
                assert_eq!(places, vec![(r, c)], "r{}c{}: {why}", r + 1, c + 1);
            }
        }
        before = cands(&s, "Main!P4:AP30");
        if report.converged {
            break;
        }
    }
    assert!(placed > 40, "{placed} digits placed");
    let reasons = texts(&s, "Main!AR16:AZ24");
    for (n, ch) in common::GRID2.chars().enumerate() {
        let why = &reasons[n / 9][n % 9];
        assert_eq!(why == "given", ch.is_ascii_digit() && ch != '0', "r{}c{}: {why}", n / 9 + 1, n % 9 + 1);
    }
}

/// The snapshot the boards search (Main!P32:CS32: 81 bit masks).
fn snapshot(s: &Session) -> Cands {
    let row = &s.read(&s.area("Main!P32:CS32").unwrap())[0];
    let mut c = [[[false; 9]; 9]; 9];
    for (n, v) in row[..81].iter().enumerate() {
        let Value::Number(mask) = v else { panic!("{v:?}") };
        (0..9).for_each(|d| c[n / 9][n % 9][d] = *mask >= 0.0 && (*mask as u32) >> d & 1 == 1);
    }
    c
}

/// `r7c9 ≠ 6` at the end of a reason: (row, column, digit), from 1.
fn removal(text: &str) -> (usize, usize, usize) {
    let (_, tail) = text.rsplit_once(" ⇒ r").unwrap_or_else(|| panic!("{text}"));
    let (r, rest) = tail.split_once('c').unwrap();
    let (c, d) = rest.split_once(" ≠ ").unwrap();
    (r.parse().unwrap(), c.parse().unwrap(), d.parse().unwrap())
}

/// `3,7` as numbers.
pub fn list(text: &str) -> Vec<usize> {
    text.split(',').map(|n| n.trim().parse().unwrap_or_else(|_| panic!("{text}"))).collect()
}

/// `r1c2,r1c5` as (row, column) from 0.
pub fn cells(text: &str) -> Vec<(usize, usize)> {
    text.split(',')
        .map(|rc| {
            let (r, c) = rc.trim_start_matches('r').split_once('c').unwrap();
            (r.parse::<usize>().unwrap() - 1, c.parse::<usize>().unwrap() - 1)
        })
        .collect()
}

/// How many a label's pattern has: pair 2, triple 3, quad 4; X-Wing 2,
/// Swordfish 3, Jellyfish 4.
fn size(label: &str) -> usize {
    match label {
        "pair" | "X-Wing" => 2,
        "triple" | "Swordfish" => 3,
        _ => 4,
    }
}

/// A reason holds in `v`, the snapshot the board searched: the pattern it
/// names is there, and it removes the candidate the reason ends with.
fn holds(v: &Cands, text: &str) -> bool {
    let (r, c, d) = removal(text);
    let me = (r - 1, c - 1);
    let pattern = text.split(" ⇒ ").next().unwrap();
    let places = |u: &[(usize, usize)], d: usize| -> Vec<(usize, usize)> {
        u.iter().filter(|&&(y, x)| v[y][x][d - 1]).copied().collect()
    };
    if let Some(ok) = wings::holds(v, pattern, me, d) {
        return ok;
    }
    let words: Vec<&str> = pattern.split(' ').collect();
    match words[..] {
        // locked candidates: 6 in box 2 lies only in row 3
        ["locked", "candidates:", digit, "in", kind, n, "lies", "only", "in", other, m] => {
            let (a, b) = (unit(kind, n.parse().unwrap()), unit(other, m.parse().unwrap()));
            let p = places(&a, d);
            digit == d.to_string()
                && p.len() >= 2
                && p.iter().all(|x| b.contains(x))
                && b.contains(&me)
                && !a.contains(&me)
        }
        // naked pair 3,7 in r1c2,r1c5 (row 1)
        ["naked", label, digits, "in", those, kind, n] => {
            let (digits, those, u) =
                (list(digits), cells(those), unit(&kind[1..], n.trim_end_matches(')').parse().unwrap()));
            let inside = |&(y, x): &(usize, usize)| {
                let k: Vec<usize> = (1..=9).filter(|&e| v[y][x][e - 1]).collect();
                k.len() >= 2 && k.iter().all(|e| digits.contains(e))
            };
            digits.len() == size(label)
                && those.len() >= size(label)
                && those.iter().all(|x| u.contains(x) && inside(x))
                && digits.contains(&d)
                && u.contains(&me)
                && !inside(&me)
                && v[me.0][me.1][d - 1]
        }
        // hidden pair 2,5 in r4c8,r5c8 (column 8)
        ["hidden", label, digits, "in", those, kind, n] => {
            let (digits, those, u) =
                (list(digits), cells(those), unit(&kind[1..], n.trim_end_matches(')').parse().unwrap()));
            let inside = |e: usize| places(&u, e).len() >= 2 && places(&u, e).iter().all(|x| those.contains(x));
            those.len() == size(label)
                && digits.len() >= size(label)
                && digits.iter().all(|&e| inside(e))
                && those.iter().all(|x| u.contains(x))
                && those.contains(&me)
                && !places(&u, d).iter().all(|x| those.contains(x))
        }
        // X-Wing on 7: rows 2,6, columns 4,8
        [label, "on", digit, kind, lines, _, positions] => {
            let (lines, positions) = (list(lines.trim_end_matches(',')), list(positions));
            let line = |l: usize| unit(if kind == "rows" { "row" } else { "column" }, l);
            let at = |l: usize| -> Vec<usize> {
                places(&line(l), d).iter().map(|&(y, x)| if kind == "rows" { x + 1 } else { y + 1 }).collect()
            };
            let (mine, pos) = if kind == "rows" { (r, c) } else { (c, r) };
            digit == format!("{d}:")
                && positions.len() == size(label)
                && lines.len() >= size(label)
                && lines.iter().all(|&l| at(l).len() >= 2 && at(l).iter().all(|p| positions.contains(p)))
                && positions.contains(&pos)
                && !lines.contains(&mine)
        }
        _ => panic!("a reason of no known shape: {text}"),
    }
}

/// The strategy boards with reason boards, and their reason boards.
const BOARDS: [&str; 17] = [
    "locked",
    "naked_pairs",
    "hidden_pairs",
    "naked_triples",
    "hidden_triples",
    "naked_quads",
    "x_wing",
    "hidden_quads",
    "swordfish",
    "jellyfish",
    "skyscraper",
    "kite",
    "xy_wing",
    "xyz_wing",
    "w_wing",
    "unique_rectangle",
    "colouring",
];

/// Every strategy on, all searching together in row-major order (so that
/// every board fires on the puzzles of tests/data/reasons): each removal a
/// board lists gets a reason in the pass it is listed, naming the removal
/// and a pattern that holds in the snapshot the board searched.
#[test]
fn every_removal_has_the_pattern_that_made_it() {
    let puzzles = std::fs::read_to_string("tests/data/reasons/puzzles.txt").unwrap();
    let mut checked = [0; BOARDS.len()];
    for puzzle in puzzles.lines().filter(|l| !l.starts_with('#')) {
        let mut s = sudoku(&["all"], puzzle, Order::RowMajor);
        s.set(s.area("strategies_order").unwrap().top_left(), Value::Text("together".into())).unwrap();
        s.reset().unwrap();
        let mut listed: Vec<Cands> = BOARDS.iter().map(|b| cands(&s, &format!("{b}_board"))).collect();
        for _ in 0..200 {
            let report = s.step();
            let snap = snapshot(&s);
            for (k, board) in BOARDS.iter().enumerate() {
                let now = cands(&s, &format!("{board}_board"));
                let texts = texts(&s, &format!("{board}_reasons"));
                for (r, c, d) in (0..9).flat_map(|r| (0..9).flat_map(move |c| (0..9).map(move |d| (r, c, d)))) {
                    let text = &texts[r * 3 + d / 3][c * 3 + d % 3];
                    assert_eq!(now[r][c][d], !text.is_empty(), "{board} r{}c{} {}: {text:?}", r + 1, c + 1, d + 1);
                    if now[r][c][d] && !listed[k][r][c][d] {
                        assert_eq!(removal(text), (r + 1, c + 1, d + 1), "{text}");
                        assert!(holds(&snap, text), "{text}: not in the snapshot searched ({puzzle})");
                        checked[k] += 1;
                    }
                }
                listed[k] = now;
            }
            if report.converged {
                break;
            }
        }
    }
    assert!(checked.iter().all(|&n| n > 0), "removals checked per board ({BOARDS:?}): {checked:?}");
}
