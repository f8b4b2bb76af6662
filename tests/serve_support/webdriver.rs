//! A small WebDriver client for the browser test: chromedriver started on
//! a free port, one headless Chromium session (a fresh profile), and the
//! few commands the test needs (open a page, run a script, find and click
//! an element, send keys, take a screenshot). It speaks the W3C protocol's
//! JSON over the plain HTTP of [`super`]'s client, so the test needs no
//! client crate and no async runtime.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value as Json, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium's flags that work here (no sandbox as root, no GPU, no
/// network of its own).
const FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1500,1100",
];

pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: std::path::PathBuf,
}

/// Why the browser cannot run here, if it cannot.
pub fn missing() -> Option<String> {
    for (program, arg) in [("chromedriver", "--version"), ("chromium", "--version")] {
        if Command::new(program).arg(arg).stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
            return Some(format!("`{program}` is not installed (apt-get install chromium chromium-driver)"));
        }
    }
    None
}

impl Browser {
    /// chromedriver and a headless Chromium session.
    pub fn start() -> Browser {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = std::env::temp_dir().join(format!("dataflow-chromium-{}-{port}", std::process::id()));
        let mut b = Browser { driver, port, session: String::new(), profile };
        let end = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < end, "chromedriver does not listen");
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!("--user-data-dir={}", b.profile.display()));
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": "/usr/bin/chromium", "args": args },
        }}});
        let value = b.call("POST", "/session", Some(caps));
        b.session = value["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {value}")).to_string();
        b
    }

    /// One WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Json>) -> Json {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )
        .unwrap();
        let mut r = BufReader::new(s);
        let mut length = 0;
        loop {
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap();
            }
        }
        let mut bytes = vec![0; length];
        r.read_exact(&mut bytes).unwrap();
        let json: Json = serde_json::from_slice(&bytes).unwrap();
        let value = json["value"].clone();
        if let Some(e) = value.get("error") {
            panic!("{method} {path}: {e}: {}", value["message"]);
        }
        value
    }

    fn at(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", &self.at("/url"), Some(json!({ "url": url })));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page.
    pub fn exec(&self, script: &str, args: Json) -> Json {
        self.call("POST", &self.at("/execute/sync"), Some(json!({ "script": script, "args": args })))
    }

    /// Waits until `script` returns something other than null or false;
    /// returns it, or panics with `what` after `secs`.
    pub fn wait(&self, secs: u64, what: &str, script: &str) -> Json {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.exec(script, json!([]));
            if !v.is_null() && v != json!(false) {
                return v;
            }
            assert!(Instant::now() < end, "waited {secs} s for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The element `css` selects (the first).
    pub fn find(&self, css: &str) -> String {
        let v = self.call("POST", &self.at("/element"), Some(json!({ "using": "css selector", "value": css })));
        v.as_object().and_then(|o| o.values().next()).and_then(Json::as_str).unwrap().to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.find(css);
        self.call("POST", &self.at(&format!("/element/{id}/click")), Some(json!({})));
    }

    /// Types `text` into the element `css` selects (WebDriver's key codes,
    /// e.g. "\u{E010}" for End, go as keys).
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.call("POST", &self.at(&format!("/element/{id}/value")), Some(json!({ "text": text })));
    }

    /// Presses and releases `key` on the page (as a person types it).
    pub fn key(&self, key: &str) {
        let actions = json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": [
            { "type": "keyDown", "value": key }, { "type": "keyUp", "value": key },
        ]}]});
        self.call("POST", &self.at("/actions"), Some(actions));
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.call("GET", &self.at("/screenshot"), None);
        base64(v.as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = self.at("");
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.call("DELETE", &path, None)));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (the screenshot's encoding) decoded.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/').collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, c)| n | (value(*c) as u32) << (18 - 6 * i));
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}
