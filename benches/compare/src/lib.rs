//! The same workload for dataflow, formualizer and IronCalc (issue 31): a
//! chain `A1 = 1`, `A{i} = A{i-1}+1` down to row n, handed to each engine
//! as cell texts through its public API, as a user's program builds a
//! sheet. [`Engine::load`] goes from the texts to an engine ready to
//! calculate (formulas parsed, dependency graph built where the engine has
//! one), [`Loaded::calc`] calculates once and [`Loaded::last`] reads the
//! last cell of the chain. The texts are made beforehand ([`Input::chain`]),
//! outside what is measured. The criterion bench `benches/load.rs` and the
//! `compare-once` binary (`src/main.rs`, for peak RSS and callgrind) both
//! use this.

use dataflow::address::{Area, CellAddr};
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::{CellEntry, Workbook, typed};
use formualizer::LiteralValue;
use ironcalc::base::Model;
use ironcalc::base::cell::CellValue;
use std::path::Path;

/// An engine, and for dataflow the way the cells reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// dataflow, one workbook entry per cell, each cell's text read by
    /// [`typed`] (what typing it into the cell gives) into an in-memory
    /// [`Workbook`], then [`Session::new`]: n separate formula cells, as a
    /// program or an xlsx with unshared formulas gives them.
    DataflowCells,
    /// dataflow, the same n entries as the text of a RON workbook file
    /// (`"Main!A2": "=A1+1"`, ...), read by [`Workbook::from_str`].
    DataflowRonCells,
    /// dataflow, the one range formula `Main!A2:An = "=A1+1"` of a RON
    /// workbook (as `benches/general.rs` loads its chain): every cell the
    /// same formula, entered once.
    DataflowRange,
    /// formualizer 0.13: `Workbook::new()` (its default, interactive mode),
    /// `set_value` for A1 and `set_formula` for each formula cell, then
    /// `prepare_graph_all` (parses the staged texts and builds the graph).
    Formualizer,
    /// formualizer 0.13, the same but the formulas given in one call,
    /// `set_formulas` over the column A2:An (its batch edit: the sheet's
    /// columnar storage grows once, where `set_formula` grows it a row at a
    /// time).
    FormualizerBatch,
    /// IronCalc 0.7: `Model::new_empty`, then `set_user_input` for each
    /// cell (parses the formula on the spot). IronCalc keeps no dependency
    /// graph: it evaluates top-down and recursively, so a model is ready to
    /// calculate once its formulas are parsed.
    IronCalc,
}

impl Engine {
    pub const ALL: [Engine; 6] = [
        Engine::DataflowCells,
        Engine::DataflowRonCells,
        Engine::DataflowRange,
        Engine::Formualizer,
        Engine::FormualizerBatch,
        Engine::IronCalc,
    ];

    /// Its name in the bench's ids and on `compare-once`'s command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::DataflowCells => "dataflow_cells",
            Engine::DataflowRonCells => "dataflow_ron_cells",
            Engine::DataflowRange => "dataflow_range",
            Engine::Formualizer => "formualizer",
            Engine::FormualizerBatch => "formualizer_batch",
            Engine::IronCalc => "ironcalc",
        }
    }

    pub fn named(name: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The chain of `n` cells as this engine is handed it.
    pub fn input(self, n: u32) -> Input {
        match self {
            Engine::DataflowRonCells => Input::ron_cells(n),
            Engine::DataflowRange => Input::ron_range(n),
            _ => Input::chain(n),
        }
    }

    /// From the texts to an engine ready to calculate; nothing calculated.
    pub fn load(self, input: Input) -> Result<Loaded, String> {
        match (self, input) {
            (Engine::DataflowCells, Input::Cells(texts)) => dataflow_cells(&texts),
            (Engine::DataflowRonCells | Engine::DataflowRange, Input::Ron(text)) => {
                let wb =
                    Workbook::from_str(&text, Path::new("chain.ron"), Path::new(".")).map_err(|e| e.to_string())?;
                Ok(Loaded::Dataflow(Box::new(Session::new(wb).map_err(|e| e.to_string())?)))
            }
            (Engine::Formualizer, Input::Cells(texts)) => formualizer(&texts),
            (Engine::FormualizerBatch, Input::Cells(texts)) => formualizer_batch(texts),
            (Engine::IronCalc, Input::Cells(texts)) => ironcalc(texts),
            (engine, _) => Err(format!("{} is not handed this input", engine.name())),
        }
    }
}

/// What an engine is handed.
#[derive(Clone, Debug)]
pub enum Input {
    /// The text of each cell of column A from row 1 down: `1`, `=A1+1`,
    /// `=A2+1`, ...
    Cells(Vec<String>),
    /// A RON workbook file's text.
    Ron(String),
}

impl Input {
    /// The chain's `n` cell texts.
    pub fn chain(n: u32) -> Input {
        let first = (n > 0).then(|| "1".to_string());
        Input::Cells(first.into_iter().chain((2..=n).map(|i| format!("=A{}+1", i - 1))).collect())
    }

    /// The chain as a RON workbook of `n` one-cell entries.
    pub fn ron_cells(n: u32) -> Input {
        let mut cells = String::from(r#""Main!A1": 1"#);
        for i in 2..=n {
            cells.push_str(&format!(",\n\"Main!A{i}\": \"=A{}+1\"", i - 1));
        }
        Input::Ron(format!("Workbook(sheets: [\"Main\"], cells: {{\n{cells}\n}})"))
    }

    /// The chain as a RON workbook of one range formula (benches/general.rs).
    pub fn ron_range(n: u32) -> Input {
        let range = match n {
            0 | 1 => String::new(),
            2 => r#", "Main!A2": "=A1+1""#.to_string(),
            _ => format!(r#", "Main!A2:A{n}": "=A1+1""#),
        };
        Input::Ron(format!(r#"Workbook(sheets: ["Main"], cells: {{ "Main!A1": 1{range} }})"#))
    }
}

/// A loaded engine.
pub enum Loaded {
    Dataflow(Box<Session>),
    Formualizer(Box<formualizer::Workbook>),
    IronCalc(Box<Model<'static>>),
}

impl Loaded {
    /// Calculates every formula once.
    pub fn calc(&mut self) -> Result<(), String> {
        match self {
            Loaded::Dataflow(s) => {
                s.recalc();
            }
            Loaded::Formualizer(wb) => {
                wb.evaluate_all().map_err(|e| e.to_string())?;
            }
            Loaded::IronCalc(m) => m.evaluate(),
        }
        Ok(())
    }

    /// The value of `A{n}`, as a number (after [`Loaded::calc`]).
    pub fn last(&self, n: u32) -> Result<f64, String> {
        match self {
            Loaded::Dataflow(s) => match s.engine().get(CellAddr::new(0, n - 1, 0)) {
                Value::Number(x) => Ok(*x),
                v => Err(format!("dataflow: A{n} holds {v:?}")),
            },
            Loaded::Formualizer(wb) => match wb.get_value("Sheet1", n, 1) {
                Some(LiteralValue::Number(x)) => Ok(x),
                Some(LiteralValue::Int(i)) => Ok(i as f64),
                v => Err(format!("formualizer: A{n} holds {v:?}")),
            },
            Loaded::IronCalc(m) => match m.get_cell_value_by_index(0, n as i32, 1) {
                Ok(CellValue::Number(x)) => Ok(x),
                v => Err(format!("ironcalc: A{n} holds {v:?}")),
            },
        }
    }
}

/// Each text typed into its cell of an empty one-sheet workbook, one entry
/// a cell, then a session over it.
fn dataflow_cells(texts: &[String]) -> Result<Loaded, String> {
    let mut wb = Workbook::from_str(r#"Workbook(sheets: ["Main"], cells: {})"#, Path::new("chain.ron"), Path::new("."))
        .map_err(|e| e.to_string())?;
    wb.cells.reserve(texts.len());
    for (row, text) in (0..).zip(texts) {
        let area = Area::cell(CellAddr::new(0, row, 0));
        if let Some(content) = typed(&wb.sheets, area, text).map_err(|e| e.to_string())? {
            wb.cells.push(CellEntry::new(area, content));
        }
    }
    Ok(Loaded::Dataflow(Box::new(Session::new(wb).map_err(|e| e.to_string())?)))
}

/// A1's number set as a value, every formula as its text, then the graph
/// built.
fn formualizer(texts: &[String]) -> Result<Loaded, String> {
    let mut wb = formualizer::Workbook::new();
    wb.add_sheet("Sheet1").map_err(|e| e.to_string())?;
    for (row, text) in (1..).zip(texts) {
        match text.strip_prefix('=') {
            Some(_) => wb.set_formula("Sheet1", row, 1, text).map_err(|e| e.to_string())?,
            None => {
                let x: f64 = text.parse().map_err(|e| format!("{text}: {e}"))?;
                wb.set_value("Sheet1", row, 1, LiteralValue::Number(x)).map_err(|e| e.to_string())?;
            }
        }
    }
    wb.prepare_graph_all().map_err(|e| e.to_string())?;
    Ok(Loaded::Formualizer(Box::new(wb)))
}

/// A1's number set as a value, the formulas below it in one batch, then
/// the graph built.
fn formualizer_batch(texts: Vec<String>) -> Result<Loaded, String> {
    let mut texts = texts.into_iter();
    let first = texts.next().ok_or("no cells")?;
    let x: f64 = first.parse().map_err(|e| format!("{first}: {e}"))?;
    let mut wb = formualizer::Workbook::new();
    wb.add_sheet("Sheet1").map_err(|e| e.to_string())?;
    wb.set_value("Sheet1", 1, 1, LiteralValue::Number(x)).map_err(|e| e.to_string())?;
    let column: Vec<Vec<String>> = texts.map(|t| vec![t]).collect();
    wb.set_formulas("Sheet1", 2, 1, &column).map_err(|e| e.to_string())?;
    wb.prepare_graph_all().map_err(|e| e.to_string())?;
    Ok(Loaded::Formualizer(Box::new(wb)))
}

/// Each text entered as a user's input into its cell.
fn ironcalc(texts: Vec<String>) -> Result<Loaded, String> {
    let mut model = Model::new_empty("chain", "en", "UTC", "en")?;
    for (row, text) in (1..).zip(texts) {
        model.set_user_input(0, row, 1, text)?;
    }
    Ok(Loaded::IronCalc(Box::new(model)))
}
