//! Cash flows: NPV and IRR of payments at regular periods, XNPV and XIRR
//! of payments on given dates (years of 365 days from the first date),
//! MIRR, and FVSCHEDULE's growth through a list of rates.
//!
//! NPV, IRR and MIRR read their cash flows as SUM reads its arguments
//! ([`args::numbers`]: from references and arrays only numbers, in order;
//! an error is the result). XNPV and XIRR read `values` and `dates` as
//! arrays of one count (else #NUM!), every value a number and every date a
//! valid day (else #VALUE!), no date before the first (#NUM!). IRR and
//! XIRR need a positive and a negative flow (else #NUM!) and solve by
//! Newton's method (`solve`).

use super::solve;
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, MAX_WORK, Value};

/// The last day Excel's dates reach: 31 December 9999.
const LAST_DAY: f64 = 2_958_465.0;

/// NPV(rate, value1, ...): the flows discounted from the end of each period.
pub fn npv(ev: &mut Eval, a: &[BExpr]) -> Value {
    let rate = args::number(ev, &a[0]);
    let flows = args::numbers(ev, &a[1..]);
    args::num_result(rate.and_then(|r| flows.and_then(|f| present(r, &f))))
}

/// Σ flow_i / (1+rate)^i for i from 1; a rate of −1 is #DIV/0!.
fn present(rate: f64, flows: &[f64]) -> Result<f64, ErrorKind> {
    if rate == -1.0 {
        return Err(ErrorKind::Div0);
    }
    Ok(flows.iter().enumerate().map(|(i, f)| f / (1.0 + rate).powf(i as f64 + 1.0)).sum())
}

/// The optional guess of IRR and XIRR: 10% when absent or omitted.
fn guess(ev: &mut Eval, a: &[BExpr], i: usize) -> Result<f64, ErrorKind> {
    args::given(a, i).map_or(Ok(0.1), |e| args::number(ev, e))
}

/// Whether the flows hold both a positive and a negative one.
fn both_signs(flows: impl Iterator<Item = f64> + Clone) -> bool {
    flows.clone().any(|f| f > 0.0) && flows.into_iter().any(|f| f < 0.0)
}

/// IRR(values, [guess]): the rate at which NPV is 0; 20 Newton steps to
/// within 1e-7 from `guess` (10%).
pub fn irr(ev: &mut Eval, a: &[BExpr]) -> Value {
    let flows = match args::numbers(ev, &a[..1]) {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let start = match guess(ev, a, 1) {
        Ok(g) => g,
        Err(e) => return Value::Error(e),
    };
    if !both_signs(flows.iter().copied()) || flows.len() as u64 * 20 > MAX_WORK {
        return Value::Error(ErrorKind::Num);
    }
    args::num_result(solve::newton(start, 20, 1e-7, |r| {
        // Σ f_i·d^i and its slope Σ −i·f_i·d^(i+1), with d = 1/(1+r).
        let d = 1.0 / (1.0 + r);
        let (mut value, mut slope, mut power) = (0.0, 0.0, 1.0);
        for (i, f) in flows.iter().enumerate() {
            value += f * power;
            slope -= i as f64 * f * power * d;
            power *= d;
        }
        (value, slope)
    }))
}

/// MIRR(values, finance_rate, reinvest_rate): the negative flows
/// discounted at `finance_rate`, the positive ones grown at
/// `reinvest_rate` to the last period; without both, #DIV/0!.
pub fn mirr(ev: &mut Eval, a: &[BExpr]) -> Value {
    let flows = args::numbers(ev, &a[..1]);
    let finance = args::number(ev, &a[1]);
    let reinvest = args::number(ev, &a[2]);
    let (flows, finance, reinvest) = match (flows, finance, reinvest) {
        (Ok(f), Ok(x), Ok(y)) => (f, x, y),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return Value::Error(e),
    };
    let last = flows.len() as f64 - 1.0;
    let (mut grown, mut paid) = (0.0, 0.0);
    for (i, &f) in flows.iter().enumerate() {
        if f > 0.0 {
            grown += f * (1.0 + reinvest).powf(last - i as f64);
        } else {
            paid += f / (1.0 + finance).powf(i as f64);
        }
    }
    if grown == 0.0 || paid == 0.0 {
        return Value::Error(ErrorKind::Div0);
    }
    Value::num((-grown / paid).powf(1.0 / last) - 1.0)
}

/// FVSCHEDULE(principal, schedule): `principal` grown by each rate in turn;
/// empty cells are 0, any other value that is not a number #VALUE!.
pub fn fvschedule(ev: &mut Eval, a: &[BExpr]) -> Value {
    let principal = match args::number(ev, &a[0]) {
        Ok(p) => p,
        Err(e) => return Value::Error(e),
    };
    let rates = args::strict_number_operand;
    args::num_result(args::fold_operands(ev, &a[1..], rates, principal, |p, r| p * (1.0 + r)))
}

/// XNPV's and XIRR's flows: (amount, years after the first date).
fn dated(ev: &mut Eval, values: &BExpr, dates: &BExpr) -> Result<Vec<(f64, f64)>, ErrorKind> {
    let (values, dates) = (args::array(ev, values)?, args::array(ev, dates)?);
    let (values, dates) = (values.values(), dates.values());
    if values.len() != dates.len() {
        return Err(ErrorKind::Num);
    }
    let number = |v: &Value| match v {
        Value::Number(n) => Ok(*n),
        Value::Error(e) => Err(*e),
        _ => Err(ErrorKind::Value),
    };
    let days = dates
        .iter()
        .map(|d| {
            number(d)
                .map(f64::trunc)
                .and_then(|d| if (0.0..=LAST_DAY).contains(&d) { Ok(d) } else { Err(ErrorKind::Value) })
        })
        .collect::<Result<Vec<f64>, ErrorKind>>()?;
    let first = days.first().copied().unwrap_or(0.0);
    let flows = values.iter().map(number).collect::<Result<Vec<f64>, ErrorKind>>()?;
    if days.iter().any(|&d| d < first) {
        return Err(ErrorKind::Num);
    }
    Ok(flows.into_iter().zip(days).map(|(f, d)| (f, (d - first) / 365.0)).collect())
}

/// XNPV(rate, values, dates).
pub fn xnpv(ev: &mut Eval, a: &[BExpr]) -> Value {
    let rate = args::number(ev, &a[0]);
    let flows = dated(ev, &a[1], &a[2]);
    args::num_result(rate.and_then(|r| flows.map(|f| f.iter().map(|(x, t)| x / (1.0 + r).powf(*t)).sum())))
}

/// XIRR(values, dates, [guess]): the rate at which XNPV is 0; 100 Newton
/// steps to within 1e-8 from `guess` (10%).
pub fn xirr(ev: &mut Eval, a: &[BExpr]) -> Value {
    let flows = match dated(ev, &a[0], &a[1]) {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let start = match guess(ev, a, 2) {
        Ok(g) => g,
        Err(e) => return Value::Error(e),
    };
    if !both_signs(flows.iter().map(|f| f.0)) || flows.len() as u64 * 100 > MAX_WORK {
        return Value::Error(ErrorKind::Num);
    }
    args::num_result(solve::newton(start, 100, 1e-8, |r| {
        flows.iter().fold((0.0, 0.0), |(value, slope), &(f, t)| {
            let term = f * (1.0 + r).powf(-t);
            (value + term, slope - t * term / (1.0 + r))
        })
    }))
}
