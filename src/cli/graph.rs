//! `graph`: the dependency graph as Graphviz DOT. (Being written.)

use super::Failure;
use std::path::Path;

pub fn graph(_workbook: &Path, _cell: Option<&str>, _names: bool) -> Result<(), Failure> {
    Err(Failure::Usage("graph is not built yet".into()))
}
