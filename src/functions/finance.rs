//! Financial functions: the time value of money (`tvm`: PV, FV, PMT, IPMT,
//! PPMT, NPER, RATE, CUMIPMT, CUMPRINC, ISPMT, PDURATION, RRI), cash flows
//! (`cashflow`: NPV, XNPV, IRR, XIRR, MIRR, FVSCHEDULE), depreciation
//! (`depreciation`: SLN, SYD, DB, DDB, VDB) and conversions (`convert`:
//! EFFECT, NOMINAL, DOLLARDE, DOLLARFR). RATE, IRR and XIRR solve by
//! Newton's method from Excel's guess with Excel's iteration limits and
//! tolerances (`solve`); not converging is #NUM!.
//!
//! The scalar functions are lifted ([`args::lift_values`]) so they work
//! element by element on arrays; their arguments coerce as in arithmetic
//! and the first error among them is the result; an optional argument that
//! is absent or omitted takes its default ([`args::read_or_default`]).
//! Results that are not finite are #NUM!. Signs follow Excel's convention:
//! money paid out is negative, money received positive. Dates (XNPV,
//! XIRR) are serial numbers, truncated to whole days.

mod cashflow;
mod convert;
mod depreciation;
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
];

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
