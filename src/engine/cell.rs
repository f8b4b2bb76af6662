//! A formula cell as a [`Program`](super::Program) holds it once bound:
//! its address, the entry it came from, its bound formula, the areas it
//! reads and, for a cell of a block array formula, where it sits in the
//! block. The program builds these; the dependency graph (`graph.rs`) and
//! the sharing pass (`share.rs`) read and rewrite them, so the type lives
//! apart from all three.

use crate::address::{Area, CellAddr};
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
    pub deps: Box<[Area]>,
    /// Whole sheets its run-time references (OFFSET) can reach.
    pub reachable: Box<[Area]>,
    /// For a cell of a block array formula, which block and where in it.
    pub block: Option<BlockCell>,
    /// A dynamic-array formula: bound and calculated as an array formula
    /// at its cell, its value spilling right and down (see `engine::spill`).
    pub spills: bool,
    /// Whether what one evaluation read is all its value depends on
    /// ([`Reads::narrow`](crate::eval::deps::Reads::narrow)); never for a
    /// cell of a block array formula or a spilling formula.
    pub narrow: bool,
}

impl FormulaCell {
    /// Formula cell `addr` from entry `origin`, bound to `expr`: its reads
    /// not yet derived, outside any block, not spilling.
    pub fn new(addr: CellAddr, origin: EntryId, expr: BExpr) -> FormulaCell {
        FormulaCell {
            addr,
            origin,
            expr,
            deps: Box::default(),
            reachable: Box::default(),
            block: None,
            spills: false,
            narrow: false,
        }
    }
}

/// Where a cell sits in a block array formula: the block
/// ([`Program::block`](super::Program::block)) and the cell's row and
/// column in it, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockCell {
    pub id: BlockId,
    pub row: u32,
    pub col: u32,
}
