//! Reasons on the boards of every size (formulas/boards/shelf/): each
//! strategy board of the board workbooks has a reason board on the shelf
//! `reason_boards`, a text per removal in Sudoku terms, named as the view's
//! `reasons:` area. With every strategy searching together, each removal a
//! board lists gets its reason in the pass it is listed: the reason names
//! the removal, and the pattern it names holds in the snapshot the board
//! searched, checked here from the candidates over the workbook's units
//! (rows, columns, boxes and hyper's extra regions).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

#[path = "reasons/board_wings.rs"]
mod wings;

use common::boards::{Cands, board, hyper_regions, plain_units, read, units};
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

/// The snapshot row (n⁴ bit masks, then the progress) as candidates.
fn snapshot(s: &Session, n: usize) -> Cands {
    let row = &read(s, "snapshot")[0];
    row[..n.pow(4)]
        .iter()
        .map(|v| match v {
            Value::Number(m) => (0..n * n).map(|d| *m >= 0.0 && (*m as u64) >> d & 1 == 1).collect(),
            _ => panic!("snapshot cell: {v:?}"),
        })
        .collect()
}

/// The reason board's texts by (cell, digit), as `board` lays out candidates.
fn reasons(s: &Session, area: &str, n: usize) -> Vec<Vec<String>> {
    let size = n * n;
    let mut t = vec![vec![String::new(); size]; size * size];
    for (i, row) in read(s, area).iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            t[(i / n) * size + j / n][(i % n) * n + j % n] = v.to_string();
        }
    }
    t
}

/// `r7c9 ≠ 6` at the end of a reason: (cell, digit), from 0.
fn removal(text: &str, size: usize) -> (usize, usize) {
    let (_, tail) = text.rsplit_once(" ⇒ ").unwrap_or_else(|| panic!("{text}"));
    let (cell, d) = tail.split_once(" ≠ ").unwrap_or_else(|| panic!("{text}"));
    (cell_of(cell, size), d.parse::<usize>().unwrap() - 1)
}

/// `r10c3` as a cell in reading order, from 0.
fn cell_of(text: &str, size: usize) -> usize {
    let (r, c) = text.trim_start_matches('r').split_once('c').unwrap_or_else(|| panic!("{text}"));
    (r.parse::<usize>().unwrap() - 1) * size + c.parse::<usize>().unwrap() - 1
}

/// `3,7` as numbers from 0; `r1c2,r1c5` as cells.
fn numbers(text: &str) -> Vec<usize> {
    text.split(',').map(|n| n.parse::<usize>().unwrap_or_else(|_| panic!("{text}")) - 1).collect()
}

/// A unit by the name a reason gives it: `row 3`, `column 3`, `box 3`, `region 3`.
fn unit<'u>(units: &'u [Vec<usize>], size: usize, kind: &str, k: &str) -> &'u [usize] {
    let k: usize = k.trim_end_matches(')').parse().unwrap();
    let first = match kind.trim_start_matches('(') {
        "row" => 0,
        "column" => size,
        "box" => 2 * size,
        "region" => 3 * size,
        other => panic!("unit kind {other}"),
    };
    &units[first + k - 1]
}

/// How many a label's pattern has.
fn size_of(label: &str) -> usize {
    match label {
        "pair" | "X-Wing" => 2,
        "triple" | "Swordfish" => 3,
        _ => 4,
    }
}

/// A reason holds in `v`, the snapshot the board searched.
fn holds(v: &Cands, units: &[Vec<usize>], n: usize, text: &str) -> bool {
    let size = n * n;
    let (me, d) = removal(text, size);
    let pattern = text.split(" ⇒ ").next().unwrap();
    let places = |u: &[usize], d: usize| -> Vec<usize> { u.iter().copied().filter(|&c| v[c][d]).collect() };
    if let Some(ok) = wings::holds(v, units, n, pattern, me, d) {
        return ok;
    }
    let words: Vec<&str> = pattern.split(' ').collect();
    match words[..] {
        ["locked", "candidates:", digit, "in", kind, k, "lies", "only", "in", other, m] => {
            let (a, b) = (unit(units, size, kind, k), unit(units, size, other, m));
            let p = places(a, d);
            digit == (d + 1).to_string()
                && p.len() >= 2
                && p.iter().all(|x| b.contains(x))
                && b.contains(&me)
                && !a.contains(&me)
        }
        ["naked", label, digits, "in", those, kind, k] => {
            let (digits, u) = (numbers(digits), unit(units, size, kind, k));
            let those: Vec<usize> = those.split(',').map(|c| cell_of(c, size)).collect();
            let inside = |&c: &usize| {
                let k: Vec<usize> = (0..size).filter(|&e| v[c][e]).collect();
                k.len() >= 2 && k.iter().all(|e| digits.contains(e))
            };
            digits.len() == size_of(label)
                && those.len() >= size_of(label)
                && those.iter().all(|x| u.contains(x) && inside(x))
                && digits.contains(&d)
                && u.contains(&me)
                && !inside(&me)
                && v[me][d]
        }
        ["hidden", label, digits, "in", those, kind, k] => {
            let (digits, u) = (numbers(digits), unit(units, size, kind, k));
            let those: Vec<usize> = those.split(',').map(|c| cell_of(c, size)).collect();
            let inside = |e: usize| places(u, e).len() >= 2 && places(u, e).iter().all(|x| those.contains(x));
            those.len() == size_of(label)
                && digits.len() >= size_of(label)
                && digits.iter().all(|&e| inside(e))
                && those.iter().all(|x| u.contains(x))
                && those.contains(&me)
                && !places(u, d).iter().all(|x| those.contains(x))
        }
        [label, "on", digit, kind, lines, _, positions] => {
            let (lines, positions) = (numbers(lines.trim_end_matches(',')), numbers(positions));
            let rows = kind == "rows";
            let at = |l: usize| -> Vec<usize> {
                (0..size).filter(|&p| v[if rows { l * size + p } else { p * size + l }][d]).collect()
            };
            let (mine, pos) = if rows { (me / size, me % size) } else { (me % size, me / size) };
            digit == format!("{}:", d + 1)
                && positions.len() == size_of(label)
                && lines.len() >= size_of(label)
                && lines.iter().all(|&l| at(l).len() >= 2 && at(l).iter().all(|p| positions.contains(p)))
                && positions.contains(&pos)
                && !lines.contains(&mine)
        }
        _ => panic!("a reason of no known shape: {text}"),
    }
}

/// Runs `puzzle` with every strategy searching together, pass by pass,
/// checking each board's new removals against their reasons; counts them
/// per board in `checked` and keeps their texts in `seen`.
fn check(
    workbook: &str,
    n: usize,
    units: &[Vec<usize>],
    boards: &[&str],
    puzzle: &str,
    checked: &mut [usize],
    seen: &mut Vec<String>,
) {
    let size = n * n;
    let mut s = Session::load_with(Path::new(workbook), &["all".to_string()]).unwrap();
    s.settings_mut().order = Order::RowMajor;
    s.set(s.area("strategies_order").unwrap().top_left(), Value::Text("together".into())).unwrap();
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    let mut listed: Vec<Cands> = boards.iter().map(|b| board(&s, &format!("{b}_board"), n)).collect();
    for _ in 0..300 {
        let report = s.step();
        let snap = snapshot(&s, n);
        for (k, b) in boards.iter().enumerate() {
            let now = board(&s, &format!("{b}_board"), n);
            let texts = reasons(&s, &format!("{b}_reasons"), n);
            for (c, d) in (0..size * size).flat_map(|c| (0..size).map(move |d| (c, d))) {
                let text = &texts[c][d];
                assert_eq!(now[c][d], !text.is_empty(), "{workbook} {b} cell {c} digit {}: {text:?}", d + 1);
                if now[c][d] && !listed[k][c][d] {
                    assert_eq!(removal(text, size), (c, d), "{text}");
                    assert!(holds(&snap, units, n, text), "{text}: not in the snapshot searched ({puzzle})");
                    checked[k] += 1;
                    seen.push(text.clone());
                }
            }
            listed[k] = now;
        }
        if report.converged {
            return;
        }
    }
    panic!("{puzzle}: no fixpoint");
}

/// The boards of `--with all` that have reason boards (all of them).
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

/// Lines of a puzzle file, from 1.
fn lines(file: &str, which: &[usize]) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let all: Vec<&str> = text.lines().collect();
    which.iter().map(|&i| all[i - 1].to_string()).collect()
}

#[test]
fn hyper_removals_have_the_patterns_that_made_them() {
    let units = units(3, &hyper_regions());
    let (mut checked, mut seen) = ([0; BOARDS.len()], Vec::new());
    for puzzle in lines("workbooks/puzzles/hyper/sudoku_space_hyper_192.txt", &[13, 85, 115, 145]) {
        check("workbooks/hyper.ron", 3, &units, &BOARDS, &puzzle, &mut checked, &mut seen);
    }
    // The extra regions are units like the others: patterns inside them too.
    assert!(seen.iter().any(|t| t.contains("(region ")), "a subset in an extra region");
    assert!(
        seen.iter().any(|t| t.contains(" in region ") || t.contains("only in region")),
        "locked in an extra region"
    );
    eprintln!("hyper: removals checked per board ({BOARDS:?}): {checked:?}");
    let fired = checked.iter().filter(|&&n| n > 0).count();
    assert!(fired >= 6, "removals checked per board ({BOARDS:?}): {checked:?}");
}

#[test]
fn sudoku16_removals_have_the_patterns_that_made_them() {
    let units = plain_units(4);
    let (mut checked, mut seen) = ([0; BOARDS.len()], Vec::new());
    for puzzle in lines("workbooks/puzzles/16x16/hexadoku_4.txt", &[3]) {
        check("workbooks/sudoku16.ron", 4, &units, &BOARDS, &puzzle, &mut checked, &mut seen);
    }
    assert!(
        seen.iter()
            .any(|t| t.contains("r1") && t.split(['c', ' ', ',']).any(|w| w.parse::<usize>().is_ok_and(|n| n > 9))),
        "two-digit rows or columns read back: {seen:?}"
    );
    eprintln!("16x16: removals checked per board ({BOARDS:?}): {checked:?}");
    assert!(checked.iter().sum::<usize>() > 0, "removals checked per board ({BOARDS:?}): {checked:?}");
}

/// Every removal of the wings, the unique rectangle and Simple Colouring
/// (the last seven boards) has its reason, the pattern holding in the
/// snapshot: on hyper lines 8, 22, 49, 82 and 35 (each but the rectangle
/// fires taking turns on one of them; here the boards search together)
/// and on the 16×16 puzzles of tests/data/wings.
#[test]
fn wing_removals_have_the_patterns_that_made_them() {
    let hyper = units(3, &hyper_regions());
    let (mut checked, mut seen) = ([0; BOARDS.len()], Vec::new());
    for puzzle in lines("workbooks/puzzles/hyper/sudoku_space_hyper_192.txt", &[8, 22, 49, 82, 35]) {
        check("workbooks/hyper.ron", 3, &hyper, &BOARDS, &puzzle, &mut checked, &mut seen);
    }
    eprintln!("hyper: removals checked per board ({BOARDS:?}): {checked:?}");
    assert!(checked[10..].iter().all(|&n| n > 0), "removals checked per board ({BOARDS:?}): {checked:?}");
    let units = plain_units(4);
    let mut checked = [0; BOARDS.len()];
    for puzzle in lines("tests/data/wings/hexadoku_derived.txt", &[1, 2, 3, 4, 5, 6]) {
        check("workbooks/sudoku16.ron", 4, &units, &BOARDS, &puzzle, &mut checked, &mut seen);
    }
    eprintln!("16x16: removals checked per board ({BOARDS:?}): {checked:?}");
    assert!(checked[10..].iter().all(|&n| n > 0), "removals checked per board ({BOARDS:?}): {checked:?}");
    let labels =
        ["Skyscraper on", "Two-String Kite on", "XY-Wing:", "XYZ-Wing:", "W-Wing:", "Unique Rectangle", "Simple"];
    for label in labels {
        let example = seen.iter().find(|t| t.starts_with(label)).unwrap();
        eprintln!("{example}");
    }
}
