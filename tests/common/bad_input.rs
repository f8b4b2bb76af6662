//! Helpers for the bad-input tests (`bad_input`, `bad_input_limits`,
//! `bad_input_values`): loading fixtures of `tests/data/bad/` (paths
//! relative to the crate, so that messages are stable) and expecting
//! success or diagnostics, diagnostics rendered, messages and locations,
//! a cell of a session, and running the binary on inputs that could abort.

use dataflow::diagnostic::Diagnostic;
use dataflow::session::Session;
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::{Workbook, load};
use std::path::Path;
use std::process::Command;

pub const DIR: &str = "tests/data/bad";

pub fn path(name: &str) -> std::path::PathBuf {
    Path::new(DIR).join(name)
}

/// Every diagnostic rendered without colour, trailing blanks removed.
pub fn render_all(diags: impl AsRef<[Diagnostic]>) -> String {
    let text: Vec<String> = diags.as_ref().iter().map(|d| d.render(false)).collect();
    text.join("\n").lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

/// The problems `workbook::load` finds (parsing only).
pub fn load_errors(name: &str) -> Vec<Diagnostic> {
    match load(&path(name)) {
        Ok(_) => panic!("{name} loaded without errors"),
        Err(e) => e.diagnostics,
    }
}

pub fn loads(name: &str) -> Workbook {
    load(&path(name)).unwrap_or_else(|d| panic!("{name}:\n{}", render_all(&d)))
}

/// The problems `Session::load` finds (parsing, then binding).
pub fn session_errors(name: &str) -> Vec<Diagnostic> {
    match Session::load(&path(name)) {
        Ok(_) => panic!("{name} loaded and bound without errors"),
        Err(e) => e.diagnostics,
    }
}

pub fn session(name: &str) -> Session {
    Session::load(&path(name)).unwrap_or_else(|d| panic!("{name}:\n{}", render_all(&d)))
}

pub fn cell(s: &Session, a1: &str) -> Value {
    s.engine().get(s.area(a1).unwrap_or_else(|m| panic!("{a1}: {m}")).top_left()).clone()
}

pub fn messages(diags: &[Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.message.as_str()).collect()
}

pub fn locations(diags: &[Diagnostic]) -> Vec<String> {
    diags.iter().map(|d| d.location().unwrap_or_else(|| format!("(no file) {}", d.message))).collect()
}

pub fn err(k: ErrorKind) -> Value {
    Value::Error(k)
}

/// What one run of the binary gave: exit code (None when killed by a
/// signal, as on an abort), stdout, stderr.
pub fn dataflow(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the dataflow binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}
