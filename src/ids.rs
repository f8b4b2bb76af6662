//! Typed indexes. Formulas, areas, names and workbook entries are kept in
//! vectors and referred to by position; each kind of position has its own
//! type so that one cannot be used for another, and "none" is an `Option`,
//! never a sentinel value.

/// Declares an index type over `u32` with `index()` for subscripting.
macro_rules! index_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The position as a subscript.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id of position `i`.
            pub fn at(i: usize) -> $name {
                $name(i as u32)
            }
        }
    };
}

index_type!(
    /// A formula cell: its position in `Program::cells`, which is sorted in
    /// Excel's calculation order (sheet, row, column).
    FormulaId
);

index_type!(
    /// A distinct area read by formulas: its position in `DepGraph::areas`.
    AreaId
);

index_type!(
    /// A workbook name: its position in the workbook's (and the binder's)
    /// list of names.
    NameId
);

index_type!(
    /// A workbook entry a formula cell came from (a `cells` key of the
    /// workbook file or a `.dfl` entry): its position in `Workbook::cells`.
    EntryId
);

/// A block array formula: its position in `Program::blocks`, held as the
/// position plus one so that `Option<BlockId>` is four bytes (a formula
/// cell's `block`: the cells of 100,000 formulas 6.4 → 5.6 MB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(std::num::NonZeroU32);

impl BlockId {
    /// The position as a subscript.
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }

    /// The id of position `i`, which is below the grid's cell count.
    pub fn at(i: usize) -> BlockId {
        BlockId(std::num::NonZeroU32::MIN.saturating_add(i as u32))
    }
}

index_type!(
    /// A subformula shared by several formulas (see `engine::share`): its
    /// position in `Program::shared`.
    SharedId
);
