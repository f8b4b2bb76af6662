//! A formula cell as a [`Program`](super::Program) holds it once bound:
//! its address, the entry it came from, its bound formula and, for a cell
//! of a block array formula, where it sits in the block. What it reads is
//! the dependency graph's to hold ([`DepGraph::reads_of`](super::graph::DepGraph::reads_of)),
//! once. The program builds these; the dependency graph (`graph.rs`) and
//! the sharing pass (`share.rs`) read and rewrite them, so the type lives
//! apart from all three.

use crate::address::CellAddr;
use crate::eval::BExpr;
use crate::ids::{BlockId, EntryId};

/// One formula cell, bound.
#[derive(Clone, Debug)]
pub struct FormulaCell {
    pub addr: CellAddr,
    /// The `origin` of its [`CellInput::Formula`](super::CellInput::Formula):
    /// which entry it came from.
    pub origin: EntryId,
    /// The bound formula; for a cell of a block array formula an empty
    /// placeholder, since the block's cells share one formula (see
    /// [`Program::formula`](super::Program::formula)).
    pub expr: BExpr,
    /// For a cell of a block array formula, which block
    /// ([`Program::block`](super::Program::block)); where in it follows
    /// from its address.
    pub block: Option<BlockId>,
    /// A dynamic-array formula: bound and calculated as an array formula
    /// at its cell, its value spilling right and down (see `engine::spill`).
    pub spills: bool,
    /// Whether what one evaluation read is all its value depends on
    /// ([`Reads::narrow`](crate::eval::deps::Reads::narrow)); never for a
    /// cell of a block array formula or a spilling formula.
    pub narrow: bool,
}

impl FormulaCell {
    /// Formula cell `addr` from entry `origin`, bound to `expr`, outside
    /// any block, not spilling.
    pub fn new(addr: CellAddr, origin: EntryId, expr: BExpr) -> FormulaCell {
        FormulaCell { addr, origin, expr, block: None, spills: false, narrow: false }
    }
}
