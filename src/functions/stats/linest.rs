//! Least squares with several variables: LINEST and TREND, and on the
//! logarithms of y, LOGEST and GROWTH. y is a column (each column of x a
//! variable), a row (each row of x a variable), or any block with an x of
//! its shape (one variable); x defaults to 1, 2, 3, ... Every value must
//! be a number (#VALUE! otherwise); an x that fits none of these is
//! #REF!.
//!
//! The fit centres the columns (when there is a constant), then
//! orthogonalises them in order by modified Gram–Schmidt, twice (Björck,
//! "Numerics of Gram–Schmidt orthogonalization", 1994): a column left with
//! nothing of its own (collinear with those before it, below 1e-10 of its
//! length) is dropped, as Excel drops it, with a coefficient and a
//! standard error of 0 and a degree of freedom given back. The
//! coefficients solve the triangular system; the standard errors come
//! from its inverse.

use super::{array_arg, elems};
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, MAX_WORK, Value, collect_array};

/// The data of a fit: y, and the variables as columns of the same length.
struct Data {
    y: Vec<f64>,
    xs: Vec<Vec<f64>>,
    /// Whether y lies in a row (its variables are rows of x).
    row: bool,
    /// x as given (or 1, 2, 3, ... in y's shape): rows, columns, values.
    x_shape: (usize, usize, Vec<f64>),
}

/// The numbers of an array argument, all of them (#VALUE! for anything
/// else), with its shape.
fn block(ev: &mut Eval, e: &BExpr) -> Result<(usize, usize, Vec<f64>), ErrorKind> {
    let v = array_arg(ev, e);
    let (rows, cols, vals) = elems(&v);
    let nums = vals
        .iter()
        .map(|v| match v {
            Value::Number(n) => Ok(*n),
            Value::Error(e) => Err(*e),
            _ => Err(ErrorKind::Value),
        })
        .collect::<Result<Vec<f64>, ErrorKind>>()?;
    Ok((rows, cols, nums))
}

impl Data {
    /// Reads known_y (argument 0) and known_x (argument 1, optional).
    fn read(ev: &mut Eval, a: &[BExpr], log: bool) -> Result<Data, ErrorKind> {
        let (r, c, mut y) = block(ev, &a[0])?;
        if log {
            if y.iter().any(|&v| v <= 0.0) {
                return Err(ErrorKind::Num);
            }
            y.iter_mut().for_each(|v| *v = v.ln());
        }
        let n = y.len();
        let x_shape = match args::given(a, 1) {
            Some(e) => block(ev, e)?,
            None => (r, c, (1..=n).map(|i| i as f64).collect()),
        };
        let (xr, xc, xv) = (x_shape.0, x_shape.1, &x_shape.2);
        let (row, xs) = if (xr, xc) == (r, c) {
            (r == 1 && c > 1, vec![xv.clone()])
        } else if c == 1 && xr == r {
            (false, (0..xc).map(|j| (0..xr).map(|i| xv[i * xc + j]).collect()).collect())
        } else if r == 1 && xc == c {
            (true, xv.chunks(xc).map(<[f64]>::to_vec).collect())
        } else {
            return Err(ErrorKind::Ref);
        };
        if (n as u64).saturating_mul(xs.len() as u64).saturating_mul(xs.len() as u64) > MAX_WORK {
            return Err(ErrorKind::Num);
        }
        Ok(Data { y, xs, row, x_shape })
    }
}

/// A fitted model: a coefficient per variable (0 for a dropped one), the
/// constant, and the statistics LINEST's fifth argument asks for.
struct Fit {
    m: Vec<f64>,
    b: f64,
    se: Vec<f64>,
    se_b: Option<f64>,
    r2: f64,
    sey: f64,
    f: f64,
    df: f64,
    ssreg: f64,
    ssresid: f64,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn fit(d: &Data, constant: bool) -> Fit {
    let n = d.y.len() as f64;
    let centre = |v: &[f64]| if constant { mean(v) } else { 0.0 };
    let (my, mx): (f64, Vec<f64>) = (centre(&d.y), d.xs.iter().map(|x| centre(x)).collect());
    let yc: Vec<f64> = d.y.iter().map(|v| v - my).collect();
    let cols: Vec<Vec<f64>> = d.xs.iter().zip(&mx).map(|(x, m)| x.iter().map(|v| v - m).collect()).collect();
    // Modified Gram–Schmidt, twice, over the columns in order.
    let (mut q, mut r, mut kept): (Vec<Vec<f64>>, Vec<Vec<f64>>, Vec<usize>) = (vec![], vec![], vec![]);
    for (j, col) in cols.iter().enumerate() {
        let (mut v, mut rj) = (col.clone(), vec![0.0; q.len()]);
        for _ in 0..2 {
            for (i, qi) in q.iter().enumerate() {
                let t = dot(qi, &v);
                rj[i] += t;
                v.iter_mut().zip(qi).for_each(|(x, y)| *x -= t * y);
            }
        }
        let (norm, norm0) = (dot(&v, &v).sqrt(), dot(col, col).sqrt());
        if norm > 1e-10 * norm0 && norm > 0.0 {
            rj.push(norm);
            v.iter_mut().for_each(|x| *x /= norm);
            q.push(v);
            r.push(rj);
            kept.push(j);
        }
    }
    // r[j] is column j of R (kept columns): solve R β = Qᵀ y.
    let p = kept.len();
    let z: Vec<f64> = q.iter().map(|qi| dot(qi, &yc)).collect();
    let mut beta = vec![0.0; p];
    for i in (0..p).rev() {
        let s: f64 = (i + 1..p).map(|j| r[j][i] * beta[j]).sum();
        beta[i] = (z[i] - s) / r[i][i];
    }
    // R⁻¹, column by column (upper triangular).
    let mut rinv = vec![vec![0.0; p]; p];
    for j in 0..p {
        rinv[j][j] = 1.0 / r[j][j];
        for i in (0..j).rev() {
            let s: f64 = (i + 1..=j).map(|l| r[l][i] * rinv[j][l]).sum();
            rinv[j][i] = -s / r[i][i];
        }
    }
    let ssresid: f64 = (0..yc.len())
        .map(|i| yc[i] - kept.iter().zip(&beta).map(|(&j, b)| b * cols[j][i]).sum::<f64>())
        .map(|e| e * e)
        .sum();
    let sstotal = if constant { dot(&yc, &yc) } else { dot(&d.y, &d.y) };
    let ssreg = sstotal - ssresid;
    let df = n - p as f64 - f64::from(u8::from(constant));
    let sey = (ssresid / df).sqrt();
    let (mut m, mut se) = (vec![0.0; d.xs.len()], vec![0.0; d.xs.len()]);
    for (i, &j) in kept.iter().enumerate() {
        m[j] = beta[i];
        // Row i of R⁻¹ (entries i..p) gives ((XᵀX)⁻¹)ᵢᵢ.
        se[j] = sey * (i..p).map(|l| rinv[l][i] * rinv[l][i]).sum::<f64>().sqrt();
    }
    let b = my - kept.iter().zip(&beta).map(|(&j, b)| b * mx[j]).sum::<f64>();
    let se_b = constant.then(|| {
        // ‖R⁻ᵀ x̄‖² over the kept columns.
        let w: f64 = (0..p).map(|l| (0..=l).map(|i| rinv[l][i] * mx[kept[i]]).sum::<f64>().powi(2)).sum();
        sey * (1.0 / n + w).sqrt()
    });
    Fit { m, b, se, se_b, r2: ssreg / sstotal, sey, f: ssreg / p as f64 / (ssresid / df), df, ssreg, ssresid }
}

/// Whether argument `i` (a flag) is true; `default` when omitted.
fn flag(ev: &mut Eval, a: &[BExpr], i: usize, default: bool) -> Result<bool, ErrorKind> {
    args::given(a, i).map_or(Ok(default), |e| args::scalar(ev, e).to_bool())
}

/// `LINEST(known_y, [known_x], [const], [stats])` and LOGEST: the
/// coefficients m_k … m_1 and b in a row; with `stats`, four more rows:
/// their standard errors, r² and the standard error of y, F and the
/// degrees of freedom, the regression and residual sums of squares
/// (#N/A filling the rest). LOGEST gives e^m and e^b.
pub fn linest(ev: &mut Eval, a: &[BExpr], log: bool) -> Value {
    let read = |ev: &mut Eval| -> Result<(Data, bool, bool), ErrorKind> {
        let d = Data::read(ev, a, log)?;
        Ok((d, flag(ev, a, 2, true)?, flag(ev, a, 3, false)?))
    };
    let (d, constant, stats) = match read(ev) {
        Ok(r) => r,
        Err(e) => return Value::Error(e),
    };
    let f = fit(&d, constant);
    let k = d.xs.len();
    let out = |x: f64| Value::num(if log { x.exp() } else { x });
    let na = Value::Error(ErrorKind::NA);
    let mut cells: Vec<Value> = f.m.iter().rev().map(|&m| out(m)).chain([out(f.b)]).collect();
    if stats {
        cells.extend(f.se.iter().rev().map(|&s| Value::num(s)));
        cells.push(f.se_b.map_or(na.clone(), Value::num));
        for pair in [(f.r2, f.sey), (f.f, f.df), (f.ssreg, f.ssresid)] {
            cells.extend([Value::num(pair.0), Value::num(pair.1)]);
            cells.extend(std::iter::repeat_n(na.clone(), k - 1));
        }
    }
    let rows = if stats { 5 } else { 1 };
    collect_array(rows, k + 1, cells.into_iter())
}

/// `TREND(known_y, [known_x], [new_x], [const])` and GROWTH: the fitted
/// line (e^ of it) at `new_x` (known_x by default): in new_x's shape for
/// one variable; else one value per row of new_x (per column when y is a
/// row), which must have a value per variable (#REF! otherwise).
pub fn trend(ev: &mut Eval, a: &[BExpr], log: bool) -> Value {
    trend_of(ev, a, log).unwrap_or_else(Value::Error)
}

fn trend_of(ev: &mut Eval, a: &[BExpr], log: bool) -> Result<Value, ErrorKind> {
    let d = Data::read(ev, a, log)?;
    let new = match args::given(a, 2) {
        Some(e) => block(ev, e)?,
        None => d.x_shape.clone(),
    };
    let constant = flag(ev, a, 3, true)?;
    let f = fit(&d, constant);
    let at = |xs: &mut dyn Iterator<Item = f64>| {
        let y = f.b + f.m.iter().zip(xs).map(|(m, x)| m * x).sum::<f64>();
        Value::num(if log { y.exp() } else { y })
    };
    let (rows, cols, xv) = new;
    let k = d.xs.len();
    Ok(if k == 1 {
        collect_array(rows, cols, xv.iter().map(|&x| at(&mut std::iter::once(x))))
    } else if !d.row && cols == k {
        collect_array(rows, 1, xv.chunks(k).map(|r| at(&mut r.iter().copied())))
    } else if d.row && rows == k {
        collect_array(1, cols, (0..cols).map(|j| at(&mut (0..k).map(|i| xv[i * cols + j]))))
    } else {
        return Err(ErrorKind::Ref);
    })
}
