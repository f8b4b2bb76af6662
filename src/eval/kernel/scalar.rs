//! The kernel's unboxed values and Excel's rules on them. A [`Scalar`] is
//! a number, a boolean, the empty value, a text of the kernel's constant
//! table (the empty text among them) or an error: `Copy`, no allocation.
//! The operators, comparisons and conditions here give exactly what
//! `ops::binary`, `ops::unary` and `Value::to_bool` give the same values;
//! anything a scalar cannot hold (other texts, arrays, references) is a
//! [`Bail`]: the tree walker takes the cell.

use crate::ast::{BinaryOp, UnaryOp};
use crate::eval::ops::rules;
use crate::value::{ErrorKind, Value, compare};

/// The index of the empty text in every kernel's text table.
pub(super) const EMPTY_TEXT: u32 = 0;

/// One value on the kernel's stack.
#[derive(Clone, Copy, Debug)]
pub(super) enum Scalar {
    Num(f64),
    Bool(bool),
    Empty,
    /// A text of the kernel's table, by index ([`EMPTY_TEXT`] is `""`).
    Text(u32),
    Err(ErrorKind),
}

/// The kernel met something it does not compute exactly: the cell is
/// evaluated by the tree walker instead.
#[derive(Debug)]
pub(crate) struct Bail;

use Scalar::*;

/// Equal scalars are the same value: numbers by their bits (0 and -0 are
/// two constants when kernels are matched).
impl PartialEq for Scalar {
    fn eq(&self, other: &Scalar) -> bool {
        match (*self, *other) {
            (Num(a), Num(b)) => a.to_bits() == b.to_bits(),
            (Bool(a), Bool(b)) => a == b,
            (Empty, Empty) => true,
            (Text(a), Text(b)) => a == b,
            (Err(a), Err(b)) => a == b,
            _ => false,
        }
    }
}

impl Scalar {
    /// A cell's or a shared subformula's value as a scalar: a text other
    /// than `""`, an array or a reference bails.
    #[inline]
    pub(super) fn read(v: &Value) -> Result<Scalar, Bail> {
        Ok(match v {
            Value::Number(n) => Num(*n),
            Value::Bool(b) => Bool(*b),
            Value::Empty => Empty,
            Value::Error(e) => Err(*e),
            Value::Text(s) if s.is_empty() => Text(EMPTY_TEXT),
            _ => return Result::Err(Bail),
        })
    }

    /// A number as `Value::num` makes it: NaN and infinities are #NUM!.
    #[inline]
    fn num(n: f64) -> Scalar {
        if n.is_finite() { Num(n) } else { Err(ErrorKind::Num) }
    }

    /// An arithmetic operator's result (`rules::arith`), its error decoded.
    #[inline(always)]
    fn arith(op: BinaryOp, x: f64, y: f64) -> Scalar {
        match rules::decode(rules::arith(op, x, y)) {
            Ok(n) => Num(n),
            Result::Err(e) => Err(e),
        }
    }

    /// The scalar as a value (texts from `texts`).
    #[inline(always)]
    pub(super) fn value(self, texts: &[Value]) -> Value {
        match self {
            Num(n) => Value::Number(n),
            Bool(b) => Value::Bool(b),
            Empty => Value::Empty,
            Text(i) => texts[i as usize].clone(),
            Err(e) => Value::Error(e),
        }
    }
}

/// `Value::to_number`: numbers unboxed, the rest by the value's own rule.
fn number(a: Scalar, texts: &[Value]) -> Result<f64, ErrorKind> {
    match a {
        Num(n) => Ok(n),
        a => a.value(texts).to_number(),
    }
}

/// `Value::to_bool`, a condition: numbers and booleans unboxed, the rest
/// (empty FALSE, the texts TRUE and FALSE, other text #VALUE!) by the
/// value's own rule.
#[inline(always)]
pub(super) fn truth(a: Scalar, texts: &[Value]) -> Result<bool, ErrorKind> {
    match a {
        Bool(b) => Ok(b),
        Num(n) => Ok(n != 0.0),
        a => truth_of_value(a, texts),
    }
}

/// [`truth`] of a scalar that is not a number or a boolean.
#[cold]
#[inline(never)]
fn truth_of_value(a: Scalar, texts: &[Value]) -> Result<bool, ErrorKind> {
    a.value(texts).to_bool()
}

/// Whether the kernel computes operator `op` (arithmetic and comparisons).
pub(super) fn supported(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(op, Add | Sub | Mul | Div | Pow | Eq | Ne | Lt | Gt | Le | Ge)
}

/// `a op b` for a [`supported`] operator, as `ops::binary` gives it.
#[inline]
pub(super) fn binary(op: BinaryOp, a: Scalar, b: Scalar, texts: &[Value]) -> Scalar {
    use BinaryOp::*;
    // Empty reads as 0 in arithmetic and compares as 0 with a number (and
    // equal to itself): the numeric path takes it too.
    let num = |s: Scalar| match s {
        Num(x) => Some(x),
        Empty => Some(0.0),
        _ => None,
    };
    if let (Some(x), Some(y)) = (num(a), num(b)) {
        if rules::is_arithmetic(op) {
            return Scalar::arith(op, x, y);
        }
        if rules::is_comparison(op) {
            return Bool(rules::num_holds(op, x, y));
        }
    }
    if let Err(e) = a {
        return Err(e);
    }
    if let Err(e) = b {
        return Err(e);
    }
    match op {
        Eq | Ne | Lt | Gt | Le | Ge => Bool(rules::holds(op, compare(&a.value(texts), &b.value(texts)))),
        _ => {
            let (x, y) = match (number(a, texts), number(b, texts)) {
                (Ok(x), Ok(y)) => (x, y),
                (Result::Err(e), _) | (_, Result::Err(e)) => return Err(e),
            };
            Scalar::arith(op, x, y)
        }
    }
}

/// `op a`, as `ops::unary` gives it for a scalar.
pub(super) fn unary(op: UnaryOp, a: Scalar, texts: &[Value]) -> Scalar {
    // Excel ignores a leading `+`: text stays text.
    if matches!(op, UnaryOp::Plus | UnaryOp::Trim(_)) {
        return if a == Empty { Num(0.0) } else { a };
    }
    let n = match number(a, texts) {
        Ok(n) => n,
        Result::Err(e) => return Err(e),
    };
    match op {
        UnaryOp::Neg => Scalar::num(-n),
        // `#`, `@` and trims are bound as calls, never compiled to this.
        UnaryOp::Plus | UnaryOp::Spill | UnaryOp::At | UnaryOp::Trim(_) => a,
        UnaryOp::Percent => Scalar::num(n / 100.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of these scalars gives what `ops::binary` gives the values.
    #[test]
    fn operators_agree_with_ops_on_every_pair() {
        let texts = [Value::text(""), Value::text("abc"), Value::text("2"), Value::text("true"), Value::text("ABC")];
        let all = [
            Num(0.0),
            Num(1.5),
            Num(-2.0),
            Num(1e308),
            Bool(true),
            Bool(false),
            Empty,
            Text(0),
            Text(1),
            Text(2),
            Text(3),
            Text(4),
            Err(ErrorKind::Div0),
            Err(ErrorKind::NA),
        ];
        use BinaryOp::*;
        for op in [Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Gt, Le, Ge] {
            for a in all {
                for b in all {
                    let want = crate::eval::binary(op, a.value(&texts), b.value(&texts));
                    assert_eq!(binary(op, a, b, &texts).value(&texts), want, "{a:?} {op:?} {b:?}");
                }
            }
        }
        for op in [UnaryOp::Neg, UnaryOp::Plus, UnaryOp::Percent] {
            for a in all {
                let want = crate::eval::unary(op, a.value(&texts));
                assert_eq!(unary(op, a, &texts).value(&texts), want, "{op:?} {a:?}");
            }
        }
        for a in all {
            assert_eq!(truth(a, &texts), a.value(&texts).to_bool(), "{a:?}");
        }
    }
}
