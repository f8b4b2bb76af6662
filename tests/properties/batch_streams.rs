//! Properties of `dataflow batch workbooks/sudoku.ron --format jsonl` over
//! generated puzzle streams, read from a file (`--input puzzle=@FILE`)
//! and from standard input (`@-`), through the binary: lines of valid
//! puzzles (Project Euler 96), `puzzle,solution` lines with random
//! solutions, garbage, wrong lengths, blank lines, CRLF ends, two puzzles
//! joined by a bare CR, bytes that are not UTF-8, long lines and, rarely,
//! a line past `MAX_LINE_BYTES`. The process ends with a documented exit
//! code (0 when no record is an error, 1 when some is; 2 at a line that
//! cannot be read at all); it writes one JSON record per non-blank line, in
//! input order, with the file's line numbers and a documented status;
//! garbage gets `error` with a message, a valid puzzle never does; and the
//! summary's counts add up to the records.

use proptest::prelude::*;
use serde_json::Value as Json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const STATUSES: &[&str] = &["solved", "unsolved", "wrong", "not_converged", "oscillating", "error", "filled"];
/// One byte past `batch`'s line cap (`MAX_LINE_BYTES`, 1 MiB).
const PAST_CAP: usize = (1 << 20) + 1;

/// What a line is, and so what its record must say.
#[derive(Clone, Debug)]
enum Line {
    /// A PE96 puzzle (by number), maybe with `,` and an 81-digit answer.
    Puzzle(usize, Option<String>),
    /// A PE96 puzzle and an answer that does not read (letters).
    BadAnswer(usize, String),
    /// Not a puzzle: letters and punctuation, no comma.
    Garbage(String),
    /// Digits and dots of another length than 81.
    WrongLength(String),
    /// A puzzle with one byte made 0xFF.
    NotUtf8(usize, usize),
    /// Two puzzles joined by a bare CR: one line of 162 symbols.
    Joined(usize, usize),
    /// Whitespace only: no record, but counted.
    Blank(&'static str),
    /// `n` digits (`n` past the cap: the batch stops there).
    Long(usize),
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        6 => (0usize..50, proptest::option::of("[1-9]{81}")).prop_map(|(i, a)| Line::Puzzle(i, a)),
        1 => (0usize..50, "x[a-z]{0,4}").prop_map(|(i, a)| Line::BadAnswer(i, a)),
        3 => "[a-zA-Z!?#;:]{1,30}".prop_map(Line::Garbage),
        2 => prop_oneof!["[1-9.]{1,80}", "[1-9.]{82,200}"].prop_map(Line::WrongLength),
        2 => (0usize..50, 0usize..81).prop_map(|(i, at)| Line::NotUtf8(i, at)),
        1 => (0usize..50, 0usize..50).prop_map(|(i, j)| Line::Joined(i, j)),
        2 => proptest::sample::select(&["", "   ", "\t", " \t "][..]).prop_map(Line::Blank),
        1 => prop_oneof![9 => 82usize..200_000, 1 => Just(PAST_CAP)].prop_map(Line::Long),
    ]
}

/// A stream: its lines, each with CRLF or LF, and whether the last ends.
fn stream() -> impl Strategy<Value = (Vec<(Line, bool)>, bool)> {
    (proptest::collection::vec((line(), any::<bool>()), 1..10), any::<bool>())
}

fn pe96() -> &'static [String] {
    static PUZZLES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    PUZZLES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("workbooks/puzzles/9x9/project_euler_96.txt");
        let text = std::fs::read_to_string(path).expect("PE96 ships with the repository");
        text.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect()
    })
}

fn bytes(l: &Line) -> Vec<u8> {
    let p = pe96();
    match l {
        Line::Puzzle(i, None) => p[*i].clone().into_bytes(),
        Line::Puzzle(i, Some(a)) | Line::BadAnswer(i, a) => format!("{},{a}", p[*i]).into_bytes(),
        Line::Garbage(t) | Line::WrongLength(t) => t.clone().into_bytes(),
        Line::NotUtf8(i, at) => {
            let mut b = p[*i].clone().into_bytes();
            b[*at] = 0xFF;
            b
        }
        Line::Joined(i, j) => format!("{}\r{}", p[*i], p[*j]).into_bytes(),
        Line::Blank(t) => t.as_bytes().to_vec(),
        Line::Long(n) => vec![b'1'; *n],
    }
}

/// The stream's bytes.
fn file((lines, last_ends): &(Vec<(Line, bool)>, bool)) -> Vec<u8> {
    let mut out = Vec::new();
    for (k, (l, crlf)) in lines.iter().enumerate() {
        out.extend(bytes(l));
        if k + 1 < lines.len() || *last_ends {
            out.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
        }
    }
    out
}

/// Runs the batch over `input` as a file or through standard input.
fn run(input: &[u8], stdin: bool) -> std::process::Output {
    let spec = if stdin {
        "puzzle=@-".to_string()
    } else {
        let path = dir().join("stream.txt");
        std::fs::write(&path, input).expect("written");
        format!("puzzle=@{}", path.display())
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(["batch", "workbooks/sudoku.ron", "--input", &spec, "--format", "jsonl", "--jobs", "2"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dataflow starts");
    let mut pipe = child.stdin.take().expect("its stdin");
    let input = if stdin { input.to_vec() } else { Vec::new() };
    // Written on a thread of its own: the batch answers while it reads.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("it ends");
    writer.join().expect("the writer ends");
    out
}

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("properties-batch");
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}

/// Checks the batch's output against the stream's lines.
fn check(stream: &(Vec<(Line, bool)>, bool), stdin: bool) -> Result<(), TestCaseError> {
    let out = run(&file(stream), stdin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let records: Vec<Json> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).map_err(|e| TestCaseError::fail(format!("{e}: {l}"))))
        .collect::<Result<_, _>>()?;
    let code = out.status.code();
    prop_assert!(code.is_some(), "killed by a signal: {stderr}");
    // The records due: each non-blank line up to the first that cannot be
    // read at all (an answer after the comma that does not read, a line
    // past the cap), where the batch stops with a usage error (exit 2)
    // naming it. docs/scale.md says so of standard input's answers and
    // docs/limits.md says a file's over-long line is refused before
    // anything is solved, but `batch` reads a file as it goes unless
    // stderr is a terminal, so a file stops at that line too (reported,
    // not changed here: reading a file first would not stream).
    let mut due = Vec::new();
    let mut fatal = None;
    for (n, (l, _)) in stream.0.iter().enumerate() {
        match l {
            Line::Blank(_) => {}
            Line::BadAnswer(..) | Line::Long(PAST_CAP) => {
                fatal = Some(n + 1);
                break;
            }
            _ => due.push((n + 1, l)),
        }
    }
    let numbers: Vec<u64> = records.iter().map(|r| r["line"].as_u64().unwrap_or(0)).collect();
    let wanted: Vec<u64> = due.iter().map(|(n, _)| *n as u64).collect();
    prop_assert_eq!(&numbers, &wanted, "one record per non-blank line, in order: {}", stderr);
    for (r, (_, l)) in records.iter().zip(&due) {
        let status = r["status"].as_str().unwrap_or("");
        prop_assert!(STATUSES.contains(&status), "{r}");
        match l {
            Line::Puzzle(..) => prop_assert!(status != "error", "a valid puzzle: {r}"),
            _ => {
                prop_assert_eq!(status, "error", "{:?}: {}", l, r);
                prop_assert!(r["message"].as_str().is_some_and(|m| !m.is_empty()), "{r}");
            }
        }
    }
    if let Some(n) = fatal {
        prop_assert_eq!(code, Some(2), "{}", stderr);
        prop_assert!(stderr.contains(&format!("line {n}")), "the error names line {n}: {stderr}");
        return Ok(());
    }
    let errors = records.iter().filter(|r| r["status"] == "error").count();
    prop_assert_eq!(code, Some(if errors > 0 { 1 } else { 0 }), "{}", stderr);
    let last = stderr.lines().rfind(|l| l.starts_with("{\"summary\"")).unwrap_or("");
    let summary: Json = serde_json::from_str(last).map_err(|e| TestCaseError::fail(format!("{e}: {stderr}")))?;
    let summary = &summary["summary"];
    prop_assert_eq!(summary["puzzles"].as_u64(), Some(records.len() as u64), "{}", summary);
    let mut total = 0;
    for (status, key) in
        STATUSES.iter().zip(["solved", "unsolved", "wrong", "not_converged", "oscillating", "errors", "filled"])
    {
        let n = records.iter().filter(|r| r["status"] == *status).count() as u64;
        prop_assert_eq!(summary[key].as_u64(), Some(n), "{} in {}", key, summary);
        total += n;
    }
    prop_assert_eq!(total, records.len() as u64);
    Ok(())
}

proptest! {
    #![proptest_config(super::config(24))]

    #[test]
    fn a_puzzle_file_gets_one_record_per_line(s in stream()) {
        check(&s, false)?;
    }

    #[test]
    fn standard_input_gets_one_record_per_line(s in stream()) {
        check(&s, true)?;
    }
}
