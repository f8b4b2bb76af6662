//! Working days: NETWORKDAYS and WORKDAY, and their `.INTL` forms that
//! take the weekend as a code or a mask.
//!
//! The weekend is a code, 1 (Saturday and Sunday, the default) to 7
//! (Friday and Saturday: two days, starting a day earlier each time) or 11
//! (Sunday alone) to 17 (Saturday alone), or seven `0`/`1` characters for
//! Monday to Sunday, `1` for a day off (`"0000011"` is the default). Another
//! code is #NUM!; another text or a boolean is #VALUE!. `"1111111"` (no
//! working day) counts 0 days in NETWORKDAYS.INTL and is #VALUE! in
//! WORKDAY.INTL, as Microsoft documents. Holidays are dates given as a reference, an array or one
//! value: numbers (truncated to their day), text that reads as a date;
//! empty cells are skipped; an error among them is the result, other
//! values #VALUE!, a number outside the date system #NUM!.

use super::day_arg;
use crate::eval::{BExpr, Eval};
use crate::functions::args::{for_each_operand, given, scalar};
use crate::value::date::{self, Day};
use crate::value::{ErrorKind, Value};

/// Days off by weekday, 0 = Sunday to 6 = Saturday.
type Weekend = [bool; 7];

/// Saturday and Sunday.
const SATURDAY_SUNDAY: Weekend = [true, false, false, false, false, false, true];

pub(crate) fn networkdays(ev: &mut Eval, args: &[BExpr]) -> Value {
    count_days(ev, args, None, 2).unwrap_or_else(Value::Error)
}

pub(crate) fn networkdays_intl(ev: &mut Eval, args: &[BExpr]) -> Value {
    count_days(ev, args, Some(2), 3).unwrap_or_else(Value::Error)
}

pub(crate) fn workday(ev: &mut Eval, args: &[BExpr]) -> Value {
    add_days(ev, args, None, 2).unwrap_or_else(Value::Error)
}

pub(crate) fn workday_intl(ev: &mut Eval, args: &[BExpr]) -> Value {
    add_days(ev, args, Some(2), 3).unwrap_or_else(Value::Error)
}

/// NETWORKDAYS(start, end, [holidays]): the working days from start to end,
/// both included (negative when the end comes first).
fn count_days(
    ev: &mut Eval,
    args: &[BExpr],
    weekend_at: Option<usize>,
    holidays_at: usize,
) -> Result<Value, ErrorKind> {
    let start = day_arg(&scalar(ev, &args[0]))?;
    let end = day_arg(&scalar(ev, &args[1]))?;
    let (off, holidays) = calendar(ev, args, weekend_at, holidays_at)?;
    let n = if start <= end { working(start, end, &off, &holidays) } else { -working(end, start, &off, &holidays) };
    Ok(Value::Number(n as f64))
}

/// WORKDAY(start, days, [holidays]): the date `days` working days (truncated)
/// after start, or before it when negative; start itself when 0. A weekend
/// of all seven days is #VALUE!; a date past the system's, #NUM!.
fn add_days(ev: &mut Eval, args: &[BExpr], weekend_at: Option<usize>, holidays_at: usize) -> Result<Value, ErrorKind> {
    let start = day_arg(&scalar(ev, &args[0]))?;
    let days = scalar(ev, &args[1]).to_number()?.trunc();
    let (off, holidays) = calendar(ev, args, weekend_at, holidays_at)?;
    if days.abs() > date::LAST_DAY as f64 {
        return Err(ErrorKind::Num);
    }
    let system = date::system();
    let day = advance(start, days as i64, &off, &holidays, system.offset())?;
    system.serial(day).map(Value::Number)
}

/// The day `days` working days from `start` (back when negative), none
/// before `first` or after 9999-12-31 (#NUM!); #VALUE! when the weekend
/// is every day.
fn advance(start: Day, days: i64, off: &Weekend, holidays: &[Day], first: Day) -> Result<Day, ErrorKind> {
    let per_week = off.iter().filter(|&&o| !o).count() as i64;
    if per_week == 0 {
        return Err(ErrorKind::Value);
    }
    let (step, mut left) = (days.signum(), days.abs());
    let mut day = start;
    while left > 0 {
        // Whole weeks first: they hold fewer working days than are left,
        // so the answer lies beyond them; then day by day.
        let weeks = (left - 1) / per_week;
        let next = day + step * if weeks > 0 { 7 * weeks } else { 1 };
        if !(first..=date::LAST_DAY).contains(&next) {
            return Err(ErrorKind::Num);
        }
        let (lo, hi) = if step > 0 { (day + 1, next) } else { (next, day - 1) };
        left -= working(lo, hi, off, holidays);
        day = next;
    }
    Ok(day)
}

/// The weekend and the sorted holidays of a call.
fn calendar(
    ev: &mut Eval,
    args: &[BExpr],
    weekend_at: Option<usize>,
    holidays_at: usize,
) -> Result<(Weekend, Vec<Day>), ErrorKind> {
    let off = match weekend_at.and_then(|i| given(args, i)) {
        Some(e) => weekend(&scalar(ev, e))?,
        None => SATURDAY_SUNDAY,
    };
    let holidays = match given(args, holidays_at) {
        Some(e) => holidays(ev, e)?,
        None => Vec::new(),
    };
    Ok((off, holidays))
}

/// A weekend argument (see the module's text).
fn weekend(v: &Value) -> Result<Weekend, ErrorKind> {
    let off = match v {
        Value::Empty => SATURDAY_SUNDAY,
        Value::Number(n) => {
            let mut off = [false; 7];
            match n.trunc() as i64 {
                k @ 1..=7 => {
                    off[((k + 5) % 7) as usize] = true;
                    off[((k + 6) % 7) as usize] = true;
                }
                k @ 11..=17 => off[(k - 11) as usize] = true,
                _ => return Err(ErrorKind::Num),
            }
            off
        }
        Value::Text(s) if s.len() == 7 && s.bytes().all(|b| b == b'0' || b == b'1') => {
            let mut off = [false; 7];
            for (i, b) in s.bytes().enumerate() {
                off[(i + 1) % 7] = b == b'1';
            }
            off
        }
        Value::Error(e) => return Err(*e),
        _ => return Err(ErrorKind::Value),
    };
    Ok(off)
}

/// The holidays of an argument, sorted, each once.
fn holidays(ev: &mut Eval, e: &BExpr) -> Result<Vec<Day>, ErrorKind> {
    let mut days = Vec::new();
    let mut error = None;
    for_each_operand(ev, std::slice::from_ref(e), |v, _| {
        let day = match v {
            Value::Empty => return,
            Value::Number(_) | Value::Text(_) => day_arg(v),
            Value::Error(e) => Err(*e),
            _ => Err(ErrorKind::Value),
        };
        match day {
            Ok(d) => days.push(d),
            Err(e) => _ = error.get_or_insert(e),
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    days.sort_unstable();
    days.dedup();
    Ok(days)
}

/// The working days from `lo` to `hi`, both included (`lo` <= `hi`).
fn working(lo: Day, hi: Day, off: &Weekend, holidays: &[Day]) -> i64 {
    let n = hi - lo + 1;
    let per_week = off.iter().filter(|&&o| !o).count() as i64;
    let mut count = n / 7 * per_week;
    let tail = lo + n / 7 * 7;
    count += (tail..=hi).filter(|&d| !off[date::weekday(d) as usize]).count() as i64;
    let from = holidays.partition_point(|&h| h < lo);
    let to = holidays.partition_point(|&h| h <= hi);
    count - holidays[from..to].iter().filter(|&&h| !off[date::weekday(h) as usize]).count() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_working(day: Day, off: &Weekend, holidays: &[Day]) -> bool {
        !off[date::weekday(day) as usize] && holidays.binary_search(&day).is_err()
    }

    #[test]
    fn weekend_codes_and_masks() {
        let days = |v: Value| weekend(&v).map(|o| (0..7).filter(|&i| o[i]).collect::<Vec<_>>());
        assert_eq!(days(Value::Number(1.0)), Ok(vec![0, 6]));
        assert_eq!(days(Value::Number(2.0)), Ok(vec![0, 1]));
        assert_eq!(days(Value::Number(7.0)), Ok(vec![5, 6]));
        assert_eq!(days(Value::Number(11.0)), Ok(vec![0]));
        assert_eq!(days(Value::Number(17.0)), Ok(vec![6]));
        assert_eq!(days(Value::text("0000011")), Ok(vec![0, 6]));
        assert_eq!(days(Value::text("1000000")), Ok(vec![1]));
        assert_eq!(days(Value::Number(8.0)), Err(ErrorKind::Num));
        assert_eq!(days(Value::Number(1.5)), Ok(vec![0, 6]), "truncated");
        assert_eq!(days(Value::Number(0.0)), Err(ErrorKind::Num));
        assert_eq!(days(Value::text("1111111")), Ok(vec![0, 1, 2, 3, 4, 5, 6]));
        assert_eq!(days(Value::text("000001")), Err(ErrorKind::Value));
        assert_eq!(days(Value::Bool(true)), Err(ErrorKind::Value));
    }

    #[test]
    fn counting_matches_a_walk() {
        let off = SATURDAY_SUNDAY;
        let holidays = [43_833, 43_836, 43_900];
        for lo in 43_830..43_845 {
            for hi in lo..lo + 40 {
                let walk = (lo..=hi).filter(|&d| is_working(d, &off, &holidays)).count() as i64;
                assert_eq!(working(lo, hi, &off, &holidays), walk, "{lo}..{hi}");
            }
        }
    }

    #[test]
    fn advancing_matches_a_walk() {
        let holidays = [43_833, 43_836, 43_837, 43_838, 43_900];
        for off in [SATURDAY_SUNDAY, [false, true, true, true, true, true, true], [false; 7]] {
            for days in -40..40i64 {
                let (mut day, mut left) = (43_835, days.abs());
                while left > 0 {
                    day += days.signum();
                    left -= i64::from(is_working(day, &off, &holidays));
                }
                assert_eq!(advance(43_835, days, &off, &holidays, 0), Ok(day), "{days} {off:?}");
            }
        }
        assert_eq!(advance(5, -10, &SATURDAY_SUNDAY, &[], 0), Err(ErrorKind::Num));
        assert_eq!(advance(date::LAST_DAY, 1, &SATURDAY_SUNDAY, &[], 0), Err(ErrorKind::Num));
    }
}
