//! Sums over pairs and series: SUMX2MY2 (Σ x²−y²), SUMX2PY2 (Σ x²+y²)
//! and SUMXMY2 (Σ (x−y)²) over the elements of two arrays taken in order,
//! and SERIESSUM (Σ aᵢ·x^(n+i·m)). The arrays are evaluated as array
//! formulas (a reference gives its cells); two of different counts are
//! #N/A; a pair where either element is not a number (text, a boolean, an
//! empty cell) is skipped; an error element is the result.

use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value};

/// The sum of `f(x, y)` over the pairs of numbers of two arrays.
fn pairs(ev: &mut Eval, a: &[BExpr], f: fn(f64, f64) -> f64) -> Value {
    let (x, y) = match (args::array(ev, &a[0]), args::array(ev, &a[1])) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return Value::Error(e),
    };
    if x.len() != y.len() {
        return Value::Error(ErrorKind::NA);
    }
    let mut sum = 0.0;
    for i in 0..x.len() {
        match (x.at(i), y.at(i)) {
            (Value::Error(e), _) | (_, Value::Error(e)) => return Value::Error(e),
            (Value::Number(x), Value::Number(y)) => sum += f(x, y),
            _ => {}
        }
    }
    Value::num(sum)
}

/// SUMX2MY2(array_x, array_y).
pub fn sumx2my2(ev: &mut Eval, a: &[BExpr]) -> Value {
    pairs(ev, a, |x, y| x * x - y * y)
}

/// SUMX2PY2(array_x, array_y).
pub fn sumx2py2(ev: &mut Eval, a: &[BExpr]) -> Value {
    pairs(ev, a, |x, y| x * x + y * y)
}

/// SUMXMY2(array_x, array_y).
pub fn sumxmy2(ev: &mut Eval, a: &[BExpr]) -> Value {
    pairs(ev, a, |x, y| (x - y) * (x - y))
}

/// SERIESSUM(x, n, m, coefficients): every coefficient must be a number
/// (#VALUE! otherwise).
pub fn seriessum(ev: &mut Eval, a: &[BExpr]) -> Value {
    let [x, n, m] = [0, 1, 2].map(|i| args::number(ev, &a[i]));
    let (x, n, m) = match (x, n, m) {
        (Ok(x), Ok(n), Ok(m)) => (x, n, m),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return Value::Error(e),
    };
    let coefficients = match args::array(ev, &a[3]) {
        Ok(c) => c,
        Err(e) => return Value::Error(e),
    };
    let mut sum = 0.0;
    for i in 0..coefficients.len() {
        match coefficients.at(i) {
            Value::Number(c) => sum += c * x.powf(n + i as f64 * m),
            Value::Error(e) => return Value::Error(e),
            _ => return Value::Error(ErrorKind::Value),
        }
    }
    Value::num(sum)
}
