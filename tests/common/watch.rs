//! Helpers of the tests that run `dataflow watch` as a child process:
//! checking its output, collected in the background, while it runs, and
//! waiting for its Nth run (each run ends with `Ctrl-C quits`).

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Collects a child's stdout in the background.
fn collect(mut pipe: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

/// Runs `check` on the output of `dataflow watch BOOK ARGS` (as it
/// grows), then stops the watch; panics with `check`'s message when it
/// fails.
pub fn with_watch(book: &Path, args: &[&str], check: impl FnOnce(&Arc<Mutex<String>>) -> Result<(), String>) {
    let (mut child, out) = watching(book, args);
    let result = check(&out);
    child.kill().unwrap();
    child.wait().unwrap();
    if let Err(m) = result {
        panic!("{m}");
    }
}

/// `dataflow watch BOOK ARGS` started, with its output collected.
fn watching(book: &Path, args: &[&str]) -> (Child, Arc<Mutex<String>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .arg("watch")
        .arg(book)
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = collect(child.stdout.take().unwrap());
    (child, out)
}

/// Waits until the output holds `count` runs; returns the last.
pub fn run_number(out: &Arc<Mutex<String>>, count: usize) -> Result<String, String> {
    let start = Instant::now();
    loop {
        let text = out.lock().unwrap().clone();
        let runs: Vec<&str> = text.split_inclusive("Ctrl-C quits\n").filter(|r| r.ends_with("quits\n")).collect();
        if runs.len() >= count {
            return Ok(runs[count - 1].to_string());
        }
        if start.elapsed() > Duration::from_secs(20) {
            return Err(format!("no run {count} after 20 s: {text}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
