//! A native singles solver: Charlie Ellis's deductions (naked singles and
//! hidden singles in every row, column, box and extra region) written
//! directly in Rust and applied to the fixpoint, as the reference the
//! workbooks (`workbooks/sudoku.ron`, `sudoku16.ron`, `sudoku25.ron`,
//! `hyper.ron`) are measured against, and the oracle a test compares them
//! with. Shared by `benches/native.rs` and `tests/native_singles.rs`
//! through `#[path]`; the engine itself knows no Sudoku.
//!
//! Candidates are bit masks, one per cell (bit d-1: digit d is possible).
//! A placed digit is removed from the candidates of the cell's peers; a
//! peer left with one candidate is a naked single, placed at once. A pass
//! over the units places every hidden single (a digit with one place left
//! in a unit); passes repeat until one places nothing. Singles are sound, so on a puzzle
//! with a solution the digits placed only grow and the fixpoint is the
//! same whatever the order: the one the workbook's iteration reaches.

// Not every user of this file calls every function.
#![allow(dead_code)]

/// A board's shape: side n (the board is n²×n², digits 1 to n²), its
/// units (rows, columns, boxes, extra regions) and each cell's peers.
pub struct Geometry {
    /// n²: cells in a row, digits, cells in a unit.
    pub size: usize,
    /// The symbols of the digits 1 to n², as the workbook's alphabet.
    pub alphabet: Vec<u8>,
    /// Each byte's digit in a puzzle line (either case), 0 for a blank or anything else.
    digit: [u8; 256],
    /// The units, `size` cells each, one after another.
    units: Vec<u16>,
    /// Every cell's peers (cells sharing a unit with it), one after another.
    peers: Vec<u16>,
    /// Where each cell's peers start in `peers` (one more entry at the end).
    peer_start: Vec<u32>,
}

impl Geometry {
    /// A plain Sudoku of box side `side` (3: 9×9, 4: 16×16, 5: 25×25).
    pub fn sudoku(side: usize) -> Geometry {
        Geometry::with_regions(side, &[])
    }

    /// Hyper Sudoku (NRC, Windoku): 9×9 and four extra 3×3 regions, at rows
    /// and columns 2-4 and 6-8 (from 1), as `workbooks/hyper.ron`'s map.
    pub fn hyper() -> Geometry {
        let window = |r0: usize, c0: usize| (0..9).map(|k| (r0 + k / 3) * 9 + c0 + k % 3).collect::<Vec<_>>();
        Geometry::with_regions(3, &[window(1, 1), window(1, 5), window(5, 1), window(5, 5)])
    }

    /// A Sudoku of box side `side` with `extra` regions of n² cells each.
    pub fn with_regions(side: usize, extra: &[Vec<usize>]) -> Geometry {
        let size = side * side;
        let mut units: Vec<Vec<usize>> = Vec::new();
        for i in 0..size {
            units.push((0..size).map(|k| i * size + k).collect());
            units.push((0..size).map(|k| k * size + i).collect());
            let (r0, c0) = (i / side * side, i % side * side);
            units.push((0..size).map(|k| (r0 + k / side) * size + c0 + k % side).collect());
        }
        units.extend(extra.iter().cloned());
        let cells = size * size;
        let (mut peers, mut peer_start) = (Vec::new(), vec![0u32]);
        for cell in 0..cells {
            let mut mine: Vec<u16> = units
                .iter()
                .filter(|u| u.contains(&cell))
                .flatten()
                .filter(|&&p| p != cell)
                .map(|&p| p as u16)
                .collect();
            mine.sort_unstable();
            mine.dedup();
            peers.extend(mine);
            peer_start.push(peers.len() as u32);
        }
        let alphabet = b"123456789ABCDEFGHIJKLMNOP"[..size].to_vec();
        let mut digit = [0u8; 256];
        for (k, &a) in alphabet.iter().enumerate() {
            digit[a as usize] = k as u8 + 1;
            digit[a.to_ascii_lowercase() as usize] = k as u8 + 1;
        }
        Geometry {
            size,
            alphabet,
            digit,
            units: units.into_iter().flatten().map(|c| c as u16).collect(),
            peers,
            peer_start,
        }
    }

    /// Cells on the board: n⁴.
    pub fn cells(&self) -> usize {
        self.size * self.size
    }
}

/// A solver for one geometry, its buffers kept between puzzles.
pub struct Solver<'g> {
    geo: &'g Geometry,
    /// Each cell's digit, 0 while empty.
    grid: Vec<u8>,
    /// Each cell's candidates (0 once placed).
    cand: Vec<u32>,
    /// Cells left with one candidate, not yet placed: the naked singles.
    naked: Vec<u16>,
    /// Cells still empty.
    empty: usize,
}

impl<'g> Solver<'g> {
    pub fn new(geo: &'g Geometry) -> Solver<'g> {
        let cells = geo.cells();
        Solver { geo, grid: vec![0; cells], cand: vec![0; cells], naked: Vec::with_capacity(cells), empty: cells }
    }

    /// Puts digit `d` in `cell` and takes it from the peers' candidates,
    /// noting each peer it leaves with one candidate.
    #[inline]
    fn place(&mut self, cell: usize, d: u8) {
        // Split borrows and a slice: the candidates' address and length stay
        // in registers across the pushes.
        let Solver { geo, grid, cand, naked, empty } = self;
        let cand = &mut cand[..];
        *empty -= 1;
        grid[cell] = d;
        cand[cell] = 0;
        let bit = 1u32 << (d - 1);
        for &p in &geo.peers[geo.peer_start[cell] as usize..geo.peer_start[cell + 1] as usize] {
            let c = &mut cand[p as usize];
            if *c & bit != 0 {
                *c ^= bit;
                if *c & c.wrapping_sub(1) == 0 {
                    naked.push(p);
                }
            }
        }
    }

    /// Places the naked singles noted, and those they lead to.
    fn place_naked(&mut self) {
        while let Some(p) = self.naked.pop() {
            let (p, c) = (p as usize, self.cand[p as usize]);
            // Skip a cell placed meanwhile (or, in a contradiction, left with none).
            if self.grid[p] == 0 && c != 0 {
                self.place(p, c.trailing_zeros() as u8 + 1);
            }
        }
    }

    /// Solves one puzzle line (the alphabet's symbols, either case, and `.`
    /// or `0` for a blank) to the singles fixpoint; returns how many cells
    /// are still empty (0: solved). A symbol outside the alphabet is a blank.
    pub fn solve(&mut self, line: &str) -> usize {
        self.grid.fill(0);
        self.cand.fill((1u32 << self.geo.size) - 1);
        self.naked.clear();
        self.empty = self.geo.cells();
        for (cell, ch) in line.bytes().take(self.geo.cells()).enumerate() {
            let d = self.geo.digit[ch as usize];
            if d != 0 {
                self.place(cell, d);
            }
        }
        self.fixpoint()
    }

    /// Naked singles as they appear, and a pass over the units for hidden
    /// singles, until the board is full or a pass finds none; the empty
    /// cells left.
    fn fixpoint(&mut self) -> usize {
        let size = self.geo.size;
        loop {
            self.place_naked();
            if self.empty == 0 {
                return 0;
            }
            let mut placed = false;
            for unit in self.geo.units.chunks_exact(size) {
                let (mut once, mut twice) = (0u32, 0u32);
                for &cell in unit {
                    let c = self.cand[cell as usize];
                    twice |= once & c;
                    once |= c;
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    if let Some(&cell) = unit.iter().find(|&&c| self.cand[c as usize] & bit != 0) {
                        self.place(cell as usize, bit.trailing_zeros() as u8 + 1);
                        placed = true;
                    }
                }
                self.place_naked();
            }
            if !placed {
                return self.empty;
            }
        }
    }

    /// The board as a line: the alphabet's symbols, `.` for an empty cell
    /// (what `Session::read_line` gives for the workbook's solution view).
    pub fn line(&self) -> String {
        self.grid.iter().map(|&d| if d == 0 { '.' } else { self.geo.alphabet[d as usize - 1] as char }).collect()
    }
}
