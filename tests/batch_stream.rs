//! `batch` as a stream: 2,000 puzzles piped through standard input come
//! back in input order, one JSON line each with its line number and an
//! answer that matches its puzzle, with the summary as the last line on
//! stderr; output starts before the input ends; several files and a
//! directory, paired with their solutions by `--expect auto`; and Spark's
//! `RDD.pipe` in local mode (ignored unless asked for: it needs pyspark).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

mod common;
use common::*;

const ROYLE: &str = "workbooks/puzzles/9x9/royle_17clue_2000.txt";
const ROYLE_SOLUTIONS: &str = "workbooks/puzzles/9x9/royle_17clue_2000.solutions.txt";

/// The first `n` puzzles (at most 2,000) of the 17-clue sample the
/// repository ships, with their solutions.
fn corpus(n: usize) -> (Vec<String>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |f: &str| -> Vec<String> {
        std::fs::read_to_string(root.join(f)).unwrap().lines().take(n).map(String::from).collect()
    };
    let (p, s) = (read(ROYLE), read(ROYLE_SOLUTIONS));
    assert_eq!((p.len(), s.len()), (n, n), "the shipped sample has {} puzzles", p.len());
    (p, s)
}

/// The JSON objects of an output, one per line.
fn objects(text: &str) -> Vec<Json> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// The summary: the last line of stderr, `{"summary":{...}}`.
fn summary(out: &Out) -> Json {
    let last = out.stderr.lines().last().unwrap_or_else(|| panic!("no summary: {out:?}"));
    serde_json::from_str::<Json>(last).unwrap_or_else(|e| panic!("{e}: {last}"))["summary"].clone()
}

/// Whether an answer keeps the puzzle's clues and agrees with the solution
/// wherever it has a symbol.
fn matches(grid: &str, puzzle: &str, solution: &str) -> bool {
    let cells = grid.chars().zip(puzzle.chars()).zip(solution.chars());
    grid.len() == 81 && cells.clone().all(|((g, p), s)| (g == '.' || g == s) && (p == '.' || g == p))
}

#[test]
fn two_thousand_puzzles_stream_through_stdin_in_order() {
    let (puzzles, solutions) = corpus(2000);
    // A blank line after puzzle 1000: it is skipped, and counted.
    let mut input = String::new();
    for (i, p) in puzzles.iter().enumerate() {
        input += &format!("{p}\n{}", if i == 999 { "\n" } else { "" });
    }
    let args = ["batch", SUDOKU, "--input", "puzzle=@-", "--format", "jsonl", "--jobs", "2"];
    let out = dataflow_stdin(&args, &input);
    assert_eq!(out.code, 0, "{out:?}");
    let lines = objects(&out.stdout);
    assert_eq!(lines.len(), 2000);
    for (i, o) in lines.iter().enumerate() {
        let line = if i < 1000 { i + 1 } else { i + 2 };
        assert_eq!(o["line"], line, "{o}");
        assert!(matches(o["grid"].as_str().unwrap(), &puzzles[i], &solutions[i]), "{o} for {}", puzzles[i]);
    }
    let solved = lines.iter().filter(|o| o["status"] == "solved").count();
    let unsolved = lines.iter().filter(|o| o["status"] == "unsolved").count();
    assert_eq!(solved + unsolved, 2000, "{out:?}");
    let s = summary(&out);
    assert_eq!((s["puzzles"].as_u64(), s["solved"].as_u64()), (Some(2000), Some(solved as u64)), "{s}");
    assert_eq!(
        (s["unsolved"].as_u64(), s["wrong"].as_u64(), s["errors"].as_u64()),
        (Some(unsolved as u64), Some(0), Some(0)),
        "{s}"
    );
    assert!(s["puzzles_per_s"].as_f64().is_some_and(|r| r > 0.0), "{s}");
}

#[test]
fn output_starts_before_input_ends() {
    let args = ["batch", SUDOKU, "--input", "puzzle=@-", "--format", "jsonl"];
    let mut child = command(&args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        let mut line = String::new();
        while stdout.read_line(&mut line).is_ok_and(|n| n > 0) {
            tx.send(std::mem::take(&mut line)).ok();
        }
    });
    writeln!(stdin, "{GRID1}").unwrap();
    stdin.flush().unwrap();
    // The first answer comes while standard input is still open.
    let first = rx.recv_timeout(Duration::from_secs(60)).expect("the first puzzle's line before the input ends");
    let first: Json = serde_json::from_str(&first).unwrap();
    assert_eq!((first["line"].as_u64(), first["grid"].as_str()), (Some(1), Some(GRID1_SOLVED)), "{first}");
    writeln!(stdin, "{GRID2}").unwrap();
    drop(stdin);
    let second: Json = serde_json::from_str(&rx.recv_timeout(Duration::from_secs(60)).unwrap()).unwrap();
    assert_eq!((second["line"].as_u64(), second["grid"].as_str()), (Some(2), Some(GRID2_SOLVED)), "{second}");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let s: Json = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!((s["summary"]["puzzles"].as_u64(), s["summary"]["solved"].as_u64()), (Some(2), Some(2)), "{err}");
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dataflow-stream-{name}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_directory_is_its_puzzle_files_graded_by_their_solutions() {
    let dir = temp_dir("dir");
    let write = |f: &str, lines: &[&str]| std::fs::write(dir.join(f), lines.join("\n") + "\n").unwrap();
    // GRID2's expected line is GRID1's answer: wrong. b.txt has no
    // solutions (graded by fullness); b.tiers.txt is a companion, skipped.
    write("a.txt", &[GRID1, GRID2]);
    write("a.solutions.txt", &[GRID1_SOLVED, GRID1_SOLVED]);
    write("b.txt", &[GRID2]);
    write("b.tiers.txt", &["easy"]);
    std::fs::write(dir.join("notes.md"), "not a puzzle").unwrap();
    let input = format!("puzzle=@{}", dir.display());
    let out = expect_exit(0, &["batch", SUDOKU, "--input", &input, "--expect", "auto", "--format", "jsonl"]);
    let got: Vec<(String, u64, String)> = objects(&out.stdout)
        .iter()
        .map(|o| {
            let file = Path::new(o["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
            (file, o["line"].as_u64().unwrap(), o["status"].as_str().unwrap().to_string())
        })
        .collect();
    let want = [("a.txt", 1, "solved"), ("a.txt", 2, "wrong"), ("b.txt", 1, "solved")];
    assert_eq!(got, want.map(|(f, l, s)| (f.to_string(), l, s.to_string())), "{out:?}");
    let s = summary(&out);
    assert_eq!((s["puzzles"].as_u64(), s["solved"].as_u64(), s["wrong"].as_u64()), (Some(3), Some(2), Some(1)), "{s}");
    // Several files, one --input each, in the order given; the text summary.
    let (a, b) =
        (format!("puzzle=@{}", dir.join("b.txt").display()), format!("puzzle=@{}", dir.join("a.txt").display()));
    let out = expect_exit(0, &["batch", SUDOKU, "--input", &a, "--input", &b, "--expect", "auto"]);
    for line in ["puzzles: 3", "solved: 2", "wrong: 1", "errors: 0"] {
        assert!(out.stdout.lines().any(|l| l == line), "{line}: {out:?}");
    }
    let out = expect_exit(0, &["batch", SUDOKU, "--input", &a, "--input", &b, "--format", "jsonl"]);
    let files: Vec<&str> = objects(&out.stdout)
        .iter()
        .map(|o| o["file"].as_str().unwrap().to_string())
        .map(|f| if f.ends_with("b.txt") { "b" } else { "a" })
        .collect();
    assert_eq!(files, ["b", "a", "a"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn stream_usage_errors() {
    let dir = temp_dir("usage");
    std::fs::write(dir.join("a.txt"), format!("{GRID1}\n")).unwrap();
    let a = format!("puzzle=@{}", dir.join("a.txt").display());
    let two = ["batch", SUDOKU, "--input", &a, "--input", &a, "--expect", "tests/data/cli/puzzles.txt"];
    assert!(expect_exit(2, &two).stderr.contains("--expect FILE pairs with one input file"));
    let stdin = ["batch", SUDOKU, "--input", "puzzle=@-", "--expect", "tests/data/cli/puzzles.txt"];
    assert!(expect_exit(2, &stdin).stderr.contains("not standard input"));
    // Another input is a companion file (tests/cli_batch.rs), never stdin.
    let names = ["batch", SUDOKU, "--input", &a, "--input", "other=@-"];
    assert!(expect_exit(2, &names).stderr.contains("is a companion: it reads one file"));
    let empty = temp_dir("empty");
    let out = expect_exit(2, &["batch", SUDOKU, "--input", &format!("puzzle=@{}", empty.display())]);
    assert!(out.stderr.contains("has no puzzle files"), "{out:?}");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&empty).ok();
}

/// The Spark job: the puzzles in 4 partitions piped through `dataflow
/// batch` (one process per partition), the lines printed back as collected.
const SPARK_JOB: &str = r#"
import sys
from pyspark import SparkConf, SparkContext
conf = SparkConf().setMaster("local[2]").setAppName("dataflow-batch").set("spark.ui.enabled", "false")
sc = SparkContext(conf=conf)
sc.setLogLevel("ERROR")
puzzles = open(sys.argv[1]).read().split("\n")[:-1]
command = [sys.argv[2], "batch", sys.argv[3], "--input", "puzzle=@-", "--format", "jsonl", "--jobs", "1"]
lines = sc.parallelize(puzzles, 4).pipe(" ".join(command), checkCode=True).collect()
sc.stop()
open(sys.argv[4], "w").write("\n".join(lines) + "\n")
"#;

#[test]
#[ignore = "needs pyspark (and Java): `pip install pyspark`, then `cargo test --release --test batch_stream -- --ignored`"]
fn spark_pipes_a_corpus_through_batch() {
    let has_pyspark = std::process::Command::new("python3").args(["-c", "import pyspark"]).output();
    assert!(
        has_pyspark.is_ok_and(|o| o.status.success()),
        "pyspark is not installed (`python3 -c \"import pyspark\"` fails)"
    );
    let (puzzles, solutions) = corpus(400);
    let dir = temp_dir("spark");
    let (job, input, output) = (dir.join("job.py"), dir.join("puzzles.txt"), dir.join("out.jsonl"));
    std::fs::write(&job, SPARK_JOB).unwrap();
    std::fs::write(&input, puzzles.join("\n") + "\n").unwrap();
    let workbook = Path::new(env!("CARGO_MANIFEST_DIR")).join(SUDOKU);
    let args = [
        job.as_os_str(),
        input.as_os_str(),
        env!("CARGO_BIN_EXE_dataflow").as_ref(),
        workbook.as_os_str(),
        output.as_os_str(),
    ];
    let run = std::process::Command::new("python3").args(args).output().unwrap();
    assert!(run.status.success(), "spark: {}", String::from_utf8_lossy(&run.stderr));
    let lines = objects(&std::fs::read_to_string(&output).unwrap());
    // Each partition is a process of its own, numbering its lines from 1;
    // collect() keeps the partitions, and so the puzzles, in order.
    assert_eq!(lines.len(), puzzles.len());
    for (i, o) in lines.iter().enumerate() {
        assert!(matches(o["grid"].as_str().unwrap(), &puzzles[i], &solutions[i]), "{o} for {}", puzzles[i]);
    }
    assert_eq!(lines.iter().filter(|o| o["line"] == 1).count(), 4);
    let solved = lines.iter().filter(|o| o["status"] == "solved").count();
    assert!(solved > 0 && lines.iter().all(|o| ["solved", "unsolved"].contains(&o["status"].as_str().unwrap())));
    std::fs::remove_dir_all(&dir).ok();
}
