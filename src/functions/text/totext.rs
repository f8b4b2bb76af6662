//! VALUETOTEXT and ARRAYTOTEXT: values as text, never failing on an error
//! value (it becomes its text, `#N/A`). Format 0, concise: text as it is,
//! numbers in the general format, booleans `TRUE`/`FALSE`, an empty cell
//! nothing; ARRAYTOTEXT joins the elements row by row with `, `. Format
//! 1, strict, writes what a formula would: text in double quotes (a quote
//! doubled), and ARRAYTOTEXT an array constant, `{1,2;3,"x"}`. Any other
//! format is #VALUE!. VALUETOTEXT is lifted over arrays; ARRAYTOTEXT reads
//! its whole first argument.

use super::{Res, flag, text_result};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, lift_values, read_or_default, scalar};
use crate::value::{Array, MAX_TEXT, Value};

/// One value as text, strict (`"x"`) or concise (`x`).
fn shown(v: &Value, strict: bool) -> String {
    match v {
        Value::Text(s) if strict => format!("\"{}\"", s.replace('"', "\"\"")),
        Value::Error(e) => e.text().to_string(),
        v => v.to_text().map_or_else(|e| e.text().to_string(), |t| t.to_string()),
    }
}

/// `VALUETOTEXT(value, [format])`.
pub fn valuetotext(ev: &mut Eval, args: &[BExpr]) -> Value {
    let vals = read_or_default(ev, args, &[None, Some(0.0)]);
    lift_values(&vals, |v| {
        flag(&v[1]).and_then(|strict| text_result(&shown(&v[0], strict))).unwrap_or_else(Value::Error)
    })
}

/// `ARRAYTOTEXT(array, [format])`.
pub fn arraytotext(ev: &mut Eval, args: &[BExpr]) -> Value {
    let arr = array(ev, &args[0]).unwrap_or_else(|e| std::sync::Arc::new(Array::new(1, 1, vec![Value::Error(e)])));
    let format = args.get(1).map_or(Value::Number(0.0), |a| scalar(ev, a));
    flag(&format).and_then(|strict| join(&arr, strict)).unwrap_or_else(Value::Error)
}

/// The elements joined; #VALUE! once longer than a cell's text may be.
fn join(arr: &Array, strict: bool) -> Res {
    let mut out = String::from(if strict { "{" } else { "" });
    for r in 0..arr.rows {
        for c in 0..arr.cols {
            match (c, strict) {
                (0, true) if r > 0 => out.push(';'),
                (0, _) if r == 0 => {}
                (0, false) | (_, false) => out.push_str(", "),
                (_, true) => out.push(','),
            }
            out.push_str(&shown(arr.get(r, c), strict));
            if out.len() > 4 * MAX_TEXT {
                return Err(crate::value::ErrorKind::Value);
            }
        }
    }
    if strict {
        out.push('}');
    }
    text_result(&out)
}
