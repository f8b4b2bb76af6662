//! Helpers shared by the tests that run the `dataflow` binary: the
//! workbook and puzzles they use, and running the binary from the crate's
//! directory (so relative paths in arguments and messages are stable).
//! [`boards`] and [`wings`] have the board workbooks' strategies in Rust.
//! [`sheet`] has the helpers of the tests that drive the in-memory `Sheet`;
//! [`parse`] those of the parser tests, [`bad_input`] those of the bad-input
//! tests, [`json`] those of the tests of `run` and `batch`'s JSON output,
//! [`excel`] those comparing with Excel's cached values, [`corpus`] the
//! formula corpus's reader, [`watch`] those running `dataflow watch` and
//! [`counting`] the counting allocator of the memory tests.

#![allow(dead_code)] // each test file uses its own subset

pub mod bad_input;
pub mod boards;
pub mod corpus;
pub mod counting;
pub mod excel;
pub mod json;
pub mod parse;
pub mod sheet;
pub mod watch;
pub mod wings;

use std::process::Command;

pub const SUDOKU: &str = "workbooks/sudoku.ron";

/// Writes `text` as the workbook `name`.ron in a temporary directory of
/// this test run, `dataflow-TAG-PID` (one per test file), and returns its path.
pub fn temp_workbook(tag: &str, name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dataflow-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary directory is made");
    let path = dir.join(format!("{name}.ron"));
    std::fs::write(&path, text).expect("the workbook is written");
    path.to_string_lossy().into_owned()
}
pub const PE96: &str = "workbooks/puzzles/9x9/project_euler_96.txt";
pub const PE96_SOLUTIONS: &str = "workbooks/puzzles/9x9/project_euler_96.solutions.txt";
pub const GRID1: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
pub const GRID1_SOLVED: &str = "483921657967345821251876493548132976729564138136798245372689514814253769695417382";
pub const GRID2: &str = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3";
pub const GRID2_SOLVED: &str = "245981376169273584837564219976125438513498627482736951391657842728349165654812793";

/// What one run of the binary gave.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n--- stdout\n{}\n--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

/// `dataflow ARGS`, to be run from the crate's directory, so relative
/// paths in arguments and messages are stable.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_dataflow"));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1");
    command
}

/// Runs `dataflow ARGS` from the crate's directory (see [`command`]).
pub fn dataflow(args: &[&str]) -> Out {
    out(command(args).output().expect("the dataflow binary runs"))
}

/// Runs `dataflow ARGS` with `input` on its standard input.
pub fn dataflow_stdin(args: &[&str], input: &str) -> Out {
    use std::io::Write;
    use std::process::Stdio;
    let mut child =
        command(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("it runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    // Written on a thread of its own: the output is read meanwhile.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the dataflow binary runs");
    writer.join().expect("the writer ends").expect("the input is written");
    out(output)
}

fn out(out: std::process::Output) -> Out {
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Like [`dataflow`], and checks the exit code.
pub fn expect_exit(code: i32, args: &[&str]) -> Out {
    let out = dataflow(args);
    assert_eq!(out.code, code, "dataflow {args:?}: {out:?}");
    out
}

/// A small deterministic generator (an LCG), enough to pick random edits.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    /// One to four indices below `n`, to edit at once.
    pub fn picks(&mut self, n: usize) -> Vec<usize> {
        let k = self.below(4) + 1;
        (0..k).map(|_| self.below(n as u64) as usize).collect()
    }
}
