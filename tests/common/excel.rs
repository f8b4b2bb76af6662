//! Comparing a value dataflow computed with the one Excel cached in a
//! file: numbers within a relative 1e-9 (what the shared Excel-files
//! collection's README allows), the rest exactly.

use dataflow::value::Value;

/// Excel's cached value and ours agree.
pub fn same(excel: &Value, ours: &Value) -> bool {
    match (excel, ours) {
        (Value::Number(a), Value::Number(b)) => a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()),
        (Value::Text(a), Value::Text(b)) => a == b,
        // An empty text cached is what an empty result shows.
        (Value::Text(a), Value::Empty) => a.is_empty(),
        _ => excel == ours,
    }
}
