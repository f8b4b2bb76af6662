//! `watch`: re-run on every change of the workbook or its formula files. (Being written.)

use super::{Failure, RunArgs};

pub fn watch(_args: &RunArgs) -> Result<(), Failure> {
    Err(Failure::Usage("watch is not built yet".into()))
}
