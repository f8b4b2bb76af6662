//! The command line under hostile use (issue 13): a reader that closes
//! stdout early (`| head`) ends every command quietly; `--trace-file` may
//! not replace the workbook; `--set` takes constants only; `eval`'s parse
//! errors count columns in characters; state files of a newer version and
//! with a huge iteration count; unknown functions quoted as written.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{SUDOKU, dataflow, expect_exit};
use dataflow::state::State;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dataflow-hostile-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Waits for the child, killing it after `limit`; its exit code.
fn finish(mut child: Child, limit: Duration) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            // A death by a signal (SIGPIPE) has no code.
            return status.code().unwrap_or(-1);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `dataflow ARGS` with stdout (and, when `both`, stderr: `2>&1`)
/// into a pipe whose reader takes 10 bytes and goes away, as `| head -c
/// 10` does. Returns the exit code and, unless `both`, what stderr said.
fn closed_early(args: &[&str], both: bool) -> (i32, String) {
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dataflow"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("NO_COLOR", "1").stdin(Stdio::null());
    if both {
        cmd.stderr(writer.try_clone().unwrap());
    } else {
        cmd.stderr(Stdio::piped());
    }
    cmd.stdout(writer);
    let mut child = cmd.spawn().expect("the dataflow binary runs");
    drop(cmd); // the parent's copies of the pipe's writing end
    let mut head = [0u8; 10];
    reader.read_exact(&mut head).expect("some output");
    drop(reader);
    let stderr = child.stderr.take().map(|mut e| {
        let mut text = String::new();
        e.read_to_string(&mut text).unwrap();
        text
    });
    (finish(child, Duration::from_secs(60)), stderr.unwrap_or_default())
}

/// Each command's output is larger than a pipe holds (64 KiB), so the
/// writes after the reader left fail with EPIPE; they used to panic (exit
/// 101 and a backtrace).
#[test]
fn a_closed_pipe_is_a_quiet_exit() {
    let dir = temp_dir("pipe");
    // 5,000 one-cell cycles: `check` lists each, `graph` draws each.
    let cycles = dir.join("cycles.ron");
    std::fs::write(&cycles, r#"(sheets: ["Main"], cells: { "Main!A1:A5000": "=A1" })"#).unwrap();
    // 20,000 tiny puzzles for `batch --format jsonl`.
    let book = dir.join("tiny.ron");
    std::fs::write(
        &book,
        r#"(sheets: ["Main"], cells: { "Main!B1:B3": "=A1" },
            inputs: { "p": (range: "Main!A1:A3", alphabet: "123") }, views: { "solution": (range: "Main!B1:B3") })"#,
    )
    .unwrap();
    let lines = dir.join("lines.txt");
    std::fs::write(&lines, "123\n".repeat(20_000)).unwrap();
    let (cycles, book, lines) = (s(&cycles), s(&book), format!("p=@{}", s(&lines)));
    let big = "Main!A1:IV256";
    let runs: [(&[&str], bool); 8] = [
        (&["run", SUDOKU, "--show", big], false),
        (&["run", SUDOKU, "--show", big, "--format", "json"], false),
        (&["run", SUDOKU, "--show", big, "--trace"], true),
        (&["eval", SUDOKU, "{=SEQUENCE(100000)}"], false),
        (&["batch", &book, "--input", &lines, "--format", "jsonl"], false),
        (&["check", &cycles], false),
        (&["graph", &cycles], false),
        (&["step", SUDOKU, "--plain", "--show", big], false),
    ];
    for (args, both) in runs {
        let (code, stderr) = closed_early(args, both);
        assert_eq!(code, 0, "dataflow {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "dataflow {args:?}: {stderr}");
    }
}

/// `watch` writes once per change: after the reader left, the next run's
/// output ends it quietly (it was a usage error, exit 2).
#[test]
fn watch_ends_quietly_when_its_reader_leaves() {
    let dir = temp_dir("watch");
    let book = dir.join("book.ron");
    std::fs::write(&book, r#"(sheets: ["Main"], cells: { "Main!A1": 1 }, views: { "v": (range: "Main!A1") })"#)
        .unwrap();
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dataflow"));
    cmd.args(["watch", &s(&book)]).stdin(Stdio::null()).stdout(writer).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(cmd);
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains("Ctrl-C quits") {
        reader.read_exact(&mut byte).expect("the first run's output");
        seen.push(byte[0]);
    }
    drop(reader);
    // Save the workbook until the watcher notices (its watch may start just after the first run).
    let start = Instant::now();
    let code = loop {
        std::fs::write(&book, r#"(sheets: ["Main"], cells: { "Main!A1": 2 }, views: { "v": (range: "Main!A1") })"#)
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("watch still running");
        }
    };
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
}

/// A workbook with one included formula file, in a directory of its own.
fn small_book(dir: &Path) -> (PathBuf, PathBuf) {
    let book = dir.join("book.ron");
    let dfl = dir.join("f.dfl");
    std::fs::write(&book, r#"(sheets: ["Main"], calc: (iterate: true), include: ["f.dfl"], cells: { "Main!A1": 1 })"#)
        .unwrap();
    std::fs::write(&dfl, "cells Main!B1 = B1+A1\n").unwrap();
    (book, dfl)
}

#[test]
fn trace_file_may_not_replace_the_workbook_or_its_includes() {
    let dir = temp_dir("trace-file");
    let (book, dfl) = small_book(&dir);
    let before = (std::fs::read_to_string(&book).unwrap(), std::fs::read_to_string(&dfl).unwrap());
    // The same files under other spellings.
    let again = s(&dir.join(".").join("book.ron"));
    let out = expect_exit(2, &["run", &s(&book), "--trace", "--trace-file", &again]);
    assert!(out.stderr.contains(&format!("--trace-file `{again}` is the workbook file")), "{out:?}");
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let dfl_again = s(&sub.join("..").join("f.dfl"));
    let out = expect_exit(2, &["run", &s(&book), "--trace-cell", "Main!B1", "--trace-file", &dfl_again]);
    assert!(out.stderr.contains("is a formula file the workbook includes"), "{out:?}");
    assert_eq!((std::fs::read_to_string(&book).unwrap(), std::fs::read_to_string(&dfl).unwrap()), before);
    // Any other file is written.
    let trace = dir.join("trace.txt");
    expect_exit(0, &["run", &s(&book), "--trace", "--trace-file", &s(&trace)]);
    assert!(std::fs::read_to_string(&trace).unwrap().starts_with("iteration 1: "));
}

#[test]
fn set_takes_constants_not_formulas() {
    let out = expect_exit(2, &["run", SUDOKU, "--set", "Main!A1==1+1", "--show", "Main!A1"]);
    assert!(out.stderr.contains("--set `Main!A1==1+1`: --set takes constants, not formulas"), "{out:?}");
    assert!(out.stderr.contains("Main!A1='=1+1"), "{out:?}");
    assert_eq!(out.stdout, "");
    expect_exit(2, &["step", SUDOKU, "--plain", "--set", "Main!A1==A2"]);
    // The text itself, with a leading `'`.
    let out = expect_exit(0, &["run", SUDOKU, "--set", "Main!A1='=1+1", "--show", "Main!A1"]);
    assert!(out.stdout.contains("Main!A1:\n=1+1\n"), "{out:?}");
}

#[test]
fn eval_parse_errors_count_characters() {
    let out = expect_exit(2, &["eval", SUDOKU, "=\"ééééé\"+"]);
    // The `+` is the ninth character (the fourteenth byte).
    assert!(out.stderr.contains("column 9: expected an expression after `+`"), "{out:?}");
    // In `{=...}` the brace counts.
    let out = expect_exit(2, &["eval", SUDOKU, "{=\"ééééé\"+}"]);
    assert!(out.stderr.contains("column 10: expected an expression after `+`"), "{out:?}");
}

#[test]
fn unknown_functions_are_quoted_as_written() {
    let out = expect_exit(0, &["eval", SUDOKU, "=ééé(1)+nosuch(2)+sum(3)"]);
    assert_eq!(out.stdout, "#NAME?\n");
    assert!(out.stderr.contains("unknown function `ééé`"), "{out:?}");
    assert!(out.stderr.contains("unknown function `nosuch`"), "{out:?}");
    assert!(!out.stderr.contains("SUM"), "{out:?}");
    let out = expect_exit(0, &["eval", SUDOKU, "=sum(3,4)"]);
    assert_eq!(out.stdout, "7\n");
}

/// Runs the small workbook once with `--state`, then edits the file.
fn saved_state(name: &str, edit: impl Fn(&str) -> String) -> (PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let (book, _) = small_book(&dir);
    let state = dir.join("state.ron");
    expect_exit(0, &["run", &s(&book), "--max-iter", "1", "--state", &s(&state)]);
    let text = std::fs::read_to_string(&state).unwrap();
    std::fs::write(&state, edit(&text)).unwrap();
    (book, state)
}

#[test]
fn a_newer_state_file_gets_the_version_message() {
    let (book, state) = saved_state("newer", |t| t.replace("version: 1,", "version: 2,\n    colour: \"red\","));
    let out = expect_exit(1, &["run", &s(&book), "--max-iter", "1", "--state", &s(&state)]);
    assert!(out.stderr.contains("it has format version 2; this dataflow reads version 1"), "{out:?}");
    // An unknown field in the current version is still unreadable.
    let (book, state) = saved_state("unknown-field", |t| t.replace("version: 1,", "version: 1,\n    colour: \"red\","));
    let out = expect_exit(1, &["run", &s(&book), "--max-iter", "1", "--state", &s(&state)]);
    assert!(out.stderr.contains("it is not a readable state file"), "{out:?}");
}

#[test]
fn the_iteration_count_saturates() {
    let max = u64::MAX.to_string();
    let (book, state) =
        saved_state("saturates", |t| t.replace("iterations_total: 1,", &format!("iterations_total: {max},")));
    let out = dataflow(&["run", &s(&book), "--max-iter", "1", "--state", &s(&state)]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains(&format!("saved ({max} iterations in all)")), "{out:?}");
    assert_eq!(State::read(&state).unwrap().unwrap().iterations_total, u64::MAX);
}

/// In a workbook the diagnostics quote the name as written too, in a
/// cell's formula and in a name's.
#[test]
fn unknown_functions_in_a_workbook_are_quoted_as_written() {
    let dir = temp_dir("unknown-fn");
    let book = dir.join("book.ron");
    std::fs::write(
        &book,
        r#"(sheets: ["Main"], cells: { "Main!A1": "=1+ééé(1)", "Main!A2": "=n" }, names: { "n": (formula: "=noSuch(2)") })"#,
    )
    .unwrap();
    let out = expect_exit(1, &["check", &s(&book)]);
    assert!(out.stderr.contains("unknown function `ééé`"), "{out:?}");
    assert!(out.stderr.contains("unknown function `noSuch`"), "{out:?}");
    assert!(!out.stderr.contains("ÉÉÉ") && !out.stderr.contains("NOSUCH"), "{out:?}");
}

#[test]
fn export_never_replaces_its_own_workbook_or_includes_even_with_force() {
    let dir = temp_dir("export-own");
    let (book, dfl) = small_book(&dir);
    let xlsx = dir.join("book.xlsx");
    expect_exit(0, &["export", &s(&book), "-o", &s(&xlsx)]);
    let before = std::fs::read(&xlsx).unwrap();
    // An xlsx exported over itself, under another spelling.
    let again = s(&dir.join(".").join("book.xlsx"));
    let out = expect_exit(2, &["export", &s(&xlsx), "-o", &again, "--force"]);
    assert!(out.stderr.contains(&format!("-o `{again}` is the workbook file")), "{out:?}");
    assert_eq!(std::fs::read(&xlsx).unwrap(), before, "the xlsx is untouched");
    // A formula file the RON workbook includes (named as an .ods so the
    // format is accepted) is refused the same way.
    let dfl_as_ods = dir.join("f.ods");
    std::fs::rename(&dfl, &dfl_as_ods).unwrap();
    std::fs::write(&book, r#"(sheets: ["Main"], calc: (iterate: true), include: ["f.ods"], cells: { "Main!A1": 1 })"#)
        .unwrap();
    let text = std::fs::read_to_string(&dfl_as_ods).unwrap();
    let out = expect_exit(2, &["export", &s(&book), "-o", &s(&dfl_as_ods), "--force"]);
    assert!(out.stderr.contains("is a formula file the workbook includes"), "{out:?}");
    assert_eq!(std::fs::read_to_string(&dfl_as_ods).unwrap(), text);
    // Another file is still replaced with --force.
    let other = dir.join("other.xlsx");
    std::fs::write(&other, b"old").unwrap();
    expect_exit(0, &["export", &s(&xlsx), "-o", &s(&other), "--force"]);
    assert_ne!(std::fs::read(&other).unwrap(), b"old");
}

/// A state file that is a FIFO would block `run` for good: it is refused,
/// as includes are.
#[cfg(unix)]
#[test]
fn a_state_file_that_is_a_fifo_is_refused() {
    let dir = temp_dir("state-fifo");
    let (book, _) = small_book(&dir);
    let fifo = dir.join("state.ron");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|st| st.success()), "mkfifo makes the pipe");
    let out = expect_exit(1, &["run", &s(&book), "--state", &s(&fifo)]);
    assert!(out.stderr.contains("it is a FIFO (named pipe), not a regular file"), "{out:?}");
}

/// A puzzle "line" without end (`/dev/zero`, or 2 MB without a line break
/// through standard input) is refused at the line cap, with its file and
/// line, instead of filling memory.
#[test]
fn a_line_without_end_is_refused_at_the_cap() {
    let out = expect_exit(2, &["batch", SUDOKU, "--input", "puzzle=@/dev/zero"]);
    assert!(out.stderr.contains("`/dev/zero` line 1 is longer than 1048576 bytes"), "{out:?}");
    let long = "1".repeat(2 << 20) + "\n" + common::GRID1 + "\n";
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(["batch", SUDOKU, "--input", "puzzle=@-"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // dataflow stops reading at the cap: the rest of the write may fail.
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, long.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`-` line 1 is longer than 1048576 bytes"), "{stderr}");
}
