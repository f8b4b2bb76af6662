//! The array functions MMULT, TRANSPOSE, SEQUENCE, MINVERSE, MDETERM and
//! MUNIT. MMULT's, TRANSPOSE's, MINVERSE's and MDETERM's arguments are
//! evaluated as array formulas in any cell (their contract says
//! `Arg::Array`), a reference giving its cells; a scalar is a 1×1 array.
//! MINVERSE and MDETERM eliminate with partial pivoting, at most 512 rows
//! (n³ within [`MAX_WORK`]). Each returns an array: a plain cell shows its top-left
//! element, while SUMPRODUCT, INDEX, SUM and names use all of it. Results
//! larger than [`MAX_ARRAY_CELLS`] are #NUM!.

use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{self, Array, ErrorKind, Kind, MAX_ARRAY_CELLS, MAX_WORK, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// A `rows × cols` array from `f(row, col)`; #NUM! past [`MAX_ARRAY_CELLS`].
fn build(rows: usize, cols: usize, f: impl Fn(usize, usize) -> Value) -> Value {
    if rows as u64 * cols as u64 > MAX_ARRAY_CELLS {
        return Value::Error(ErrorKind::Num);
    }
    let data = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).map(|(r, c)| f(r, c)).collect();
    Value::Array(Arc::new(Array::new(rows, cols, data)))
}

/// MMULT(a, b): the matrix product, rows(a) × cols(b). #VALUE! when a's
/// columns are not b's rows or when an element is not a number (empty
/// cells, text and booleans included); an error element propagates;
/// #NUM! past `MAX_WORK` multiplications.
pub fn mmult(ev: &mut Eval, a: &[BExpr]) -> Value {
    match (args::array(ev, &a[0]), args::array(ev, &a[1])) {
        (Ok(x), Ok(y)) => product(&x, &y).unwrap_or_else(Value::Error),
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
    }
}

fn product(x: &Array, y: &Array) -> Result<Value, ErrorKind> {
    if x.cols != y.rows {
        return Err(ErrorKind::Value);
    }
    if (x.rows as u64).saturating_mul(y.cols as u64).saturating_mul(x.cols as u64) > MAX_WORK {
        return Err(ErrorKind::Num);
    }
    if x.rows as u64 * y.cols as u64 > MAX_ARRAY_CELLS {
        return Err(ErrorKind::Num);
    }
    let (p, q) = (elements(x)?, elements(y)?);
    // Row by row of x, adding each nonzero element's multiple of the row of
    // y it meets: each result element still sums its products in order
    // (a zero product adds nothing), and the 0/1 matrices of formula-made
    // tables, mostly zeros, are multiplied in the time their ones take.
    let mut out = vec![0.0; x.rows * y.cols];
    for (row, sums) in p.chunks_exact(x.cols).zip(out.chunks_exact_mut(y.cols)) {
        for (&a, ys) in row.iter().zip(q.chunks_exact(y.cols)) {
            if a != 0.0 {
                sums.iter_mut().zip(ys).for_each(|(s, &b)| *s += a * b);
            }
        }
    }
    Ok(value::numbers(x.rows, y.cols, out))
}

/// MMULT's operand as numbers: a dense array of numbers as it is; else
/// each element must be a number (an error element is the result; a
/// boolean, text or empty one #VALUE!).
fn elements(m: &Array) -> Result<Cow<'_, [f64]>, ErrorKind> {
    match m.as_dense() {
        Some((nums, Kind::Number)) => Ok(Cow::Borrowed(nums)),
        Some((_, Kind::Bool)) => Err(ErrorKind::Value),
        None => m
            .values()
            .iter()
            .map(|v| match v {
                Value::Number(n) => Ok(*n),
                Value::Error(e) => Err(*e),
                _ => Err(ErrorKind::Value),
            })
            .collect(),
    }
}

/// TRANSPOSE(array): rows become columns; empty cells read as 0. A
/// dense array stays dense.
pub fn transpose(ev: &mut Eval, a: &[BExpr]) -> Value {
    let m = match args::array(ev, &a[0]) {
        Ok(m) => m,
        Err(e) => return Value::Error(e),
    };
    let (rows, cols) = (m.rows, m.cols);
    match m.as_dense() {
        Some((nums, kind)) => {
            let t = (0..cols).flat_map(|c| (0..rows).map(move |r| nums[r * cols + c])).collect();
            Value::Array(Arc::new(Array::dense(cols, rows, t, kind)))
        }
        None => build(cols, rows, |r, c| match m.get(c, r) {
            Value::Empty => Value::Number(0.0),
            v => v.clone(),
        }),
    }
}

/// SEQUENCE(rows, [columns], [start], [step]): `rows × columns` numbers
/// from `start` by `step`, row by row; each omitted argument is 1, rows
/// too (`SEQUENCE(,3)`), though one must be given. Counts are truncated;
/// below 1 they are #VALUE!.
pub fn sequence(ev: &mut Eval, a: &[BExpr]) -> Value {
    let mut n = [1.0; 4];
    for (i, slot) in n.iter_mut().enumerate() {
        // An omitted argument takes its default, 1, rows included
        // (`SEQUENCE(,3)` is one row of three, as in Excel 365).
        let Some(e) = args::given(a, i) else { continue };
        match args::number(ev, e) {
            Ok(x) => *slot = x,
            Err(e) => return Value::Error(e),
        }
    }
    let [rows, cols, start, step] = n;
    let (rows, cols) = (rows.trunc(), cols.trunc());
    if rows < 1.0 || cols < 1.0 {
        return Value::Error(ErrorKind::Value);
    }
    if rows * cols > MAX_ARRAY_CELLS as f64 {
        return Value::Error(ErrorKind::Num);
    }
    let n = (rows * cols) as usize;
    value::numbers(rows as usize, cols as usize, (0..n).map(|k| start + step * k as f64).collect())
}

/// A square matrix of numbers for MINVERSE and MDETERM: #VALUE! unless
/// square and all numbers, #NUM! past 512 rows (n³ steps within
/// [`MAX_WORK`]).
fn square(ev: &mut Eval, e: &BExpr) -> Result<(usize, Vec<f64>), ErrorKind> {
    let m = args::array(ev, e)?;
    if m.rows != m.cols {
        return Err(ErrorKind::Value);
    }
    if (m.rows as u64).pow(3) > MAX_WORK {
        return Err(ErrorKind::Num);
    }
    Ok((m.rows, elements(&m)?.into_owned()))
}

/// Gaussian elimination of the `n`×`n` matrix `a` (row-major) with partial
/// pivoting, applied alike to the rows of `b` (`n` rows of `w` columns);
/// returns the determinant, 0 when a column has no nonzero pivot.
fn eliminate(n: usize, a: &mut [f64], b: &mut [f64], w: usize) -> f64 {
    let mut det = 1.0;
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs())).unwrap_or(col);
        if a[pivot * n + col] == 0.0 {
            return 0.0;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(pivot * n + k, col * n + k);
            }
            for k in 0..w {
                b.swap(pivot * w + k, col * w + k);
            }
            det = -det;
        }
        let p = a[col * n + col];
        det *= p;
        for row in 0..n {
            let f = a[row * n + col] / p;
            if row == col || f == 0.0 {
                continue;
            }
            for k in col..n {
                a[row * n + k] -= f * a[col * n + k];
            }
            for k in 0..w {
                b[row * w + k] -= f * b[col * w + k];
            }
        }
    }
    det
}

/// MDETERM(array): the determinant; 0 for a singular matrix.
pub fn mdeterm(ev: &mut Eval, a: &[BExpr]) -> Value {
    match square(ev, &a[0]) {
        Ok((n, mut m)) => Value::num(eliminate(n, &mut m, &mut [], 0)),
        Err(e) => Value::Error(e),
    }
}

/// MINVERSE(array): the inverse; #NUM! for a singular matrix.
pub fn minverse(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (n, mut m) = match square(ev, &a[0]) {
        Ok(s) => s,
        Err(e) => return Value::Error(e),
    };
    let mut inv: Vec<f64> = (0..n * n).map(|i| if i / n == i % n { 1.0 } else { 0.0 }).collect();
    if eliminate(n, &mut m, &mut inv, n) == 0.0 {
        return Value::Error(ErrorKind::Num);
    }
    // Each row divided by its pivot, left on the diagonal.
    for (row, out) in inv.chunks_exact_mut(n).enumerate() {
        let p = m[row * n + row];
        out.iter_mut().for_each(|x| *x /= p);
    }
    if inv.iter().any(|x| !x.is_finite()) {
        return Value::Error(ErrorKind::Num);
    }
    value::numbers(n, n, inv)
}

/// MUNIT(dimension): the identity matrix; `dimension` truncated, below 1
/// #VALUE!, past [`MAX_ARRAY_CELLS`] cells #NUM!.
pub fn munit(ev: &mut Eval, a: &[BExpr]) -> Value {
    let n = match args::number(ev, &a[0]) {
        Ok(n) => n.trunc(),
        Err(e) => return Value::Error(e),
    };
    if n < 1.0 {
        return Value::Error(ErrorKind::Value);
    }
    if n * n > MAX_ARRAY_CELLS as f64 {
        return Value::Error(ErrorKind::Num);
    }
    let n = n as usize;
    value::numbers(n, n, (0..n * n).map(|i| if i / n == i % n { 1.0 } else { 0.0 }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::Number as N;

    fn array(rows: usize, cols: usize, data: &[f64]) -> Array {
        Array::new(rows, cols, data.iter().map(|&x| N(x)).collect())
    }

    #[test]
    fn products() {
        let (x, y) = (array(2, 2, &[1.0, 2.0, 3.0, 4.0]), array(2, 1, &[5.0, 6.0]));
        let p = product(&x, &y);
        assert_eq!(p, Ok(Value::Array(Arc::new(array(2, 1, &[17.0, 39.0])))));
        assert_eq!(product(&y, &x), Err(ErrorKind::Value), "2x1 by 2x2");
        let blank = Array::new(1, 2, vec![N(1.0), Value::Empty]);
        assert_eq!(product(&blank, &y), Err(ErrorKind::Value));
        let err = Array::new(1, 2, vec![N(1.0), Value::Error(ErrorKind::NA)]);
        assert_eq!(product(&err, &y), Err(ErrorKind::NA));
    }

    #[test]
    fn zeros_add_nothing() {
        // Sparse 0/1 operands: only the ones contribute; a zero result is 0.
        let (x, y) = (array(2, 3, &[0.0, 1.0, 0.0, 0.0, 0.0, 0.0]), array(3, 2, &[7.0, -8.0, 2.0, 3.0, 5.0, -6.0]));
        assert_eq!(product(&x, &y), Ok(Value::Array(Arc::new(array(2, 2, &[2.0, 3.0, 0.0, 0.0])))));
        let big = array(1, 2, &[1e308, 1e308]);
        assert_eq!(
            product(&big, &array(2, 1, &[10.0, 0.0])),
            Ok(Value::Array(Arc::new(Array::new(1, 1, vec![Value::Error(ErrorKind::Num)]))))
        );
    }

    #[test]
    fn constant_arguments_are_shared() {
        let grid = crate::grid::Grid::new(1);
        let mut ev = Eval::new(&grid, crate::address::CellAddr::new(0, 1, 1));
        let a = Arc::new(array(2, 2, &[1.0, 2.0, 3.0, 4.0]));
        let m = args::array(&mut ev, &BExpr::Const(Value::Array(a.clone()))).unwrap();
        assert!(Arc::ptr_eq(&m, &a), "read without a copy");
    }

    #[test]
    fn determinants_and_inverses() {
        let (mut a, mut b) = (vec![4.0, -1.0, 2.0, 0.0], vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(eliminate(2, &mut a, &mut b, 2), 2.0);
        let mut singular = vec![1.0, 2.0, 2.0, 4.0];
        assert_eq!(eliminate(2, &mut singular, &mut [], 0), 0.0);
        let mut swap = vec![0.0, 1.0, 1.0, 0.0];
        assert_eq!(eliminate(2, &mut swap, &mut [], 0), -1.0, "a row swap changes the sign");
    }

    #[test]
    fn size_cap() {
        assert_eq!(build(1 << 12, 1 << 11, |_, _| N(0.0)), Value::Error(ErrorKind::Num));
    }
}
