//! The layering docs/architecture.md promises, read from the sources: the
//! parser and the workbook model import nothing from `render` (the
//! presentation of values), so a change to how values print cannot reach
//! how files are read; and no code outside `src/functions/` matches a
//! function by its name (the kernel compiler, position analysis and the
//! writers ask the registry entry: `FnSpec::intrinsic`, `xlfn`, ...).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::functions;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/<dir>` (`""`: all of `src`), with its text.
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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    walk(&if dir.is_empty() { root } else { root.join(dir) }, &mut out);
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

/// The code of a source file without its tests: nothing from its first
/// `#[cfg(test)]` on, nothing at all for a file of tests.
fn without_tests<'t>(path: &Path, text: &'t str) -> &'t str {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if name.starts_with("tests") || name.ends_with("tests.rs") {
        return "";
    }
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

#[test]
fn no_function_is_matched_by_its_name_outside_the_registry() {
    // TRUE and FALSE are also the boolean literals' spellings; one-letter
    // names (N, T) are too common a string to mean the function.
    let names: Vec<String> = functions::all()
        .filter(|f| f.name.len() > 1 && !matches!(f.name, "TRUE" | "FALSE"))
        .map(|f| format!("\"{}\"", f.name))
        .collect();
    let mut found = Vec::new();
    for (path, text) in sources("") {
        if path.components().any(|c| c.as_os_str() == "functions") {
            continue;
        }
        let code = without_tests(&path, &text);
        for (i, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default();
            // A command-line placeholder (`value_name = "CELL"`) is no function.
            if line.contains("value_name =") {
                continue;
            }
            found.extend(
                names.iter().filter(|n| line.contains(n.as_str())).map(|n| format!("{}:{} {n}", path.display(), i + 1)),
            );
        }
    }
    assert!(found.is_empty(), "function names matched outside src/functions: {found:#?}");
}
