//! dataflow: a spreadsheet engine that follows Excel's formulas and its
//! iterative calculation of circular references (maximum iterations,
//! maximum change). See `docs/architecture.md` for the data flow.
//!
//! The library is the engine; the `dataflow` binary's commands (`run`,
//! `step`, `batch`, ...) are front ends over it. A program loads a workbook
//! into a [`Session`](session::Session), sets cells, recalculates or steps
//! one iteration at a time, reads cells and views, and may observe every
//! write and every pass of a recalculation:
//!
//! ```
//! use dataflow::engine::{ChangeLog, Observer};
//! use dataflow::session::Session;
//! use dataflow::value::Value;
//!
//! // Load a workbook (RON + the formula files it includes) and bind it.
//! let mut s = Session::load("workbooks/sudoku.ron".as_ref()).expect("it loads");
//! // Fill the named input, run the workbook's reset protocol.
//! let puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
//! s.set_input("puzzle", puzzle).expect("81 symbols");
//! s.reset().expect("a reset protocol");
//! // One iteration, watched: which cells changed, from what to what.
//! let mut log = ChangeLog::default();
//! let pass = s.engine_mut().step_with(&mut log);
//! assert_eq!(pass.iterations, 1);
//! assert!(!log.take().is_empty());
//! // The rest of the iterations, until the cycle converges.
//! let report = s.recalc();
//! assert!(report.converged);
//! // Read a cell, or a whole view.
//! let f18 = s.area("Main!F18").expect("a cell").top_left();
//! assert!(matches!(s.engine().get(f18), Value::Number(_)));
//! let solution = s.workbook().view("solution").expect("a view").area;
//! assert_eq!(s.read_line(&solution, "123456789").len(), 81);
//! ```
//!
//! A workbook can also be built in memory, its formula files given by
//! name, and edited live: formulas set over a cell or a range, names
//! defined or changed, each edit binding again only what depends on it and
//! undone at will ([`session::Timeline`] records steps and edits for going
//! back and forth). Errors are [`Error`] and [`LoadError`], which work
//! with `?`:
//!
//! ```
//! use dataflow::session::Session;
//! use dataflow::value::Value;
//! use dataflow::workbook::{Workbook, files::MemoryFiles};
//!
//! fn main() -> Result<(), dataflow::Error> {
//!     let files = MemoryFiles::new().with("f.dfl", "name rate = 0.05\ncells Main!B1 = A1*(1+rate)\n");
//!     let ron = r#"(sheets: ["Main"], include: ["f.dfl"], cells: { "Main!A1": 100 })"#;
//!     let mut s = Session::new(Workbook::from_memory(ron, &files, &[])?)?;
//!     s.recalc();
//!     let b1 = s.area("Main!B1")?;
//!     assert_eq!(s.engine().get(b1.top_left()), &Value::Number(105.0));
//!     let undo = s.set_formula(b1, "=A1*2")?; // only B1 is bound again
//!     s.recalc();
//!     assert_eq!(s.engine().get(b1.top_left()), &Value::Number(200.0));
//!     s.undo_edit(undo);
//!     s.define_name("rate", "=0.1", None)?; // every user of `rate` follows
//!     s.recalc();
//!     assert_eq!(s.engine().get(b1.top_left()), &Value::Number(110.00000000000001));
//!     // A typo is a located error, and the session is left as it was.
//!     let e = s.set_formula(b1, "=A1*nowhere").unwrap_err();
//!     assert!(e.to_string().contains("Main!B1:1:5"));
//!     Ok(())
//! }
//! ```
//!
//! The modules, from file to value: [`workbook`] (the model and its file
//! readers), [`parse`] and [`ast`] (formulas), [`eval`] and [`functions`]
//! (binding and evaluation), [`engine`] (graph, schedule, recalculation,
//! observers, undo), [`session`] (a loaded workbook with its engine, inputs
//! and reset protocol), [`render`] and [`state`] (text grids and saved
//! values), [`puzzle`] (lines of symbols through a session), [`batch`]
//! (many puzzles on worker threads, in input order). [`error`] holds the
//! errors a caller gets back; [`value`],
//! [`address`], [`sheets`], [`ids`], [`policy`] and [`words`] are the
//! vocabulary they share; [`diagnostic`] renders located problems.

pub mod address;
pub mod ast;
pub mod batch;
pub mod diagnostic;
pub mod engine;
pub mod error;
pub mod eval;
pub mod explain;
pub mod export;
pub mod functions;
pub mod grid;
pub mod ids;
pub mod parse;
pub mod policy;
pub mod puzzle;
pub mod render;
pub mod session;
pub mod sheets;
pub mod state;
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
pub mod value;
pub mod words;
pub mod workbook;

pub use error::{Error, LoadError};
