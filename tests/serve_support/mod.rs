//! Helpers of the tests of `dataflow serve`: the server started as a child
//! process on a free port (killed when dropped), a workbook copied with
//! its formula files into a temporary folder (so a test may break a file),
//! and a plain HTTP/1.1 client over a TCP stream, which sends exactly the
//! bytes a test gives it (a wrong `Host`, a malformed request line).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod webdriver;

use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `dataflow serve`.
pub struct Server {
    child: Child,
    pub port: u16,
}

impl Server {
    /// `dataflow serve ARGS --port 0`, from the crate's folder; waits for
    /// the line with its address.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dataflow"))
            .arg("serve")
            .args(args)
            .args(["--port", "0"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("dataflow serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Sends `request` as it is; returns the status and the body.
    pub fn raw(&self, request: &[u8]) -> (u16, String) {
        raw(self.port, request)
    }

    /// `GET path` with the server's own Host.
    pub fn get(&self, path: &str) -> (u16, String) {
        self.raw(
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", self.port).as_bytes(),
        )
    }

    /// Posts `body` to `/api/act` as JSON; the status and the answer.
    pub fn act(&self, body: &str) -> (u16, Json) {
        let (status, text) = self.raw(
            format!(
                "POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                self.port,
                body.len()
            )
            .as_bytes(),
        );
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
    }

    /// An action that must succeed: the state (or the cell) it answers.
    pub fn ok(&self, body: &str) -> Json {
        let (status, json) = self.act(body);
        assert_eq!(status, 200, "{body}: {json}");
        json
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `request` to 127.0.0.1:`port` and reads the answer to its end
/// (the requests say `Connection: close`): its status and its body, the
/// chunks joined when it came chunked. A status of 0: the connection
/// closed with no answer.
pub fn raw(port: u16, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let _ = s.write_all(request);
    // Nothing more comes: a request cut short is answered (or dropped) now.
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).to_string();
    let Some((head, body)) = text.split_once("\r\n\r\n") else { return (0, text) };
    let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    (status, if chunked { unchunk(body) } else { body.to_string() })
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A folder of this test run holding copies of `workbooks/` and
/// `formulas/` (the workbooks find their formula files at `../formulas`).
pub fn copied_tree(tag: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("dataflow-serve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["workbooks", "formulas"] {
        copy_dir(&root.join(sub), &dir.join(sub));
    }
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Polls `f` every 100 ms until it gives `Some`, for at most `secs`.
pub fn wait_for<T>(secs: u64, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(t) = f() {
            return Some(t);
        }
        if std::time::Instant::now() > end {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}
