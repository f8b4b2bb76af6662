//! The layering docs/architecture.md promises, read from the sources: the
//! parser and the workbook model import nothing from `render` (the
//! presentation of values), so a change to how values print cannot reach
//! how files are read.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/<dir>`, with its text.
fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        for entry in std::fs::read_dir(dir).expect("a source directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push((path, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir), &mut out);
    assert!(!out.is_empty(), "no sources under src/{dir}");
    out
}

/// The places in `text` that name the `render` module: a `use` item
/// (grouped or not, over several lines) with a path segment `render`, or a
/// path `crate::render` anywhere in the code; (line, text) each.
fn render_uses(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut item: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default().trim();
        let starts = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "].iter().any(|u| code.starts_with(u));
        if starts && item.is_none() {
            item = Some((i + 1, String::new()));
        }
        if let Some((at, mut text)) = item.take() {
            text.push_str(code);
            if !code.ends_with(';') {
                item = Some((at, text));
            } else if text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|s| s == "render") {
                found.push((at, text));
            }
        } else if code.contains("crate::render") {
            found.push((i + 1, code.to_string()));
        }
    }
    found
}

#[test]
fn the_parser_and_the_model_import_nothing_from_render() {
    let probe = "use crate::{\n    ast::Expr,\n    render::Display,\n};\nfn f() { crate::render::cell_text(); d.render(false); }";
    assert_eq!(render_uses(probe).iter().map(|(line, _)| *line).collect::<Vec<_>>(), [1, 5], "the probe");
    for dir in ["parse", "workbook"] {
        for (path, text) in sources(dir) {
            let uses = render_uses(&text);
            assert!(uses.is_empty(), "{}: uses render: {uses:?}", path.display());
        }
    }
}
