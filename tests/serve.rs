//! `dataflow serve` over plain HTTP, no browser: the page and its assets,
//! the safety rules (a foreign `Host` or `Origin` refused, no path read,
//! bounded bodies, malformed requests answered with a 4xx, a browser that
//! goes away mid-stream leaves the server serving), the actions the page
//! posts (stepping, the slider's jumps, run, reset, edits, parts, puzzles,
//! a cell's explanation) and the reload after a formula file is saved,
//! through the event stream.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod serve_support;

use serve_support::{Server, copied_tree, raw, wait_for};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

const SUDOKU: &str = "workbooks/sudoku.ron";

#[test]
fn serves_the_page_and_its_assets_only() {
    let s = Server::start(&[SUDOKU]);
    let (status, page) = s.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"/page.js\"") && page.contains("/page.css"), "{page}");
    assert_eq!(s.get("/page.js").0, 200);
    assert_eq!(s.get("/page.css").0, 200);
    // No request names a file: paths outside the four are not found.
    for path in
        ["/Cargo.toml", "/../Cargo.toml", "/%2e%2e/Cargo.toml", "/workbooks/sudoku.ron", "/api/file?p=/etc/passwd"]
    {
        let (status, body) = s.get(path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("[package]") && !body.contains("root:"), "{path}: {body}");
    }
    assert_eq!(s.get("/api/act").0, 405, "the actions are posted");
}

#[test]
fn refuses_foreign_hosts_and_origins() {
    let s = Server::start(&[SUDOKU]);
    let p = s.port;
    let get = |host: &str| raw(p, format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes());
    assert_eq!(get(&format!("localhost:{p}")).0, 200);
    assert_eq!(get(&format!("[::1]:{p}")).0, 200);
    for host in [format!("evil.example:{p}"), "evil.example".into(), format!("127.0.0.1:{}", p + 1), "127.0.0.1".into()]
    {
        let (status, body) = get(&host);
        assert_eq!(status, 403, "Host {host}: {body}");
        assert!(!body.contains("<html"), "{body}");
    }
    let (status, _) = raw(p, b"GET / HTTP/1.0\r\n\r\n");
    assert_eq!(status, 400, "no Host at all");
    // A post from another site's page: refused before anything is done.
    let post = |extra: &str| {
        raw(
            p,
            format!(
                "POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n{extra}Content-Length: 16\r\nConnection: close\r\n\r\n{{\"do\":\"forward\"}}"
            )
            .as_bytes(),
        )
    };
    assert_eq!(post("Content-Type: application/json\r\nOrigin: http://evil.example\r\n").0, 403);
    assert_eq!(post("Content-Type: text/plain\r\n").0, 415, "a form cannot post JSON");
    assert_eq!(s.ok(r#"{"do":"state"}"#)["step"], 0, "none of them stepped");
    assert_eq!(post(&format!("Content-Type: application/json\r\nOrigin: http://127.0.0.1:{p}\r\n")).0, 200);
}

#[test]
fn malformed_and_oversized_requests_get_4xx_and_the_server_goes_on() {
    let mut s = Server::start(&[SUDOKU]);
    for bad in [
        r#"{"do":"fly"}"#,
        "not json",
        r#"{"do":"goto"}"#,
        r#"{"do":"cell","view":99,"row":0,"col":0}"#,
        r#"{"do":"reset","extra":1}"#,
        r#"{"do":"goto","to":1,"extra":1}"#,
    ] {
        let (status, json) = s.act(bad);
        assert_eq!(status, 400, "{bad}: {json}");
        assert!(json["error"].is_string(), "{json}");
    }
    let (status, json) = s.act(r#"{"do":"cell","view":1,"row":9,"col":0}"#);
    assert_eq!((status, json["error"].as_str().unwrap()), (400, "view `solution` has 9 rows and 9 columns"));
    let (status, json) = s.act(r#"{"do":"input","name":"nope","line":"1"}"#);
    assert_eq!((status, json["error"].as_str().unwrap()), (400, "the workbook has no input `nope`"));
    // A body over 64 KiB, announced or not.
    let big = format!(r#"{{"do":"edit","text":"{}"}}"#, "x".repeat(70_000));
    assert_eq!(s.act(&big).0, 413);
    let p = s.port;
    let (status, _) = raw(
        p,
        format!("POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\nConnection: close\r\n\r\n{{").as_bytes(),
    );
    assert_eq!(status, 413);
    // Garbage on the wire, a request cut off, a client gone at once.
    for junk in [&b"BLAH\r\n\r\n"[..], b"GET\r\n\r\n", b"\x00\x01\x02\r\n\r\n", b"GET / HTTP/1.1\r\nHost"] {
        let (status, _) = raw(p, junk);
        assert!(status == 0 || (400..500).contains(&status), "{junk:?}: {status}");
    }
    drop(TcpStream::connect(("127.0.0.1", p)).unwrap());
    assert!(s.alive());
    assert_eq!(s.get("/").0, 200);
    assert_eq!(s.ok(r#"{"do":"forward"}"#)["step"], 1);
}

#[test]
fn steps_back_and_forth_runs_and_explains() {
    let s = Server::start(&[SUDOKU]);
    let state = s.ok(r#"{"do":"state"}"#);
    assert_eq!((state["step"].as_u64(), state["last"].as_u64()), (Some(0), Some(0)));
    let keys: Vec<&str> = state["views"].as_array().unwrap().iter().map(|v| v["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["input", "solution", "candidates"]);
    for n in 1..=3 {
        assert_eq!(s.ok(r#"{"do":"forward"}"#)["step"], n);
    }
    let back = s.ok(r#"{"do":"back"}"#);
    assert_eq!((back["step"].as_u64(), back["last"].as_u64()), (Some(2), Some(3)));
    assert_eq!(s.ok(r#"{"do":"goto","to":0}"#)["step"], 0);
    assert_eq!(s.ok(r#"{"do":"goto","to":99}"#)["step"], 3, "the slider reaches the steps recorded");
    let end = s.ok(r#"{"do":"run"}"#);
    assert_eq!(end["settled"], true, "{}", end["line"]);
    assert!(end["message"].as_str().unwrap().starts_with("converged at step"), "{}", end["message"]);
    let solution = &end["views"][1];
    assert_eq!(solution["nonblank"], 81);
    // A cell's details: the status line and the explain panel.
    let cell = s.ok(r#"{"do":"cell","view":1,"row":0,"col":1}"#);
    assert!(cell["line"].as_str().unwrap().starts_with("Main!E16 = 4 │ changed in step 1 │ =IF("), "{cell}");
    let lines: Vec<&str> = cell["explain"].as_array().unwrap().iter().map(|l| l[1].as_str().unwrap()).collect();
    assert!(lines.contains(&"step 1: \"\" -> 4"), "{lines:?}");
    // An edit, and one refused with the stepper's message.
    let edited = s.ok(r#"{"do":"edit","text":"Main!D27=reset"}"#);
    assert!(
        edited["message"].as_str().unwrap().starts_with("Main!D27=reset: set; step to calculate"),
        "{}",
        edited["message"]
    );
    let refused = s.ok(r#"{"do":"edit","text":"Main!E16=5"}"#);
    assert!(refused["message"].as_str().unwrap().contains("formula"), "{}", refused["message"]);
    assert_eq!(s.ok(r#"{"do":"reset"}"#)["step"], 0);
    // A formula typed into a cell: the history starts again from it.
    let bad = s.ok(r#"{"do":"edit","text":"Main!E16==1+*"}"#);
    assert!(!bad["message"].as_str().unwrap().contains("entered"), "{}", bad["message"]);
    let entered = s.ok(r#"{"do":"edit","text":"Main!E16==7"}"#);
    assert!(entered["message"].as_str().unwrap().starts_with("Main!E16==7: entered"), "{}", entered["message"]);
    assert_eq!((entered["step"].as_u64(), entered["last"].as_u64()), (Some(0), Some(0)));
    let stepped = s.ok(r#"{"do":"forward"}"#);
    assert_eq!(stepped["views"][1]["cells"][0][1][0], "7", "{}", stepped["views"][1]["cells"][0]);
    let cell = s.ok(r#"{"do":"cell","view":1,"row":0,"col":1}"#);
    assert!(cell["line"].as_str().unwrap().ends_with("│ =7"), "{cell}");
}

#[test]
fn a_pencil_mark_explains_its_own_cell() {
    let s = Server::start(&["workbooks/sudoku25.ron"]);
    let state = s.ok(r#"{"do":"state"}"#);
    let view = state["views"].as_array().unwrap().iter().position(|v| !v["compact"].is_null()).unwrap();
    let name = |mark: &str| {
        let cell = s.ok(&format!(r#"{{"do":"cell","view":{view},"row":0,"col":0{mark}}}"#));
        cell["line"].as_str().unwrap().split(" = ").next().unwrap().to_string()
    };
    let (first, none, third) = (name(r#","mark":0"#), name(""), name(r#","mark":3"#));
    assert_eq!(first, none, "no mark: the group's first cell");
    assert_ne!(first, third, "mark 3 is another cell");
    let (status, json) = s.act(&format!(r#"{{"do":"cell","view":{view},"row":0,"col":0,"mark":625}}"#));
    assert_eq!(status, 400, "{json}");
}

#[test]
fn parts_and_puzzles_load_again() {
    let s = Server::start(&[SUDOKU, "--input", "puzzle=@workbooks/puzzles/9x9/project_euler_96.txt"]);
    let state = s.ok(r#"{"do":"state"}"#);
    let locked = state["parts"].as_array().unwrap().iter().position(|p| p["name"] == "locked").unwrap();
    let on = s.ok(&format!(r#"{{"do":"part","index":{locked}}}"#));
    assert_eq!(on["parts"][locked]["on"], true, "{}", on["message"]);
    assert!(on["views"].as_array().unwrap().iter().any(|v| v["key"] == "locked"));
    assert!(on["views"].as_array().unwrap().iter().any(|v| v["key"] == "status"));
    let file = &on["inputs"][0]["file"];
    assert_eq!(file["lines"], 50, "{file}");
    let picked = s.ok(r#"{"do":"input","name":"puzzle","pick":2}"#);
    assert_eq!(picked["parts"][locked]["on"], true, "the parts stay on");
    assert_eq!(s.act(r#"{"do":"input","name":"puzzle","pick":51}"#).0, 400);
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let pasted = s.ok(&format!(r#"{{"do":"input","name":"puzzle","line":"{line}"}}"#));
    let input = &pasted["views"][0]["cells"][0];
    assert_eq!((input[0][0].as_str(), input[6][0].as_str()), (Some("4"), Some("8")), "{input}");
    let wrong = s.ok(r#"{"do":"input","name":"puzzle","line":"12"}"#);
    assert!(wrong["message"].as_str().unwrap().contains("81"), "{}", wrong["message"]);
    assert_eq!(wrong["views"][0]["cells"][0][0][0], "4", "a refused puzzle keeps the last");
}

/// Reads the event stream: what `stream` gives until `want` comes, it ends, or 30 seconds pass
/// (the event stream's keepalives would otherwise keep a missing event
/// waited for forever).
fn read_until(stream: &mut TcpStream, want: &str) -> String {
    let mut seen = String::new();
    let mut buf = [0u8; 1024];
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !seen.contains(want) && std::time::Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
        }
    }
    seen
}

#[test]
fn a_saved_formula_file_reloads_keeping_the_step_and_an_error_keeps_the_last_good_state() {
    let dir = copied_tree("reload");
    let book = dir.join("workbooks/sudoku.ron");
    let mut s = Server::start(&[book.to_str().unwrap()]);
    for _ in 0..2 {
        s.ok(r#"{"do":"forward"}"#);
    }
    let mut events = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    events.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(events, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", s.port).unwrap();
    let head = read_until(&mut events, "event: version");
    assert!(head.contains("text/event-stream"), "{head}");
    let solution = dir.join("formulas/ellis/solution.dfl");
    let good = std::fs::read_to_string(&solution).unwrap();
    std::fs::write(&solution, format!("{good}\ncells Main!A40 = 1+*\n")).unwrap();
    assert!(read_until(&mut events, "event: reload").contains("event: reload"));
    let broken = s.ok(r#"{"do":"state"}"#);
    let error = broken["error"].as_str().expect("a located error");
    assert!(error.contains("solution.dfl:") && error.contains("problem"), "{error}");
    assert_eq!(broken["step"], 2, "the last good state stays");
    std::fs::write(&solution, format!("{good}\n# fixed\n")).unwrap();
    let fixed = wait_for(20, || Some(s.ok(r#"{"do":"state"}"#)).filter(|st| st["error"].is_null()))
        .unwrap_or_else(|| panic!("no reload: {}", s.ok(r#"{"do":"state"}"#)["error"]));
    assert_eq!(fixed["step"], 2, "the step is kept");
    assert!(fixed["message"].as_str().unwrap().contains("loaded again"), "{}", fixed["message"]);
    // The browser goes away mid-stream: the server goes on.
    drop(events);
    std::thread::sleep(Duration::from_millis(300));
    assert!(s.alive());
    assert_eq!(s.get("/").0, 200);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_host_is_announced_with_a_warning() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(["serve", SUDOKU, "--host", "256.0.0.1", "--port", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot listen on 256.0.0.1"), "{err}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dataflow"))
        .args(["serve", SUDOKU, "--host", "0.0.0.0", "--port", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
    child.kill().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    child.wait().unwrap();
    assert!(line.contains("http://0.0.0.0:"), "{line}");
    assert!(err.contains("warning: listening on 0.0.0.0"), "{err}");
}
