//! What an iteration changed: the formula cells whose values differ between
//! two states of the same program, in calculation order. Used by
//! `run --trace`, the stepping views and their highlights.

use crate::address::{Area, CellAddr};
use crate::engine::Engine;
use crate::value::Value;

/// One cell's change.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub cell: CellAddr,
    pub old: Value,
    pub new: Value,
}

impl Change {
    /// True when the cell went from showing something to blank (empty or "").
    pub fn blanked(&self) -> bool {
        !is_blank(&self.old) && is_blank(&self.new)
    }
}

/// Empty, or the empty text.
pub fn is_blank(v: &Value) -> bool {
    matches!(v, Value::Empty) || matches!(v, Value::Text(t) if t.is_empty())
}

/// The formula cells whose values differ from `before` to `after` (two
/// engines over the same program), in calculation order.
pub fn changes(before: &Engine, after: &Engine) -> Vec<Change> {
    after
        .program()
        .cells
        .iter()
        .filter_map(|c| {
            let (old, new) = (before.get(c.addr), after.get(c.addr));
            (old != new).then(|| Change { cell: c.addr, old: old.clone(), new: new.clone() })
        })
        .collect()
}

/// The changes that fall inside `area`.
pub fn within<'c>(changes: &'c [Change], area: &'c Area) -> impl Iterator<Item = &'c Change> + 'c {
    changes.iter().filter(move |c| area.contains(c.cell))
}
