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
//! The modules, from file to value: [`workbook`] (the model and its file
//! readers), [`parse`] and [`ast`] (formulas), [`eval`] and [`functions`]
//! (binding and evaluation), [`engine`] (graph, schedule, recalculation,
//! observers, undo), [`session`] (a loaded workbook with its engine, inputs
//! and reset protocol), [`render`] and [`state`] (text grids and saved
//! values), [`puzzle`] (lines of symbols through a session). [`value`],
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
#[cfg(feature = "testing")]
pub mod testing;
pub mod value;
pub mod words;
pub mod workbook;

pub use error::{Error, LoadError};
