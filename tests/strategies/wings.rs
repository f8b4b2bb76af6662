//! The reference rules of the strategies over pairs of cells, written in
//! Rust from their definitions (SudokuWiki, HoDoKu), not from the formula
//! files: Skyscraper, Two-String Kite, XY-Wing, XYZ-Wing, W-Wing, Unique
//! Rectangle type 1, Simple Colouring. Each takes the candidates a board searched and returns
//! every removal its rule finds there. Included by tests/strategies.rs
//! (`#[path]`).

use crate::rules::Cands;

/// A cell as (row, column), from 0.
type Cell = (usize, usize);

/// The box (0-8) of a cell.
fn box_of(c: Cell) -> usize {
    c.0 / 3 * 3 + c.1 / 3
}

/// Two different cells in one row, column or box.
fn sees(a: Cell, b: Cell) -> bool {
    a != b && (a.0 == b.0 || a.1 == b.1 || box_of(a) == box_of(b))
}

/// Every cell of the board.
fn cells() -> impl Iterator<Item = Cell> {
    (0..81).map(|n| (n / 9, n % 9))
}

/// Marks digit `d` removed from every cell holding it that sees every cell of `seen`.
fn remove_seeing_all(v: &Cands, e: &mut Cands, d: usize, seen: &[Cell]) {
    for z in cells().filter(|&z| v[z.0][z.1][d] && seen.iter().all(|&s| sees(z, s))) {
        e[z.0][z.1][d] = true;
    }
}

/// The strong links of digit `d` in rows (`rows`) or columns: the lines
/// where it has exactly two places, as the two cells.
fn line_links(v: &Cands, d: usize, rows: bool) -> Vec<[Cell; 2]> {
    (0..9)
        .filter_map(|line| {
            let places: Vec<Cell> =
                (0..9).map(|p| if rows { (line, p) } else { (p, line) }).filter(|c| v[c.0][c.1][d]).collect();
            <[Cell; 2]>::try_from(places).ok()
        })
        .collect()
}

/// Both ways of reading a strong link: (the end joined to the other link, the free end).
fn ends(link: [Cell; 2]) -> [(Cell, Cell); 2] {
    [(link[0], link[1]), (link[1], link[0])]
}

/// Skyscraper: two strong links of a digit in two rows (or two columns),
/// one end of each in the same column (row), the other ends `a`, `b` not
/// (else an X-Wing): the digit goes from every cell seeing both `a` and `b`.
pub fn skyscraper(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for d in 0..9 {
        for rows in [true, false] {
            let links = line_links(v, d, rows);
            for (i, &l1) in links.iter().enumerate() {
                for &l2 in &links[i + 1..] {
                    for ((x, a), (y, b)) in ends(l1).into_iter().flat_map(|p| ends(l2).map(|q| (p, q))) {
                        let (base, apart) = if rows { (x.1 == y.1, a.1 != b.1) } else { (x.0 == y.0, a.0 != b.0) };
                        if base && apart {
                            remove_seeing_all(v, &mut e, d, &[a, b]);
                        }
                    }
                }
            }
        }
    }
    e
}

/// Two-String Kite: a strong link of a digit in a row (x, a) and one in a
/// column (y, b), four different cells, x and y in the same box: the digit
/// goes from every cell seeing both `a` and `b`.
pub fn kite(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for d in 0..9 {
        for &row in &line_links(v, d, true) {
            for &col in &line_links(v, d, false) {
                for ((x, a), (y, b)) in ends(row).into_iter().flat_map(|p| ends(col).map(|q| (p, q))) {
                    let distinct =
                        [x, a, y, b].iter().enumerate().all(|(i, p)| [x, a, y, b][i + 1..].iter().all(|q| p != q));
                    if distinct && box_of(x) == box_of(y) {
                        remove_seeing_all(v, &mut e, d, &[a, b]);
                    }
                }
            }
        }
    }
    e
}

/// The candidates of a cell, as digits from 0.
fn digits(v: &Cands, c: Cell) -> Vec<usize> {
    (0..9).filter(|&d| v[c.0][c.1][d]).collect()
}

/// XY-Wing: a pivot with two candidates x, y and two cells it sees, one
/// with exactly x and z, the other with exactly y and z: z goes from every
/// cell seeing both of those.
pub fn xy_wing(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for p in cells() {
        let [x, y] = digits(v, p)[..] else { continue };
        for a in cells().filter(|&a| sees(a, p)) {
            for b in cells().filter(|&b| sees(b, p) && b != a) {
                for z in (0..9).filter(|&z| z != x && z != y) {
                    let exactly = |c: Cell, d: usize| digits(v, c) == [d.min(z), d.max(z)];
                    if exactly(a, x) && exactly(b, y) {
                        remove_seeing_all(v, &mut e, z, &[a, b]);
                    }
                }
            }
        }
    }
    e
}

/// XYZ-Wing: a pivot with three candidates x, y, z and two cells it sees,
/// one with exactly x and z, the other with exactly y and z: z goes from
/// every cell seeing all three.
pub fn xyz_wing(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for p in cells() {
        let pivot = digits(v, p);
        if pivot.len() != 3 {
            continue;
        }
        for a in cells().filter(|&a| sees(a, p)) {
            for b in cells().filter(|&b| sees(b, p) && b != a) {
                let (da, db) = (digits(v, a), digits(v, b));
                if da.len() != 2 || db.len() != 2 || da == db || !da.iter().chain(&db).all(|d| pivot.contains(d)) {
                    continue;
                }
                for z in da.iter().filter(|z| db.contains(z)) {
                    remove_seeing_all(v, &mut e, *z, &[a, b, p]);
                }
            }
        }
    }
    e
}

/// The cells of the 27 units.
fn unit_cells() -> Vec<Vec<Cell>> {
    let mut u: Vec<Vec<Cell>> = (0..9).map(|r| (0..9).map(|c| (r, c)).collect()).collect();
    u.extend((0..9).map(|c| (0..9).map(|r| (r, c)).collect()));
    u.extend((0..9).map(|b| (0..9).map(|p| (b / 3 * 3 + p / 3, b % 3 * 3 + p % 3)).collect()));
    u
}

/// W-Wing: two cells that do not see each other with the same two
/// candidates x and z, and a unit where x has exactly two places, one
/// seeing each cell: z goes from every cell seeing both.
pub fn w_wing(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    let units = unit_cells();
    for a in cells() {
        let pair = digits(v, a);
        if pair.len() != 2 {
            continue;
        }
        for b in cells().filter(|&b| b != a && !sees(a, b) && digits(v, b) == pair) {
            for (x, z) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let linked = units.iter().any(|u| {
                    let places: Vec<Cell> = u.iter().filter(|c| v[c.0][c.1][x]).copied().collect();
                    let [p, q] = places[..] else { return false };
                    (sees(p, a) && sees(q, b)) || (sees(q, a) && sees(p, b))
                });
                if linked {
                    remove_seeing_all(v, &mut e, z, &[a, b]);
                }
            }
        }
    }
    e
}

/// Unique Rectangle type 1: the corners of two rows and two columns, in
/// exactly two boxes, three with exactly the same two candidates, the
/// fourth with those two and more: both go from the fourth (a puzzle with
/// one solution cannot let the four corners swap them).
pub fn unique_rectangle(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    for (r1, r2) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
        for (c1, c2) in (0..9).flat_map(|a| (a + 1..9).map(move |b| (a, b))) {
            let corners = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)];
            let boxes: std::collections::BTreeSet<usize> = corners.iter().map(|&c| box_of(c)).collect();
            if boxes.len() != 2 {
                continue;
            }
            for (k, &t) in corners.iter().enumerate() {
                let others: Vec<Vec<usize>> =
                    corners.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &c)| digits(v, c)).collect();
                let target = digits(v, t);
                let pair = &others[0];
                if pair.len() == 2
                    && others.iter().all(|o| o == pair)
                    && target.len() > 2
                    && pair.iter().all(|d| target.contains(d))
                {
                    pair.iter().for_each(|&d| e[t.0][t.1][d] = true);
                }
            }
        }
    }
    e
}

/// Simple Colouring: the strong links of a digit (units where it has
/// exactly two places) join its cells into clusters, coloured alternately.
/// Colour wrap: two cells of one colour see each other, so the digit goes
/// from every cell of that colour. Colour trap: it goes from every cell
/// seeing cells of both colours of one cluster.
pub fn colouring(v: &Cands) -> Cands {
    let mut e = [[[false; 9]; 9]; 9];
    let units = unit_cells();
    for d in 0..9 {
        let mut links: Vec<(Cell, Cell)> = Vec::new();
        for u in &units {
            if let [p, q] = u.iter().filter(|c| v[c.0][c.1][d]).copied().collect::<Vec<Cell>>()[..] {
                links.push((p, q));
            }
        }
        let mut colour: std::collections::BTreeMap<Cell, bool> = std::collections::BTreeMap::new();
        for &(start, _) in &links {
            if colour.contains_key(&start) {
                continue;
            }
            // One cluster, coloured from `start` by a walk along the links.
            let mut cluster = vec![(start, false)];
            colour.insert(start, false);
            let mut i = 0;
            while i < cluster.len() {
                let (c, k) = cluster[i];
                for &(p, q) in &links {
                    let other = if p == c {
                        q
                    } else if q == c {
                        p
                    } else {
                        continue;
                    };
                    if let std::collections::btree_map::Entry::Vacant(slot) = colour.entry(other) {
                        slot.insert(!k);
                        cluster.push((other, !k));
                    }
                }
                i += 1;
            }
            for k in [false, true] {
                let side: Vec<Cell> = cluster.iter().filter(|c| c.1 == k).map(|c| c.0).collect();
                if side.iter().any(|&a| side.iter().any(|&b| sees(a, b))) {
                    side.iter().for_each(|c| e[c.0][c.1][d] = true);
                }
            }
            for z in cells().filter(|z| v[z.0][z.1][d]) {
                let sees_colour = |k: bool| cluster.iter().any(|&(c, ck)| ck == k && sees(z, c));
                if sees_colour(false) && sees_colour(true) {
                    e[z.0][z.1][d] = true;
                }
            }
        }
    }
    e
}
