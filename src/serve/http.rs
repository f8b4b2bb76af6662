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
//! method (405) or path (404), more than [`MAX_STREAMS`] event streams or
//! [`MAX_CONNECTIONS`] connections at once (503). A failed write (a browser
//! closed mid-answer) is ignored: the server goes on serving. Each
//! connection is served on a thread of its own, its reads bounded in size
//! and time ([`super::wire`]), so a client that stalls holds only its own.

use super::Shared;
use super::actions::Action;
use super::assets;
use super::wire::{Connection, Head, Reply, Stop};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The largest request body read (an edit or a puzzle line is far smaller).
pub const MAX_BODY: usize = 64 * 1024;
/// Event streams open at once (each holds a thread).
pub const MAX_STREAMS: usize = 16;
/// Connections served at once, event streams included (each holds a
/// thread); past it a connection is answered 503 at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How often an event stream looks for a new version.
const POLL: Duration = Duration::from_millis(100);
/// A comment line this often keeps a stream alive, and finds it closed.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// The `Host` values the server answers to.
#[derive(Clone)]
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

/// The headers every answer carries besides its type.
const SAFE: &[&str] = &[
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    "Content-Security-Policy: default-src 'self'; style-src 'self' 'unsafe-inline'",
];

fn with_type(body: impl Into<Vec<u8>>, status: u16, content_type: &'static str) -> Reply {
    Reply { status, content_type, body: body.into(), headers: SAFE }
}

fn json(body: &serde_json::Value, status: u16) -> Reply {
    with_type(body.to_string(), status, "application/json")
}

fn refuse(status: u16, why: &str) -> Reply {
    json(&serde_json::json!({ "error": why }), status)
}

/// Serves one connection (its one request; see the module's text), on a
/// thread of its own.
pub fn handle(shared: &Arc<Shared>, guard: &Guard, mut connection: Connection) {
    let head = match connection.head() {
        Ok(head) => head,
        Err(Stop::Answer(reply)) => return connection.answer(&reply),
        Err(Stop::Gone) => return,
    };
    let response = match head.header("Host") {
        None => refuse(400, "no Host header"),
        Some(h) if !guard.allows(h) => refuse(403, "this server answers to its own address only"),
        Some(_) => match (head.method.as_str(), head.path.as_str()) {
            ("GET", "/") => with_type(assets::PAGE, 200, "text/html; charset=utf-8"),
            ("GET", "/page.js") => with_type(assets::SCRIPT, 200, "text/javascript; charset=utf-8"),
            ("GET", "/page.css") => with_type(assets::STYLE, 200, "text/css; charset=utf-8"),
            ("GET", "/api/events") => return events(shared, connection),
            ("POST", "/api/act") => match act(shared, guard, &head, &mut connection) {
                Ok(reply) => reply,
                Err(Stop::Answer(reply)) => reply,
                Err(Stop::Gone) => return,
            },
            (_, "/" | "/page.js" | "/page.css" | "/api/events" | "/api/act") => refuse(405, "method not allowed"),
            _ => refuse(404, "not found"),
        },
    };
    connection.answer(&response);
}

/// `POST /api/act`: checks, reads and carries out an action.
fn act(shared: &Shared, guard: &Guard, head: &Head, connection: &mut Connection) -> Result<Reply, Stop> {
    if head.header("Origin").is_some_and(|o| !guard.origin_allows(o)) {
        return Ok(refuse(403, "requests from another origin are refused"));
    }
    let typed = head.header("Content-Type").is_some_and(|t| t.starts_with("application/json"));
    if !typed {
        return Ok(refuse(415, "send the action as application/json"));
    }
    let body = connection.body(head, MAX_BODY).map_err(|stop| match stop {
        Stop::Answer(reply) => Stop::Answer(refuse(reply.status, &String::from_utf8_lossy(&reply.body))),
        Stop::Gone => Stop::Gone,
    })?;
    let action: Action = match serde_json::from_slice(&body) {
        Ok(a) => a,
        Err(e) => return Ok(refuse(400, &format!("not an action: {e}"))),
    };
    Ok(match shared.app().act(action) {
        Ok(state) => json(&state, 200),
        Err(why) => refuse(400, &why),
    })
}

/// `GET /api/events`: this connection's thread writes the stream until
/// the browser goes.
fn events(shared: &Arc<Shared>, mut connection: Connection) {
    if shared.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::SeqCst);
        return connection.answer(&refuse(503, "too many event streams"));
    }
    let _ = stream(shared, connection.writer());
    shared.streams.fetch_sub(1, Ordering::SeqCst);
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
