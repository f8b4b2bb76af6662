//! The wording of an explained history (`dataflow::explain`), shared by
//! `dataflow explain` and the stepper's explain panel; each passes how it
//! writes a value.

use super::{iterations, pass_state, plural};
use dataflow::engine::Program;
use dataflow::explain::{Cause, History, Step};
use dataflow::value::Value;

/// `step 3: 2 -> "" (blank)`.
pub fn change_text(step: &Step, value: fn(&Value) -> String) -> String {
    let blank = if step.new.is_blank() && !step.old.is_blank() { " (blank)" } else { "" };
    format!("step {}: {} -> {}{blank}", step.step, value(&step.old), value(&step.new))
}

/// The causes of a change, `Main!E16 "" -> 1 (step 3)` each, then `and N
/// more`; when there is none, why not.
pub fn causes_text(p: &Program, step: &Step, value: fn(&Value) -> String) -> Result<Vec<String>, &'static str> {
    let cause = |c: &Cause| format!("{} {} -> {} (step {})", p.cell_name(c.cell), value(&c.old), value(&c.new), c.step);
    let mut causes: Vec<String> = step.causes.iter().map(cause).collect();
    if step.more > 0 {
        causes.push(format!("and {} more", step.more));
    }
    match causes.is_empty() {
        false => Ok(causes),
        true if step.old == Value::Empty => Err("its first calculation"),
        true => Err("no precedent changed"),
    }
}

/// `converged after 9 iterations; Main!Q4 changed once`.
pub fn history_outcome(p: &Program, h: &History) -> String {
    let outcome = match h.report.iterations {
        0 => "calculated in one pass".to_string(),
        n => format!("{} after {}", pass_state(h.report.converged, h.report.period), iterations(n)),
    };
    let changed = match h.steps.len() {
        0 => "never changed".to_string(),
        1 => "changed once".to_string(),
        n => format!("changed {}", plural(n as u64, "time")),
    };
    format!("{outcome}; {} {changed}", p.cell_name(h.cell))
}
