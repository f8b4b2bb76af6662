//! The criteria functions: COUNTIF, COUNTIFS, and the aggregates over the
//! cells whose rows meet every criterion, SUMIF, AVERAGEIF, SUMIFS,
//! AVERAGEIFS, MAXIFS, MINIFS. All but COUNTIF (which counts many criteria
//! in one pass, the Sudoku solver's hot path) are one walk
//! ([`conditional`]) with different folds ([`Fold`]). An array criterion
//! gives an array of results, one per element. SUMIF's and AVERAGEIF's value
//! range takes the size of the criteria range from its top-left cell; the
//! *IFS functions need all their ranges of one size (#VALUE! otherwise).
//! A range argument of several references (OFFSET over arrays) gives one
//! result per reference (`criteria::per_reference`). COUNTIF of one
//! criterion over a reference taller than a block continues the count the
//! grid remembers for the same columns, top row and criterion
//! ([`folded`]), so a running count down n rows reads n rows in all.

use super::reduce::{continued, growing};
use crate::address::Area;
use crate::eval::{BExpr, Eval};
use crate::functions::args::{lift_values, lifted_dims};
use crate::functions::criteria::{
    Criterion, Groups, Range, count_each, count_meeting, count_number, count_numbers, for_each_match, over_budget,
    per_reference,
};
use crate::grid::folds::{How, Reduced, Wanted};
use crate::value::{ErrorKind, Kind, Value, numbers};

/// `COUNTIF(range, criterion)`: an array criterion gives an array of counts.
pub fn countif(ev: &mut Eval, args: &[BExpr]) -> Value {
    let range = match Range::read(ev, &args[0]) {
        Ok(r) => r,
        Err(e) => return Value::Error(e),
    };
    let crit = ev.read(&args[1]);
    let ev: &Eval = ev;
    per_reference(std::slice::from_ref(&range), |r| count(ev, &r[0], &crit))
}

/// COUNTIF's count of one range.
fn count(ev: &Eval, range: &Range, crit: &Value) -> Value {
    match crit {
        Value::Array(a) if over_budget(ev, std::slice::from_ref(range), a.len()) => Value::Error(ErrorKind::Num),
        Value::Array(a) => {
            let counts = match a.as_dense() {
                Some((nums, Kind::Number)) => count_numbers(ev, range, nums),
                _ => count_each(ev, range, a.values()),
            };
            numbers(a.rows, a.cols, counts.into_iter().map(|n| n as f64).collect())
        }
        v => Value::Number(counted(ev, range, v) as f64),
    }
}

/// COUNTIF's count of one range for one criterion that is not an array,
/// compiled once.
fn counted(ev: &Eval, range: &Range, crit: &Value) -> u64 {
    match crit {
        Value::Number(n) => folded(ev, range, crit, false, |r| count_number(ev, r, *n)),
        v => {
            let c = Criterion::new(v);
            folded(ev, range, crit, c.matches(&Value::Empty), |r| count_meeting(ev, r, &c))
        }
    }
}

/// `count` of `range`. Over a reference taller than a block, the count the
/// grid remembers for its columns, top row and criterion `crit` is
/// continued over the rows below it (`reduce::continued`: a count is a
/// left fold); the fold runs over the stored rows, and the rows past them
/// are empty cells, counted when `blank` (the criterion matches an empty
/// cell). With folds off the range is read whole, as every criterion
/// array is.
fn folded(ev: &Eval, range: &Range, crit: &Value, blank: bool, count: impl Fn(&Range) -> u64) -> u64 {
    let area = match range {
        Range::Area(area) if growing(area) => area,
        // Short areas (every board's) are counted after one comparison.
        _ => return count(range),
    };
    let Some(grid) = ev.grid().filter(|g| g.remembers_folds()) else { return count(range) };
    let stored = area.r1.min(grid.extent(area.sheet).0.wrapping_sub(1));
    let Some(wanted) = Wanted::of(crit).filter(|_| area.r0 <= stored) else { return count(range) };
    let add = |piece: &Area, n: Reduced| n.map(|(_, n)| (0.0, n + count(&Range::Area(*piece))));
    let rows = Area { r1: stored, ..*area };
    let n = continued(grid, &rows, How::CountIf(wanted), Ok((0.0, 0)), add).map_or(0, |(_, n)| n);
    let below = (area.r1 - stored) as u64 * (area.c1 - area.c0 + 1) as u64;
    n + if blank { below } else { 0 }
}

/// `COUNTIFS(range1, criterion1, ...)`: positions meeting every criterion.
pub fn countifs(ev: &mut Eval, args: &[BExpr]) -> Value {
    if args.len() == 2 {
        return countif(ev, args);
    }
    conditional(ev, None, args, Fold::Count)
}

/// `SUMIF(range, criterion, [sum_range])`: the numbers of the matching
/// cells (of `sum_range`, sized like `range`, when given).
pub fn sumif(ev: &mut Eval, args: &[BExpr]) -> Value {
    conditional(ev, Some(Values::Sized(args.get(2))), &args[..2], Fold::Sum)
}

/// `AVERAGEIF(range, criterion, [average_range])`: like SUMIF, averaged;
/// #DIV/0! when no number matches.
pub fn averageif(ev: &mut Eval, args: &[BExpr]) -> Value {
    conditional(ev, Some(Values::Sized(args.get(2))), &args[..2], Fold::Average)
}

/// `SUMIFS(sum_range, range1, criterion1, ...)`.
pub fn sumifs(ev: &mut Eval, args: &[BExpr]) -> Value {
    conditional(ev, Some(Values::Exact(&args[0])), &args[1..], Fold::Sum)
}

/// `AVERAGEIFS(average_range, range1, criterion1, ...)`: #DIV/0! when no
/// number matches.
pub fn averageifs(ev: &mut Eval, args: &[BExpr]) -> Value {
    conditional(ev, Some(Values::Exact(&args[0])), &args[1..], Fold::Average)
}

/// `MAXIFS(max_range, range1, criterion1, ...)`: 0 when no number matches.
pub fn maxifs(ev: &mut Eval, args: &[BExpr]) -> Value {
    conditional(ev, Some(Values::Exact(&args[0])), &args[1..], Fold::Max)
}

/// `MINIFS(min_range, range1, criterion1, ...)`: 0 when no number matches.
pub fn minifs(ev: &mut Eval, args: &[BExpr]) -> Value {
    conditional(ev, Some(Values::Exact(&args[0])), &args[1..], Fold::Min)
}

/// What is made of the matching positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fold {
    /// How many positions match.
    Count,
    /// The matching values' numbers, added, averaged, or the largest or
    /// smallest (0 when there is none); an error among them is the result.
    Sum,
    Average,
    Max,
    Min,
}

/// Where the folded values come from, besides the criteria ranges.
#[derive(Clone, Copy)]
enum Values<'a> {
    /// SUMIF's: the first criteria range itself, or a range taken at its size.
    Sized(Option<&'a BExpr>),
    /// The *IFS functions': a range of the criteria ranges' size.
    Exact(&'a BExpr),
}

/// The [`Fold`] of the values at the positions where every range of
/// `pairs` (range, criterion, range, criterion, ...) meets its criterion.
/// No `values` counts positions. Errors in the range arguments are the
/// result; criteria that are arrays give an array of results.
fn conditional(ev: &mut Eval, values: Option<Values>, pairs: &[BExpr], fold: Fold) -> Value {
    if !pairs.len().is_multiple_of(2) {
        return Value::Error(ErrorKind::Value);
    }
    let Conditions { ranges, crits, sized } = match Conditions::read(ev, values, pairs) {
        Ok(read) => read,
        Err(e) => return Value::Error(e),
    };
    let ev: &Eval = ev;
    // The value range, if any, rides last with the criteria ranges.
    let criteria = pairs.len() / 2;
    per_reference(&ranges, |all| {
        let (ranges, values) = all.split_at(criteria);
        let dims = ranges[0].dims();
        let same_size = if sized { ranges } else { all };
        if same_size.iter().any(|r| r.dims() != dims) {
            return Value::Error(ErrorKind::Value);
        }
        let values = match values.first() {
            Some(v) if sized => v.clone().sized(dims),
            Some(v) => v.clone(),
            None => ranges[0].clone(),
        };
        if over_budget(ev, all, lifted_len(&crits)) {
            return Value::Error(ErrorKind::Num);
        }
        // Many criteria rows counted over the same cells: one pass grouping
        // the cells, each row asked of each distinct tuple (`Groups`).
        if fold == Fold::Count
            && lifted_len(&crits) >= GROUPED_ROWS
            && let Some(groups) = Groups::of(ev, ranges)
        {
            return lift_values(&crits, |row| Value::Number(groups.count(row) as f64));
        }
        lift_values(&crits, |row| {
            let compiled: Vec<Criterion> = row.iter().map(Criterion::new).collect();
            let mut acc = Acc::default();
            let skipped = for_each_match(ev, ranges, &compiled, &values, |v| acc.add(v));
            acc.finish(fold, skipped)
        })
    })
}

/// From how many criteria rows COUNTIFS groups the cells first.
const GROUPED_ROWS: usize = 4;

/// How many results lifting over `vals` gives: its broadcast shape's size.
fn lifted_len(vals: &[Value]) -> usize {
    lifted_dims(vals).map_or(1, |(rows, cols)| rows * cols)
}

/// The arguments of a criteria function, read: the criteria ranges then
/// the value range if there is one, the criteria as values, and whether the
/// value range is taken at the criteria range's size (SUMIF's).
struct Conditions {
    ranges: Vec<Range>,
    crits: Vec<Value>,
    sized: bool,
}

impl Conditions {
    fn read(ev: &mut Eval, values: Option<Values>, pairs: &[BExpr]) -> Result<Conditions, ErrorKind> {
        let exact = match values {
            Some(Values::Exact(e)) => Some(Range::read(ev, e)?),
            _ => None,
        };
        let (mut ranges, mut crits) = (Vec::with_capacity(pairs.len() / 2 + 1), Vec::with_capacity(pairs.len() / 2));
        for pair in pairs.chunks(2) {
            ranges.push(Range::read(ev, &pair[0])?);
            crits.push(ev.read(&pair[1]));
        }
        let sized = match values {
            Some(Values::Sized(Some(e))) => Some(Range::read(ev, e)?),
            _ => None,
        };
        let is_sized = sized.is_some();
        ranges.extend(exact.or(sized));
        Ok(Conditions { ranges, crits, sized: is_sized })
    }
}

/// What the matching values hold: how many, their numbers' count, sum,
/// extremes, and the first error.
#[derive(Default)]
struct Acc {
    cells: u64,
    numbers: u64,
    sum: f64,
    extremes: Option<(f64, f64)>,
    err: Option<ErrorKind>,
}

impl Acc {
    fn add(&mut self, v: &Value) {
        self.cells += 1;
        match v {
            Value::Number(n) => {
                self.numbers += 1;
                self.sum += n;
                self.extremes = Some(self.extremes.map_or((*n, *n), |(lo, hi)| (lo.min(*n), hi.max(*n))));
            }
            Value::Error(e) => _ = self.err.get_or_insert(*e),
            _ => {}
        }
    }

    /// The result, with `skipped` more matching empty positions.
    fn finish(self, fold: Fold, skipped: u64) -> Value {
        if fold == Fold::Count {
            return Value::Number((self.cells + skipped) as f64);
        }
        if let Some(e) = self.err {
            return Value::Error(e);
        }
        let (lo, hi) = self.extremes.unwrap_or((0.0, 0.0));
        match fold {
            Fold::Average if self.numbers == 0 => Value::Error(ErrorKind::Div0),
            Fold::Average => Value::num(self.sum / self.numbers as f64),
            Fold::Max => Value::Number(hi),
            Fold::Min => Value::Number(lo),
            _ => Value::num(self.sum),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::Sheet;

    /// AVERAGEIF's average range counts, in the dependency graph, at the
    /// size of its criteria range: a change in C3 reaches `C1` sized to C1:C3.
    #[test]
    fn the_sized_average_range_is_a_dependency() {
        let mut s = Sheet::new();
        for (r, v) in [(1, "2"), (2, "4"), (3, "6")] {
            s.set(&format!("A{r}"), "1");
            s.set(&format!("C{r}"), v);
        }
        s.set("E1", "=AVERAGEIF(A1:A3,1,C1)");
        s.set("E2", "=SUMIFS(C1:C3,A1:A3,1)");
        s.recalc();
        assert_eq!((s.text("E1"), s.text("E2")), ("4".into(), "12".into()));
        s.set("C3", "9");
        s.recalc();
        assert_eq!((s.text("E1"), s.text("E2")), ("5".into(), "15".into()));
    }
}
