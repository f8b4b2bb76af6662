//! The reference rules of the strategies over pairs of cells, written in
//! Rust from their definitions (SudokuWiki, HoDoKu), not from the formula
//! files: Skyscraper, Two-String Kite, XY-Wing, XYZ-Wing, W-Wing, Unique
//! Rectangle type 1. Each takes the candidates a board searched and returns
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
