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

/// Why, in the workbook's own terms: the reason texts of the change
/// (`why: naked single: only 6 left in r3c5`) and of its causes
/// (`why Main!AB40: X-Wing 6: r4,r8 c3,c9`), each text once.
pub fn reasons_text(p: &Program, step: &Step) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut lines = Vec::new();
    let own = step.reason.as_deref().map(|r| (None, r));
    let causes = step.causes.iter().filter_map(|c| Some((Some(c.cell), c.reason.as_deref()?)));
    for (cell, text) in own.into_iter().chain(causes) {
        if seen.contains(&text) {
            continue;
        }
        seen.push(text);
        lines.push(match cell {
            Some(c) => format!("why {}: {text}", p.cell_name(c)),
            None => format!("why: {text}"),
        });
    }
    lines
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
