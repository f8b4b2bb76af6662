//! `watch --corpus`: the experiment loop over puzzles. Each run loads the
//! workbook (with its `--with` parts), runs a sample of the corpus through
//! it as `batch` does, and shows how many puzzles were solved, wrong, gave
//! up (converged unsolved), oscillated or hit the iteration cap, the time
//! per puzzle, the views that held error values after some puzzles (a
//! line each, as `batch` gives), and what changed since the previous run:
//! the puzzles newly solved, newly wrong, no longer solved, no longer
//! wrong, and otherwise changed (gave up to oscillating, ...), by line.

use super::batch::{Plan, PuzzleOutcome};
use super::{Failure, WatchArgs};
use dataflow::puzzle::Status;
use indicatif::ProgressBar;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

/// Lines listed by name in a difference; the rest are counted.
const LISTED_LINES: usize = 12;

/// One run over the corpus: the text to show, and the files to watch.
/// `previous` holds the last run's outcomes and is replaced by this one's.
pub fn corpus_round(
    args: &WatchArgs,
    previous: &mut Option<Vec<PuzzleOutcome>>,
) -> Result<(String, Vec<PathBuf>), Failure> {
    let Some(corpus) = &args.corpus else { return Err(Failure::usage("watch: no --corpus")) };
    let common = args.run.common.options();
    let input = format!("=@{}", corpus.display());
    let mut plan = Plan::new(&common, &input, "solution", &[], args.expect.as_deref())?;
    let total = plan.lines.len();
    if let Some(n) = args.sample {
        plan.sample(n as usize);
    }
    let files = plan.session().workbook().sources.iter().map(|s| s.path.clone()).collect();
    let start = Instant::now();
    let outcomes = plan.run(&ProgressBar::hidden());
    let seconds = start.elapsed().as_secs_f64();
    let on: Vec<&str> = plan.session().workbook().parts.iter().filter(|p| p.on).map(|p| p.name.as_str()).collect();
    let mut text = format!(
        "corpus `{}`: {} of {total} puzzles{}\n",
        corpus.display(),
        outcomes.len(),
        if on.is_empty() { String::new() } else { format!(", with {}", on.join(", ")) }
    );
    text += &counts(&outcomes);
    text += &plan.view_lines(&outcomes);
    let mut ms: Vec<f64> = outcomes.iter().map(|o| o.ms).collect();
    ms.sort_by(f64::total_cmp);
    let median = ms.get(ms.len() / 2).copied().unwrap_or(0.0);
    text += &format!("{median:.2} ms per puzzle (median), {seconds:.2} s in all\n");
    if let Some(before) = previous.as_ref() {
        text += &difference(before, &outcomes);
    }
    *previous = Some(outcomes);
    Ok((text, files))
}

/// `solved 44, wrong 0, gave up 6, oscillating 0, not converged 0, errors 0`.
fn counts(outcomes: &[PuzzleOutcome]) -> String {
    let count = |s| outcomes.iter().filter(|o| o.status == s).count();
    // Only when some were: a workbook with a check never has any.
    let filled = match count(Status::Filled) {
        0 => String::new(),
        n => format!(", filled {n} (nothing checks them)"),
    };
    format!(
        "solved {}, wrong {}, gave up {}, oscillating {}, not converged {}, errors {}{filled}\n",
        count(Status::Solved),
        count(Status::Wrong),
        count(Status::Unsolved),
        count(Status::Oscillating),
        count(Status::NotConverged),
        count(Status::Error),
    )
}

/// What changed since the previous run, puzzle by puzzle (by line).
fn difference(before: &[PuzzleOutcome], now: &[PuzzleOutcome]) -> String {
    let was: HashMap<usize, Status> = before.iter().map(|o| (o.line, o.status)).collect();
    let lines = |keep: &dyn Fn(Option<Status>, Status) -> bool| -> Vec<usize> {
        now.iter().filter(|o| keep(was.get(&o.line).copied(), o.status)).map(|o| o.line).collect()
    };
    let solved = lines(&|b, n| n == Status::Solved && b != Some(Status::Solved));
    let wrong = lines(&|b, n| n == Status::Wrong && b != Some(Status::Wrong));
    let lost = lines(&|b, n| b == Some(Status::Solved) && n != Status::Solved);
    // Wrong before, now neither wrong nor solved (gave up, oscillating, ...).
    let unwrong = lines(&|b, n| b == Some(Status::Wrong) && n != Status::Wrong && n != Status::Solved);
    // Any other change of status (gave up to oscillating, a new line, ...).
    let other = lines(&|b, n| {
        b != Some(n)
            && n != Status::Solved
            && n != Status::Wrong
            && b != Some(Status::Solved)
            && b != Some(Status::Wrong)
    });
    if [&solved, &wrong, &lost, &unwrong, &other].iter().all(|l| l.is_empty()) {
        return "since the last run: no puzzle changed\n".to_string();
    }
    let mut parts = Vec::new();
    let lists = [
        ("newly solved", solved),
        ("newly wrong", wrong),
        ("no longer solved", lost),
        ("no longer wrong", unwrong),
        ("otherwise changed", other),
    ];
    for (what, list) in lists {
        if !list.is_empty() {
            parts.push(format!("{what} {}", line_list(&list)));
        }
    }
    format!("since the last run: {}\n", parts.join("; "))
}

/// `3 (lines 4, 9, 12)`, at most [`LISTED_LINES`] lines named.
fn line_list(lines: &[usize]) -> String {
    let named: Vec<String> = lines.iter().take(LISTED_LINES).map(usize::to_string).collect();
    let more =
        if lines.len() > LISTED_LINES { format!(", ... {} more", lines.len() - LISTED_LINES) } else { String::new() };
    let word = if lines.len() == 1 { "line" } else { "lines" };
    format!("{} ({word} {}{more})", lines.len(), named.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::watch::{Edits, Screen, watch_loop};
    use crate::cli::{Cli, Command};
    use clap::Parser;

    /// A two-cell "puzzle" workbook whose solution formula is edited
    /// between runs: the counts and the differences follow.
    #[test]
    fn each_save_reruns_the_corpus_and_shows_what_changed() {
        let dir = std::env::temp_dir().join(format!("dataflow-watch-corpus-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (book, dfl) = (dir.join("book.ron"), dir.join("f.dfl"));
        std::fs::write(
            &book,
            r#"(sheets: ["Main"], include: ["f.dfl"],
                inputs: { "p": (range: "Main!A1:B1", alphabet: "1234", blanks: ".") },
                views: { "solution": (range: "Main!C1:D1") })"#,
        )
        .unwrap();
        std::fs::write(dir.join("corpus.txt"), "12\n3.\n").unwrap();
        std::fs::write(dir.join("expect.txt"), "12\n31\n").unwrap();
        std::fs::write(&dfl, "cells Main!C1:D1 = IF(A1=\"\",\"\",A1)\n").unwrap();
        let edits = ["cells Main!C1:D1 = IF(A1=\"\",1,A1)\n", "cells Main!C1:D1 = IF(A1=\"\",1,A1+1)\n"];
        let (corpus, expect) = (dir.join("corpus.txt"), dir.join("expect.txt"));
        let argv = ["dataflow", "watch", book.to_str().unwrap(), "--corpus", corpus.to_str().unwrap()];
        let Command::Watch(args) =
            Cli::parse_from(argv.iter().copied().chain(["--expect", expect.to_str().unwrap()])).command
        else {
            unreachable!()
        };
        let mut i = 0;
        let edit = |_: &[PathBuf]| {
            let Some(e) = edits.get(i) else { return false };
            std::fs::write(&dfl, e).unwrap();
            i += 1;
            true
        };
        let mut out = Vec::new();
        watch_loop(&args, &mut Edits { files: Vec::new(), edit }, &mut out, Screen::default()).unwrap();
        let out = String::from_utf8(out).unwrap();
        let runs: Vec<&str> = out.split_inclusive("Ctrl-C quits\n").collect();
        assert_eq!(runs.len(), 3, "{out}");
        assert!(runs[0].contains("2 of 2 puzzles\nsolved 1, wrong 0, gave up 1,"), "{}", runs[0]);
        assert!(!runs[0].contains("since the last run"), "{}", runs[0]);
        assert!(runs[1].contains("solved 2, wrong 0, gave up 0,"), "{}", runs[1]);
        assert!(runs[1].contains("since the last run: newly solved 1 (line 2)\n"), "{}", runs[1]);
        assert!(runs[2].contains("solved 0, wrong 2,"), "{}", runs[2]);
        assert!(
            runs[2].contains("since the last run: newly wrong 2 (lines 1, 2); no longer solved 2 (lines 1, 2)\n"),
            "{}",
            runs[2]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn outcome(line: usize, status: Status) -> PuzzleOutcome {
        PuzzleOutcome {
            line,
            status,
            iterations: 1,
            period: None,
            ms: 1.0,
            grid: String::new(),
            collected: Vec::new(),
            message: None,
            view_errors: Vec::new(),
        }
    }

    #[test]
    fn the_difference_names_the_lines_that_changed() {
        let before = [outcome(1, Status::Solved), outcome(2, Status::Unsolved), outcome(3, Status::Unsolved)];
        let now = [outcome(1, Status::Unsolved), outcome(2, Status::Solved), outcome(3, Status::Wrong)];
        assert_eq!(
            difference(&before, &now),
            "since the last run: newly solved 1 (line 2); newly wrong 1 (line 3); no longer solved 1 (line 1)\n"
        );
        assert_eq!(difference(&now, &now), "since the last run: no puzzle changed\n");
        // Wrong back to gave up, and gave up to oscillating: changes too.
        let later = [outcome(1, Status::Oscillating), outcome(2, Status::Solved), outcome(3, Status::Unsolved)];
        assert_eq!(
            difference(&now, &later),
            "since the last run: no longer wrong 1 (line 3); otherwise changed 1 (line 1)\n"
        );
        let many: Vec<usize> = (1..=15).collect();
        assert_eq!(line_list(&many), "15 (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, ... 3 more)");
    }
}
