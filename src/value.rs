//! Cell values and Excel's small value rules, each stated once: coercion and
//! comparison, what counts as blank, broadcasting access to arrays, the
//! array-size and text-length caps, and the wildcard matcher of criteria,
//! MATCH and SEARCH. Excel errors are values (`Value::Error`), never Rust
//! errors. Arrays hold scalars, except a *reference array*, whose elements
//! are all `Value::Ref`: a reference of several areas (the union
//! `(A1,B2:C3)`, a 1 x n array) or the several references OFFSET returns for
//! array offsets (in the offsets' shape). `Value::Ref` is an unevaluated
//! rectangle that functions such as INDEX, ROW and COUNTIF take as such.

mod array;
pub mod date;
pub mod read;
mod wildcard;

pub use array::{Array, DenseArrays, Kind, booleans, collect_array, dense_arrays, numbers};
pub use wildcard::Wildcard;

use crate::address::Area;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// Largest array a reference may be turned into, or operators and lifted
/// functions may build (4,194,304 cells: four whole columns). Larger ones
/// are #NUM!.
pub const MAX_ARRAY_CELLS: u64 = 1 << 22;

/// The most elementary steps one function call may take (134,217,728):
/// the cell-criterion tests of COUNTIF and the other criteria functions
/// (live cells times criteria), MMULT's multiplications. Past it the call
/// is #NUM!, at once, as an array past [`MAX_ARRAY_CELLS`] is, rather
/// than hours of work (`SUMPRODUCT(SUMIF(ROW(A:A),ROW(A:A)))` would be
/// 10^12 tests). One evaluation's array work is bounded by it too: the
/// elements its operators work on, its functions' array results and the
/// references it reads whole as arrays (`Eval::charge`).
pub const MAX_WORK: u64 = 1 << 27;

/// Most bytes of text one array value may hold (256 MiB): an array whose
/// texts add up to more is #NUM!, as an array of more than
/// [`MAX_ARRAY_CELLS`] cells is (`REPT("x",32760)&ROW(A:A)` would take 34 GB).
pub const MAX_ARRAY_TEXT: usize = 1 << 28;

/// Longest text a cell may hold in Excel (characters); a longer text
/// result is #VALUE!.
pub const MAX_TEXT: usize = 32_767;

/// Whether `s` is longer than [`MAX_TEXT`] characters.
pub fn too_long(s: &str) -> bool {
    s.len() > MAX_TEXT && s.chars().count() > MAX_TEXT
}

/// Excel's error values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    Null,
    Div0,
    Value,
    Ref,
    Name,
    Num,
    NA,
    /// `#CALC!`: a calculation Excel 365 cannot give, chiefly an empty
    /// array (FILTER with nothing included, TAKE of no rows).
    Calc,
    /// `#SPILL!`: a dynamic array that cannot spill (read from Excel 365
    /// files, as their cells cached it).
    Spill,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::Null,
        ErrorKind::Div0,
        ErrorKind::Value,
        ErrorKind::Ref,
        ErrorKind::Name,
        ErrorKind::Num,
        ErrorKind::NA,
        ErrorKind::Calc,
        ErrorKind::Spill,
    ];
    pub fn text(self) -> &'static str {
        match self {
            ErrorKind::Null => "#NULL!",
            ErrorKind::Div0 => "#DIV/0!",
            ErrorKind::Value => "#VALUE!",
            ErrorKind::Ref => "#REF!",
            ErrorKind::Name => "#NAME?",
            ErrorKind::Num => "#NUM!",
            ErrorKind::NA => "#N/A",
            ErrorKind::Calc => "#CALC!",
            ErrorKind::Spill => "#SPILL!",
        }
    }
    /// `"#n/a" -> NA`, case-insensitive.
    pub fn parse(s: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|e| e.text().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A value as a cell or an expression holds it.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    /// Never set, or a formula never calculated.
    #[default]
    Empty,
    Number(f64),
    Text(Arc<str>),
    Bool(bool),
    Error(ErrorKind),
    Array(Arc<Array>),
    /// A reference to a rectangle of cells, not yet read.
    Ref(Area),
}

impl Value {
    pub fn text(s: &str) -> Value {
        Value::Text(Arc::from(s))
    }
    /// A number, with NaN and infinities turned into #NUM! so they never escape.
    pub fn num(n: f64) -> Value {
        if n.is_finite() { Value::Number(n) } else { Value::Error(ErrorKind::Num) }
    }
    /// Several references as one value: a 1 x n reference array.
    pub fn areas(areas: Vec<Area>) -> Value {
        let data: Vec<Value> = areas.into_iter().map(Value::Ref).collect();
        Value::Array(Arc::new(Array::new(1, data.len(), data)))
    }
    /// The elements of a reference array (every one a `Value::Ref`), or
    /// None for any other value; a single reference is not one.
    pub fn ref_array(&self) -> Option<&Arc<Array>> {
        match self {
            Value::Array(a) if a.is_ref_array() => Some(a),
            _ => None,
        }
    }
    /// The areas of a reference or a reference array, else None.
    pub fn area_list(&self) -> Option<Vec<Area>> {
        match self {
            Value::Ref(a) => Some(vec![*a]),
            v => v.ref_array().map(|a| {
                a.values().iter().filter_map(|r| if let Value::Ref(x) = r { Some(*x) } else { None }).collect()
            }),
        }
    }
    /// A copy that shares no allocation with this value.
    pub fn detached(&self) -> Value {
        match self {
            Value::Text(s) => Value::Text(Arc::from(&**s)),
            Value::Array(a) => Value::Array(Arc::new(a.detached())),
            v => v.clone(),
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Value::Error(_))
    }
    pub fn is_empty(&self) -> bool {
        matches!(self, Value::Empty)
    }
    /// Blank as COUNTBLANK, `""` criteria and the views see it: empty, or
    /// the empty text (a formula's `""`).
    pub fn is_blank(&self) -> bool {
        match self {
            Value::Empty => true,
            Value::Text(s) => s.is_empty(),
            _ => false,
        }
    }

    /// Element (r, c) under Excel's broadcasting: a scalar is every
    /// element, an array's single row or column stretches, and cells outside
    /// a smaller array are #N/A.
    pub fn broadcast(&self, r: usize, c: usize) -> &Value {
        match self {
            Value::Array(a) => a.broadcast(r, c),
            v => v,
        }
    }

    /// Coercion to a number in arithmetic: empty is 0, TRUE is 1, text that
    /// reads as a number, a date or a time as Excel (en-US) reads it is that
    /// number ([`read::number`]: `"$1,234.50"`, `"5%"`, `"2020-01-01"`,
    /// `"12:30 PM"`), other text is #VALUE!.
    #[inline]
    pub fn to_number(&self) -> Result<f64, ErrorKind> {
        match self {
            Value::Number(n) => Ok(*n),
            v => v.coerce_number(),
        }
    }

    /// [`Value::to_number`] of anything but a number, out of line.
    fn coerce_number(&self) -> Result<f64, ErrorKind> {
        match self {
            Value::Empty => Ok(0.0),
            Value::Number(n) => Ok(*n),
            Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
            Value::Text(s) => read::number(s).ok_or(ErrorKind::Value),
            Value::Error(e) => Err(*e),
            Value::Array(a) => a.first().map_or(Err(ErrorKind::Value), |v| v.to_number()),
            Value::Ref(_) => Err(ErrorKind::Value),
        }
    }

    /// Coercion to a boolean in conditions: numbers are true when non-zero,
    /// text "TRUE"/"FALSE" (any case) reads as such, other text is #VALUE!.
    #[inline]
    pub fn to_bool(&self) -> Result<bool, ErrorKind> {
        match self {
            Value::Bool(b) => Ok(*b),
            Value::Number(n) => Ok(*n != 0.0),
            v => v.coerce_bool(),
        }
    }

    /// [`Value::to_bool`] of anything but a boolean or a number, out of line.
    fn coerce_bool(&self) -> Result<bool, ErrorKind> {
        match self {
            Value::Empty => Ok(false),
            Value::Number(n) => Ok(*n != 0.0),
            Value::Bool(b) => Ok(*b),
            Value::Text(s) if s.eq_ignore_ascii_case("TRUE") => Ok(true),
            Value::Text(s) if s.eq_ignore_ascii_case("FALSE") => Ok(false),
            Value::Text(_) => Err(ErrorKind::Value),
            Value::Error(e) => Err(*e),
            Value::Array(a) => a.first().map_or(Err(ErrorKind::Value), |v| v.to_bool()),
            Value::Ref(_) => Err(ErrorKind::Value),
        }
    }

    /// Coercion to text in `&` and text functions: empty is "", numbers in
    /// Excel's general format, booleans as TRUE/FALSE.
    pub fn to_text(&self) -> Result<Arc<str>, ErrorKind> {
        match self {
            Value::Empty => Ok(Arc::from("")),
            Value::Number(n) => Ok(Arc::from(format_number(*n))),
            Value::Bool(b) => Ok(Arc::from(if *b { "TRUE" } else { "FALSE" })),
            Value::Text(s) => Ok(s.clone()),
            Value::Error(e) => Err(*e),
            Value::Array(a) => a.first().map_or(Err(ErrorKind::Value), |v| v.to_text()),
            Value::Ref(_) => Err(ErrorKind::Value),
        }
    }
}

/// Reads text as a plain number: surrounding spaces, a sign, decimals,
/// exponent, a trailing `%`. Empty text is not a number. What a user types
/// as a constant reads this way; coercion in formulas reads more
/// ([`read::number`]: thousands separators, currency, dates, times).
pub fn parse_number(s: &str) -> Option<f64> {
    if s.is_empty() {
        return None;
    }
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    let (t, scale) = match t.strip_suffix('%') {
        Some(rest) => (rest.trim_end(), 0.01),
        None => (t, 1.0),
    };
    let ok = t.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !ok || !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<f64>().ok().filter(|n| n.is_finite()).map(|n| n * scale)
}

/// Excel's general format for a number turned into text: up to 15
/// significant digits, no trailing zeros, scientific for very large or small.
pub fn format_number(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    if n.fract() == 0.0 && n.abs() < 1e15 {
        return format!("{}", n as i64);
    }
    let exp = n.abs().log10().floor() as i32;
    if (-10..15).contains(&exp) {
        let decimals = (14 - exp).clamp(0, 30) as usize;
        let s = format!("{:.*}", decimals, n);
        let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
        return s;
    }
    let s = format!("{:.14E}", n);
    let (mant, e) = s.split_once('E').unwrap_or((&s, "0"));
    let mant = if mant.contains('.') { mant.trim_end_matches('0').trim_end_matches('.') } else { mant };
    let e: i32 = e.parse().unwrap_or(0);
    format!("{}E{}{:02}", mant, if e < 0 { '-' } else { '+' }, e.abs())
}

/// Type rank in Excel's ordering: numbers < text < booleans.
fn rank(v: &Value) -> u8 {
    match v {
        Value::Number(_) | Value::Empty => 0,
        Value::Text(_) => 1,
        Value::Bool(_) => 2,
        _ => 3,
    }
}

/// Compares two scalars as the comparison operators do. Empty equals both 0
/// and ""; text compares case-insensitively; numbers < text < booleans.
/// Errors are the caller's business (they propagate before comparing).
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Empty, Value::Empty) => Ordering::Equal,
        (Value::Empty, Value::Text(s)) => cmp_text("", s),
        (Value::Text(s), Value::Empty) => cmp_text(s, ""),
        (Value::Empty, Value::Bool(x)) => false.cmp(x),
        (Value::Bool(x), Value::Empty) => x.cmp(&false),
        (Value::Empty, Value::Number(y)) => cmp_num(0.0, *y),
        (Value::Number(x), Value::Empty) => cmp_num(*x, 0.0),
        (Value::Number(x), Value::Number(y)) => cmp_num(*x, *y),
        (Value::Text(x), Value::Text(y)) => cmp_text(x, y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    }
}

fn cmp_num(x: f64, y: f64) -> Ordering {
    if num_eq(x, y) { Ordering::Equal } else { x.partial_cmp(&y).unwrap_or(Ordering::Equal) }
}

/// Whether two numbers are equal as Excel compares them: after rounding
/// both to 15 significant digits, so `0.1+0.2=0.3` is TRUE.
#[inline(always)]
pub fn num_eq(x: f64, y: f64) -> bool {
    if x == y {
        return true;
    }
    // Two numbers that round to the same 15 digits differ by at most about
    // 1e-14 of their size; anything further apart (infinities and NaN
    // included) is unequal at once.
    let close = (x - y).abs() <= 1e-14 * x.abs().max(y.abs());
    close && round15(x) == round15(y)
}

/// `x` rounded to 15 significant digits.
fn round15(x: f64) -> f64 {
    format!("{x:.14e}").parse().unwrap_or(x)
}

/// Case-insensitive text ordering (Unicode lower-casing).
pub fn cmp_text(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        let (x, y) = (a.as_bytes(), b.as_bytes());
        for (p, q) in x.iter().zip(y) {
            match p.to_ascii_lowercase().cmp(&q.to_ascii_lowercase()) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        return x.len().cmp(&y.len());
    }
    a.to_lowercase().cmp(&b.to_lowercase())
}

impl fmt::Display for Value {
    /// The text a cell shows: numbers in general format, `#DIV/0!` for errors,
    /// nothing for empty; an array shows its top-left value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Empty => Ok(()),
            Value::Number(n) => f.write_str(&format_number(*n)),
            Value::Text(s) => f.write_str(s),
            Value::Bool(b) => f.write_str(if *b { "TRUE" } else { "FALSE" }),
            Value::Error(e) => write!(f, "{e}"),
            Value::Array(a) => match a.first() {
                Some(v) => write!(f, "{v}"),
                None => Ok(()),
            },
            Value::Ref(a) => write!(f, "{a}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_format() {
        assert_eq!(format_number(1.5), "1.5");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(1.0 / 3.0), "0.333333333333333");
        assert_eq!(format_number(1e20), "1E+20");
        assert_eq!(format_number(1.5e-12), "1.5E-12");
    }

    #[test]
    fn coercions() {
        assert_eq!(Value::text("3").to_number(), Ok(3.0));
        assert_eq!(Value::text(" 2.5e1 ").to_number(), Ok(25.0));
        assert_eq!(Value::text("50%").to_number(), Ok(0.5));
        assert_eq!(Value::text("abc").to_number(), Err(ErrorKind::Value));
        assert_eq!(Value::text("").to_number(), Err(ErrorKind::Value));
        assert_eq!(Value::Bool(true).to_number(), Ok(1.0));
        assert_eq!(Value::text("abc").to_bool(), Err(ErrorKind::Value));
        assert_eq!(compare(&Value::Empty, &Value::text("")), Ordering::Equal);
        assert_eq!(compare(&Value::text("Reset"), &Value::text("reset")), Ordering::Equal);
        assert_eq!(compare(&Value::Number(9e9), &Value::text("a")), Ordering::Less);
        assert_eq!(compare(&Value::text("z"), &Value::Bool(false)), Ordering::Less);
    }

    #[test]
    fn blank_and_broadcast() {
        assert!(Value::Empty.is_blank() && Value::text("").is_blank());
        assert!(!Value::text(" ").is_blank() && !Value::Number(0.0).is_blank());
        let row = Value::Array(Arc::new(Array::new(1, 3, vec![Value::Number(1.0), Value::Number(2.0), Value::Empty])));
        assert_eq!(row.broadcast(5, 1), &Value::Number(2.0), "a single row stretches down");
        assert_eq!(row.broadcast(0, 3), &Value::Error(ErrorKind::NA), "past the last column");
        assert_eq!(Value::Bool(true).broadcast(7, 7), &Value::Bool(true));
        assert!(!too_long(&"é".repeat(MAX_TEXT)) && too_long(&"x".repeat(MAX_TEXT + 1)));
    }
}
