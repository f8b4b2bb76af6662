//! The HTTP side: which requests are answered, and how. `GET /` and the
//! page's two assets; `POST /api/act` with a JSON [`Action`] (the answer is
//! JSON: the state, a cell's details, or `{"error": ...}` with a 400);
//! `GET /api/events`, a server-sent event stream that says `reload` with
//! the new version whenever the workbook was loaded again after a save.
//! Nothing else: no request names a file, so none can be read.
//!
//! Refused: a request whose `Host` is not the address served (403: a page
//! of another site that had its name point here, DNS rebinding, cannot
//! talk to the server), a POST from another origin or not typed
//! `application/json` (403 and 415: another site's form cannot post), a
//! body over [`MAX_BODY`] (413), one that is not an action (400), another
//! method (405) or path (404), more than [`MAX_STREAMS`] event streams at
//! once (503). A failed write (a browser closed mid-answer) is ignored: the
//! server goes on serving.

use super::Shared;
use super::actions::Action;
use super::assets;
use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response};

/// The largest request body read (an edit or a puzzle line is far smaller).
pub const MAX_BODY: usize = 64 * 1024;
/// Event streams open at once (each holds a thread).
pub const MAX_STREAMS: usize = 16;
/// How often an event stream looks for a new version.
const POLL: Duration = Duration::from_millis(100);
/// A comment line this often keeps a stream alive, and finds it closed.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// The `Host` values the server answers to.
pub struct Guard {
    hosts: Vec<String>,
}

impl Guard {
    /// For a server listening on `host`:`port`; on a loopback address, also
    /// the other loopback names (`localhost`, 127.0.0.1, [::1]).
    pub fn new(host: &str, port: u16, loopback: bool) -> Guard {
        let mut names = vec![if host.contains(':') { format!("[{host}]") } else { host.to_string() }];
        if loopback {
            names.extend(["localhost", "127.0.0.1", "[::1]"].map(String::from));
        }
        let hosts = names.iter().map(|h| format!("{h}:{port}").to_ascii_lowercase()).collect();
        Guard { hosts }
    }

    fn allows(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host.trim()))
    }

    /// Whether an `Origin` is the page's own (`http://` and an allowed host).
    fn origin_allows(&self, origin: &str) -> bool {
        origin.strip_prefix("http://").is_some_and(|h| self.allows(h))
    }
}

fn header<'r>(request: &'r Request, name: &'static str) -> Option<&'r str> {
    request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str())
}

fn with_type(body: impl Into<Vec<u8>>, status: u16, content_type: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let headers = [
        format!("Content-Type: {content_type}"),
        "Cache-Control: no-store".to_string(),
        "X-Content-Type-Options: nosniff".to_string(),
        "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'".to_string(),
    ];
    let mut r = Response::from_data(body.into()).with_status_code(status);
    for h in headers.iter().filter_map(|h| h.parse::<Header>().ok()) {
        r.add_header(h);
    }
    r
}

fn json(body: &serde_json::Value, status: u16) -> Response<std::io::Cursor<Vec<u8>>> {
    with_type(body.to_string(), status, "application/json")
}

fn refuse(status: u16, why: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    json(&serde_json::json!({ "error": why }), status)
}

/// Answers one request (see the module's text).
pub fn handle(shared: &Arc<Shared>, guard: &Guard, mut request: Request) {
    let response = match header(&request, "Host") {
        None => refuse(400, "no Host header"),
        Some(h) if !guard.allows(h) => refuse(403, "this server answers to its own address only"),
        Some(_) => {
            let path = request.url().split('?').next().unwrap_or_default().to_string();
            match (request.method(), path.as_str()) {
                (Method::Get, "/") => with_type(assets::PAGE, 200, "text/html; charset=utf-8"),
                (Method::Get, "/page.js") => with_type(assets::SCRIPT, 200, "text/javascript; charset=utf-8"),
                (Method::Get, "/page.css") => with_type(assets::STYLE, 200, "text/css; charset=utf-8"),
                (Method::Get, "/api/events") => return events(shared, request),
                (Method::Post, "/api/act") => act(shared, guard, &mut request),
                (_, "/" | "/page.js" | "/page.css" | "/api/events" | "/api/act") => refuse(405, "method not allowed"),
                _ => refuse(404, "not found"),
            }
        }
    };
    let _ = request.respond(response);
}

/// `POST /api/act`: checks, reads and carries out an action.
fn act(shared: &Shared, guard: &Guard, request: &mut Request) -> Response<std::io::Cursor<Vec<u8>>> {
    if header(request, "Origin").is_some_and(|o| !guard.origin_allows(o)) {
        return refuse(403, "requests from another origin are refused");
    }
    let typed = header(request, "Content-Type").is_some_and(|t| t.trim().starts_with("application/json"));
    if !typed {
        return refuse(415, "send the action as application/json");
    }
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return refuse(413, "the body is too large");
    }
    let mut body = Vec::new();
    if request.as_reader().take(MAX_BODY as u64 + 1).read_to_end(&mut body).is_err() {
        return refuse(400, "the body could not be read");
    }
    if body.len() > MAX_BODY {
        return refuse(413, "the body is too large");
    }
    let action: Action = match serde_json::from_slice(&body) {
        Ok(a) => a,
        Err(e) => return refuse(400, &format!("not an action: {e}")),
    };
    match shared.app().act(action) {
        Ok(state) => json(&state, 200),
        Err(why) => refuse(400, &why),
    }
}

/// `GET /api/events`: a thread writes the stream until the browser goes.
fn events(shared: &Arc<Shared>, request: Request) {
    if shared.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::SeqCst);
        let _ = request.respond(refuse(503, "too many event streams"));
        return;
    }
    let shared = shared.clone();
    std::thread::spawn(move || {
        let mut out = request.into_writer();
        let _ = stream(&shared, &mut out);
        shared.streams.fetch_sub(1, Ordering::SeqCst);
    });
}

/// Writes the event stream: the version now, then each new one; a write
/// that fails (the browser went away) ends it.
fn stream(shared: &Shared, out: &mut dyn Write) -> std::io::Result<()> {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
                Connection: close\r\n\r\nretry: 1000\n\n";
    out.write_all(head.as_bytes())?;
    let mut seen = shared.version.load(Ordering::SeqCst);
    writeln!(out, "event: version\ndata: {seen}\n")?;
    out.flush()?;
    let mut quiet = Instant::now();
    loop {
        std::thread::sleep(POLL);
        let now = shared.version.load(Ordering::SeqCst);
        if now != seen {
            seen = now;
            writeln!(out, "event: reload\ndata: {now}\n")?;
        } else if quiet.elapsed() >= KEEPALIVE {
            out.write_all(b": keepalive\n\n")?;
        } else {
            continue;
        }
        out.flush()?;
        quiet = Instant::now();
    }
}
