//! Integers and counting: GCD and LCM of their arguments (read as SUM
//! reads them, but text and booleans in references are #VALUE!, as any
//! value that is not a number; negative or past 2^53 #NUM!), FACT and
//! FACTDOUBLE, COMBIN and COMBINA (with repetition), PERMUT and
//! PERMUTATIONA (with repetition), MULTINOMIAL. Arguments are truncated to
//! integers. Products are built step by step, each step exact below 2^53,
//! so counts that fit are exact; past the largest double, #NUM!.

use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value};

const NUM: Value = Value::Error(ErrorKind::Num);
/// 2^53: from here on, doubles no longer hold every integer.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// C(n, k) for integers 0 ≤ k ≤ n: C(n−k+i, i) for i up to min(k, n−k),
/// each an integer. The terms at least double, so the loop ends by
/// overflowing within about a thousand steps if it does not end before.
fn binomial(n: f64, k: f64) -> f64 {
    let k = k.min(n - k);
    let (mut c, mut i) = (1.0f64, 1.0);
    while i <= k && c.is_finite() {
        c = c * (n - k + i) / i;
        i += 1.0;
    }
    c.round()
}

/// The arguments' integers folded by `f` from `init`: a negative one, or
/// one of 2^53 or more, is #NUM!.
fn integers(ev: &mut Eval, a: &[BExpr], init: f64, f: fn(f64, f64) -> f64) -> Value {
    let folded = args::fold_operands(ev, a, args::strict_number_operand, Some(init), |acc, n| {
        let n = n.trunc();
        acc.filter(|_| (0.0..EXACT).contains(&n)).map(|x| f(x, n))
    });
    match folded {
        Err(e) => Value::Error(e),
        Ok(None) => NUM,
        Ok(Some(x)) => Value::num(x),
    }
}

/// Euclid's algorithm on integers held exactly.
fn euclid(mut a: f64, mut b: f64) -> f64 {
    while b != 0.0 {
        (a, b) = (b, a % b);
    }
    a
}

/// GCD(n, ...): 0 when every argument is 0.
pub fn gcd(ev: &mut Eval, a: &[BExpr]) -> Value {
    integers(ev, a, 0.0, euclid)
}

/// LCM(n, ...): 0 when any argument is 0.
pub fn lcm(ev: &mut Eval, a: &[BExpr]) -> Value {
    integers(ev, a, 1.0, |l, n| if l == 0.0 || n == 0.0 { 0.0 } else { l / euclid(l, n) * n })
}

/// MULTINOMIAL(n, ...): (n1+n2+...)! / (n1!·n2!·...), as a product of
/// binomial coefficients; a negative argument is #NUM!.
pub fn multinomial(ev: &mut Eval, a: &[BExpr]) -> Value {
    let folded = args::fold_operands(ev, a, args::strict_number_operand, Some((0.0, 1.0)), |acc, n| {
        let ((sum, product), n) = (acc?, n.trunc());
        (n >= 0.0).then(|| (sum + n, product * binomial(sum + n, n)))
    });
    match folded {
        Err(e) => Value::Error(e),
        Ok(None) => NUM,
        Ok(Some((_, m))) => Value::num(m),
    }
}

/// FACT(n): n! for 0 ≤ n ≤ 170.
pub fn fact(x: f64) -> Value {
    product_down(x, 1.0, 170.0)
}

/// FACTDOUBLE(n): n·(n−2)·(n−4)·… for 0 ≤ n ≤ 300.
pub fn factdouble(x: f64) -> Value {
    product_down(x, 2.0, 300.0)
}

/// The product of the truncated `x` and the numbers `step` apart below it
/// down to 1; #NUM! for a negative `x` or one past `limit` (the product
/// would overflow).
fn product_down(x: f64, step: f64, limit: f64) -> Value {
    let n = x.trunc();
    if x < 0.0 || n > limit {
        return NUM;
    }
    let (mut p, mut k) = (1.0, n);
    while k > 1.0 {
        p *= k;
        k -= step;
    }
    Value::num(p)
}

/// COMBIN(n, k): #NUM! unless 0 ≤ k ≤ n.
pub fn combin(n: f64, k: f64) -> Value {
    let (n, k) = (n.trunc(), k.trunc());
    if n < 0.0 || k < 0.0 || n < k { NUM } else { Value::num(binomial(n, k)) }
}

/// COMBINA(n, k): C(n+k−1, k), with Microsoft's constraints 0 ≤ k ≤ n;
/// COMBINA(0, 0) is 1.
pub fn combina(n: f64, k: f64) -> Value {
    let (n, k) = (n.trunc(), k.trunc());
    if n < 0.0 || k < 0.0 || n < k {
        NUM
    } else if n == 0.0 {
        Value::Number(1.0)
    } else {
        Value::num(binomial(n + k - 1.0, k))
    }
}

/// PERMUT(n, k): n·(n−1)·…·(n−k+1); #NUM! unless 0 ≤ k ≤ n and n > 0.
/// The factors are at least 1 and all but the last at least 2, so the
/// loop overflows within about a thousand steps if it does not end before.
pub fn permut(n: f64, k: f64) -> Value {
    let (n, k) = (n.trunc(), k.trunc());
    if n <= 0.0 || k < 0.0 || n < k {
        return NUM;
    }
    let (mut p, mut i) = (1.0f64, 0.0);
    while i < k && p.is_finite() {
        p *= n - i;
        i += 1.0;
    }
    Value::num(p)
}

/// PERMUTATIONA(n, k): n^k; #NUM! for a negative argument.
pub fn permutationa(n: f64, k: f64) -> Value {
    let (n, k) = (n.trunc(), k.trunc());
    if n < 0.0 || k < 0.0 { NUM } else { Value::num(n.powf(k)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::Number as N;

    #[test]
    fn counts() {
        assert_eq!(combin(8.0, 2.0), N(28.0));
        assert_eq!(combin(60.0, 30.0), N(118_264_581_564_861_424.0));
        assert_eq!(combin(2000.0, 1000.0), NUM, "overflows");
        assert_eq!(combin(1e15, 5e14), NUM, "overflows, quickly");
        assert_eq!(combina(4.0, 3.0), N(20.0));
        assert_eq!(combina(0.0, 0.0), N(1.0));
        assert_eq!(permut(100.0, 3.0), N(970_200.0));
        assert_eq!(permut(1e15, 1e15), NUM);
        assert_eq!(fact(5.9), N(120.0));
        assert_eq!(fact(171.0), NUM);
        assert_eq!(factdouble(7.0), N(105.0));
        assert_eq!(factdouble(0.0), N(1.0));
        assert_eq!(euclid(24.0, 36.0), 12.0);
    }
}
