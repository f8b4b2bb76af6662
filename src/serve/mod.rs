//! `serve`: the stepper as a web page. A small HTTP server (std's TCP
//! listener, httparse for the requests' heads, a thread per connection)
//! serves one page for one
//! workbook: its assets are embedded in the binary ([`assets`]), its state
//! is the terminal stepper's ([`crate::tui::Stepper`]: the history of
//! iterations, stepping back and forth, reset, edits, parts, explain), sent
//! as JSON ([`state`]) after each action the page posts ([`actions`]). A
//! file watcher ([`reload`]) loads the workbook again when it or a formula
//! file it includes is saved, keeping the inputs, parts and step, and tells
//! the page through server-sent events; a file with errors keeps the last
//! good state and shows the located message, as `watch` does.
//!
//! Safety ([`http`]): the server binds 127.0.0.1 unless `--host` says
//! otherwise (with a warning), refuses requests whose `Host` is not its own
//! (DNS rebinding), reads no path a request names (the only files it reads
//! are the workbook, the files it includes and the `--input` files given on
//! the command line), bounds request bodies, answers malformed requests
//! with a 4xx, and keeps serving when a browser goes away.

mod actions;
mod assets;
mod http;
mod reload;
mod state;
mod wire;

use crate::app::{Failure, print, warn};
use crate::cli::CommonArgs;
use clap::Args;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub use state::App;

/// The port `serve` listens on unless told.
pub const DEFAULT_PORT: u16 = 8229;

#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Views or ranges to show (default: every view).
    #[arg(long = "show", value_name = "VIEW|RANGE")]
    pub show: Vec<String>,
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Listen on this address instead of 127.0.0.1 (prints a warning: anyone who can reach it
    /// can step and edit the workbook, and read its cells).
    #[arg(long, value_name = "ADDRESS")]
    pub host: Option<String>,
    /// Open the page in the default browser (xdg-open, open or start).
    #[arg(long)]
    pub open: bool,
}

/// What the request thread, the event streams and the file watcher share.
pub struct Shared {
    app: Mutex<App>,
    /// Bumped on every change the page should fetch (a reload).
    version: AtomicU64,
    /// Event streams open now (bounded: [`http::MAX_STREAMS`]).
    streams: AtomicUsize,
    /// Connections being served now (bounded: [`http::MAX_CONNECTIONS`]).
    connections: AtomicUsize,
}

impl Shared {
    /// The app, even when a panic poisoned its lock (its state is whole
    /// between actions).
    fn app(&self) -> MutexGuard<'_, App> {
        self.app.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bump(&self) {
        self.version.fetch_add(1, Ordering::SeqCst);
    }
}

/// Runs `dataflow serve` until interrupted.
pub fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let app = App::new(args.common.options(), args.show.clone())?;
    let host = args.host.clone().unwrap_or_else(|| "127.0.0.1".to_string());
    let listener = std::net::TcpListener::bind((host.as_str(), args.port))
        .map_err(|e| Failure::usage(format!("cannot listen on {host}:{}: {e}", args.port)))?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let loopback = host.parse::<std::net::IpAddr>().is_ok_and(|a| a.is_loopback()) || host == "localhost";
    if !loopback {
        warn(&format!(
            "warning: listening on {host}, not 127.0.0.1: anyone who can reach it can step and edit the \
             workbook and read its cells"
        ));
    }
    let shown = if host.contains(':') { format!("[{host}]") } else { host.clone() };
    let url = format!("http://{shown}:{port}/");
    let guard = http::Guard::new(&host, port, loopback);
    let shared = Arc::new(Shared {
        app: Mutex::new(app),
        version: AtomicU64::new(1),
        streams: AtomicUsize::new(0),
        connections: AtomicUsize::new(0),
    });
    reload::spawn(shared.clone())?;
    print(&format!("serving {} at {url} (Ctrl-C stops)\n", args.common.workbook.display()))?;
    if args.open {
        open_browser(&url);
    }
    for stream in listener.incoming().flatten() {
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= http::MAX_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            wire::Connection::turn_away(stream, "too many connections");
            continue;
        }
        let (shared, guard) = (shared.clone(), guard.clone());
        std::thread::spawn(move || {
            http::handle(&shared, &guard, wire::Connection::new(stream));
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

/// Opens `url` with the system's opener; a failure is a warning.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        warn(&format!("warning: cannot open a browser ({opener}: {e}); open {url}"));
    }
}
