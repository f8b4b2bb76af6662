//! The strategies over pairs of cells of the board workbooks
//! (formulas/boards/shelf/: Skyscraper, Two-String Kite, XY-Wing,
//! XYZ-Wing, W-Wing, Unique Rectangle type 1, Simple Colouring) in Rust, written from their definitions (as
//! tests/strategies/wings.rs for the 9×9 article) and generalised to a box
//! side `n` and a list of units: two cells see each other when they share
//! any unit of the list (rows, columns, boxes and any extra region). Each
//! takes the candidates a board searched and returns every removal its
//! rule finds there.

use super::boards::Cands;

/// Which cells see each other: `[a][b]`, two different cells sharing a unit.
pub fn peers(cells: usize, units: &[Vec<usize>]) -> Vec<Vec<bool>> {
    let mut p = vec![vec![false; cells]; cells];
    for u in units {
        for &a in u {
            u.iter().filter(|&&b| b != a).for_each(|&b| p[a][b] = true);
        }
    }
    p
}

/// Marks digit `d` removed from every cell holding it that sees every cell of `seen`.
fn remove_seeing_all(v: &Cands, e: &mut Cands, sees: &[Vec<bool>], d: usize, seen: &[usize]) {
    for c in (0..v.len()).filter(|&c| v[c][d] && seen.iter().all(|&s| sees[c][s])) {
        e[c][d] = true;
    }
}

/// The candidates of a cell, as digits from 0.
fn digits(v: &Cands, c: usize) -> Vec<usize> {
    (0..v[c].len()).filter(|&d| v[c][d]).collect()
}

/// The strong links of digit `d` in `units`: the units where it has exactly
/// two places, as the two cells.
fn links(v: &Cands, units: &[Vec<usize>], d: usize) -> Vec<[usize; 2]> {
    units
        .iter()
        .filter_map(|u| <[usize; 2]>::try_from(u.iter().copied().filter(|&c| v[c][d]).collect::<Vec<_>>()).ok())
        .collect()
}

/// Both ways of reading a strong link: (the end joined to the other link, the free end).
fn ends(link: [usize; 2]) -> [(usize, usize); 2] {
    [(link[0], link[1]), (link[1], link[0])]
}

/// XY-Wing: a pivot with exactly two candidates x, y and two cells it sees,
/// one with exactly x and z, the other with exactly y and z: z goes from
/// every cell seeing both of those.
pub fn xy_wing(v: &Cands, units: &[Vec<usize>]) -> Cands {
    let (cells, m) = (v.len(), v[0].len());
    let sees = peers(cells, units);
    let mut e = vec![vec![false; m]; cells];
    for p in 0..cells {
        let [x, y] = digits(v, p)[..] else { continue };
        for a in (0..cells).filter(|&a| sees[a][p]) {
            for b in (0..cells).filter(|&b| sees[b][p] && b != a) {
                for z in (0..m).filter(|&z| z != x && z != y) {
                    let exactly = |c: usize, d: usize| digits(v, c) == [d.min(z), d.max(z)];
                    if exactly(a, x) && exactly(b, y) {
                        remove_seeing_all(v, &mut e, &sees, z, &[a, b]);
                    }
                }
            }
        }
    }
    e
}

/// The lines of a board of box side `n`: its rows (`rows`) or its columns,
/// as lists of cells.
fn lines(n: usize, rows: bool) -> Vec<Vec<usize>> {
    let size = n * n;
    (0..size).map(|l| (0..size).map(|p| if rows { l * size + p } else { p * size + l }).collect()).collect()
}

/// Skyscraper: two strong links of a digit in two rows (or two columns),
/// one end of each in the same column (row), the other ends `a`, `b` in
/// different columns (rows): the digit goes from every cell seeing both
/// `a` and `b` (over `units`).
pub fn skyscraper(v: &Cands, n: usize, units: &[Vec<usize>]) -> Cands {
    let (cells, size) = (v.len(), n * n);
    let sees = peers(cells, units);
    let mut e = vec![vec![false; size]; cells];
    for d in 0..size {
        for rows in [true, false] {
            let links = links(v, &lines(n, rows), d);
            let across = |c: usize| if rows { c % size } else { c / size };
            for (i, &l1) in links.iter().enumerate() {
                for &l2 in &links[i + 1..] {
                    for ((x, a), (y, b)) in ends(l1).into_iter().flat_map(|p| ends(l2).map(|q| (p, q))) {
                        if across(x) == across(y) && across(a) != across(b) {
                            remove_seeing_all(v, &mut e, &sees, d, &[a, b]);
                        }
                    }
                }
            }
        }
    }
    e
}

/// Two-String Kite: a strong link of a digit in a row (x, a) and one in a
/// column (y, b), four different cells, x and y in the same box (the units
/// from 2n² on, n² of them: a jigsaw's regions in their place): the digit
/// goes from every cell seeing both `a` and `b` (over `units`).
pub fn kite(v: &Cands, n: usize, units: &[Vec<usize>]) -> Cands {
    let (cells, size) = (v.len(), n * n);
    let sees = peers(cells, units);
    let boxes = &units[2 * size..3 * size];
    let same_box = |x: usize, y: usize| boxes.iter().any(|b| b.contains(&x) && b.contains(&y));
    let mut e = vec![vec![false; size]; cells];
    for d in 0..size {
        for &row in &links(v, &lines(n, true), d) {
            for &col in &links(v, &lines(n, false), d) {
                for ((x, a), (y, b)) in ends(row).into_iter().flat_map(|p| ends(col).map(|q| (p, q))) {
                    let four = [x, a, y, b];
                    let distinct = (0..4).all(|i| (i + 1..4).all(|j| four[i] != four[j]));
                    if distinct && same_box(x, y) {
                        remove_seeing_all(v, &mut e, &sees, d, &[a, b]);
                    }
                }
            }
        }
    }
    e
}

/// XYZ-Wing: a pivot with exactly three candidates x, y, z and two cells
/// it sees, one with exactly x and z, the other with exactly y and z: z
/// goes from every cell seeing all three.
pub fn xyz_wing(v: &Cands, units: &[Vec<usize>]) -> Cands {
    let (cells, m) = (v.len(), v[0].len());
    let sees = peers(cells, units);
    let mut e = vec![vec![false; m]; cells];
    for p in 0..cells {
        let pivot = digits(v, p);
        if pivot.len() != 3 {
            continue;
        }
        for a in (0..cells).filter(|&a| sees[a][p]) {
            for b in (0..cells).filter(|&b| sees[b][p] && b != a) {
                let (da, db) = (digits(v, a), digits(v, b));
                if da.len() != 2 || db.len() != 2 || da == db || !da.iter().chain(&db).all(|d| pivot.contains(d)) {
                    continue;
                }
                for &z in da.iter().filter(|z| db.contains(z)) {
                    remove_seeing_all(v, &mut e, &sees, z, &[a, b, p]);
                }
            }
        }
    }
    e
}

/// W-Wing: two cells that do not see each other with the same two
/// candidates x and z, and a unit (any of `units`) where x has exactly two
/// places, one seeing each cell: z goes from every cell seeing both.
pub fn w_wing(v: &Cands, units: &[Vec<usize>]) -> Cands {
    let (cells, m) = (v.len(), v[0].len());
    let sees = peers(cells, units);
    let mut e = vec![vec![false; m]; cells];
    for a in 0..cells {
        let pair = digits(v, a);
        if pair.len() != 2 {
            continue;
        }
        for b in (0..cells).filter(|&b| b != a && !sees[a][b] && digits(v, b) == pair) {
            for (x, z) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let linked =
                    links(v, units, x).iter().any(|&[p, q]| (sees[p][a] && sees[q][b]) || (sees[q][a] && sees[p][b]));
                if linked {
                    remove_seeing_all(v, &mut e, &sees, z, &[a, b]);
                }
            }
        }
    }
    e
}

/// Simple Colouring: the strong links of a digit (in any of `units`) join
/// its cells into clusters, coloured alternately. Colour wrap: two cells of
/// one colour see each other, so the digit goes from every cell of that
/// colour. Colour trap: it goes from every cell seeing cells of both
/// colours of one cluster.
pub fn colouring(v: &Cands, units: &[Vec<usize>]) -> Cands {
    let (cells, m) = (v.len(), v[0].len());
    let sees = peers(cells, units);
    let mut e = vec![vec![false; m]; cells];
    for d in 0..m {
        let links = links(v, units, d);
        let mut colour: Vec<Option<bool>> = vec![None; cells];
        for &[start, _] in &links {
            if colour[start].is_some() {
                continue;
            }
            // One cluster, coloured from `start` by a walk along the links.
            let mut cluster = vec![(start, false)];
            colour[start] = Some(false);
            let mut i = 0;
            while i < cluster.len() {
                let (c, k) = cluster[i];
                for &[p, q] in &links {
                    let other = if p == c {
                        q
                    } else if q == c {
                        p
                    } else {
                        continue;
                    };
                    if colour[other].is_none() {
                        colour[other] = Some(!k);
                        cluster.push((other, !k));
                    }
                }
                i += 1;
            }
            for k in [false, true] {
                let side: Vec<usize> = cluster.iter().filter(|c| c.1 == k).map(|c| c.0).collect();
                if side.iter().any(|&a| side.iter().any(|&b| sees[a][b])) {
                    side.iter().for_each(|&c| e[c][d] = true);
                }
            }
            for z in (0..cells).filter(|&z| v[z][d]) {
                let sees_colour = |k: bool| cluster.iter().any(|&(c, ck)| ck == k && sees[z][c]);
                if sees_colour(false) && sees_colour(true) {
                    e[z][d] = true;
                }
            }
        }
    }
    e
}

/// Unique Rectangle type 1: the corners of two rows and two columns, every
/// unit of `units` holding none or two of them (on a plain board: in
/// exactly two boxes; an extra region never cuts the rectangle), three
/// with exactly the same two candidates, the fourth with those two and
/// more: both go from the fourth (a puzzle with one solution cannot let
/// the corners swap them).
pub fn unique_rectangle(v: &Cands, n: usize, units: &[Vec<usize>]) -> Cands {
    let (cells, size) = (v.len(), n * n);
    let mut e = vec![vec![false; size]; cells];
    let pairs: Vec<(usize, usize)> = (0..size).flat_map(|a| (a + 1..size).map(move |b| (a, b))).collect();
    // The units of each cell, by index.
    let mut units_of = vec![vec![]; cells];
    for (i, u) in units.iter().enumerate() {
        u.iter().for_each(|&c| units_of[c].push(i));
    }
    for &(r1, r2) in &pairs {
        for &(c1, c2) in &pairs {
            let corners = [r1 * size + c1, r1 * size + c2, r2 * size + c1, r2 * size + c2];
            let held = |i: usize| corners.iter().filter(|&&c| units_of[c].contains(&i)).count();
            if corners.iter().flat_map(|&c| &units_of[c]).any(|&i| held(i) != 2) {
                continue;
            }
            for (k, &t) in corners.iter().enumerate() {
                let others: Vec<Vec<usize>> =
                    corners.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &c)| digits(v, c)).collect();
                let (pair, target) = (&others[0], digits(v, t));
                if pair.len() == 2
                    && others.iter().all(|o| o == pair)
                    && target.len() > 2
                    && pair.iter().all(|d| target.contains(d))
                {
                    pair.iter().for_each(|&d| e[t][d] = true);
                }
            }
        }
    }
    e
}

/// The article's examples (tests/strategies.rs): lines 17,767 (a
/// Skyscraper fires taking turns), 14,530 (a Two-String Kite), 1,197 (an
/// XY-Wing), 25,173 (an XYZ-Wing), 6,183 (a W-Wing), 46,072 (a Unique
/// Rectangle) and 4,418 (Simple Colouring) of the 17-clue set, all in the
/// shipped sample `puzzles/9x9/royle_17clue_2000`.
pub const ARTICLE_WINGS: [&str; 7] = [
    ".3..6............1......7...8....6.....4.8......1...7.....3.25.4.15.....7........",
    "..8..3..........41...7.....9...1..........32.......8..14......6...8..5...7.3.....",
    "......3.84...5........2.1.....1.3...5....7......8......13.......8.....2...9....4.",
    "1....64......5.....7........3.78.....9....6.....3.....2.4.........2....36......5.",
    "....8.15.6.2......3.........7...5..6.1.............2.....23.......1...7.4.......5",
    "..9.....5....28........4...7..3......4.....2.......8..5..13.......6..2........41.",
    "....4.8.17.2..................7.5.4....2......1.......6..4..3...8..1....5......7.",
];
