//! Loading the workbook again when it or a formula file it includes is
//! saved, as `watch` does (its watch points, its filter of relevant events
//! and its debounce): on a thread of its own, which then bumps the shared
//! version so the page's event stream tells it to fetch the state. The
//! workbook is loaded with the inputs and parts the page has now and
//! stepped forward to the step shown (an edit typed into the page is not
//! replayed); a file with errors keeps the last good state and sets the
//! located message, which the page shows until a save fixes it.

use super::Shared;
use super::state::App;
use crate::app::Failure;
use crate::cli::watch::{DEBOUNCE, failure_text, relevant, watch_points};
use notify::{RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, channel};

/// The files whose saving reloads, and those missing (watched for being
/// made again), as `watch_points` finds them.
type WatchPoints = (BTreeSet<PathBuf>, BTreeSet<PathBuf>);

/// Starts the watching thread, its first watches in place before it
/// returns: the server announces itself after, so a save made as soon as
/// it has (a test's, or an editor's) is never missed.
pub fn spawn(shared: Arc<Shared>) -> Result<(), Failure> {
    let (tx, rx) = channel();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = tx.send(event);
    })
    .map_err(|e| Failure::usage(format!("cannot watch files: {e}")))?;
    let mut dirs: BTreeSet<PathBuf> = BTreeSet::new();
    let mut points = rewatch(&mut watcher, &shared, &mut dirs);
    std::thread::spawn(move || {
        loop {
            let (wanted, missing) = &points;
            loop {
                match rx.recv() {
                    Ok(Ok(event)) if relevant(&event, wanted, missing) => break,
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
            loop {
                match rx.recv_timeout(DEBOUNCE) {
                    Ok(_) => {}
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            shared.app().reload();
            shared.bump();
            points = rewatch(&mut watcher, &shared, &mut dirs);
        }
    });
    Ok(())
}

/// Watches the folders of the files the workbook now reads (`dirs` were
/// watched before) and returns the files that matter and those missing.
/// Each folder is watched again (one deleted and made again has lost its
/// watch) without being unwatched first: a save made meanwhile is not
/// missed.
fn rewatch(watcher: &mut impl Watcher, shared: &Shared, dirs: &mut BTreeSet<PathBuf>) -> WatchPoints {
    let files = shared.app().watched();
    let (wanted, now, missing) = watch_points(&files);
    for d in dirs.difference(&now) {
        let _ = watcher.unwatch(d);
    }
    for d in &now {
        let _ = watcher.watch(d, RecursiveMode::NonRecursive);
    }
    *dirs = now;
    (wanted, missing)
}

impl App {
    /// The files whose saving reloads: the workbook and the files it
    /// includes, and while a reload failed, the files its problems are in.
    pub fn watched(&self) -> Vec<PathBuf> {
        let sources = &self.stepper.session().workbook().sources;
        let mut files: Vec<PathBuf> = std::iter::once(self.options.workbook.clone())
            .chain(sources.iter().map(|s| s.path.clone()))
            .chain(self.error_files.iter().cloned())
            .collect();
        files.sort();
        files.dedup();
        files
    }

    /// Loads the workbook again and steps to the step shown (see the
    /// module's text).
    pub fn reload(&mut self) {
        let step = self.stepper.current().number;
        match crate::tui::load(&self.current_options(), &self.show) {
            Ok(mut next) => {
                while next.current().number < step && !(next.current().converged() || next.current().period().is_some())
                {
                    next.forward();
                }
                next.at = self.stepper.at.filter(|c| c.view < next.views.len());
                next.message = Some(format!("a file was saved: loaded again, at step {}", next.current().number));
                self.stepper = next;
                (self.error, self.error_files) = (None, Vec::new());
            }
            Err(f) => {
                if let Failure::Workbook(diags) = &f {
                    self.error_files = diags.iter().filter_map(|d| d.file.as_ref().map(|f| f.path.clone())).collect();
                }
                self.error = Some(failure_text(&f, false));
            }
        }
    }
}
