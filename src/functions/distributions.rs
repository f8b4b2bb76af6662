//! Probability distributions and the special functions under them: the
//! normal family (`normal`: NORM.*, LOGNORM.*, PHI, GAUSS, STANDARDIZE,
//! CONFIDENCE.*, FISHER), the other continuous distributions
//! (`continuous`: exponential, gamma, beta, Weibull, chi-squared, t, F),
//! the discrete ones (`discrete`: binomial, negative binomial,
//! hypergeometric, Poisson), the tests (`hypothesis`: T.TEST, F.TEST,
//! Z.TEST, CHISQ.TEST), and GAMMA, GAMMALN and the error functions ERF and
//! ERFC (Excel files these under Engineering; they are the same special
//! functions, `special`). Each Excel 2010 name and its legacy name share
//! one body.
//!
//! Every function but the tests takes numbers: each argument is read as a
//! number (TRUE is 1, numeric text its number, other text #VALUE!; the
//! first error among them is the result), then checked against Excel's
//! domain (#NUM! outside), and the function is lifted over array
//! arguments ([`args::lift`]). A `cumulative` argument is any number or
//! boolean, true when non-zero. The work of one call, arrays included, is
//! bounded (`special::Budget`).

mod continuous;
mod discrete;
mod hypothesis;
mod normal;
pub(crate) mod special;

use super::Excel::{V2010, V2013};
use super::args;
use super::{Arg, FnSpec};
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value};
use continuous as c;
use discrete as d;
use normal as n;

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("NORM.DIST", 4, 4, |ev, a| numeric(ev, a, n::norm_dist)).since(V2010).openformula(MS_NORM_DIST),
    FnSpec::new("NORMDIST", 4, 4, |ev, a| numeric(ev, a, n::norm_dist)),
    FnSpec::new("NORM.INV", 3, 3, |ev, a| numeric(ev, a, n::norm_inv)).since(V2010).openformula(MS_NORM_INV),
    FnSpec::new("NORMINV", 3, 3, |ev, a| numeric(ev, a, n::norm_inv)),
    FnSpec::new("NORM.S.DIST", 2, 2, |ev, a| numeric(ev, a, n::norm_s_dist)).since(V2010).openformula(MS_NORM_S_DIST),
    FnSpec::new("NORMSDIST", 1, 1, |ev, a| numeric(ev, a, n::normsdist)).openformula("LEGACY.NORMSDIST"),
    FnSpec::new("NORM.S.INV", 1, 1, |ev, a| numeric(ev, a, n::norm_s_inv)).since(V2010).openformula(MS_NORM_S_INV),
    FnSpec::new("NORMSINV", 1, 1, |ev, a| numeric(ev, a, n::norm_s_inv)).openformula("LEGACY.NORMSINV"),
    FnSpec::new("LOGNORM.DIST", 4, 4, |ev, a| numeric(ev, a, n::lognorm_dist))
        .since(V2010)
        .openformula(MS_LOGNORM_DIST),
    FnSpec::new("LOGNORMDIST", 3, 3, |ev, a| numeric(ev, a, n::lognormdist)),
    FnSpec::new("LOGNORM.INV", 3, 3, |ev, a| numeric(ev, a, n::lognorm_inv)).since(V2010).openformula(MS_LOGNORM_INV),
    FnSpec::new("LOGINV", 3, 3, |ev, a| numeric(ev, a, n::lognorm_inv)),
    FnSpec::new("PHI", 1, 1, |ev, a| numeric(ev, a, n::phi)).since(V2013),
    FnSpec::new("GAUSS", 1, 1, |ev, a| numeric(ev, a, n::gauss)).since(V2013),
    FnSpec::new("STANDARDIZE", 3, 3, |ev, a| numeric(ev, a, n::standardize)),
    FnSpec::new("FISHER", 1, 1, |ev, a| numeric(ev, a, n::fisher)),
    FnSpec::new("FISHERINV", 1, 1, |ev, a| numeric(ev, a, n::fisherinv)),
    FnSpec::new("CONFIDENCE", 3, 3, |ev, a| numeric(ev, a, n::confidence_norm)),
    FnSpec::new("CONFIDENCE.NORM", 3, 3, |ev, a| numeric(ev, a, n::confidence_norm))
        .since(V2010)
        .openformula(MS_CONF_NORM),
    FnSpec::new("CONFIDENCE.T", 3, 3, |ev, a| numeric(ev, a, n::confidence_t)).since(V2010).openformula(MS_CONF_T),
    FnSpec::new("BINOM.DIST", 4, 4, |ev, a| numeric(ev, a, d::binom_dist)).since(V2010).openformula(MS_BINOM_DIST),
    FnSpec::new("BINOMDIST", 4, 4, |ev, a| numeric(ev, a, d::binom_dist)),
    FnSpec::new("BINOM.DIST.RANGE", 3, 4, |ev, a| numeric(ev, a, d::binom_dist_range)).since(V2013),
    FnSpec::new("BINOM.INV", 3, 3, |ev, a| numeric(ev, a, d::binom_inv)).since(V2010).openformula(MS_BINOM_INV),
    FnSpec::new("CRITBINOM", 3, 3, |ev, a| numeric(ev, a, d::binom_inv)),
    FnSpec::new("NEGBINOM.DIST", 4, 4, |ev, a| numeric(ev, a, d::negbinom_dist)).since(V2010).openformula(MS_NEGBINOM),
    FnSpec::new("NEGBINOMDIST", 3, 3, |ev, a| numeric(ev, a, d::negbinomdist)),
    FnSpec::new("HYPGEOM.DIST", 5, 5, |ev, a| numeric(ev, a, d::hypgeom_dist)).since(V2010).openformula(MS_HYPGEOM),
    FnSpec::new("HYPGEOMDIST", 4, 4, |ev, a| numeric(ev, a, d::hypgeomdist)),
    FnSpec::new("POISSON.DIST", 3, 3, |ev, a| numeric(ev, a, d::poisson_dist)).since(V2010).openformula(MS_POISSON),
    FnSpec::new("POISSON", 3, 3, |ev, a| numeric(ev, a, d::poisson_dist)),
    FnSpec::new("EXPON.DIST", 3, 3, |ev, a| numeric(ev, a, c::expon_dist)).since(V2010).openformula(MS_EXPON),
    FnSpec::new("EXPONDIST", 3, 3, |ev, a| numeric(ev, a, c::expon_dist)),
    FnSpec::new("GAMMA.DIST", 4, 4, |ev, a| numeric(ev, a, c::gamma_dist)).since(V2010).openformula(MS_GAMMA_DIST),
    FnSpec::new("GAMMADIST", 4, 4, |ev, a| numeric(ev, a, c::gamma_dist)),
    FnSpec::new("GAMMA.INV", 3, 3, |ev, a| numeric(ev, a, c::gamma_inv)).since(V2010).openformula(MS_GAMMA_INV),
    FnSpec::new("GAMMAINV", 3, 3, |ev, a| numeric(ev, a, c::gamma_inv)),
    FnSpec::new("BETA.DIST", 4, 6, |ev, a| numeric(ev, a, c::beta_dist)).since(V2010).openformula(MS_BETA_DIST),
    FnSpec::new("BETADIST", 3, 5, |ev, a| numeric(ev, a, c::betadist)),
    FnSpec::new("BETA.INV", 3, 5, |ev, a| numeric(ev, a, c::beta_inv)).since(V2010).openformula(MS_BETA_INV),
    FnSpec::new("BETAINV", 3, 5, |ev, a| numeric(ev, a, c::beta_inv)),
    FnSpec::new("WEIBULL.DIST", 4, 4, |ev, a| numeric(ev, a, c::weibull_dist)).since(V2010).openformula(MS_WEIBULL),
    FnSpec::new("WEIBULL", 4, 4, |ev, a| numeric(ev, a, c::weibull_dist)),
    FnSpec::new("T.DIST", 3, 3, |ev, a| numeric(ev, a, c::t_dist)).since(V2010).openformula(MS_T_DIST),
    FnSpec::new("T.DIST.2T", 2, 2, |ev, a| numeric(ev, a, c::t_dist_2t)).since(V2010).openformula(MS_T_DIST_2T),
    FnSpec::new("T.DIST.RT", 2, 2, |ev, a| numeric(ev, a, c::t_dist_rt)).since(V2010).openformula(MS_T_DIST_RT),
    FnSpec::new("TDIST", 3, 3, |ev, a| numeric(ev, a, c::tdist)).openformula("LEGACY.TDIST"),
    FnSpec::new("T.INV", 2, 2, |ev, a| numeric(ev, a, c::t_inv)).since(V2010).openformula(MS_T_INV),
    FnSpec::new("T.INV.2T", 2, 2, |ev, a| numeric(ev, a, c::t_inv_2t)).since(V2010).openformula(MS_T_INV_2T),
    FnSpec::new("TINV", 2, 2, |ev, a| numeric(ev, a, c::t_inv_2t)),
    FnSpec::new("CHISQ.DIST", 3, 3, |ev, a| numeric(ev, a, c::chisq_dist)).since(V2010).openformula(MS_CHISQ_DIST),
    FnSpec::new("CHISQ.DIST.RT", 2, 2, |ev, a| numeric(ev, a, c::chisq_dist_rt)).since(V2010).openformula(MS_CHISQ_RT),
    FnSpec::new("CHIDIST", 2, 2, |ev, a| numeric(ev, a, c::chisq_dist_rt)).openformula("LEGACY.CHIDIST"),
    FnSpec::new("CHISQ.INV", 2, 2, |ev, a| numeric(ev, a, c::chisq_inv)).since(V2010).openformula(MS_CHISQ_INV),
    FnSpec::new("CHISQ.INV.RT", 2, 2, |ev, a| numeric(ev, a, c::chisq_inv_rt))
        .since(V2010)
        .openformula(MS_CHISQ_INV_RT),
    FnSpec::new("CHIINV", 2, 2, |ev, a| numeric(ev, a, c::chisq_inv_rt)).openformula("LEGACY.CHIINV"),
    FnSpec::new("F.DIST", 4, 4, |ev, a| numeric(ev, a, c::f_dist)).since(V2010).openformula("FDIST"),
    FnSpec::new("F.DIST.RT", 3, 3, |ev, a| numeric(ev, a, c::f_dist_rt)).since(V2010).openformula(MS_F_DIST_RT),
    FnSpec::new("FDIST", 3, 3, |ev, a| numeric(ev, a, c::f_dist_rt)).openformula("LEGACY.FDIST"),
    FnSpec::new("F.INV", 3, 3, |ev, a| numeric(ev, a, c::f_inv)).since(V2010).openformula("FINV"),
    FnSpec::new("F.INV.RT", 3, 3, |ev, a| numeric(ev, a, c::f_inv_rt)).since(V2010).openformula(MS_F_INV_RT),
    FnSpec::new("FINV", 3, 3, |ev, a| numeric(ev, a, c::f_inv_rt)).openformula("LEGACY.FINV"),
    FnSpec::new("T.TEST", 4, 4, hypothesis::t_test).args(TWO_ARRAYS).since(V2010).openformula(MS_T_TEST),
    FnSpec::new("TTEST", 4, 4, hypothesis::t_test).args(TWO_ARRAYS),
    FnSpec::new("F.TEST", 2, 2, hypothesis::f_test).args(TWO_ARRAYS).since(V2010).openformula(MS_F_TEST),
    FnSpec::new("FTEST", 2, 2, hypothesis::f_test).args(TWO_ARRAYS),
    FnSpec::new("Z.TEST", 2, 3, hypothesis::z_test).since(V2010).openformula(MS_Z_TEST),
    FnSpec::new("ZTEST", 2, 3, hypothesis::z_test),
    FnSpec::new("CHISQ.TEST", 2, 2, hypothesis::chisq_test).args(TWO_ARRAYS).since(V2010).openformula(MS_CHISQ_TEST),
    FnSpec::new("CHITEST", 2, 2, hypothesis::chisq_test).args(TWO_ARRAYS).openformula("LEGACY.CHITEST"),
    FnSpec::new("GAMMA", 1, 1, |ev, a| numeric(ev, a, gamma)).since(V2013),
    FnSpec::new("GAMMALN", 1, 1, |ev, a| numeric(ev, a, gammaln)),
    FnSpec::new("GAMMALN.PRECISE", 1, 1, |ev, a| numeric(ev, a, gammaln)).since(V2010).openformula(MS_GAMMALN),
    FnSpec::new("ERF", 1, 2, |ev, a| numeric(ev, a, erf)),
    FnSpec::new("ERF.PRECISE", 1, 1, |ev, a| numeric(ev, a, erf)).since(V2010).openformula(MS_ERF),
    FnSpec::new("ERFC", 1, 1, |ev, a| numeric(ev, a, |a| Ok(special::erfc(a[0])))),
    FnSpec::new("ERFC.PRECISE", 1, 1, |ev, a| numeric(ev, a, |a| Ok(special::erfc(a[0]))))
        .since(V2010)
        .openformula(MS_ERFC),
];

// LibreOffice's OpenFormula names of Excel 2010's functions.
const MS_NORM_DIST: &str = "COM.MICROSOFT.NORM.DIST";
const MS_NORM_INV: &str = "COM.MICROSOFT.NORM.INV";
const MS_NORM_S_DIST: &str = "COM.MICROSOFT.NORM.S.DIST";
const MS_NORM_S_INV: &str = "COM.MICROSOFT.NORM.S.INV";
const MS_LOGNORM_DIST: &str = "COM.MICROSOFT.LOGNORM.DIST";
const MS_LOGNORM_INV: &str = "COM.MICROSOFT.LOGNORM.INV";
const MS_CONF_NORM: &str = "COM.MICROSOFT.CONFIDENCE.NORM";
const MS_CONF_T: &str = "COM.MICROSOFT.CONFIDENCE.T";
const MS_BINOM_DIST: &str = "COM.MICROSOFT.BINOM.DIST";
const MS_BINOM_INV: &str = "COM.MICROSOFT.BINOM.INV";
const MS_NEGBINOM: &str = "COM.MICROSOFT.NEGBINOM.DIST";
const MS_HYPGEOM: &str = "COM.MICROSOFT.HYPGEOM.DIST";
const MS_POISSON: &str = "COM.MICROSOFT.POISSON.DIST";
const MS_EXPON: &str = "COM.MICROSOFT.EXPON.DIST";
const MS_GAMMA_DIST: &str = "COM.MICROSOFT.GAMMA.DIST";
const MS_GAMMA_INV: &str = "COM.MICROSOFT.GAMMA.INV";
const MS_BETA_DIST: &str = "COM.MICROSOFT.BETA.DIST";
const MS_BETA_INV: &str = "COM.MICROSOFT.BETA.INV";
const MS_WEIBULL: &str = "COM.MICROSOFT.WEIBULL.DIST";
const MS_T_DIST: &str = "COM.MICROSOFT.T.DIST";
const MS_T_DIST_2T: &str = "COM.MICROSOFT.T.DIST.2T";
const MS_T_DIST_RT: &str = "COM.MICROSOFT.T.DIST.RT";
const MS_T_INV: &str = "COM.MICROSOFT.T.INV";
const MS_T_INV_2T: &str = "COM.MICROSOFT.T.INV.2T";
const MS_CHISQ_DIST: &str = "COM.MICROSOFT.CHISQ.DIST";
const MS_CHISQ_RT: &str = "COM.MICROSOFT.CHISQ.DIST.RT";
const MS_CHISQ_INV: &str = "COM.MICROSOFT.CHISQ.INV";
const MS_CHISQ_INV_RT: &str = "COM.MICROSOFT.CHISQ.INV.RT";
const MS_F_DIST_RT: &str = "COM.MICROSOFT.F.DIST.RT";
const MS_F_INV_RT: &str = "COM.MICROSOFT.F.INV.RT";
const MS_T_TEST: &str = "COM.MICROSOFT.T.TEST";
const MS_F_TEST: &str = "COM.MICROSOFT.F.TEST";
const MS_Z_TEST: &str = "COM.MICROSOFT.Z.TEST";
const MS_CHISQ_TEST: &str = "COM.MICROSOFT.CHISQ.TEST";
const MS_GAMMALN: &str = "COM.MICROSOFT.GAMMALN.PRECISE";
const MS_ERF: &str = "COM.MICROSOFT.ERF.PRECISE";
const MS_ERFC: &str = "COM.MICROSOFT.ERFC.PRECISE";

/// The tests' contract: two data arrays evaluated as arrays, as
/// SUMPRODUCT's, then scalars.
const TWO_ARRAYS: &[Arg] = &[Arg::Array, Arg::Array, Arg::Value];

/// What a distribution function computes: a number or an error.
pub(super) type R = Result<f64, ErrorKind>;

/// #NUM! unless `ok`.
pub(super) fn check(ok: bool) -> Result<(), ErrorKind> {
    if ok { Ok(()) } else { Err(ErrorKind::Num) }
}

/// A `cumulative` flag: true when non-zero.
pub(super) fn flag(x: f64) -> bool {
    x != 0.0
}

/// Optional argument `i`, or `default` when absent.
pub(super) fn opt(a: &[f64], i: usize, default: f64) -> f64 {
    a.get(i).copied().unwrap_or(default)
}

/// A function of numbers: each argument read as a number, `f` applied,
/// lifted over arrays, within one work budget.
fn numeric(ev: &mut Eval, a: &[BExpr], f: fn(&[f64]) -> R) -> Value {
    let _budget = special::Budget::start();
    args::lift(ev, a, |vals| {
        let mut xs = [0.0; 6];
        for (x, v) in xs.iter_mut().zip(vals) {
            match v.to_number() {
                Ok(n) => *x = n,
                Err(e) => return Value::Error(e),
            }
        }
        args::num_result(f(&xs[..vals.len().min(6)]))
    })
}

/// `GAMMA(x)`: x = 0 and the negative integers are #NUM!.
fn gamma(a: &[f64]) -> R {
    Ok(special::gamma(a[0]))
}

/// `GAMMALN(x)` and GAMMALN.PRECISE: x > 0.
fn gammaln(a: &[f64]) -> R {
    check(a[0] > 0.0)?;
    Ok(special::ln_gamma(a[0]))
}

/// `ERF(lower, [upper])`: erf(lower), or erf(upper) − erf(lower).
fn erf(a: &[f64]) -> R {
    Ok(match a {
        [x] => special::erf(*x),
        [lo, hi, ..] => special::erf(*hi) - special::erf(*lo),
        [] => return Err(ErrorKind::Value),
    })
}
