//! Shared argument helpers, so function bodies stay short: read one argument
//! as a scalar, a number, a text or a boolean with Excel's coercions, and
//! lift a scalar function element-wise over array arguments.

use crate::eval::{BExpr, Eval};
use crate::value::{Array, ErrorKind, Value};
use std::sync::Arc;

/// Evaluates an argument to one value: a reference is read (intersection
/// outside names, see [`Eval::value`]); an array gives its top-left value.
pub fn scalar(ev: &mut Eval, e: &BExpr) -> Value {
    let v = ev.eval(e);
    match ev.value(v) {
        Value::Array(a) => a.data.first().cloned().unwrap_or(Value::Error(ErrorKind::Value)),
        v => v,
    }
}

/// An argument as a number (`"3"` is 3, TRUE is 1, `"abc"` is #VALUE!).
pub fn number(ev: &mut Eval, e: &BExpr) -> Result<f64, ErrorKind> {
    scalar(ev, e).to_number()
}

/// Evaluates every argument to values and calls `f` on scalars; when any
/// argument is an array, `f` runs element by element over the broadcast
/// shape (a single row or column stretches, cells outside a smaller array
/// are #N/A), giving an array. This is how ABS, MOD, LEN, ISNUMBER, ... work
/// on arrays inside names.
pub fn lift(ev: &mut Eval, args: &[BExpr], f: impl Fn(&[Value]) -> Value) -> Value {
    let vals: Vec<Value> = args.iter().map(|a| ev.read(a)).collect();
    lift_values(&vals, f)
}

/// Turns a numeric result into a value (NaN and infinities become #NUM!).
pub fn num_result(r: Result<f64, ErrorKind>) -> Value {
    match r {
        Ok(n) => Value::num(n),
        Err(e) => Value::Error(e),
    }
}

/// Like [`lift`] but over values already read (no references): calls `f`
/// once on scalars, or element by element over the broadcast shape when any
/// value is an array (cells outside a smaller array are #N/A). IF, CHOOSE,
/// IFERROR and MATCH use it after evaluating only what they need.
pub fn lift_values(vals: &[Value], f: impl Fn(&[Value]) -> Value) -> Value {
    let (mut rows, mut cols, mut any) = (1, 1, false);
    for v in vals {
        if let Value::Array(a) = v {
            rows = rows.max(a.rows);
            cols = cols.max(a.cols);
            any = true;
        }
    }
    if !any {
        return f(vals);
    }
    if rows as u64 * cols as u64 > crate::eval::MAX_ARRAY_CELLS {
        return Value::Error(ErrorKind::Num);
    }
    let mut data = Vec::with_capacity(rows * cols);
    let mut row = Vec::with_capacity(vals.len());
    for i in 0..rows {
        for j in 0..cols {
            row.clear();
            row.extend(vals.iter().map(|v| match v {
                Value::Array(a) => a.broadcast(i, j),
                v => v.clone(),
            }));
            data.push(f(&row));
        }
    }
    Value::Array(Arc::new(Array::new(rows, cols, data)))
}

/// Where an aggregate function's operand comes from, which decides its
/// coercions: values typed directly as arguments coerce (`SUM("3",TRUE)` is
/// 4), values read from references and arrays count only as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Direct,
    Range,
}

/// Calls `f` on every scalar of aggregate arguments (SUM, COUNT, COUNTA...),
/// in order: a reference's stored cells row by row and an array's elements
/// as [`Source::Range`], any other value once as [`Source::Direct`].
/// Returns how many cells of the references were skipped as empty because
/// they lie outside the stored grid.
pub fn for_each_operand(ev: &mut Eval, args: &[BExpr], mut f: impl FnMut(&Value, Source)) -> u64 {
    let mut outside = 0;
    for a in args {
        match ev.eval(a) {
            Value::Ref(area) => outside += ev.visit(&area, |v| f(v, Source::Range)),
            Value::Array(arr) => arr.data.iter().for_each(|v| f(v, Source::Range)),
            v => f(&v, Source::Direct),
        }
    }
    outside
}

/// What an aggregate makes of one operand under SUM's rules: `None` when it
/// is ignored (text, booleans and empties read from ranges), a number, or an
/// error (errors anywhere; direct text that is not a number is #VALUE!).
pub fn number_operand(v: &Value, src: Source) -> Option<Result<f64, ErrorKind>> {
    match (v, src) {
        (Value::Number(n), _) => Some(Ok(*n)),
        (Value::Error(e), _) => Some(Err(*e)),
        (_, Source::Range) => None,
        (v, Source::Direct) => Some(v.to_number()),
    }
}

/// Folds the numbers of aggregate arguments (SUM, MIN, MAX) under
/// [`number_operand`]'s rules, starting from `init`; the first error met
/// in argument order is the result instead.
pub fn fold_numbers<T: Copy>(
    ev: &mut Eval,
    args: &[BExpr],
    init: T,
    mut f: impl FnMut(T, f64) -> T,
) -> Result<T, ErrorKind> {
    let mut acc = Ok(init);
    for_each_operand(ev, args, |v, src| {
        if let (Ok(a), Some(r)) = (acc, number_operand(v, src)) {
            acc = r.map(|n| f(a, n));
        }
    });
    acc
}

/// Case folding for comparisons that keeps one char per char (so positions
/// stay valid): the lower-case form when it is a single character.
pub fn fold_char(c: char) -> char {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum WildTok {
    Lit(char),
    /// `?`: any one character.
    One,
    /// `*`: any run of characters.
    Any,
}

/// An Excel wildcard pattern (`?`, `*`, `~` escaping `?`, `*` and `~`),
/// case-insensitive.
#[derive(Clone, Debug, PartialEq)]
pub struct Wildcard(Vec<WildTok>);

impl Wildcard {
    pub fn new(p: &str) -> Self {
        let mut toks = Vec::new();
        let mut it = p.chars().peekable();
        while let Some(c) = it.next() {
            toks.push(match c {
                '~' if matches!(it.peek(), Some('*' | '?' | '~')) => WildTok::Lit(it.next().unwrap_or('~')),
                '?' => WildTok::One,
                '*' => WildTok::Any,
                c => WildTok::Lit(fold_char(c)),
            });
        }
        Wildcard(toks)
    }

    /// True when `p` holds a wildcard or escape, so plain equality will not do.
    pub fn has_wildcards(p: &str) -> bool {
        p.contains(['*', '?', '~'])
    }

    /// Whether the whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        self.matches_str(text)
    }

    /// The first index at or after `from` where a match starts in `text`
    /// (already folded with [`fold_char`]).
    pub fn find(&self, text: &[char], from: usize) -> Option<usize> {
        (from..=text.len()).find(|&i| wild_glob(&self.0, &text[i..], false))
    }
}

/// Matches tokens against text; with `whole`, the text must be used up,
/// otherwise a match of any prefix counts. Backtracks to the last `*` only.
fn wild_glob(p: &[WildTok], t: &[char], whole: bool) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    loop {
        if pi == p.len() && (!whole || ti == t.len()) {
            return true;
        }
        match p.get(pi) {
            Some(WildTok::Any) => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            Some(WildTok::One) if ti < t.len() => {
                (pi, ti) = (pi + 1, ti + 1);
                continue;
            }
            Some(WildTok::Lit(c)) if t.get(ti) == Some(c) => {
                (pi, ti) = (pi + 1, ti + 1);
                continue;
            }
            _ => {}
        }
        match star {
            Some((sp, st)) if st < t.len() => {
                star = Some((sp, st + 1));
                (pi, ti) = (sp + 1, st + 1);
            }
            _ => return false,
        }
    }
}

impl Wildcard {
    /// The whole-text match behind [`Wildcard::matches`], without
    /// allocating: walks `text` by char boundaries.
    pub fn matches_str(&self, text: &str) -> bool {
        let (p, mut pi, mut ti) = (&self.0, 0, 0);
        let mut star: Option<(usize, usize)> = None;
        let char_at = |i: usize| text[i..].chars().next().expect("a char boundary inside text");
        while ti < text.len() {
            let c = char_at(ti);
            let next = ti + c.len_utf8();
            match p.get(pi) {
                Some(WildTok::Any) => {
                    star = Some((pi, ti));
                    pi += 1;
                    continue;
                }
                Some(WildTok::One) => {
                    (pi, ti) = (pi + 1, next);
                    continue;
                }
                Some(WildTok::Lit(x)) if *x == fold_char(c) => {
                    (pi, ti) = (pi + 1, next);
                    continue;
                }
                _ => {}
            }
            // Mismatch: the last `*` takes one more char, or there is none.
            let Some((sp, st)) = star else { return false };
            let st = st + char_at(st).len_utf8();
            star = Some((sp, st));
            (pi, ti) = (sp + 1, st);
        }
        p[pi..].iter().all(|t| *t == WildTok::Any)
    }
}

#[cfg(test)]
mod wildcard_tests {
    use super::*;

    #[test]
    fn wildcards() {
        let m = |p: &str, t: &str| Wildcard::new(p).matches(t);
        assert!(m("a*c", "ABBC"));
        assert!(m("a?c", "abc") && !m("a?c", "ac"));
        assert!(m("*", "") && m("*x*", "box"));
        assert!(m("~*", "*") && !m("~*", "a"));
        assert!(m("a~?", "A?") && !m("a~?", "ab"));
        assert!(m("~~", "~") && m("~x", "~x"));
        assert!(!m("abc", "abcd"));
        let hay: Vec<char> = "xxabcab".chars().collect();
        assert_eq!(Wildcard::new("a?c").find(&hay, 0), Some(2));
        assert_eq!(Wildcard::new("ab").find(&hay, 3), Some(5));
        assert_eq!(Wildcard::new("").find(&hay, 4), Some(4));
        assert_eq!(Wildcard::new("z*").find(&hay, 0), None);
    }
}
