//! The reasons of the strategies over pairs of cells (Skyscraper,
//! Two-String Kite, XY-Wing, XYZ-Wing, W-Wing, Unique Rectangle, Simple
//! Colouring), checked against the snapshot the board searched: each text
//! is parsed, and the pattern it names is looked for in the candidates, in
//! Rust, from the rule's definition (not from the formula files), with the
//! removal it implies. Included by tests/reasons.rs.

use crate::{Cands, cells};
use std::collections::{BTreeMap, BTreeSet};

/// A cell as (row, column), from 0.
type Cell = (usize, usize);

fn box_of(c: Cell) -> usize {
    c.0 / 3 * 3 + c.1 / 3
}

/// Two different cells in one row, column or box.
fn sees(a: Cell, b: Cell) -> bool {
    a != b && (a.0 == b.0 || a.1 == b.1 || box_of(a) == box_of(b))
}

/// The candidates of a cell, as digits from 1.
fn digits(v: &Cands, c: Cell) -> Vec<usize> {
    (1..=9).filter(|&d| v[c.0][c.1][d - 1]).collect()
}

/// `(3,7),` or `3,7:` as digits.
fn digit_list(text: &str) -> Vec<usize> {
    crate::list(text.trim_matches(|ch: char| "(),:".contains(ch)))
}

/// `r2c3-r2c7` as two cells.
fn link(text: &str) -> [Cell; 2] {
    let (a, b) = text.split_once('-').unwrap_or_else(|| panic!("{text}"));
    [cells(a)[0], cells(b)[0]]
}

/// The units (27) holding both cells.
fn units_of(a: Cell, b: Cell) -> Vec<Vec<Cell>> {
    let mut u = Vec::new();
    if a.0 == b.0 {
        u.push((0..9).map(|c| (a.0, c)).collect());
    }
    if a.1 == b.1 {
        u.push((0..9).map(|r| (r, a.1)).collect());
    }
    if box_of(a) == box_of(b) {
        let k = box_of(a);
        u.push((0..9).map(|p| (k / 3 * 3 + p / 3, k % 3 * 3 + p % 3)).collect());
    }
    u
}

/// `l` is a strong link of digit `d` in some unit (or, with `kind`, in that
/// kind of line: "row", "column"): the digit's only two places there.
fn strong(v: &Cands, d: usize, l: [Cell; 2], kind: Option<&str>) -> bool {
    let wanted = |u: &Vec<Cell>| match kind {
        Some("row") => u[0].0 == u[8].0,
        Some("column") => u[0].1 == u[8].1,
        _ => true,
    };
    units_of(l[0], l[1]).iter().filter(|u| wanted(u)).any(|u| {
        let places: Vec<Cell> = u.iter().filter(|c| v[c.0][c.1][d - 1]).copied().collect();
        places.len() == 2 && places.contains(&l[0]) && places.contains(&l[1])
    })
}

/// The strong links of digit `d` colour its cells: (cluster, colour) per cell.
fn colours(v: &Cands, d: usize) -> BTreeMap<Cell, (Cell, bool)> {
    let all: Vec<Cell> = (0..81).map(|n| (n / 9, n % 9)).filter(|c| v[c.0][c.1][d - 1]).collect();
    let mut colour = BTreeMap::new();
    for &start in &all {
        if colour.contains_key(&start) {
            continue;
        }
        let mut todo = vec![(start, false)];
        while let Some((c, k)) = todo.pop() {
            if colour.contains_key(&c) {
                continue;
            }
            colour.insert(c, (start, k));
            todo.extend(all.iter().filter(|&&o| strong(v, d, [c, o], None)).map(|&o| (o, !k)));
        }
    }
    colour
}

/// A reason of one of the seven kinds holds in `v`, the snapshot searched:
/// the pattern is there and removes digit `d` from `me`. `None` when the
/// text is of none of these kinds.
pub fn holds(v: &Cands, pattern: &str, me: Cell, d: usize) -> Option<bool> {
    // Simple Colouring's chain, after "; chain ": its cells of each colour.
    let (pattern, chain) = match pattern.split_once("; chain ") {
        Some((p, chain)) => (p, chain.split_once(" | ").map(|(one, other)| (cells(one), cells(other)))),
        None => (pattern, None),
    };
    let words: Vec<&str> = pattern.split(' ').collect();
    let mine = v[me.0][me.1][d - 1];
    let ok = match words[..] {
        // Skyscraper on 6: r2c3-r2c7 and r6c3-r6c8 (rows, base column 3)
        ["Skyscraper", "on", digit, l1, "and", l2, kind, "base", _, base] => {
            let (l1, l2, rows) = (link(l1), link(l2), kind == "(rows,");
            let line = if rows { "row" } else { "column" };
            let across = |c: Cell| if rows { c.1 } else { c.0 };
            let (a, b) = (l1[1], l2[1]);
            digit == format!("{d}:")
                && strong(v, d, l1, Some(line))
                && strong(v, d, l2, Some(line))
                && across(l1[0]) == across(l2[0])
                && across(l1[0]) + 1 == base.trim_end_matches(')').parse::<usize>().unwrap()
                && a.0 != b.0
                && a.1 != b.1
                && sees(me, a)
                && sees(me, b)
        }
        // Two-String Kite on 6: r2c3-r2c7 (row 2) and r3c1-r8c1 (column 1), joined in box 1
        ["Two-String", "Kite", "on", digit, row, _, _, "and", col, _, _, "joined", "in", "box", n] => {
            let (row, col) = (link(row), link(col));
            let four = [row[0], row[1], col[0], col[1]];
            digit == format!("{d}:")
                && strong(v, d, row, Some("row"))
                && strong(v, d, col, Some("column"))
                && (0..4).all(|i| (i + 1..4).all(|j| four[i] != four[j]))
                && box_of(row[0]) == box_of(col[0])
                && box_of(row[0]) + 1 == n.parse::<usize>().unwrap()
                && sees(me, row[1])
                && sees(me, col[1])
        }
        // XY-Wing: pivot r5c5 (3,7), pincers r5c1 (3,9), r2c5 (7,9)
        [label @ ("XY-Wing:" | "XYZ-Wing:"), "pivot", p, pd, "pincers", a, ad, b, bd] => {
            let (p, a, b) = (cells(p)[0], cells(a.trim_end_matches(','))[0], cells(b)[0]);
            let (pd, ad, bd) = (digit_list(pd), digit_list(ad), digit_list(bd));
            let shown = digits(v, p) == pd && digits(v, a) == ad && digits(v, b) == bd;
            let (x, y): (Vec<usize>, Vec<usize>) =
                (ad.iter().copied().filter(|&e| e != d).collect(), bd.iter().copied().filter(|&e| e != d).collect());
            let xyz = label == "XYZ-Wing:";
            let mut want = [x.clone(), y.clone(), if xyz { vec![d] } else { vec![] }].concat();
            want.sort();
            shown
                && ad.len() == 2
                && bd.len() == 2
                && ad.contains(&d)
                && bd.contains(&d)
                && x != y
                && pd == want
                && sees(p, a)
                && sees(p, b)
                && sees(me, a)
                && sees(me, b)
                && (!xyz || sees(me, p))
        }
        // W-Wing: r1c2, r5c8 (3,7), strong link on 7 r1c5-r5c5
        ["W-Wing:", a, b, pair, "strong", "link", "on", x, l] => {
            let (a, b, pair, l) = (cells(a.trim_end_matches(','))[0], cells(b)[0], digit_list(pair), link(l));
            let x: usize = x.parse().unwrap();
            digits(v, a) == pair
                && digits(v, b) == pair
                && pair.len() == 2
                && pair.contains(&d)
                && pair.contains(&x)
                && x != d
                && a != b
                && !sees(a, b)
                && strong(v, x, l, None)
                && ((sees(l[0], a) && sees(l[1], b)) || (sees(l[1], a) && sees(l[0], b)))
                && sees(me, a)
                && sees(me, b)
        }
        // Unique Rectangle on 3,7: r1c1,r1c5,r3c1 and r3c5
        ["Unique", "Rectangle", "on", pair, three, "and", fourth] => {
            let (pair, mut corners) = (digit_list(pair), cells(three));
            corners.push(cells(fourth)[0]);
            let rows: BTreeSet<usize> = corners.iter().map(|c| c.0).collect();
            let cols: BTreeSet<usize> = corners.iter().map(|c| c.1).collect();
            let boxes: BTreeSet<usize> = corners.iter().map(|&c| box_of(c)).collect();
            let rest = digits(v, corners[3]);
            rows.len() == 2
                && cols.len() == 2
                && boxes.len() == 2
                && corners.len() == 4
                && pair.len() == 2
                && corners[..3].iter().all(|&c| digits(v, c) == pair)
                && corners[3] == me
                && rest.len() > 2
                && pair.iter().all(|e| rest.contains(e))
                && pair.contains(&d)
        }
        // Simple Colouring on 4, trap: r1c2 and r3c6 have opposite colours
        ["Simple", "Colouring", "on", digit, "trap:", a, "and", b, "have", "opposite", "colours"] => {
            let (a, b, colour) = (cells(a)[0], cells(b)[0], colour_of(v, d));
            let (ka, kb) = (colour(a), colour(b));
            digit == format!("{d},")
                && chain == Some(chain_of(v, d, a))
                && ka.is_some()
                && ka.map(|k| k.0) == kb.map(|k| k.0)
                && ka.map(|k| k.1) != kb.map(|k| k.1)
                && sees(me, a)
                && sees(me, b)
        }
        // Simple Colouring on 4, wrap: r1c2 and r1c8 see each other, both of r5c5's colour
        [
            "Simple",
            "Colouring",
            "on",
            digit,
            "wrap:",
            a,
            "and",
            b,
            "see",
            "each",
            "other,",
            "both",
            "of",
            of,
            "colour",
        ] => {
            let (a, b, c, colour) = (cells(a)[0], cells(b)[0], cells(of.trim_end_matches("'s"))[0], colour_of(v, d));
            digit == format!("{d},")
                && chain == Some(chain_of(v, d, a))
                && c == me
                && sees(a, b)
                && colour(me).is_some()
                && colour(a) == colour(me)
                && colour(b) == colour(me)
        }
        _ => return None,
    };
    Some(ok && mine)
}

/// The (cluster, colour) of a cell holding digit `d` (every such cell has one).
fn colour_of(v: &Cands, d: usize) -> impl Fn(Cell) -> Option<(Cell, bool)> {
    let colour = colours(v, d);
    move |c| colour.get(&c).copied()
}

/// The cells of `a`'s cluster of digit `d`, row by row: those of `a`'s
/// colour, then those of the other.
fn chain_of(v: &Cands, d: usize, a: Cell) -> (Vec<Cell>, Vec<Cell>) {
    let colour = colours(v, d);
    let Some(&(cluster, k)) = colour.get(&a) else { return (vec![], vec![]) };
    let side = |k: bool| colour.iter().filter(|&(_, &c)| c == (cluster, k)).map(|(&c, _)| c).collect();
    (side(k), side(!k))
}
