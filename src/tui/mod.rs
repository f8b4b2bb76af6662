//! `step`: stepping through iterations. (Being written.)

use crate::cli::{Failure, StepArgs};

pub fn step(_args: &StepArgs) -> Result<(), Failure> {
    Err(Failure::Usage("step is not built yet".into()))
}
