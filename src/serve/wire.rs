//! The HTTP/1.1 wire under `serve`: a request's head read and parsed
//! (httparse) within bounds, its body read on demand, and one answer
//! written, after which the connection closes (`Connection: close`: the
//! page makes few requests, so no connection is kept open for another).
//!
//! Everything a client sends is bounded: the head to [`MAX_HEAD`] bytes
//! and [`MAX_HEADERS`] header lines (431 past either), each read to
//! [`READ_TIMEOUT`], and a request's head and body together to
//! [`DEADLINE`] (408): a client that announces a body it never sends, or
//! sends its head a byte at a time, holds only its own connection's
//! thread, and not for long. A body is read only up to the size its
//! caller allows (413 past it, announced or not); a chunked body is refused
//! (411: the page always sends a `Content-Length`).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The largest request head read (request line and headers).
pub const MAX_HEAD: usize = 32 * 1024;
/// The most header lines a request may have.
pub const MAX_HEADERS: usize = 64;
/// How long one read waits for the client.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request's head and body may take to arrive, all told.
pub const DEADLINE: Duration = Duration::from_secs(20);

/// An answer: a status, its type and body, and extra header lines.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    pub headers: &'static [&'static str],
}

/// A request's head, parsed.
pub struct Head {
    pub method: String,
    /// The path without its query.
    pub path: String,
    headers: Vec<(String, String)>,
}

impl Head {
    /// The value of header `name` (the first, compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// One client connection: the socket and what was read past the head.
pub struct Connection {
    stream: TcpStream,
    buffered: Vec<u8>,
    started: Instant,
}

/// Why reading a request stopped: an answer to give, or nothing to answer
/// (the client went away before a whole head came).
pub enum Stop {
    Answer(Reply),
    Gone,
}

fn plain(status: u16, why: &str) -> Stop {
    Stop::Answer(Reply {
        status,
        content_type: "text/plain; charset=utf-8",
        body: why.as_bytes().to_vec(),
        headers: &[],
    })
}

impl Connection {
    pub fn new(stream: TcpStream) -> Connection {
        let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
        let _ = stream.set_write_timeout(Some(READ_TIMEOUT));
        Connection { stream, buffered: Vec::new(), started: Instant::now() }
    }

    /// Reads more into the buffer: `Ok(false)` at the end of the stream.
    fn fill(&mut self) -> Result<bool, Stop> {
        if self.started.elapsed() > DEADLINE {
            return Err(plain(408, "the request took too long to arrive"));
        }
        let mut chunk = [0u8; 8192];
        match self.stream.read(&mut chunk) {
            Ok(0) => Ok(false),
            Ok(n) => {
                self.buffered.extend_from_slice(&chunk[..n]);
                Ok(true)
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                Err(plain(408, "the request took too long to arrive"))
            }
            Err(_) => Err(Stop::Gone),
        }
    }

    /// Reads and parses the request's head.
    pub fn head(&mut self) -> Result<Head, Stop> {
        loop {
            let mut slots = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut request = httparse::Request::new(&mut slots);
            match request.parse(&self.buffered) {
                Ok(httparse::Status::Complete(used)) => {
                    let head = Head {
                        method: request.method.unwrap_or_default().to_string(),
                        path: request.path.unwrap_or_default().split('?').next().unwrap_or_default().to_string(),
                        headers: request
                            .headers
                            .iter()
                            .map(|h| (h.name.to_string(), String::from_utf8_lossy(h.value).trim().to_string()))
                            .collect(),
                    };
                    self.buffered.drain(..used);
                    return Ok(head);
                }
                Ok(httparse::Status::Partial) if self.buffered.len() >= MAX_HEAD => {
                    return Err(plain(431, "the request's head is too large"));
                }
                Ok(httparse::Status::Partial) => {}
                Err(httparse::Error::TooManyHeaders) => return Err(plain(431, "too many header lines")),
                Err(e) => return Err(plain(400, &format!("not an HTTP request: {e}"))),
            }
            if !self.fill()? {
                return Err(if self.buffered.is_empty() {
                    Stop::Gone
                } else {
                    plain(400, "the request was cut short")
                });
            }
        }
    }

    /// Reads the body `head` announces, refusing one over `max` bytes.
    pub fn body(&mut self, head: &Head, max: usize) -> Result<Vec<u8>, Stop> {
        if head.header("Transfer-Encoding").is_some() {
            return Err(plain(411, "send the body with a Content-Length"));
        }
        let length = match head.header("Content-Length") {
            None => 0,
            Some(text) => text.parse::<u64>().map_err(|_| plain(400, "the Content-Length is not a number"))?,
        };
        if length > max as u64 {
            return Err(plain(413, "the body is too large"));
        }
        let length = length as usize;
        if head.header("Expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue")) {
            let _ = self.stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        while self.buffered.len() < length {
            if !self.fill()? {
                return Err(plain(400, "the body was cut short"));
            }
        }
        self.buffered.truncate(length);
        Ok(std::mem::take(&mut self.buffered))
    }

    /// The socket, for an answer written as it goes (an event stream).
    pub fn writer(&mut self) -> &mut TcpStream {
        &mut self.stream
    }

    /// Writes `reply` and closes the connection, first reading (for a
    /// moment, a bounded amount) what the client still sends, so that its
    /// unread bytes do not reset the connection before it reads the answer.
    pub fn answer(mut self, reply: &Reply) {
        let mut out = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
            reply.status,
            reason(reply.status),
            reply.content_type,
            reply.body.len()
        );
        for h in reply.headers {
            out.push_str(h);
            out.push_str("\r\n");
        }
        out.push_str("\r\n");
        let _ = self.stream.write_all(out.as_bytes()).and_then(|()| self.stream.write_all(&reply.body));
        let _ = self.stream.flush();
        let _ = self.stream.shutdown(Shutdown::Write);
        let _ = self.stream.set_read_timeout(Some(Duration::from_millis(200)));
        let until = Instant::now() + Duration::from_secs(1);
        let mut sink = [0u8; 8192];
        while Instant::now() < until {
            match self.stream.read(&mut sink) {
                Ok(n) if n > 0 => {}
                _ => break,
            }
        }
    }

    /// Answers a connection the server cannot take now (503) from the
    /// thread that accepts connections: written at once, its request
    /// unread.
    pub fn turn_away(mut stream: TcpStream, why: &str) {
        let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
        let body = serde_json::json!({ "error": why }).to_string();
        let out = format!(
            "HTTP/1.1 503 {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            reason(503),
            body.len()
        );
        let _ = stream.write_all(out.as_bytes());
        let _ = stream.shutdown(Shutdown::Both);
    }
}

/// A status's reason phrase.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}
