//! dataflow: a spreadsheet engine that follows Excel's formulas and its
//! iterative calculation of circular references. See docs/architecture.md.

pub mod address;
pub mod ast;
pub mod diagnostic;
pub mod engine;
pub mod eval;
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
pub mod workbook;
