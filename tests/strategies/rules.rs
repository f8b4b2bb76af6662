//! The reference rules of the classic strategies, written in Rust from their
//! definitions (not from the formula files): locked candidates, naked and
//! hidden subsets, fish. Each takes the candidates a board searched and
//! returns every removal its rule finds there. Included by
//! tests/strategies.rs (`#[path]`).

/// Candidates as `[row][col][digit - 1]`.
pub type Cands = [[[bool; 9]; 9]; 9];

/// The 27 units as lists of (row, col).
pub fn units() -> Vec<Vec<(usize, usize)>> {
    let mut u: Vec<Vec<(usize, usize)>> = (0..9).map(|r| (0..9).map(|c| (r, c)).collect()).collect();
    u.extend((0..9).map(|c| (0..9).map(|r| (r, c)).collect()));
    u.extend((0..9).map(|b| (0..9).map(|p| (b / 3 * 3 + p / 3, b % 3 * 3 + p % 3)).collect()));
    u
}

/// The subsets of `n` out of 0..9.
pub fn subsets(n: usize) -> Vec<Vec<usize>> {
    (0u32..512).filter(|m| m.count_ones() as usize == n).map(|m| (0..9).filter(|i| m >> i & 1 == 1).collect()).collect()
}

/// Locked candidates: a digit's places (two or more) in a box all in one
/// row or column, or in a row or column all in one box.
pub fn locked(v: &Cands) -> Cands {
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
pub fn naked(v: &Cands, n: usize) -> Cands {
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
pub fn hidden(v: &Cands, n: usize) -> Cands {
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
pub fn fish(v: &Cands, n: usize) -> Cands {
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
