//! The reasons of the strategies over pairs of cells on the boards of
//! every size (Skyscraper, Two-String Kite, XY-Wing, XYZ-Wing, W-Wing,
//! Unique Rectangle type 1, Simple Colouring),
//! checked against the snapshot the board searched: each text is parsed
//! and the pattern it names is looked for in the candidates, in Rust, over
//! the workbook's units (two cells see each other when they share one),
//! from the rule's definition, not from the formula files. Included by
//! tests/board_reasons.rs.

use super::{Cands, cell_of, numbers};

/// `r2c3-r10c7` as two cells, from 0.
fn link(text: &str, size: usize) -> [usize; 2] {
    let (a, b) = text.split_once('-').unwrap_or_else(|| panic!("{text}"));
    [cell_of(a, size), cell_of(b, size)]
}

/// `(3,7),` or `(3,7)` as digits from 0.
fn digit_list(text: &str) -> Vec<usize> {
    numbers(text.trim_matches(|ch: char| "(),".contains(ch)))
}

/// The candidates of a cell, as digits from 0.
fn digits(v: &Cands, c: usize) -> Vec<usize> {
    (0..v[c].len()).filter(|&d| v[c][d]).collect()
}

/// `l` is a strong link of digit `d` in one of `units`: its only two places there.
fn strong(v: &Cands, units: &[Vec<usize>], d: usize, l: [usize; 2]) -> bool {
    units.iter().any(|u| {
        let places: Vec<usize> = u.iter().copied().filter(|&c| v[c][d]).collect();
        places.len() == 2 && places.contains(&l[0]) && places.contains(&l[1])
    })
}

/// The strong links of digit `d` (in any of `units`) colour its cells:
/// (the cluster's first cell reached, colour) per cell, `None` off every link.
fn colours(v: &Cands, units: &[Vec<usize>], d: usize) -> Vec<Option<(usize, bool)>> {
    let cells = v.len();
    let linked = |a: usize, b: usize| a != b && strong(v, units, d, [a, b]);
    let mut colour = vec![None; cells];
    for start in (0..cells).filter(|&c| v[c][d]) {
        if colour[start].is_some() || !(0..cells).any(|o| linked(start, o)) {
            continue;
        }
        let mut todo = vec![(start, false)];
        while let Some((c, k)) = todo.pop() {
            if colour[c].is_some() {
                continue;
            }
            colour[c] = Some((start, k));
            todo.extend((0..cells).filter(|&o| linked(c, o)).map(|o| (o, !k)));
        }
    }
    colour
}

/// The cells of `a`'s cluster of digit `d`, in reading order: those of
/// `a`'s colour, then those of the other.
fn chain_of(colour: &[Option<(usize, bool)>], a: usize) -> (Vec<usize>, Vec<usize>) {
    let Some((cluster, k)) = colour[a] else { return (vec![], vec![]) };
    let side = |k: bool| (0..colour.len()).filter(|&c| colour[c] == Some((cluster, k))).collect();
    (side(k), side(!k))
}

/// `r1c2,r10c3` as cells, from 0.
fn cell_list(text: &str, size: usize) -> Vec<usize> {
    text.split(',').map(|c| cell_of(c, size)).collect()
}

/// A reason of one of the seven kinds holds in `v`, the snapshot searched,
/// on a board of box side `n` with `units` (rows, columns, boxes or a
/// jigsaw's regions in their place, then any extra region): the pattern is
/// there and removes digit `d` (from 0) from `me`. `None` when the text is
/// of none of these kinds.
pub fn holds(v: &Cands, units: &[Vec<usize>], n: usize, pattern: &str, me: usize, d: usize) -> Option<bool> {
    let size = n * n;
    let sees = |a: usize, b: usize| a != b && units.iter().any(|u| u.contains(&a) && u.contains(&b));
    let (rows, cols, boxes) = (&units[..size], &units[size..2 * size], &units[2 * size..3 * size]);
    // Simple Colouring's chain, after "; chain ": its cells of each colour.
    let (pattern, chain) = match pattern.split_once("; chain ") {
        Some((p, chain)) => (p, chain.split_once(" | ").map(|(a, b)| (cell_list(a, size), cell_list(b, size)))),
        None => (pattern, None),
    };
    let words: Vec<&str> = pattern.split(' ').collect();
    let ok = match words[..] {
        // Skyscraper on 6: r2c3-r2c7 and r6c3-r6c8 (rows, base column 3)
        ["Skyscraper", "on", digit, l1, "and", l2, kind, "base", _, base] => {
            let (l1, l2, by_rows) = (link(l1, size), link(l2, size), kind == "(rows,");
            let across = |c: usize| if by_rows { c % size } else { c / size };
            let lines = if by_rows { rows } else { cols };
            let (a, b) = (l1[1], l2[1]);
            digit == format!("{}:", d + 1)
                && strong(v, lines, d, l1)
                && strong(v, lines, d, l2)
                && across(l1[0]) == across(l2[0])
                && across(l1[0]) + 1 == base.trim_end_matches(')').parse::<usize>().unwrap()
                && a / size != b / size
                && a % size != b % size
                && sees(me, a)
                && sees(me, b)
        }
        // Two-String Kite on 6: r2c3-r2c7 (row 2) and r3c1-r8c1 (column 1), joined in box 1
        ["Two-String", "Kite", "on", digit, row, _, _, "and", col, _, _, "joined", "in", _, k] => {
            let (row, col) = (link(row, size), link(col, size));
            let four = [row[0], row[1], col[0], col[1]];
            let joint = &boxes[k.parse::<usize>().unwrap() - 1];
            digit == format!("{}:", d + 1)
                && strong(v, rows, d, row)
                && strong(v, cols, d, col)
                && (0..4).all(|i| (i + 1..4).all(|j| four[i] != four[j]))
                && joint.contains(&row[0])
                && joint.contains(&col[0])
                && sees(me, row[1])
                && sees(me, col[1])
        }
        // XY-Wing: pivot r5c5 (3,7), pincers r5c1 (3,9), r2c5 (7,9)
        [label @ ("XY-Wing:" | "XYZ-Wing:"), "pivot", p, pd, "pincers", a, ad, b, bd] => {
            let (p, a, b) = (cell_of(p, size), cell_of(a.trim_end_matches(','), size), cell_of(b, size));
            let (pd, ad, bd) = (digit_list(pd), digit_list(ad), digit_list(bd));
            let shown = digits(v, p) == pd && digits(v, a) == ad && digits(v, b) == bd;
            let other = |l: &[usize]| -> Vec<usize> { l.iter().copied().filter(|&e| e != d).collect() };
            let xyz = label == "XYZ-Wing:";
            let mut want = [other(&ad), other(&bd), if xyz { vec![d] } else { vec![] }].concat();
            want.sort();
            shown
                && ad.len() == 2
                && bd.len() == 2
                && ad.contains(&d)
                && bd.contains(&d)
                && other(&ad) != other(&bd)
                && pd == want
                && sees(p, a)
                && sees(p, b)
                && sees(me, a)
                && sees(me, b)
                && (!xyz || sees(me, p))
        }
        // W-Wing: r1c2, r5c8 (3,7), strong link on 7 r1c5-r5c5
        ["W-Wing:", a, b, pair, "strong", "link", "on", x, l] => {
            let (a, b) = (cell_of(a.trim_end_matches(','), size), cell_of(b, size));
            let (pair, l, x) = (digit_list(pair), link(l, size), x.parse::<usize>().unwrap() - 1);
            digits(v, a) == pair
                && digits(v, b) == pair
                && pair.len() == 2
                && pair.contains(&d)
                && pair.contains(&x)
                && x != d
                && a != b
                && !sees(a, b)
                && strong(v, units, x, l)
                && ((sees(l[0], a) && sees(l[1], b)) || (sees(l[1], a) && sees(l[0], b)))
                && sees(me, a)
                && sees(me, b)
        }
        // Unique Rectangle on 3,7: r1c1,r1c5,r3c1 and r3c5
        ["Unique", "Rectangle", "on", pair, three, "and", fourth] => {
            let (pair, mut corners) = (numbers(pair.trim_end_matches(':')), cell_list(three, size));
            corners.push(cell_of(fourth, size));
            let rows: std::collections::BTreeSet<usize> = corners.iter().map(|c| c / size).collect();
            let cols: std::collections::BTreeSet<usize> = corners.iter().map(|c| c % size).collect();
            let rest = digits(v, corners[3]);
            rows.len() == 2
                && cols.len() == 2
                && corners.len() == 4
                && units.iter().all(|u| matches!(corners.iter().filter(|c| u.contains(c)).count(), 0 | 2))
                && pair.len() == 2
                && corners[..3].iter().all(|&c| digits(v, c) == pair)
                && corners[3] == me
                && rest.len() > 2
                && pair.iter().all(|e| rest.contains(e))
                && pair.contains(&d)
        }
        // Simple Colouring on 4, trap: r1c2 and r3c6 have opposite colours
        ["Simple", "Colouring", "on", digit, "trap:", a, "and", b, "have", "opposite", "colours"] => {
            let (a, b, colour) = (cell_of(a, size), cell_of(b, size), colours(v, units, d));
            digit == format!("{},", d + 1)
                && chain == Some(chain_of(&colour, a))
                && colour[a].is_some()
                && colour[a].map(|k| k.0) == colour[b].map(|k| k.0)
                && colour[a].map(|k| k.1) != colour[b].map(|k| k.1)
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
            let (a, b, c) = (cell_of(a, size), cell_of(b, size), cell_of(of.trim_end_matches("'s"), size));
            let colour = colours(v, units, d);
            digit == format!("{},", d + 1)
                && chain == Some(chain_of(&colour, a))
                && c == me
                && sees(a, b)
                && colour[me].is_some()
                && colour[a] == colour[me]
                && colour[b] == colour[me]
        }
        _ => return None,
    };
    Some(ok && v[me][d])
}
