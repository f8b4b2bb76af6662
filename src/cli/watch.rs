//! `watch`: runs the workbook as `run` does, then again whenever the
//! workbook file or one of the formula files it includes changes, for
//! experimenting with formulas in an editor beside the terminal.
//!
//! The directories of the files are watched (editors often save by writing
//! a new file and renaming it over the old one), events are debounced (the
//! run starts once nothing happened for 200 ms), and the set of files is
//! recomputed after every load, since the workbook's `include` list may
//! change. Each run shows the views and the status line (the screen is
//! cleared first when stdout is a terminal), then a warning for each view
//! left holding error values, as `run` gives; when the workbook has errors,
//! their diagnostics are shown, and below them the last good result. Ctrl-C
//! quits. The files are watched before a run's result is printed, so a
//! save made as soon as it shows is seen. The loop itself, [`watch_loop`],
//! takes the watching as a [`Waiting`] so it can be driven without a file
//! system watcher. With `--corpus`, each run is a batch over puzzles
//! instead (`watch_corpus.rs`).

use super::run::{calculate, text_output};
use super::watch_corpus::corpus_round;
use super::{Failure, Format, WatchArgs};
use notify::{EventKind, RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long the files must stay quiet before a run.
pub const DEBOUNCE: Duration = Duration::from_millis(200);

/// Clears a terminal and moves the cursor home.
const CLEAR: &str = "\x1b[2J\x1b[H";

pub fn watch(args: &WatchArgs) -> Result<(), Failure> {
    if args.run.state.is_some() {
        return Err(Failure::Usage("watch does not take --state (each change would step the saved state)".into()));
    }
    if args.run.format != Format::Text {
        return Err(Failure::Usage("watch prints text only".into()));
    }
    let (tx, rx) = channel();
    let watcher = notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    })
    .map_err(|e| Failure::Usage(format!("cannot watch files: {e}")))?;
    let mut folders = Folders { watcher, rx, dirs: BTreeSet::new(), wanted: BTreeSet::new(), missing: BTreeSet::new() };
    let terminal = std::io::stdout().is_terminal();
    let color = terminal && std::env::var_os("NO_COLOR").is_none();
    let mut out = std::io::stdout().lock();
    watch_loop(args, &mut folders, &mut out, Screen { clear: terminal, color }).map_err(crate::app::write_failure)
}

/// What [`watch_loop`] waits with: the file system's watcher, or a
/// test's edits.
pub trait Waiting {
    /// Watches `files` from now on: called before a run's result is
    /// printed, so a save made as soon as it shows is seen.
    fn watch(&mut self, files: &[PathBuf]);
    /// Waits for a change to a file watched: true runs again, false stops.
    fn wait(&mut self) -> bool;
}

/// The file system's watcher, the folders it watches and what in them is
/// wanted (see [`watch_points`]).
struct Folders {
    watcher: notify::RecommendedWatcher,
    rx: Receiver<notify::Result<notify::Event>>,
    dirs: BTreeSet<PathBuf>,
    wanted: BTreeSet<PathBuf>,
    missing: BTreeSet<PathBuf>,
}

impl Waiting for Folders {
    fn watch(&mut self, files: &[PathBuf]) {
        let (wanted, now, missing) = watch_points(files);
        // Every folder is watched again each round: one deleted and made
        // again has lost its watch (the system drops it with the folder).
        for d in &self.dirs {
            let _ = self.watcher.unwatch(d);
        }
        for d in &now {
            if let Err(e) = self.watcher.watch(d, RecursiveMode::NonRecursive) {
                crate::app::warn(&format!("warning: cannot watch `{}`: {e}", d.display()));
            }
        }
        (self.dirs, self.wanted, self.missing) = (now, wanted, missing);
    }

    fn wait(&mut self) -> bool {
        loop {
            match self.rx.recv() {
                Ok(Ok(event)) if relevant(&event, &self.wanted, &self.missing) => break,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        loop {
            match self.rx.recv_timeout(DEBOUNCE) {
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return true,
                Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
    }
}

/// A test's edits: `edit` is called with the files watched, makes its
/// change and says whether to run again.
#[cfg(test)]
pub(crate) struct Edits<F: FnMut(&[PathBuf]) -> bool> {
    pub files: Vec<PathBuf>,
    pub edit: F,
}

#[cfg(test)]
impl<F: FnMut(&[PathBuf]) -> bool> Waiting for Edits<F> {
    fn watch(&mut self, files: &[PathBuf]) {
        self.files = files.to_vec();
    }

    fn wait(&mut self) -> bool {
        (self.edit)(&self.files)
    }
}

/// How the output is drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Screen {
    /// Clear the screen before each run.
    pub clear: bool,
    /// Diagnostics in colour.
    pub color: bool,
}

/// Runs, watches the files it read, prints, and waits; runs again when
/// the wait says so, stops when it does not.
pub fn watch_loop(
    args: &WatchArgs,
    waiting: &mut dyn Waiting,
    out: &mut dyn Write,
    screen: Screen,
) -> std::io::Result<()> {
    let mut last_good: Option<String> = None;
    let mut files: Vec<PathBuf> = vec![args.run.common.workbook.clone()];
    let mut previous = None;
    loop {
        let mut text = String::new();
        if screen.clear {
            text += CLEAR;
        }
        let round = match &args.corpus {
            Some(_) => corpus_round(args, &mut previous),
            None => calculate(&args.run).map(|o| {
                let text = text_output(&o) + &crate::app::view_errors_warnings(&o.session);
                (text, o.session.workbook().sources.iter().map(|s| s.path.clone()).collect())
            }),
        };
        match round {
            Ok((result, sources)) => {
                files = sources;
                text += &result;
                last_good = Some(result);
            }
            Err(failure) => {
                text += &failure_text(&failure, screen.color);
                if let Failure::Workbook(diags) = &failure {
                    files.extend(diags.iter().filter_map(|d| d.file.as_ref().map(|f| f.path.clone())));
                    files.sort();
                    files.dedup();
                }
                match &last_good {
                    Some(good) => text += &format!("\nThe last good result, until the problem is fixed:\n\n{good}"),
                    None => text += "\nNo good result yet: fix the problem and save.\n",
                }
            }
        }
        let n = files.len();
        text += &format!("\nwatching {}; Ctrl-C quits\n", crate::app::plural(n as u64, "file"));
        waiting.watch(&files);
        out.write_all(text.as_bytes())?;
        out.flush()?;
        if !waiting.wait() {
            return Ok(());
        }
    }
}

/// A failure as `dataflow run` would print it on stderr.
pub(crate) fn failure_text(f: &Failure, color: bool) -> String {
    match f {
        Failure::Workbook(diags) => {
            let mut text: String = diags.iter().map(|d| format!("{}\n", d.render(color))).collect();
            let n = dataflow::diagnostic::problem_count(diags);
            text += &format!("{} found\n", crate::app::plural(n as u64, "problem"));
            text
        }
        Failure::Usage(m) | Failure::Partial(m) => format!("error: {m}\n"),
        Failure::Closed => String::new(),
    }
}

/// The file with its directory made absolute (the file itself may be
/// missing for a moment while an editor replaces it).
fn canonical(file: &Path) -> Option<PathBuf> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(dir.canonicalize().ok()?.join(file.file_name()?))
}

/// What to watch for `files`: the files found (made absolute), the
/// folders holding them, and, for a file whose folder is missing (deleted,
/// perhaps to be made again), the nearest folder above it that exists,
/// which is watched too so that the folder's return is seen.
pub(crate) fn watch_points(files: &[PathBuf]) -> (BTreeSet<PathBuf>, BTreeSet<PathBuf>, BTreeSet<PathBuf>) {
    let (mut wanted, mut dirs, mut missing) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for f in files {
        match canonical(f) {
            Some(c) => {
                dirs.extend(c.parent().map(Path::to_path_buf));
                wanted.insert(c);
            }
            None => {
                let absolute = std::env::current_dir().map(|d| d.join(f)).unwrap_or_else(|_| f.clone());
                if let Some(up) = absolute.ancestors().skip(1).find_map(|a| a.canonicalize().ok()) {
                    dirs.insert(up.clone());
                    missing.insert(up);
                }
            }
        }
    }
    (wanted, dirs, missing)
}

/// An event that touches one of the files, any formula file in their
/// directories (a file named in `include` may appear only after the
/// workbook was saved with it), or anything in a folder above a missing
/// one (the missing folder made again).
pub(crate) fn relevant(event: &notify::Event, wanted: &BTreeSet<PathBuf>, missing: &BTreeSet<PathBuf>) -> bool {
    if matches!(event.kind, EventKind::Access(_)) {
        return false;
    }
    event.paths.iter().any(|p| {
        let dfl = p.extension().is_some_and(|e| e == "dfl");
        let above = p.parent().is_some_and(|d| missing.contains(d));
        wanted.contains(p) || (dfl && !is_hidden(p)) || above
    })
}

fn is_hidden(p: &Path) -> bool {
    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn args(workbook: &Path) -> WatchArgs {
        match Cli::parse_from(["dataflow", "watch", &workbook.display().to_string()]).command {
            Command::Watch(a) => a,
            _ => unreachable!(),
        }
    }

    /// Edits a formula file between runs: output follows, a parse error
    /// shows its diagnostic above the last good result, a fix recovers.
    #[test]
    fn runs_again_after_each_change() {
        let dir = std::env::temp_dir().join(format!("dataflow-watch-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.ron");
        let dfl = dir.join("f.dfl");
        std::fs::write(&book, r#"(sheets: ["Main"], include: ["f.dfl"], views: { "v": (range: "Main!A1:A2") })"#)
            .unwrap();
        std::fs::write(&dfl, "cells Main!A1:A2 = ROW()*2\n").unwrap();
        let edits = ["cells Main!A1:A2 = ROW()*3\n", "cells Main!A1:A2 = ROW()*+\n", "cells Main!A1:A2 = ROW()*5\n"];
        let mut seen_files = Vec::new();
        let mut i = 0;
        let edit = |files: &[PathBuf]| {
            seen_files.push(files.to_vec());
            let Some(e) = edits.get(i) else { return false };
            std::fs::write(&dfl, e).unwrap();
            i += 1;
            true
        };
        let mut out = Vec::new();
        watch_loop(&args(&book), &mut Edits { files: Vec::new(), edit }, &mut out, Screen::default()).unwrap();
        let out = String::from_utf8(out).unwrap();
        let runs: Vec<&str> = out.split_inclusive("Ctrl-C quits\n").collect();
        assert_eq!(runs.len(), 4, "{out}");
        assert!(runs[0].starts_with("v:\n2\n4\n\nno circular references"), "{}", runs[0]);
        assert!(runs[1].starts_with("v:\n3\n6\n"), "{}", runs[1]);
        assert!(runs[2].contains("error: cannot parse"), "{}", runs[2]);
        assert!(runs[2].contains("f.dfl:1:"), "{}", runs[2]);
        assert!(runs[2].contains("The last good result, until the problem is fixed:\n\nv:\n3\n6\n"), "{}", runs[2]);
        assert!(runs[3].starts_with("v:\n 5\n10\n") && !runs[3].contains("error"), "{}", runs[3]);
        assert!(seen_files[0].iter().any(|f| f.ends_with("f.dfl")), "{seen_files:?}");
        assert!(seen_files.iter().all(|fs| fs.len() == 2), "{seen_files:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
