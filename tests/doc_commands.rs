//! Every command README.md and docs/*.md show is run, so the docs cannot
//! drift from the program: the lines of each ```sh block (a `\` joins the
//! next line) and the `$ ` lines of ```text blocks, in order, each in its
//! own shell, in a temporary folder holding copies of `workbooks/` and
//! `formulas/` (a walkthrough that copies and edits them, or writes
//! `graph.dot`, writes there, never into the repository) and `tests/data`.
//! `dataflow` is the binary under test; `cargo run --release --` is read as
//! `dataflow`. Each command must exit with 0, and the output the docs show
//! under it (after a `$ ` line, or as the ```text block right after a
//! ```sh block of one command) must begin with a line it prints (a line
//! with timings is left out).
//!
//! Not run, each for a stated reason (and counted): the terminal stepper
//! (`step` without `--plain`), `watch` and `serve`, which wait for a person; the
//! README's build and test commands themselves (`cargo ...`, `.ci/run`);
//! what needs a program CI does not have (Spark, GNU parallel, Python
//! packages, an editor); the long runs over `../shared`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A command as the docs show it, with where, and the first line of the
/// output they show under it (for a `$ ` line).
struct Shown {
    at: String,
    command: String,
    output: Option<String>,
}

/// A fenced block: its language, the line after its opening fence
/// (1-based), its lines, and whether only blank lines separate it from the
/// block before.
struct Block<'t> {
    lang: &'t str,
    first_line: usize,
    lines: Vec<&'t str>,
    adjacent: bool,
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    let mut since_close: Option<bool> = None; // Some(true) while only blanks follow a block
    for (i, line) in text.lines().enumerate() {
        if let Some(fence) = line.strip_prefix("```") {
            match open.take() {
                Some(b) => {
                    out.push(b);
                    since_close = Some(true);
                }
                None => {
                    let adjacent = since_close == Some(true);
                    open = Some(Block { lang: fence.trim(), first_line: i + 2, lines: Vec::new(), adjacent });
                }
            }
            continue;
        }
        match &mut open {
            Some(b) => b.lines.push(line),
            None if !line.trim().is_empty() => since_close = Some(false),
            None => {}
        }
    }
    out
}

/// The commands of one markdown file, in order.
fn commands(path: &Path) -> Vec<Shown> {
    let text = std::fs::read_to_string(path).unwrap();
    let blocks = blocks(&text);
    let mut out = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        let shell = matches!(b.lang, "sh" | "bash");
        if !shell && !matches!(b.lang, "text" | "console") {
            continue;
        }
        let from = out.len();
        let mut i = 0;
        while i < b.lines.len() {
            let (line, n) = (b.lines[i], b.first_line + i);
            i += 1;
            let command = match (shell, line.strip_prefix("$ ")) {
                (true, _) => line,
                (false, Some(c)) => c,
                (false, None) => continue,
            };
            let mut command = command.to_string();
            while command.trim_end().ends_with('\\') && i < b.lines.len() {
                command = format!("{} {}", command.trim_end().trim_end_matches('\\'), b.lines[i].trim());
                i += 1;
            }
            // A comment after the command, and comment lines.
            let command = match command.find("  #") {
                Some(c) => command[..c].trim().to_string(),
                None => command.trim().to_string(),
            };
            if command.is_empty() || command.starts_with('#') {
                continue;
            }
            let output = b.lines.get(i).filter(|l| !shell && !l.starts_with("$ ")).map(|l| l.to_string());
            out.push(Shown { at: format!("{}:{n}", path.display()), command, output });
        }
        // One command, then a text block: what it prints.
        let next = blocks.get(k + 1).filter(|nb| nb.adjacent && nb.lang == "text");
        if let (true, 1, Some(nb)) = (shell, out.len() - from, next) {
            out[from].output = nb.lines.first().filter(|l| !l.starts_with("$ ")).map(|l| l.to_string());
        }
    }
    out
}

/// Why a command is not run, if it is not.
fn not_run(c: &str) -> Option<&'static str> {
    let words: Vec<&str> = c.split_whitespace().collect();
    let dataflow_at = words.iter().position(|w| *w == "dataflow");
    let sub = dataflow_at.and_then(|k| words.get(k + 1)).copied();
    if matches!(sub, Some("watch" | "serve")) || (sub == Some("step") && !words.contains(&"--plain")) {
        return Some("waits for a person");
    }
    if c.contains("../shared") {
        return Some("a long run over ../shared");
    }
    let first = words.first().copied().unwrap_or_default();
    if c.starts_with("cargo run --release -- ") {
        return None;
    }
    match first {
        "cargo" | ".ci/run" | "rustup" => Some("the README's own build and test commands"),
        "dataflow" | "cp" | "sed" | "cat" | "head" | "gzip" | "zcat" | "mkdir" | "echo" | "jq" | "diff" => {
            if c.contains("| jq") || first == "jq" {
                return Some("needs jq");
            }
            None
        }
        _ => Some("needs a program CI does not install"),
    }
}

/// A temporary folder with copies of what the commands read.
fn sandbox() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doc-commands");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    for sub in ["workbooks", "formulas", "tests/data"] {
        let status = Command::new("cp").arg("-r").arg(root.join(sub)).arg(dir.join(sub)).status().unwrap();
        assert!(status.success(), "copying {sub}");
    }
    dir
}

#[test]
fn every_documented_command_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = vec![root.join("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(root.join("docs")).unwrap().map(|e| e.unwrap().path()).collect();
    more.retain(|p| p.extension().is_some_and(|x| x == "md"));
    more.sort();
    docs.extend(more);
    let dir = sandbox();
    let bin = Path::new(env!("CARGO_BIN_EXE_dataflow")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let (mut ran, mut skipped, mut compared, mut failed) = (0, 0, 0, Vec::new());
    for doc in &docs {
        for shown in commands(doc) {
            if let Some(why) = not_run(&shown.command) {
                // Listed with the reason (seen with --nocapture).
                println!("not run ({why}): {}: {}", shown.at, shown.command);
                skipped += 1;
                continue;
            }
            // Files a command writes in /tmp go to the sandbox's own `tmp/`,
            // so what an earlier run left there changes nothing.
            let command = shown.command.replace("cargo run --release -- ", "dataflow ").replace(" /tmp/", " tmp/");
            let out = Command::new("timeout")
                .args(["120", "sh", "-c", &command])
                .current_dir(&dir)
                .env("PATH", &path)
                .output()
                .unwrap();
            ran += 1;
            let stdout = String::from_utf8_lossy(&out.stdout);
            if !out.status.success() {
                let stderr = String::from_utf8_lossy(&out.stderr);
                failed.push(format!("{}: `{command}` exited {:?}: {}", shown.at, out.status.code(), stderr.trim()));
            } else if let Some(first) = &shown.output {
                let stderr = String::from_utf8_lossy(&out.stderr);
                let printed = stdout.lines().chain(stderr.lines()).any(|l| l.trim_end() == first.trim_end());
                if !printed && !first.contains("\"ms\"") {
                    failed.push(format!("{}: `{command}` does not print the doc's first line\n  {first}", shown.at));
                }
                compared += 1;
            }
        }
    }
    assert!(failed.is_empty(), "{} of {ran} documented commands fail:\n{}", failed.len(), failed.join("\n"));
    assert!(ran >= 40, "only {ran} commands ran ({skipped} not run)");
    assert!(compared >= 7, "only {compared} outputs compared");
}
