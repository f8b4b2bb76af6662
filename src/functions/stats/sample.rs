//! A sample's numbers, as the statistics read them, and its moments.
//! [`numbers`] gathers aggregate arguments under SUM's rule (from
//! references and arrays only numbers, typed directly also booleans and
//! numeric text; the first error the result), [`numbers_by`] under
//! another (`value_operand`, STDEVA's: text in references 0, booleans 0
//! or 1), both through the aggregates' one walk
//! ([`args::fold_operands`]). [`array_numbers`] and [`pairs`] read
//! arguments evaluated as arrays (Excel's array-class arguments: CORREL's,
//! T.TEST's); [`pairs`] keeps the positions where both hold numbers, and
//! is #N/A when the two differ in size. [`Moments`] are computed in two
//! passes (the mean, then the squared deviations from it), which keeps
//! the digits a one-pass sum of squares would cancel.

use super::{array_arg, elems};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{self, Rule};
use crate::value::{ErrorKind, Value};

pub use crate::functions::args::numbers;

/// The numbers of aggregate arguments under `rule`.
pub fn numbers_by(ev: &mut Eval, a: &[BExpr], rule: Rule) -> Result<Vec<f64>, ErrorKind> {
    let mut out = Vec::new();
    args::fold_operands(ev, a, rule, (), |(), x| out.push(x))?;
    Ok(out)
}

/// The numbers of one argument evaluated as an array.
pub fn array_numbers(ev: &mut Eval, e: &BExpr) -> Result<Vec<f64>, ErrorKind> {
    let v = array_arg(ev, e);
    let mut out = Vec::new();
    args::fold_value(ev, v, args::number_operand, Ok(()), |(), x| out.push(x))?;
    Ok(out)
}

/// The pairs of numbers at the same positions of two arguments evaluated
/// as arrays (row by row); a position where either is not a number is
/// skipped. An error in either is the result; arrays of different sizes
/// are #N/A.
pub fn pairs(ev: &mut Eval, x: &BExpr, y: &BExpr) -> Result<Vec<(f64, f64)>, ErrorKind> {
    let (vx, vy) = (array_arg(ev, x), array_arg(ev, y));
    let (xs, ys) = (elems(&vx).2, elems(&vy).2);
    if let Some(Value::Error(e)) = xs.iter().chain(ys).find(|v| v.is_error()) {
        return Err(*e);
    }
    if xs.len() != ys.len() {
        return Err(ErrorKind::NA);
    }
    let both = |(a, b): (&Value, &Value)| match (a, b) {
        (Value::Number(a), Value::Number(b)) => Some((*a, *b)),
        _ => None,
    };
    Ok(xs.iter().zip(ys).filter_map(both).collect())
}

/// The count, mean and sum of squared deviations of a sample.
#[derive(Clone, Copy, Debug)]
pub struct Moments {
    pub n: f64,
    pub mean: f64,
    /// Σ (x − mean)².
    pub ss: f64,
}

impl Moments {
    pub fn of(data: &[f64]) -> Moments {
        let n = data.len() as f64;
        let mean = data.iter().sum::<f64>() / n;
        let ss = data.iter().map(|x| (x - mean) * (x - mean)).sum();
        Moments { n, mean: if data.is_empty() { 0.0 } else { mean }, ss }
    }

    /// The variance with `ddof` degrees of freedom taken away (1 for a
    /// sample, 0 for a population); #DIV/0! when no more remain.
    pub fn variance(&self, ddof: u8) -> Result<f64, ErrorKind> {
        let d = self.n - f64::from(ddof);
        if d <= 0.0 { Err(ErrorKind::Div0) } else { Ok(self.ss / d) }
    }

    /// Σ ((x − mean) / sd)^k for the standard deviation `sd`.
    pub fn standardized_sum(&self, data: &[f64], sd: f64, k: i32) -> f64 {
        data.iter().map(|x| ((x - self.mean) / sd).powi(k)).sum()
    }
}
