//! Depreciation of an asset bought for `cost`, worth `salvage` at the end
//! of its `life`: straight line (SLN), sum of years' digits (SYD), fixed
//! declining balance (DB: the rate rounded to three decimals, a first year
//! of `month` months), double (or `factor`) declining balance (DDB), and
//! VDB, declining balance over any span of periods (fractional ends taken
//! pro rata), switching to straight line when that gives more unless told
//! not to. The algorithms are the ones Excel's documented examples agree
//! with (LibreOffice's, which reproduce them); so are the argument checks
//! where Microsoft documents none. Loops run once per period: more periods
//! than the work budget ([`MAX_WORK`]) is #NUM!.

use super::finite;
use crate::value::{ErrorKind, MAX_WORK};

/// SLN(cost, salvage, life): the depreciation of each period.
pub fn sln(v: &[f64]) -> Result<f64, ErrorKind> {
    let [cost, salvage, life] = super::nums(v);
    if life == 0.0 {
        return Err(ErrorKind::Div0);
    }
    finite((cost - salvage) / life)
}

/// SYD(cost, salvage, life, per): `per` must be within 1 to `life`.
pub fn syd(v: &[f64]) -> Result<f64, ErrorKind> {
    let [cost, salvage, life, per] = super::nums(v);
    if life <= 0.0 || per <= 0.0 || per > life {
        return Err(ErrorKind::Num);
    }
    finite((cost - salvage) * (life - per + 1.0) * 2.0 / (life * (life + 1.0)))
}

/// DB(cost, salvage, life, period, [month]): `month` (truncated) 1 to 12,
/// `period` at most one past `life`, `cost` above 0, `salvage` within 0
/// to `cost`.
pub fn db(v: &[f64]) -> Result<f64, ErrorKind> {
    let [cost, salvage, life, period, month] = super::nums(v);
    let month = month.trunc();
    let valid = (1.0..=12.0).contains(&month)
        && salvage >= 0.0
        && salvage <= cost
        && cost > 0.0
        && life > 0.0
        && period > 0.0
        && period <= life + 1.0;
    if !valid || life.min(period) > MAX_WORK as f64 {
        return Err(ErrorKind::Num);
    }
    let rate = ((1.0 - (salvage / cost).powf(1.0 / life)) * 1000.0 + 0.5).floor() / 1000.0;
    let first = cost * rate * month / 12.0;
    if period.floor() == 1.0 {
        return finite(first);
    }
    let (mut total, mut this) = (first, 0.0);
    for _ in 2..=life.min(period).floor() as u64 {
        this = (cost - total) * rate;
        total += this;
    }
    if period > life {
        this = (cost - total) * rate * (12.0 - month) / 12.0;
    }
    finite(this)
}

/// DDB(cost, salvage, life, period, [factor]): `period` within 1 to `life`,
/// `cost` and `salvage` not below 0, `salvage` at most `cost`, `factor`
/// above 0.
pub fn ddb(v: &[f64]) -> Result<f64, ErrorKind> {
    let [cost, salvage, life, period, factor] = super::nums(v);
    if cost < 0.0 || salvage < 0.0 || factor <= 0.0 || salvage > cost || period < 1.0 || period > life {
        return Err(ErrorKind::Num);
    }
    finite(declining(cost, salvage, life, period, factor))
}

/// The declining-balance depreciation of `period`, never taking the value
/// below `salvage`.
fn declining(cost: f64, salvage: f64, life: f64, period: f64, factor: f64) -> f64 {
    let rate = factor / life;
    let (rate, before) = if rate >= 1.0 {
        (1.0, if period == 1.0 { cost } else { 0.0 })
    } else {
        (rate, cost * (1.0 - rate).powf(period - 1.0))
    };
    let after = cost * (1.0 - rate).powf(period);
    (before - after.max(salvage)).max(0.0)
}

/// VDB(cost, salvage, life, start, end, [factor], [no_switch]): the
/// depreciation from the end of period `start` to the end of `end`; `start`
/// not below 0, `end` within `start` to `life`, `cost` not below 0,
/// `salvage` at most `cost`, `factor` above 0.
pub fn vdb(v: &[f64]) -> Result<f64, ErrorKind> {
    let [cost, salvage, life, start, end, factor, no_switch] = super::nums(v);
    if start < 0.0 || end < start || end > life || cost < 0.0 || salvage > cost || factor <= 0.0 {
        return Err(ErrorKind::Num);
    }
    let (first, last) = (start.floor(), end.ceil());
    if last > MAX_WORK as f64 / 4.0 {
        return Err(ErrorKind::Num);
    }
    if no_switch != 0.0 {
        let mut sum = 0.0;
        for i in first as u64 + 1..=last as u64 {
            let term = declining(cost, salvage, life, i as f64, factor);
            sum += if i == first as u64 + 1 {
                term * (end.min(first + 1.0) - start)
            } else if i == last as u64 {
                term * (end + 1.0 - last)
            } else {
                term
            };
        }
        return finite(sum);
    }
    let span = |cost: f64, life1: f64, periods: f64| switching(cost, salvage, life, life1, periods, factor);
    // A part period at either end: the whole period less the part outside.
    let mut outside = 0.0;
    if start != first {
        let value = cost - span(cost, life, first);
        outside += (start - first) * span(value, life - first, 1.0);
    }
    if end != last {
        let value = cost - span(cost, life, last - 1.0);
        outside += (last - end) * span(value, life - (last - 1.0), 1.0);
    }
    let value = cost - span(cost, life, first);
    finite(span(value, life - first, last - first) - outside)
}

/// The declining-balance depreciation of the first `periods` periods
/// (the last one pro rata when fractional) of an asset worth `cost`, with
/// `life1` periods left, switching to straight line once that is larger.
fn switching(cost: f64, salvage: f64, life: f64, life1: f64, periods: f64, factor: f64) -> f64 {
    let last = periods.ceil() as u64;
    let (mut sum, mut left, mut straight, mut switched) = (0.0, cost - salvage, 0.0, false);
    for i in 1..=last {
        let term = if switched {
            straight
        } else {
            let ddb = declining(cost, salvage, life, i as f64, factor);
            straight = left / (life1 - (i - 1) as f64);
            if straight > ddb {
                switched = true;
                straight
            } else {
                left -= ddb;
                ddb
            }
        };
        sum += if i == last { term * (periods + 1.0 - last as f64) } else { term };
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(r: Result<f64, ErrorKind>, want: f64) -> bool {
        r.is_ok_and(|x| (x - want).abs() < 0.005)
    }

    #[test]
    fn microsofts_examples() {
        // support.microsoft.com: DB, DDB and VDB pages.
        assert!(close(db(&[1e6, 1e5, 6.0, 7.0, 7.0]), 15_845.10));
        assert!(close(ddb(&[2400.0, 300.0, 10.0, 10.0, 2.0]), 22.12));
        assert!(close(vdb(&[2400.0, 300.0, 120.0, 6.0, 18.0, 2.0, 0.0]), 396.31));
        assert!(close(vdb(&[2400.0, 300.0, 10.0, 0.0, 0.875, 1.5, 0.0]), 315.00));
    }

    #[test]
    fn the_whole_life_depreciates_cost_less_salvage() {
        let all = vdb(&[2400.0, 300.0, 10.0, 0.0, 10.0, 2.0, 0.0]);
        assert!(all.is_ok_and(|x| (x - 2100.0).abs() < 1e-9), "{all:?}");
        assert_eq!(vdb(&[2400.0, 300.0, 1e12, 0.0, 1e12, 2.0, 0.0]), Err(ErrorKind::Num), "too many periods");
    }
}
