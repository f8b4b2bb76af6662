//! The served stepper and what the page is sent of it. [`App`] wraps the
//! terminal stepper's state ([`Stepper`]: history, cursor, parts, edits)
//! with what only the page has: the options it was loaded with (the page
//! may enter another puzzle), the `--input` files whose lines it may pick,
//! and the error of the last reload. [`App::state`] is the JSON the page
//! draws: the step line, the parts, the inputs, the legend and every view
//! as rows of cells. A cell is `[text, mark, cause, region]`: its text as
//! the terminal shows it (a cell that went blank, the value it lost), the
//! plain story's mark (` `, `+`, `-`, `*`), the index of the view whose
//! change blanked it (the legend's rule), and whether the region map marks
//! it. A compact view's text is its group's pencil marks instead, one per
//! cell of the group in reading order: the symbol, `+` before it when the
//! step gave it, `-` before the symbol it lost when the step blanked it,
//! `""` for a blank.

use crate::app::{Failure, Options, Shown};
use crate::tui::board::{Board, by_cell};
use crate::tui::legend::view_color;
use crate::tui::plain::mark_char;
use crate::tui::{Stepper, draw};
use dataflow::address::CellAddr;
use dataflow::engine::Change;
use ratatui::style::Color;
use serde_json::{Value as Json, json};
use std::collections::HashMap;

/// A file given with `--input NAME=@FILE`: the page may pick its lines.
pub struct InputFile {
    pub name: String,
    pub path: String,
    pub lines: usize,
}

/// The served state (see the module's text).
pub struct App {
    pub stepper: Stepper,
    pub options: Options,
    pub show: Vec<String>,
    /// The located problems of the last reload, while they last.
    pub error: Option<String>,
    /// The files the last reload's problems are in (watched too).
    pub error_files: Vec<std::path::PathBuf>,
    pub files: Vec<InputFile>,
}

impl App {
    /// Loads the workbook as `step` does (inputs, reset protocol, `--set`).
    pub fn new(options: Options, show: Vec<String>) -> Result<App, Failure> {
        let stepper = crate::tui::load(&options, &show)?;
        let files = options.inputs.iter().filter_map(|i| input_file(i)).collect();
        Ok(App { stepper, options, show, error: None, error_files: Vec::new(), files })
    }

    /// The options the workbook is loaded with now: the parts on in the
    /// stepper (the page may have toggled them).
    pub fn current_options(&self) -> Options {
        let parts = &self.stepper.session().workbook().parts;
        let with = parts.iter().filter(|p| p.on).map(|p| p.name.clone()).collect();
        Options { with, ..self.options.clone() }
    }

    /// The JSON the page draws (see the module's text).
    pub fn state(&self) -> Json {
        let s = &self.stepper;
        let session = s.session();
        let wb = session.workbook();
        let first = s.current().number - s.cursor() as u32;
        let settled = s.current().converged() || s.current().period().is_some();
        let changes = by_cell(s.current().changes());
        let views: Vec<Json> =
            s.views.iter().zip(s.boards()).enumerate().map(|(i, (v, b))| view_json(s, i, v, &b, &changes)).collect();
        let inputs: Vec<Json> = wb
            .inputs
            .iter()
            .map(|i| {
                let file = self.files.iter().find(|f| f.name == i.name);
                json!({
                    "name": i.name,
                    "cells": i.area.size(),
                    "file": file.map(|f| json!({ "path": f.path, "lines": f.lines })),
                })
            })
            .collect();
        json!({
            "workbook": self.options.workbook.display().to_string(),
            "step": s.current().number,
            "first": first,
            "last": s.last().number,
            "settled": settled,
            "line": draw::step_line(s),
            "message": s.message,
            "error": self.error,
            "parts": wb.parts.iter().map(|p| json!({ "name": p.name, "about": p.about, "on": p.on })).collect::<Vec<_>>(),
            "inputs": inputs,
            "views": views,
        })
    }
}

/// `NAME=@FILE` or `NAME=@FILE:LINE`: the file's lines, when it reads.
fn input_file(input: &str) -> Option<InputFile> {
    let (name, value) = input.split_once('=')?;
    let spec = value.strip_prefix('@')?;
    let path = match spec.rsplit_once(':') {
        Some((p, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => p,
        _ => spec,
    };
    let lines = std::fs::read_to_string(path).ok()?.lines().count();
    Some(InputFile { name: name.to_string(), path: path.to_string(), lines })
}

/// One view: its name, colour, shape, labels, counts and cells.
fn view_json(s: &Stepper, i: usize, v: &Shown, b: &Board, changes: &HashMap<CellAddr, &Change>) -> Json {
    let compact = v.display.compact;
    let engine = s.session().engine();
    let cells: Vec<Json> = b
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let row: Vec<Json> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    let text = match compact {
                        Some(_) => json!(pencil_marks(engine, v, r as u32, c as u32, changes)),
                        None => json!(cell.text),
                    };
                    json!([text, mark_char(cell.mark).to_string(), cell.cause, cell.region])
                })
                .collect();
            Json::Array(row)
        })
        .collect();
    json!({
        "key": v.key,
        "color": css_color(view_color(i)),
        "group": [b.group.0, b.group.1],
        "compact": compact.map(|(r, c)| [r, c]),
        "regions": b.regions,
        "cols": b.col_labels,
        "rows": b.row_labels,
        "counts": b.counts.describe(),
        "nonblank": b.non_blank,
        "size": b.size,
        "cells": cells,
    })
}

/// The pencil marks of the compact cell at (`row`, `col`) of `v` (see the
/// module's text).
fn pencil_marks(
    engine: &dataflow::engine::Engine,
    v: &Shown,
    row: u32,
    col: u32,
    changes: &HashMap<CellAddr, &Change>,
) -> Vec<String> {
    let d = &v.display;
    d.cells(&v.area, row, col)
        .cells()
        .map(|c| match changes.get(&c) {
            Some(ch) if ch.blanked() => format!("-{}", d.text(&ch.old, "")),
            Some(ch) if ch.filled() => format!("+{}", d.text(&ch.new, "")),
            _ => d.text(engine.get(c), ""),
        })
        .collect()
}

/// The legend's terminal colour as CSS (darker where the terminal's is
/// too light on white).
fn css_color(c: Color) -> &'static str {
    match c {
        Color::Cyan => "#00838f",
        Color::Magenta => "#ad1457",
        Color::Blue => "#1565c0",
        Color::LightCyan => "#00acc1",
        Color::LightMagenta => "#d81b60",
        Color::LightBlue => "#42a5f5",
        _ => "#757575",
    }
}
