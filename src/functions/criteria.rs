//! Excel's criteria, as COUNTIF, COUNTIFS, SUMIF and the other *IF(S)
//! functions (in `stats`) use them, with the range argument those functions
//! read and the walk over the positions where every range meets its
//! criterion (`for_each_match`). A criterion is compiled once ([`Criterion::new`]) and
//! then tested against each cell ([`Criterion::matches`]): a number matches
//! equal numbers and text reading as that number; text may start with an
//! operator (`=`, `<>`, `<`, `<=`, `>`, `>=`); an operand reading as a
//! number compares with numbers (ordering operators with numbers only),
//! `TRUE`/`FALSE` with booleans, `#N/A` and friends with errors, anything
//! else with text, case-insensitively, `=`/`<>` honouring the wildcards `*`
//! and `?` (escaped by `~`). `""` matches empty cells and empty text, `"="`
//! empty cells only, `"<>"` everything else. An empty criterion is 0.
//! Many criteria are counted in one pass over a range (`count`:
//! `count_each`; an array criterion, the Sudoku solver's hot path). A range argument that
//! is several references (OFFSET with array offsets) runs the function once
//! per reference (`per_reference`). A call is bounded: past
//! [`MAX_WORK`] tests it is #NUM!.

mod count;
mod grouped;

pub(super) use count::{count_each, count_meeting, count_number, count_numbers};
pub(super) use grouped::Groups;

use crate::address::{Area, CellAddr, MAX_COLS, MAX_ROWS};
use crate::eval::{BExpr, Eval};
use crate::grid::Grid;
use crate::value::{Array, ErrorKind, MAX_WORK, Value, Wildcard, cmp_text, num_eq, parse_number, read};
use std::cmp::Ordering;
use std::sync::Arc;

/// A compiled criterion.
#[derive(Clone, Debug)]
pub struct Criterion {
    op: Op,
    target: Target,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
enum Target {
    Number(f64),
    Bool(bool),
    Error(ErrorKind),
    Text(Pattern),
    /// `"="` and `"<>"`: the empty cell, not empty text.
    Blank,
    /// `""`: an empty cell or empty text.
    BlankOrEmptyText,
    /// Never equal to anything (a reference given as criterion).
    Nothing,
}

/// A text operand: as written (for ordering) and as a wildcard pattern
/// (for equality; plain text is a pattern without wildcards).
#[derive(Clone, Debug)]
struct Pattern {
    raw: Box<str>,
    wild: Wildcard,
}

impl Criterion {
    /// Compiles a criterion value (already read: no references).
    pub fn new(v: &Value) -> Criterion {
        let target = match v {
            Value::Empty => Target::Number(0.0),
            Value::Number(n) => Target::Number(*n),
            Value::Bool(b) => Target::Bool(*b),
            Value::Error(e) => Target::Error(*e),
            Value::Text(s) => return Criterion::parse(s),
            Value::Array(a) => return Criterion::new(&a.first().unwrap_or(Value::Empty)),
            Value::Ref(_) => Target::Nothing,
        };
        Criterion { op: Op::Eq, target }
    }

    /// A condition of a database function's criteria range (DSUM's),
    /// read as [`Criterion::new`] reads it, except that text with no
    /// operator that is not a number, a boolean or an error matches the
    /// text *starting* with it, as Excel's advanced filter reads it (`Pea`
    /// matches `Pear`; `=Pea` only `Pea`).
    pub fn starting(v: &Value) -> Criterion {
        let c = Criterion::new(v);
        match (v, &c.target) {
            (Value::Text(s), Target::Text(p)) if !s.starts_with(['<', '>', '=']) => {
                let wild = Wildcard::new(&format!("{s}*"));
                Criterion { op: Op::Eq, target: Target::Text(Pattern { raw: p.raw.clone(), wild }) }
            }
            _ => c,
        }
    }

    fn parse(s: &str) -> Criterion {
        let (op, rest) = [("<=", Op::Le), (">=", Op::Ge), ("<>", Op::Ne), ("<", Op::Lt), (">", Op::Gt), ("=", Op::Eq)]
            .iter()
            .find_map(|(p, op)| s.strip_prefix(p).map(|r| (Some(*op), r)))
            .unwrap_or((None, s));
        let target = if rest.is_empty() && matches!(op, Some(Op::Eq | Op::Ne)) {
            Target::Blank
        } else if rest.is_empty() && op.is_none() {
            Target::BlankOrEmptyText
        } else if rest.is_empty() {
            // `"<"`, `"<="`, `">"`, `">="` with nothing to compare with.
            Target::Nothing
        } else if let Some(n) = read::number(rest) {
            Target::Number(n)
        } else if rest.eq_ignore_ascii_case("TRUE") || rest.eq_ignore_ascii_case("FALSE") {
            Target::Bool(rest.eq_ignore_ascii_case("TRUE"))
        } else if let Some(e) = ErrorKind::parse(rest) {
            Target::Error(e)
        } else {
            Target::Text(Pattern { raw: rest.into(), wild: Wildcard::new(rest) })
        };
        Criterion { op: op.unwrap_or(Op::Eq), target }
    }

    /// The number when this criterion is plain equality with a number (it
    /// then matches numbers equal to it and text reading as it).
    pub fn number(&self) -> Option<f64> {
        match (self.op, &self.target) {
            (Op::Eq, Target::Number(n)) => Some(*n),
            _ => None,
        }
    }

    /// Whether a cell's value meets the criterion.
    pub fn matches(&self, v: &Value) -> bool {
        match self.op {
            Op::Eq => self.equals(v),
            // Text reading as the number equals it, but is not left out by
            // `"<>23"`: Excel counts the text `23` as different.
            Op::Ne => !self.equals(v) || matches!((&self.target, v), (Target::Number(_), Value::Text(_))),
            op => self.order(v).is_some_and(|o| match op {
                Op::Lt => o == Ordering::Less,
                Op::Le => o != Ordering::Greater,
                Op::Gt => o == Ordering::Greater,
                _ => o != Ordering::Less,
            }),
        }
    }

    fn equals(&self, v: &Value) -> bool {
        match (&self.target, v) {
            (Target::Number(n), v) => number_key(v).is_some_and(|x| num_eq(x, *n)),
            (Target::Bool(b), Value::Bool(x)) => x == b,
            (Target::Error(e), Value::Error(x)) => x == e,
            (Target::Text(p), Value::Text(s)) => p.wild.matches(s),
            (Target::Blank, Value::Empty) => true,
            (Target::BlankOrEmptyText, v) => v.is_blank(),
            _ => false,
        }
    }

    /// The cell compared with the operand, when of the same type.
    fn order(&self, v: &Value) -> Option<Ordering> {
        match (&self.target, v) {
            (Target::Number(n), Value::Number(x)) => x.partial_cmp(n),
            (Target::Bool(b), Value::Bool(x)) => Some(x.cmp(b)),
            (Target::Text(p), Value::Text(s)) => Some(cmp_text(s, &p.raw)),
            _ => None,
        }
    }
}

/// The number a cell holding `v` is for a criterion of equality with a
/// number ([`Criterion::number`]): such a criterion matches `v` only when
/// its number equals this one (to 15 digits), and a value without one
/// (empty, a boolean, an error, a text not reading as a number) matches
/// none of them.
pub fn number_key(v: &Value) -> Option<f64> {
    match v {
        Value::Number(x) => Some(*x),
        Value::Text(s) => parse_number(s),
        _ => None,
    }
}

/// The range argument of COUNTIF-like functions: a reference or an array;
/// another value is a 1x1 range. A reference array is held as an array
/// until [`per_reference`] takes it apart.
#[derive(Clone)]
pub(super) enum Range {
    Area(Area),
    Array(Arc<Array>),
    One(Value),
}

impl Range {
    pub(super) fn read(ev: &mut Eval, e: &BExpr) -> Result<Range, ErrorKind> {
        match ev.eval(e) {
            Value::Ref(a) => Ok(Range::Area(a)),
            Value::Array(a) => Ok(Range::Array(a)),
            Value::Error(e) => Err(e),
            v => Ok(Range::One(v)),
        }
    }

    /// The rows and columns from the top-left that may hold something: a
    /// reference is cut to the stored part of its sheet (cells past it are
    /// empty), so whole columns cost what is used, not a million rows.
    pub(super) fn live_dims(&self, ev: &Eval) -> (u64, u64) {
        match self {
            Range::Area(a) => {
                let (rows, cols) = ev.extent(a.sheet);
                let live = |used: u32, start: u32, len: u32| used.saturating_sub(start).min(len) as u64;
                (live(rows, a.r0, a.rows()), live(cols, a.c0, a.cols()))
            }
            r => r.dims(),
        }
    }

    pub(super) fn dims(&self) -> (u64, u64) {
        match self {
            Range::Area(a) => (a.rows() as u64, a.cols() as u64),
            Range::Array(a) => (a.rows as u64, a.cols as u64),
            Range::One(_) => (1, 1),
        }
    }

    /// The value `r` rows and `c` columns from the top-left; a reference
    /// extends past its bottom-right corner (SUMIF's sum range), an array
    /// does not (empty there).
    pub(super) fn get(&self, ev: &Eval, r: u64, c: u64) -> Value {
        match (self, ev.grid()) {
            // Folding has no grid: a cell read is noted, and empty.
            (Range::Area(a), None) => ev.cell_value(a.top_left()),
            (_, grid) => self.peek(grid, r, c).clone(),
        }
    }

    /// [`Range::get`], borrowed from `grid` (a reference reads empty
    /// without one).
    #[inline]
    pub(super) fn peek<'v>(&'v self, grid: Option<&'v Grid>, r: u64, c: u64) -> &'v Value {
        static EMPTY: Value = Value::Empty;
        match (self, grid) {
            (Range::Area(a), Some(grid)) => {
                let (row, col) = (a.r0 as u64 + r, a.c0 as u64 + c);
                if row < MAX_ROWS as u64 && col < MAX_COLS as u64 {
                    grid.get(CellAddr::new(a.sheet, row as u32, col as u32))
                } else {
                    &EMPTY
                }
            }
            (Range::Array(a), _) if (r as usize) < a.rows && (c as usize) < a.cols => a.get(r as usize, c as usize),
            (Range::One(v), _) if r == 0 && c == 0 => v,
            _ => &EMPTY,
        }
    }

    /// The same range at `dims` from its top-left cell, cut at the sheet's
    /// edge (SUMIF's sum range takes its criteria range's size); an array or
    /// a single value is kept as it is.
    pub(super) fn sized(self, (rows, cols): (u64, u64)) -> Range {
        match self {
            Range::Area(a) => {
                let r1 = (a.r0 as u64 + rows - 1).min(MAX_ROWS as u64 - 1) as u32;
                let c1 = (a.c0 as u64 + cols - 1).min(MAX_COLS as u64 - 1) as u32;
                Range::Area(Area::new(a.sheet, a.r0, a.c0, r1, c1))
            }
            r => r,
        }
    }

    /// Calls `f` on every value; returns how many empty cells were skipped.
    pub(super) fn scan(&self, ev: &Eval, mut f: impl FnMut(&Value)) -> u64 {
        match self {
            Range::Area(a) => ev.visit(a, f),
            Range::Array(a) => {
                a.each(f);
                0
            }
            Range::One(v) => {
                f(v);
                0
            }
        }
    }
}

/// Whether testing `criteria` criteria on every live cell of `ranges`
/// passes [`MAX_WORK`].
pub(super) fn over_budget(ev: &Eval, ranges: &[Range], criteria: usize) -> bool {
    let cells = ranges.iter().map(|r| r.live_dims(ev)).fold(0u64, |n, (rows, cols)| n.saturating_add(rows * cols));
    cells.saturating_mul(criteria as u64) > MAX_WORK
}

/// Excel's rule for a range argument that is several references (OFFSET
/// with array offsets, `COUNTIF(OFFSET(D4:L4,{0;2},0),2)`): `f` runs once
/// per reference, on `ranges` with each reference array replaced by its
/// reference at that position, and the results form an array in the shape
/// of the first reference array. Without one, `f` runs once on `ranges`.
pub(super) fn per_reference(ranges: &[Range], f: impl Fn(&[Range]) -> Value) -> Value {
    let refs = |r: &Range| match r {
        Range::Array(a) if a.is_ref_array() => Some(a.clone()),
        _ => None,
    };
    let Some(shape) = ranges.iter().find_map(refs) else { return f(ranges) };
    let data = (0..shape.len())
        .map(|i| {
            let one: Vec<Range> = ranges
                .iter()
                .map(|r| match refs(r).map(|a| a.values().get(i).cloned()) {
                    Some(Some(Value::Ref(area))) => Range::Area(area),
                    Some(_) => Range::One(Value::Error(ErrorKind::NA)),
                    None => r.clone(),
                })
                .collect();
            match f(&one) {
                Value::Array(a) => a.first().unwrap_or(Value::Error(ErrorKind::Value)),
                v => v,
            }
        })
        .collect();
    Value::Array(Arc::new(Array::new(shape.rows, shape.cols, data)))
}

/// Calls `f`, row by row, with the value of `values` at each position (from
/// the top-left, within the first range's size) where every range meets its
/// criterion. Past the stored part of every range all read empty: those
/// positions are not visited, and when empty cells meet every criterion
/// their number is returned (0 otherwise).
pub(super) fn for_each_match(
    ev: &Eval,
    ranges: &[Range],
    crits: &[Criterion],
    values: &Range,
    mut f: impl FnMut(&Value),
) -> u64 {
    let (rows, cols) = ranges[0].dims();
    let (lr, lc) =
        ranges.iter().chain([values]).map(|g| g.live_dims(ev)).fold((0, 0), |(r, c), (a, b)| (r.max(a), c.max(b)));
    let (lr, lc) = (lr.min(rows), lc.min(cols));
    for r in 0..lr {
        for c in 0..lc {
            if ranges.iter().zip(crits).all(|(g, k)| k.matches(&g.get(ev, r, c))) {
                f(&values.get(ev, r, c));
            }
        }
    }
    if crits.iter().all(|k| k.matches(&Value::Empty)) { rows * cols - lr * lc } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(crit: Value, v: Value) -> bool {
        Criterion::new(&crit).matches(&v)
    }
    fn t(s: &str) -> Value {
        Value::text(s)
    }
    use Value::{Bool as B, Empty as E, Number as N};

    #[test]
    fn numbers_match_numbers_and_numeric_text() {
        assert!(m(N(5.0), N(5.0)));
        assert!(m(N(5.0), t("5")));
        assert!(!m(N(5.0), N(5.5)) && !m(N(1.0), B(true)) && !m(N(0.0), E));
        assert!(m(E, N(0.0)) && !m(E, E), "an empty criterion is 0");
        assert!(m(t("=5"), N(5.0)) && m(t("5"), t("5")) && m(t("=5"), t("5.0")));
    }

    #[test]
    fn operators() {
        assert!(m(t(">=3"), N(3.0)) && !m(t(">=3"), N(2.0)) && m(t("<5"), N(-1.0)));
        assert!(!m(t(">3"), t("7")), "ordering compares numbers with numbers only");
        assert!(!m(t("<5"), E) && !m(t("<5"), B(false)));
        assert!(m(t("<>5"), N(4.0)) && m(t("<>5"), E) && m(t("<>5"), t("x")) && !m(t("<>5"), N(5.0)));
        assert!(m(t(">b"), t("C")) && !m(t(">b"), t("a")) && !m(t(">b"), N(1.0)));
        assert!(m(t("<=abc"), t("ABC")));
        assert!(m(t(">FALSE"), B(true)) && !m(t(">FALSE"), N(1.0)));
    }

    #[test]
    fn blanks() {
        assert!(m(t(""), E) && m(t(""), t("")) && !m(t(""), N(0.0)) && !m(t(""), t(" ")));
        assert!(m(t("="), E) && !m(t("="), t("")));
        assert!(!m(t("<>"), E) && m(t("<>"), t("")) && m(t("<>"), N(0.0)));
    }

    #[test]
    fn text_and_wildcards() {
        assert!(m(t("abc"), t("ABC")) && !m(t("abc"), t("abcd")) && !m(t("abc"), E));
        assert!(m(t("a*"), t("Apple")) && m(t("a*"), t("a")) && !m(t("a*"), t("banana")));
        assert!(m(t("*"), t("")) && m(t("*"), t("x")) && !m(t("*"), N(1.0)) && !m(t("*"), E));
        assert!(m(t("?b?"), t("abc")) && !m(t("?b?"), t("abcd")) && !m(t("1*"), N(10.0)));
        assert!(m(t("*an*a"), t("banana")) && m(t("a*b*c"), t("axxbyyc")) && !m(t("a*b*c"), t("axxbyy")));
        assert!(m(t("~*"), t("*")) && !m(t("~*"), t("x")) && m(t("a~?"), t("a?")) && !m(t("a~?"), t("ab")));
        assert!(m(t("~~"), t("~")) && m(t("x~y"), t("x~y")) && m(t("*~*"), t("ab*")));
        assert!(m(t("<>a*"), t("xyz")) && !m(t("<>a*"), t("abc")) && m(t("<>a*"), E));
        assert!(m(t("é*"), t("Étude")) && m(t("straße"), t("STRAßE")) && m(t("?é?"), t("ÉÉÉ")));
    }

    #[test]
    fn database_conditions_match_text_starting_with_them() {
        let d = |crit: &str, v: Value| Criterion::starting(&t(crit)).matches(&v);
        assert!(d("Pea", t("Pear")) && d("pea", t("PEA")) && !d("Pea", t("Apple")) && !d("Pea", E));
        assert!(!d("=Pea", t("Pear")) && d("=Pea", t("pea")) && d("<>Pea", t("Pear")));
        assert!(d("P?a", t("Peach")) && d("*ch", t("Peach")) && d("*ch", t("chx")));
        assert!(d("5", N(5.0)) && !d("5", N(55.0)) && d("TRUE", B(true)) && d(">1", N(2.0)));
    }

    #[test]
    fn booleans_and_errors() {
        assert!(m(B(true), B(true)) && !m(B(true), N(1.0)) && !m(B(true), t("TRUE")));
        assert!(m(t("true"), B(true)) && m(t("=FALSE"), B(false)));
        let na = Value::Error(ErrorKind::NA);
        assert!(m(na.clone(), na.clone()) && m(t("#N/A"), na.clone()) && !m(t("#N/A"), Value::Error(ErrorKind::Div0)));
        assert!(m(t("<>#N/A"), N(1.0)) && !m(t("<>#N/A"), na));
    }
}
