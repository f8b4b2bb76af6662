//! The page's files, embedded in the binary so that `serve` works offline
//! (no CDN, nothing fetched at run time): plain HTML, CSS and JavaScript,
//! no build step. `page.js` draws the state the server sends (see
//! `state.rs` for its shape) and posts the actions (`actions.rs`).

pub const PAGE: &str = include_str!("assets/page.html");
pub const SCRIPT: &str = include_str!("assets/page.js");
pub const STYLE: &str = include_str!("assets/page.css");
