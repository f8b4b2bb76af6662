//! The discrete distributions: binomial (BINOM.DIST, BINOM.DIST.RANGE,
//! BINOM.INV), negative binomial, hypergeometric and Poisson. Counts are
//! truncated, as Excel truncates them; probabilities of single outcomes
//! come from logarithms of the gamma function, cumulative ones from the
//! regularized incomplete beta and gamma functions (binomial, negative
//! binomial, Poisson) or from the terms summed outward from the outcome
//! (hypergeometric, and short binomial ranges), stopping where they no
//! longer add anything.

use super::special::{beta_reg, gamma_q, ln_gamma, spend};
use super::{R, check, flag, opt};

/// ln C(n, k), 0 ≤ k ≤ n.
fn ln_choose(n: f64, k: f64) -> f64 {
    ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0)
}

/// P(X = k) for the binomial distribution of `n` trials of probability `p`.
fn binom_pmf(k: f64, n: f64, p: f64) -> f64 {
    if p == 0.0 || p == 1.0 {
        let sure = if p == 0.0 { 0.0 } else { n };
        return if k == sure { 1.0 } else { 0.0 };
    }
    (ln_choose(n, k) + k * p.ln() + (n - k) * (-p).ln_1p()).exp()
}

/// P(X ≤ k), k integer.
fn binom_cdf(k: f64, n: f64, p: f64) -> f64 {
    if k < 0.0 {
        0.0
    } else if k >= n {
        1.0
    } else if p == 0.0 || p == 1.0 {
        if p == 0.0 { 1.0 } else { 0.0 }
    } else {
        beta_reg(n - k, k + 1.0, 1.0 - p, p)
    }
}

/// A probability: #NUM! outside [0, 1].
fn probability(p: f64) -> R {
    check((0.0..=1.0).contains(&p))?;
    Ok(p)
}

/// `BINOM.DIST(number_s, trials, probability_s, cumulative)`.
pub fn binom_dist(a: &[f64]) -> R {
    let (k, n, p) = (a[0].trunc(), a[1].trunc(), probability(a[2])?);
    check(k >= 0.0 && k <= n)?;
    Ok(if flag(a[3]) { binom_cdf(k, n, p) } else { binom_pmf(k, n, p) })
}

/// `BINOM.DIST.RANGE(trials, probability_s, number_s, [number_s2])`:
/// P(number_s ≤ X ≤ number_s2); P(X = number_s) without the last.
pub fn binom_dist_range(a: &[f64]) -> R {
    let (n, p, k) = (a[0].trunc(), probability(a[1])?, a[2].trunc());
    let k2 = opt(a, 3, k).trunc();
    check(k >= 0.0 && k <= k2 && k2 <= n)?;
    if k2 - k <= 64.0 {
        // A short range: its terms added, as exact as each term.
        let mut sum = 0.0;
        let mut j = k;
        while j <= k2 {
            sum += binom_pmf(j, n, p);
            j += 1.0;
        }
        return Ok(sum);
    }
    Ok(binom_cdf(k2, n, p) - binom_cdf(k - 1.0, n, p))
}

/// `BINOM.INV(trials, probability_s, alpha)` and CRITBINOM: the smallest
/// k with P(X ≤ k) ≥ alpha.
pub fn binom_inv(a: &[f64]) -> R {
    let (n, p, alpha) = (a[0].trunc(), probability(a[1])?, probability(a[2])?);
    check(n >= 0.0)?;
    let (mut lo, mut hi) = (0.0, n);
    while lo < hi {
        let mid = ((lo + hi) / 2.0).floor();
        if binom_cdf(mid, n, p) >= alpha { hi = mid } else { lo = mid + 1.0 }
    }
    Ok(lo)
}

/// `NEGBINOM.DIST(number_f, number_s, probability_s, cumulative)`: the
/// number of failures before the `number_s`-th success.
pub fn negbinom_dist(a: &[f64]) -> R {
    let (f, s, p) = (a[0].trunc(), a[1].trunc(), probability(a[2])?);
    check(f >= 0.0 && s >= 1.0)?;
    if flag(a[3]) {
        return Ok(if p == 1.0 { 1.0 } else { beta_reg(s, f + 1.0, p, 1.0 - p) });
    }
    negbinom_pmf(f, s, p)
}

/// `NEGBINOMDIST(number_f, number_s, probability_s)`: the probability.
pub fn negbinomdist(a: &[f64]) -> R {
    let (f, s, p) = (a[0].trunc(), a[1].trunc(), probability(a[2])?);
    check(f >= 0.0 && s >= 1.0)?;
    negbinom_pmf(f, s, p)
}

fn negbinom_pmf(f: f64, s: f64, p: f64) -> R {
    if p == 0.0 || p == 1.0 {
        return Ok(if p == 1.0 && f == 0.0 { 1.0 } else { 0.0 });
    }
    Ok((ln_choose(f + s - 1.0, f) + s * p.ln() + f * (-p).ln_1p()).exp())
}

/// `HYPGEOM.DIST(sample_s, number_sample, population_s, number_pop,
/// cumulative)`: `sample_s` successes in a sample of `number_sample`
/// drawn from `number_pop` holding `population_s` successes.
pub fn hypgeom_dist(a: &[f64]) -> R {
    let h = Hypergeometric::new(a)?;
    Ok(if flag(a[4]) { h.cdf() } else { h.pmf(h.k) })
}

/// `HYPGEOMDIST(sample_s, number_sample, population_s, number_pop)`.
pub fn hypgeomdist(a: &[f64]) -> R {
    let h = Hypergeometric::new(a)?;
    Ok(h.pmf(h.k))
}

struct Hypergeometric {
    k: f64,
    sample: f64,
    successes: f64,
    population: f64,
    lo: f64,
    hi: f64,
}

impl Hypergeometric {
    /// The arguments truncated and checked as Excel checks them.
    fn new(a: &[f64]) -> Result<Self, crate::value::ErrorKind> {
        let [k, sample, successes, population] = [a[0], a[1], a[2], a[3]].map(f64::trunc);
        check(population > 0.0 && sample > 0.0 && sample <= population)?;
        check(successes > 0.0 && successes <= population)?;
        let (lo, hi) = ((sample - population + successes).max(0.0), sample.min(successes));
        check(k >= lo && k <= hi)?;
        Ok(Hypergeometric { k, sample, successes, population, lo, hi })
    }

    fn pmf(&self, k: f64) -> f64 {
        let (n, s, pop) = (self.sample, self.successes, self.population);
        (ln_choose(s, k) + ln_choose(pop - s, n - k) - ln_choose(pop, n)).exp()
    }

    /// P(X[k+1]) / P(X[k]).
    fn ratio(&self, k: f64) -> f64 {
        let (n, s, pop) = (self.sample, self.successes, self.population);
        (s - k) * (n - k) / ((k + 1.0) * (pop - s - n + k + 1.0))
    }

    /// P(X ≤ k): the terms from k down, or 1 minus those above k, when
    /// k is past the mode; each sum stops once its terms add nothing.
    fn cdf(&self) -> f64 {
        let mode = ((self.sample + 1.0) * (self.successes + 1.0) / (self.population + 2.0)).floor();
        let below = self.k <= mode;
        let (start, end) = if below { (self.k, self.lo) } else { (self.k + 1.0, self.hi) };
        if !below && start > end {
            return 1.0;
        }
        let (mut term, mut sum, mut j, mut terms) = (self.pmf(start), 0.0, start, 0u32);
        loop {
            sum += term;
            if j == end || term <= sum * 1e-17 {
                break;
            }
            terms += 1;
            if terms % 4096 == 0 && !spend(4096) {
                return f64::NAN;
            }
            if below {
                term /= self.ratio(j - 1.0);
                j -= 1.0;
            } else {
                term *= self.ratio(j);
                j += 1.0;
            }
        }
        if below { sum.min(1.0) } else { (1.0 - sum).max(0.0) }
    }
}

/// `POISSON.DIST(x, mean, cumulative)` and POISSON.
pub fn poisson_dist(a: &[f64]) -> R {
    let (k, mean) = (a[0].trunc(), a[1]);
    check(k >= 0.0 && mean >= 0.0)?;
    if flag(a[2]) {
        // Past 40 standard deviations the upper tail is below 1e-300.
        if mean == 0.0 || k > mean + 40.0 * mean.sqrt() + 40.0 {
            return Ok(1.0);
        }
        return Ok(gamma_q(k + 1.0, mean));
    }
    if mean == 0.0 {
        return Ok(if k == 0.0 { 1.0 } else { 0.0 });
    }
    Ok((k * mean.ln() - mean - ln_gamma(k + 1.0)).exp())
}
