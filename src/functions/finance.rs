//! Financial functions: the time value of money (`tvm`: PV, FV, PMT, IPMT,
//! PPMT, NPER, RATE, CUMIPMT, CUMPRINC, ISPMT, PDURATION, RRI), cash flows
//! (`cashflow`: NPV, XNPV, IRR, XIRR, MIRR, FVSCHEDULE), depreciation
//! (`depreciation`: SLN, SYD, DB, DDB, VDB) and conversions (`convert`:
//! EFFECT, NOMINAL, DOLLARDE, DOLLARFR). RATE, IRR and XIRR solve by
//! Newton's method from Excel's guess with Excel's iteration limits and
//! tolerances (`solve`); not converging is #NUM!. The securities
//! functions: coupon schedules and COUP* (`coupons`), bonds (`securities`:
//! PRICE, YIELD, DURATION, MDURATION, ACCRINT, ACCRINTM), discounted and
//! at-maturity securities and Treasury bills (`discount`), odd first and
//! last periods (`odd`), French depreciation (`amort`: AMORDEGRC,
//! AMORLINC); they count days by YEARFRAC's bases (`date::Basis`).
//!
//! The scalar functions are lifted ([`args::lift_values`]) so they work
//! element by element on arrays; their arguments coerce as in arithmetic
//! and the first error among them is the result; an optional argument that
//! is absent or omitted takes its default ([`args::read_or_default`]).
//! Results that are not finite are #NUM!. Signs follow Excel's convention:
//! money paid out is negative, money received positive. Dates (XNPV,
//! XIRR) are serial numbers, truncated to whole days.

mod amort;
mod cashflow;
mod convert;
mod coupons;
mod depreciation;
mod discount;
mod odd;
mod securities;
mod solve;
mod tvm;

use super::Excel::V2013;
use super::args;
use super::{Arg, FnSpec, VARIADIC};
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value};

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("PV", 3, 5, |ev, a| lifted(ev, a, &[None, None, None, Some(0.0), Some(0.0)], tvm::pv)),
    FnSpec::new("FV", 3, 5, |ev, a| lifted(ev, a, &[None, None, None, Some(0.0), Some(0.0)], tvm::fv)),
    FnSpec::new("PMT", 3, 5, |ev, a| lifted(ev, a, &[None, None, None, Some(0.0), Some(0.0)], tvm::pmt)),
    FnSpec::new("IPMT", 4, 6, |ev, a| lifted(ev, a, PER_ARGS, tvm::ipmt)),
    FnSpec::new("PPMT", 4, 6, |ev, a| lifted(ev, a, PER_ARGS, tvm::ppmt)),
    FnSpec::new("NPER", 3, 5, |ev, a| lifted(ev, a, &[None, None, None, Some(0.0), Some(0.0)], tvm::nper)),
    FnSpec::new("RATE", 3, 6, |ev, a| lifted(ev, a, RATE_ARGS, tvm::rate)),
    FnSpec::new("CUMIPMT", 6, 6, |ev, a| lifted(ev, a, &[], tvm::cumipmt)),
    FnSpec::new("CUMPRINC", 6, 6, |ev, a| lifted(ev, a, &[], tvm::cumprinc)),
    FnSpec::new("ISPMT", 4, 4, |ev, a| lifted(ev, a, &[], tvm::ispmt)),
    FnSpec::new("PDURATION", 3, 3, |ev, a| lifted(ev, a, &[], tvm::pduration)).since(V2013),
    FnSpec::new("RRI", 3, 3, |ev, a| lifted(ev, a, &[], tvm::rri)).since(V2013),
    FnSpec::new("NPV", 2, VARIADIC, cashflow::npv),
    FnSpec::new("XNPV", 3, 3, cashflow::xnpv).args(&[Arg::Value, Arg::Array]),
    FnSpec::new("IRR", 1, 2, cashflow::irr),
    FnSpec::new("XIRR", 2, 3, cashflow::xirr).args(&[Arg::Array, Arg::Array, Arg::Value]),
    FnSpec::new("MIRR", 3, 3, cashflow::mirr),
    FnSpec::new("FVSCHEDULE", 2, 2, cashflow::fvschedule),
    FnSpec::new("SLN", 3, 3, |ev, a| lifted(ev, a, &[], depreciation::sln)),
    FnSpec::new("SYD", 4, 4, |ev, a| lifted(ev, a, &[], depreciation::syd)),
    FnSpec::new("DB", 4, 5, |ev, a| lifted(ev, a, &[None, None, None, None, Some(12.0)], depreciation::db)),
    FnSpec::new("DDB", 4, 5, |ev, a| lifted(ev, a, &[None, None, None, None, Some(2.0)], depreciation::ddb)),
    FnSpec::new("VDB", 5, 7, |ev, a| lifted(ev, a, VDB_ARGS, depreciation::vdb)),
    FnSpec::new("EFFECT", 2, 2, |ev, a| lifted(ev, a, &[], convert::effect)),
    FnSpec::new("NOMINAL", 2, 2, |ev, a| lifted(ev, a, &[], convert::nominal)),
    FnSpec::new("DOLLARDE", 2, 2, |ev, a| lifted(ev, a, &[], convert::dollarde)),
    FnSpec::new("DOLLARFR", 2, 2, |ev, a| lifted(ev, a, &[], convert::dollarfr)),
    // Securities: dates are serials truncated to days, a basis omitted 0.
    FnSpec::new("ACCRINT", 6, 8, |ev, a| lifted(ev, a, ACCRINT_ARGS, securities::accrint)),
    FnSpec::new("ACCRINTM", 4, 5, |ev, a| lifted(ev, a, ACCRINTM_ARGS, securities::accrintm)),
    FnSpec::new("COUPDAYBS", 3, 4, |ev, a| lifted(ev, a, &[], coupons::coupdaybs)),
    FnSpec::new("COUPDAYS", 3, 4, |ev, a| lifted(ev, a, &[], coupons::coupdays)),
    FnSpec::new("COUPDAYSNC", 3, 4, |ev, a| lifted(ev, a, &[], coupons::coupdaysnc)),
    FnSpec::new("COUPNCD", 3, 4, |ev, a| lifted(ev, a, &[], coupons::coupncd)),
    FnSpec::new("COUPNUM", 3, 4, |ev, a| lifted(ev, a, &[], coupons::coupnum)),
    FnSpec::new("COUPPCD", 3, 4, |ev, a| lifted(ev, a, &[], coupons::couppcd)),
    FnSpec::new("PRICE", 6, 7, |ev, a| lifted(ev, a, &[], securities::price)),
    FnSpec::new("YIELD", 6, 7, |ev, a| lifted(ev, a, &[], securities::yield_)),
    FnSpec::new("DURATION", 5, 6, |ev, a| lifted(ev, a, &[], securities::duration)),
    FnSpec::new("MDURATION", 5, 6, |ev, a| lifted(ev, a, &[], securities::mduration)),
    FnSpec::new("PRICEDISC", 4, 5, |ev, a| lifted(ev, a, &[], discount::pricedisc)),
    FnSpec::new("YIELDDISC", 4, 5, |ev, a| lifted(ev, a, &[], discount::yielddisc)),
    FnSpec::new("DISC", 4, 5, |ev, a| lifted(ev, a, &[], discount::disc)),
    FnSpec::new("INTRATE", 4, 5, |ev, a| lifted(ev, a, &[], discount::intrate)),
    FnSpec::new("RECEIVED", 4, 5, |ev, a| lifted(ev, a, &[], discount::received)),
    FnSpec::new("PRICEMAT", 5, 6, |ev, a| lifted(ev, a, &[], discount::pricemat)),
    FnSpec::new("YIELDMAT", 5, 6, |ev, a| lifted(ev, a, &[], discount::yieldmat)),
    FnSpec::new("TBILLEQ", 3, 3, |ev, a| lifted(ev, a, &[], discount::tbilleq)),
    FnSpec::new("TBILLPRICE", 3, 3, |ev, a| lifted(ev, a, &[], discount::tbillprice)),
    FnSpec::new("TBILLYIELD", 3, 3, |ev, a| lifted(ev, a, &[], discount::tbillyield)),
    FnSpec::new("ODDFPRICE", 8, 9, |ev, a| lifted(ev, a, &[], odd::oddfprice)),
    FnSpec::new("ODDFYIELD", 8, 9, |ev, a| lifted(ev, a, &[], odd::oddfyield)),
    FnSpec::new("ODDLPRICE", 7, 8, |ev, a| lifted(ev, a, &[], odd::oddlprice)),
    FnSpec::new("ODDLYIELD", 7, 8, |ev, a| lifted(ev, a, &[], odd::oddlyield)),
    FnSpec::new("AMORDEGRC", 6, 7, |ev, a| lifted(ev, a, &[], amort::amordegrc)),
    FnSpec::new("AMORLINC", 6, 7, |ev, a| lifted(ev, a, &[], amort::amorlinc)),
];

/// ACCRINT's defaults: `par` 1,000, `calc_method` TRUE.
const ACCRINT_ARGS: &[Option<f64>] = &[None, None, None, None, Some(1000.0), None, Some(0.0), Some(1.0)];
/// ACCRINTM's defaults: `par` 1,000.
const ACCRINTM_ARGS: &[Option<f64>] = &[None, None, None, Some(1000.0)];

/// IPMT's and PPMT's defaults: `fv` and `type` 0.
const PER_ARGS: &[Option<f64>] = &[None, None, None, None, Some(0.0), Some(0.0)];
/// RATE's defaults: `fv` and `type` 0, `guess` 10%.
const RATE_ARGS: &[Option<f64>] = &[None, None, None, Some(0.0), Some(0.0), Some(0.1)];
/// VDB's defaults: `factor` 2, `no_switch` FALSE.
const VDB_ARGS: &[Option<f64>] = &[None, None, None, None, None, Some(2.0), Some(0.0)];

/// A scalar financial function of numbers, lifted over arrays
/// ([`args::lift_numbers`]); a result that is not finite is #NUM!.
fn lifted(ev: &mut Eval, a: &[BExpr], defaults: &[Option<f64>], f: fn(&[f64]) -> Result<f64, ErrorKind>) -> Value {
    args::lift_numbers(ev, a, defaults, |n| args::num_result(f(n)))
}

/// The first `N` numbers of a lifted call (0 past its end).
fn nums<const N: usize>(v: &[f64]) -> [f64; N] {
    std::array::from_fn(|i| v.get(i).copied().unwrap_or(0.0))
}

/// Excel's `type` argument: payments at the start of each period (1) for
/// any value but 0, at the end (0) otherwise.
fn due(kind: f64) -> f64 {
    if kind != 0.0 { 1.0 } else { 0.0 }
}

/// A result that must be finite: NaN and infinities are #NUM!.
fn finite(x: f64) -> Result<f64, ErrorKind> {
    if x.is_finite() { Ok(x) } else { Err(ErrorKind::Num) }
}
