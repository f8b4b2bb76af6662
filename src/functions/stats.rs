//! Aggregates: SUM, COUNT, COUNTA, COUNTBLANK, MAX, MIN, MAXA, MINA,
//! AVERAGE, AVERAGEA, SUMPRODUCT; the order statistics (`order`: SMALL,
//! LARGE, MEDIAN, MODE, RANK, FREQUENCY; `percentile`: PERCENTILE,
//! QUARTILE, PERCENTRANK, RANK.AVG, MODE.MULT), spread and shape
//! (`spread`: the variances and standard deviations, AVEDEV, DEVSQ,
//! GEOMEAN, HARMEAN, TRIMMEAN, KURT, SKEW), two samples side by side
//! (`paired`: CORREL, the covariances, SLOPE, INTERCEPT, RSQ, STEYX,
//! FORECAST, PROB), least squares (`linest`: LINEST, LOGEST, TREND,
//! GROWTH) and the criteria functions (`conditional`: COUNTIF, SUMIF,
//! AVERAGEIF and the *IFS family, with the criteria in
//! [`super::criteria`]). The statistics read their data through
//! `sample`. The aggregates share one walk over
//! their arguments ([`args::for_each_operand`]) under a rule for what
//! counts: SUM's ([`args::number_operand`]: from references and arrays only
//! numbers, typed directly also booleans and numeric text) or, for the *A
//! functions, `value_operand` (text from references counts as 0, booleans
//! as 0 or 1). Errors propagate, except in COUNT and COUNTA, which count
//! them (COUNTA) or skip them (COUNT). SUM, AVERAGE and COUNT read
//! references by whole blocks where the grid's summaries allow (`reduce`).

mod conditional;
mod linest;
mod order;
mod paired;
mod percentile;
mod product;
mod reduce;
pub(crate) mod sample;
mod spread;

use super::Excel::{V2010, V2013, V2016, V2019};
use super::args::{self, Rule, Source};
use super::{Arg, FnSpec, Intrinsic, VARIADIC};
use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value};
use conditional::{averageif, averageifs, countif, countifs, maxifs, minifs, sumif, sumifs};
use order::{frequency, large, median, mode, rank, small};
use percentile::Range::{Exclusive, Inclusive};
use percentile::{mode_mult, percentile, percentrank, quartile, rank_avg};
use spread::spread;

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("SUM", 1, VARIADIC, sum),
    FnSpec::new("COUNT", 1, VARIADIC, count),
    FnSpec::new("COUNTA", 1, VARIADIC, counta),
    FnSpec::new("COUNTBLANK", 1, 1, countblank),
    FnSpec::new("MAX", 1, VARIADIC, max),
    FnSpec::new("MIN", 1, VARIADIC, min),
    FnSpec::new("MAXA", 1, VARIADIC, maxa),
    FnSpec::new("MINA", 1, VARIADIC, mina),
    FnSpec::new("AVERAGE", 1, VARIADIC, average),
    FnSpec::new("AVERAGEA", 1, VARIADIC, averagea),
    FnSpec::new("SUMPRODUCT", 1, VARIADIC, sumproduct).args(&[Arg::Array]),
    FnSpec::new("SMALL", 2, 2, small),
    FnSpec::new("LARGE", 2, 2, large),
    FnSpec::new("MEDIAN", 1, VARIADIC, median),
    FnSpec::new("MODE", 1, VARIADIC, mode),
    FnSpec::new("RANK", 2, 3, rank),
    FnSpec::new("FREQUENCY", 2, 2, frequency),
    FnSpec::new("COUNTIF", 2, 2, countif).intrinsic(Intrinsic::CountIf),
    FnSpec::new("COUNTIFS", 2, VARIADIC, countifs).intrinsic(Intrinsic::CountIfs),
    FnSpec::new("SUMIF", 2, 3, sumif).args(SIZED_LIKE_RANGE),
    FnSpec::new("AVERAGEIF", 2, 3, averageif).args(SIZED_LIKE_RANGE),
    FnSpec::new("SUMIFS", 3, VARIADIC, sumifs),
    FnSpec::new("AVERAGEIFS", 3, VARIADIC, averageifs),
    FnSpec::new("MAXIFS", 3, VARIADIC, maxifs).since(V2019).openformula("COM.MICROSOFT.MAXIFS"),
    FnSpec::new("MINIFS", 3, VARIADIC, minifs).since(V2019).openformula("COM.MICROSOFT.MINIFS"),
    FnSpec::new("VAR", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 1, false)),
    FnSpec::new("VAR.S", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 1, false))
        .since(V2010)
        .openformula("COM.MICROSOFT.VAR.S"),
    FnSpec::new("VARA", 1, VARIADIC, |ev, a| spread(ev, a, value_operand, 1, false)),
    FnSpec::new("VARP", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 0, false)),
    FnSpec::new("VAR.P", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 0, false))
        .since(V2010)
        .openformula("COM.MICROSOFT.VAR.P"),
    FnSpec::new("VARPA", 1, VARIADIC, |ev, a| spread(ev, a, value_operand, 0, false)),
    FnSpec::new("STDEV", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 1, true)),
    FnSpec::new("STDEV.S", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 1, true))
        .since(V2010)
        .openformula("COM.MICROSOFT.STDEV.S"),
    FnSpec::new("STDEVA", 1, VARIADIC, |ev, a| spread(ev, a, value_operand, 1, true)),
    FnSpec::new("STDEVP", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 0, true)),
    FnSpec::new("STDEV.P", 1, VARIADIC, |ev, a| spread(ev, a, args::number_operand, 0, true))
        .since(V2010)
        .openformula("COM.MICROSOFT.STDEV.P"),
    FnSpec::new("STDEVPA", 1, VARIADIC, |ev, a| spread(ev, a, value_operand, 0, true)),
    FnSpec::new("AVEDEV", 1, VARIADIC, spread::avedev),
    FnSpec::new("DEVSQ", 1, VARIADIC, spread::devsq),
    FnSpec::new("GEOMEAN", 1, VARIADIC, spread::geomean),
    FnSpec::new("HARMEAN", 1, VARIADIC, spread::harmean),
    FnSpec::new("TRIMMEAN", 2, 2, spread::trimmean),
    FnSpec::new("KURT", 1, VARIADIC, spread::kurt),
    FnSpec::new("SKEW", 1, VARIADIC, spread::skew),
    FnSpec::new("SKEW.P", 1, VARIADIC, spread::skew_p).since(V2013).openformula("SKEWP"),
    FnSpec::new("PERCENTILE", 2, 2, |ev, a| percentile(ev, a, Inclusive)),
    FnSpec::new("PERCENTILE.INC", 2, 2, |ev, a| percentile(ev, a, Inclusive))
        .since(V2010)
        .openformula("COM.MICROSOFT.PERCENTILE.INC"),
    FnSpec::new("PERCENTILE.EXC", 2, 2, |ev, a| percentile(ev, a, Exclusive))
        .since(V2010)
        .openformula("COM.MICROSOFT.PERCENTILE.EXC"),
    FnSpec::new("QUARTILE", 2, 2, |ev, a| quartile(ev, a, Inclusive)),
    FnSpec::new("QUARTILE.INC", 2, 2, |ev, a| quartile(ev, a, Inclusive))
        .since(V2010)
        .openformula("COM.MICROSOFT.QUARTILE.INC"),
    FnSpec::new("QUARTILE.EXC", 2, 2, |ev, a| quartile(ev, a, Exclusive))
        .since(V2010)
        .openformula("COM.MICROSOFT.QUARTILE.EXC"),
    FnSpec::new("PERCENTRANK", 2, 3, |ev, a| percentrank(ev, a, Inclusive)),
    FnSpec::new("PERCENTRANK.INC", 2, 3, |ev, a| percentrank(ev, a, Inclusive))
        .since(V2010)
        .openformula("COM.MICROSOFT.PERCENTRANK.INC"),
    FnSpec::new("PERCENTRANK.EXC", 2, 3, |ev, a| percentrank(ev, a, Exclusive))
        .since(V2010)
        .openformula("COM.MICROSOFT.PERCENTRANK.EXC"),
    FnSpec::new("RANK.EQ", 2, 3, rank).since(V2010).openformula("COM.MICROSOFT.RANK.EQ"),
    FnSpec::new("RANK.AVG", 2, 3, rank_avg).since(V2010).openformula("COM.MICROSOFT.RANK.AVG"),
    FnSpec::new("MODE.SNGL", 1, VARIADIC, mode).args(&[Arg::Array]).since(V2010).openformula("COM.MICROSOFT.MODE.SNGL"),
    FnSpec::new("MODE.MULT", 1, VARIADIC, mode_mult)
        .args(&[Arg::Array])
        .since(V2010)
        .openformula("COM.MICROSOFT.MODE.MULT"),
    FnSpec::new("CORREL", 2, 2, paired::correl).args(&[Arg::Array]),
    FnSpec::new("PEARSON", 2, 2, paired::correl).args(&[Arg::Array]),
    FnSpec::new("COVAR", 2, 2, |ev, a| paired::covariance(ev, a, 0.0)).args(&[Arg::Array]),
    FnSpec::new("COVARIANCE.P", 2, 2, |ev, a| paired::covariance(ev, a, 0.0))
        .args(&[Arg::Array])
        .since(V2010)
        .openformula("COM.MICROSOFT.COVARIANCE.P"),
    FnSpec::new("COVARIANCE.S", 2, 2, |ev, a| paired::covariance(ev, a, 1.0))
        .args(&[Arg::Array])
        .since(V2010)
        .openformula("COM.MICROSOFT.COVARIANCE.S"),
    FnSpec::new("SLOPE", 2, 2, paired::slope).args(&[Arg::Array]),
    FnSpec::new("INTERCEPT", 2, 2, paired::intercept).args(&[Arg::Array]),
    FnSpec::new("RSQ", 2, 2, paired::rsq).args(&[Arg::Array]),
    FnSpec::new("STEYX", 2, 2, paired::steyx).args(&[Arg::Array]),
    FnSpec::new("FORECAST", 3, 3, paired::forecast).args(FORECAST_ARGS),
    FnSpec::new("FORECAST.LINEAR", 3, 3, paired::forecast)
        .args(FORECAST_ARGS)
        .since(V2016)
        .openformula("COM.MICROSOFT.FORECAST.LINEAR"),
    FnSpec::new("PROB", 3, 4, paired::prob).args(&[Arg::Array, Arg::Array, Arg::Value]),
    FnSpec::new("LINEST", 1, 4, |ev, a| linest::linest(ev, a, false)).args(LEAST_SQUARES_ARGS),
    FnSpec::new("LOGEST", 1, 4, |ev, a| linest::linest(ev, a, true)).args(LEAST_SQUARES_ARGS),
    FnSpec::new("TREND", 1, 4, |ev, a| linest::trend(ev, a, false)).args(TREND_ARGS),
    FnSpec::new("GROWTH", 1, 4, |ev, a| linest::trend(ev, a, true)).args(TREND_ARGS),
];

/// FORECAST's contract: a value, then two arrays.
const FORECAST_ARGS: &[Arg] = &[Arg::Value, Arg::Array];

/// LINEST's and LOGEST's: the data as arrays, then two flags.
const LEAST_SQUARES_ARGS: &[Arg] = &[Arg::Array, Arg::Array, Arg::Value];

/// TREND's and GROWTH's: three arrays, then the flag.
const TREND_ARGS: &[Arg] = &[Arg::Array, Arg::Array, Arg::Array, Arg::Value];

/// SUMIF's and AVERAGEIF's contract: the value range is read at the size
/// of the criteria range.
const SIZED_LIKE_RANGE: &[Arg] = &[Arg::Value, Arg::Value, Arg::SizedLike(0)];

fn sum(ev: &mut Eval, a: &[BExpr]) -> Value {
    args::num_result(reduce::totals(ev, a).map(|t| t.sum))
}

fn max(ev: &mut Eval, a: &[BExpr]) -> Value {
    extreme(ev, a, args::number_operand, f64::max)
}

fn min(ev: &mut Eval, a: &[BExpr]) -> Value {
    extreme(ev, a, args::number_operand, f64::min)
}

fn maxa(ev: &mut Eval, a: &[BExpr]) -> Value {
    extreme(ev, a, value_operand, f64::max)
}

fn mina(ev: &mut Eval, a: &[BExpr]) -> Value {
    extreme(ev, a, value_operand, f64::min)
}

/// MAX, MIN, MAXA, MINA: the number `pick` prefers among all that `rule`
/// counts; 0 when there is none.
///
/// A product of arrays (`MAX(own*row, own*col)`, the Sudoku boards'
/// hidden singles; Ellis's `MAX(a*b*d)`) is folded element by element
/// without being built where its factors allow (`product`); otherwise the
/// product is made as `*` makes it and folded as any operand.
fn extreme(ev: &mut Eval, a: &[BExpr], rule: Rule, pick: impl Fn(f64, f64) -> f64 + Copy) -> Value {
    let step = |b: Option<f64>, n| Some(b.map_or(n, |b| pick(b, n)));
    let mut best = Ok(None);
    for e in a {
        let v = match (e, best) {
            (BExpr::Binary(BinaryOp::Mul, lr), Ok(b)) => match product::fold(ev, &lr[0], &lr[1], b, step) {
                Ok(folded) => {
                    best = Ok(folded);
                    continue;
                }
                Err(made) => made,
            },
            (e, _) => ev.eval(e),
        };
        best = args::fold_value(ev, v, rule, best, step);
    }
    args::num_result(best.map(|b| b.unwrap_or(0.0)))
}

fn average(ev: &mut Eval, a: &[BExpr]) -> Value {
    mean(reduce::totals(ev, a).map(|t| (t.sum, t.numbers)))
}

fn averagea(ev: &mut Eval, a: &[BExpr]) -> Value {
    mean(args::fold_operands(ev, a, value_operand, (0.0, 0u64), |(s, n), x| (s + x, n + 1)))
}

/// AVERAGE and AVERAGEA: the mean of a sum of so many numbers; #DIV/0!
/// when there are none.
fn mean(totals: Result<(f64, u64), ErrorKind>) -> Value {
    match totals {
        Err(e) => Value::Error(e),
        Ok((_, 0)) => Value::Error(ErrorKind::Div0),
        Ok((s, n)) => Value::num(s / n as f64),
    }
}

/// The rule of MAXA, MINA and AVERAGEA: like SUM's, but text read from a
/// reference or an array counts as 0 and booleans as 0 or 1; empty cells
/// are still skipped.
pub(super) fn value_operand(v: &Value, src: Source) -> Option<Result<f64, ErrorKind>> {
    match (v, src) {
        (Value::Text(_), Source::Range) => Some(Ok(0.0)),
        (Value::Bool(b), Source::Range) => Some(Ok(f64::from(u8::from(*b)))),
        _ => args::number_operand(v, src),
    }
}

/// COUNT: the operands SUM would add, errors and non-numeric text skipped.
fn count(ev: &mut Eval, a: &[BExpr]) -> Value {
    Value::Number(reduce::count(ev, a) as f64)
}

/// COUNTA: every non-empty value, empty text and errors included; a value
/// typed directly always counts.
fn counta(ev: &mut Eval, a: &[BExpr]) -> Value {
    let mut n = 0u64;
    args::for_each_operand(ev, a, |v, src| n += (src == Source::Direct || !v.is_empty()) as u64);
    Value::Number(n as f64)
}

/// COUNTBLANK: empty cells and cells holding empty text.
fn countblank(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (mut n, mut error) = (0u64, None);
    let outside = args::for_each_operand(ev, a, |v, src| match (src, v) {
        (Source::Direct, Value::Error(e)) => _ = error.get_or_insert(*e),
        (_, v) => n += v.is_blank() as u64,
    });
    error.map_or(Value::Number((n + outside) as f64), Value::Error)
}

/// SUMPRODUCT: arguments are read as arrays of one size (#VALUE!
/// otherwise); entries that are not numbers count as 0; errors propagate.
fn sumproduct(ev: &mut Eval, a: &[BExpr]) -> Value {
    let vals: Vec<Value> = a.iter().map(|e| array_arg(ev, e)).collect();
    if let Some(Value::Error(e)) = vals.iter().find(|v| v.is_error()) {
        return Value::Error(*e);
    }
    let (rows, cols, _) = elems(&vals[0]);
    if vals.iter().any(|v| (elems(v).0, elems(v).1) != (rows, cols)) {
        return Value::Error(ErrorKind::Value);
    }
    let lists: Vec<&[Value]> = vals.iter().map(|v| elems(v).2).collect();
    let mut total = 0.0;
    for i in 0..rows * cols {
        let mut product = 1.0;
        for list in &lists {
            match &list[i] {
                Value::Number(n) => product *= n,
                Value::Error(e) => return Value::Error(*e),
                _ => product = 0.0,
            }
        }
        total += product;
    }
    Value::num(total)
}

/// Evaluates an argument as an array formula, as Excel does for
/// SUMPRODUCT's: `(B1:B3>1)*C1:C3` is an array even in a plain cell.
pub(crate) fn array_arg(ev: &mut Eval, e: &BExpr) -> Value {
    let v = ev.eval_array(e);
    ev.array_value(v)
}

/// An argument of SUMPRODUCT as rows, columns and entries (a scalar is 1x1).
pub(crate) fn elems(v: &Value) -> (usize, usize, &[Value]) {
    match v {
        Value::Array(arr) => (arr.rows, arr.cols, arr.values()),
        v => (1, 1, std::slice::from_ref(v)),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::address::{Area, CellAddr};
    use crate::grid::Grid;
    use crate::value::Array;
    use Value::{Bool as B, Number as N};
    use std::sync::Arc;

    /// A grid whose column A holds `col_a` from A1 down.
    pub(in crate::functions) fn grid(col_a: &[Value]) -> Grid {
        let mut g = Grid::new(1);
        for (r, v) in col_a.iter().enumerate() {
            let c = CellAddr::new(0, r as u32, 0);
            assert!(g.reserve(c));
            g.set(c, v.clone());
        }
        g
    }
    fn a(rows: u32) -> BExpr {
        BExpr::Const(Value::Ref(Area::new(0, 0, 0, rows - 1, 0)))
    }
    fn k(v: Value) -> BExpr {
        BExpr::Const(v)
    }
    fn arr(rows: usize, cols: usize, data: Vec<Value>) -> Value {
        Value::Array(Arc::new(Array::new(rows, cols, data)))
    }
    fn call(g: &Grid, f: fn(&mut Eval, &[BExpr]) -> Value, args: &[BExpr]) -> Value {
        f(&mut Eval::new(g, CellAddr::new(0, 50, 5)), args)
    }
    fn t(s: &str) -> Value {
        Value::text(s)
    }
    const NA: Value = Value::Error(ErrorKind::NA);

    #[test]
    fn range_values_count_only_as_numbers() {
        let g = grid(&[N(1.0), t("3"), B(true), Value::Empty, N(-2.5), t("")]);
        assert_eq!(call(&g, sum, &[a(8)]), N(-1.5));
        assert_eq!(call(&g, count, &[a(8)]), N(2.0));
        assert_eq!(call(&g, max, &[a(8)]), N(1.0));
        assert_eq!(call(&g, min, &[a(8)]), N(-2.5));
        assert_eq!(call(&g, counta, &[a(8)]), N(5.0));
        assert_eq!(call(&g, countblank, &[a(8)]), N(4.0), "one empty, one \"\", two outside the grid");
        let inline = k(arr(1, 3, vec![t("3"), B(true), N(2.0)]));
        assert_eq!(call(&g, sum, std::slice::from_ref(&inline)), N(2.0));
    }

    #[test]
    fn direct_values_coerce() {
        let g = grid(&[]);
        assert_eq!(call(&g, sum, &[k(t("3")), k(B(true))]), N(4.0));
        assert_eq!(call(&g, sum, &[k(t("abc"))]), Value::Error(ErrorKind::Value));
        assert_eq!(call(&g, count, &[k(t("3")), k(B(true)), k(t("abc")), k(NA)]), N(2.0));
        assert_eq!(call(&g, max, &[k(t("7")), k(N(2.0))]), N(7.0));
        assert_eq!(call(&g, max, &[k(N(-3.0)), k(N(-2.0))]), N(-2.0));
        assert_eq!(call(&g, max, &[a(3)]), N(0.0), "MAX of nothing is 0");
        assert_eq!(call(&g, min, &[k(t("x"))]), Value::Error(ErrorKind::Value));
        assert_eq!(call(&g, counta, &[k(t("")), k(NA), k(B(false))]), N(3.0));
        assert_eq!(call(&g, countblank, &[a(5)]), N(5.0));
    }

    #[test]
    fn errors_propagate() {
        let g = grid(&[N(1.0), Value::Error(ErrorKind::Div0), NA]);
        for f in [sum, max, min] {
            assert_eq!(call(&g, f, &[a(3)]), Value::Error(ErrorKind::Div0));
            assert_eq!(call(&g, f, &[k(NA), a(3)]), NA);
        }
        assert_eq!(call(&g, count, &[a(3)]), N(1.0));
        assert_eq!(call(&g, counta, &[a(3)]), N(3.0));
        assert_eq!(call(&grid(&[]), sum, &[k(N(f64::MAX)), k(N(f64::MAX))]), Value::Error(ErrorKind::Num));
    }

    #[test]
    fn sumproduct_rules() {
        let g = grid(&[N(1.0), N(2.0), t("x")]);
        let col = |d: Vec<Value>| k(arr(d.len(), 1, d));
        assert_eq!(call(&g, sumproduct, &[a(3), col(vec![N(4.0), N(5.0), N(6.0)])]), N(14.0));
        assert_eq!(call(&g, sumproduct, &[a(2)]), N(3.0));
        assert_eq!(call(&g, sumproduct, &[a(3), col(vec![N(1.0), N(1.0)])]), Value::Error(ErrorKind::Value));
        assert_eq!(call(&g, sumproduct, &[col(vec![B(true), N(2.0)]), col(vec![N(3.0), N(3.0)])]), N(6.0));
        assert_eq!(call(&g, sumproduct, &[col(vec![NA, N(2.0)]), col(vec![t("a"), N(3.0)])]), NA);
        assert_eq!(call(&g, sumproduct, &[k(N(3.0)), k(N(4.0))]), N(12.0));
        let row = k(arr(1, 3, vec![N(1.0), N(2.0), N(3.0)]));
        assert_eq!(call(&g, sumproduct, &[a(3), row]), Value::Error(ErrorKind::Value));
    }

    #[test]
    fn countif_family_on_references() {
        let g = grid(&[N(1.0), t("2"), N(2.0), t("apple"), Value::Empty, N(3.0), NA]);
        assert_eq!(call(&g, countif, &[a(7), k(N(2.0))]), N(2.0));
        assert_eq!(call(&g, countif, &[a(9), k(t(""))]), N(3.0));
        assert_eq!(call(&g, countif, &[a(9), k(t("<>2"))]), N(8.0), "the text \"2\" counts as different");
        assert_eq!(call(&g, countif, &[a(7), k(t("A*"))]), N(1.0));
        assert_eq!(call(&g, countif, &[a(7), k(NA)]), N(1.0));
        let crit = k(arr(3, 1, vec![N(1.0), N(2.0), N(3.0)]));
        assert_eq!(call(&g, countif, &[a(7), crit.clone()]), arr(3, 1, vec![N(1.0), N(2.0), N(1.0)]));
        let crit2 = k(arr(1, 2, vec![t(">1"), t("*")]));
        assert_eq!(call(&g, countif, &[a(7), crit2]), arr(1, 2, vec![N(2.0), N(2.0)]));
        assert_eq!(call(&g, countif, &[k(NA), k(N(1.0))]), NA);
        assert_eq!(call(&g, countifs, &[a(7), k(t(">=1")), a(7), k(t("<3"))]), N(2.0));
        assert_eq!(call(&g, countifs, &[a(7), k(N(2.0)), a(6), k(N(2.0))]), Value::Error(ErrorKind::Value));
        // The text "2" is both `=2` and `<>2`, as in Excel.
        assert_eq!(call(&g, countifs, &[a(7), crit, a(7), k(t("<>2"))]), arr(3, 1, vec![N(1.0), N(1.0), N(1.0)]));
        assert_eq!(call(&g, sumif, &[a(6), k(t(">1"))]), N(5.0));
        assert_eq!(call(&g, sumif, &[a(7), k(t("<>apple"))]), NA);
        let sum_col = BExpr::Const(Value::Ref(Area::new(0, 0, 0, 0, 0)));
        assert_eq!(
            call(&g, sumif, &[a(7), k(N(2.0)), sum_col]),
            N(2.0),
            "A1 extends to A1:A7; its text \"2\" is not summed"
        );
    }
}
