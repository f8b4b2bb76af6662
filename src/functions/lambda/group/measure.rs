//! What GROUPBY and PIVOTBY aggregate: the value columns, the data rows
//! kept (past the header row, where the filter holds) and the functions.
//! The function argument is one function (a LAMBDA, a function's name) or
//! a vector of them written as `HSTACK(SUM, AVERAGE)` (laid out across) or
//! `VSTACK(SUM, AVERAGE)` (laid out down), as the binder leaves it (see
//! `eval::bind::lambda`): a shape read where it is written, not a run-time
//! value. Each pair of a function and a value column is a measure, in
//! function-major order (every value column under the first function,
//! then under the second).

use super::super::helpers::one;
use super::super::{Callable, callable, invoke, stacks_functions, takes};
use super::Res;
use crate::eval::{BExpr, Eval};
use crate::functions::args::array;
use crate::value::{Array, ErrorKind, Value};
use std::sync::Arc;

/// One aggregating function.
struct Function<'f> {
    f: Callable<'f>,
    /// Whether it takes the group's values and the whole's (PERCENTOF).
    with_all: bool,
    /// Its name in a header: the function's, or `LAMBDA`.
    name: Value,
}

/// The values, the rows kept and the functions.
pub(super) struct Measures<'f> {
    pub values: Arc<Array>,
    /// The data rows kept (headers and filtered rows left out).
    pub rows: Vec<usize>,
    functions: Vec<Function<'f>>,
    /// Whether a function vector was written down (VSTACK): the measures
    /// are laid out as rows rather than columns.
    pub vertical: bool,
}

impl<'f> Measures<'f> {
    /// The values, the functions `f` and the rows of `values` kept: past
    /// the header row (`start`), where `filter` (as tall as the values)
    /// holds. A function taking neither one argument nor two is #VALUE!,
    /// no row kept #CALC!.
    pub fn new(ev: &mut Eval, values: Arc<Array>, f: &'f BExpr, start: usize, filter: Option<&BExpr>) -> Res<Self> {
        let (found, vertical) = vector(f).ok_or(ErrorKind::Value)?;
        let mut functions = Vec::with_capacity(found.len());
        for f in found {
            let with_all = !takes(&f, 1);
            if with_all && !takes(&f, 2) {
                return Err(ErrorKind::Value);
            }
            let name = match &f {
                Callable::Builtin(spec) => Value::text(spec.name),
                Callable::Lambda(_) => Value::text("LAMBDA"),
            };
            functions.push(Function { f, with_all, name });
        }
        let mut rows: Vec<usize> = (start..values.rows).collect();
        if let Some(a) = filter {
            let filter = array(ev, a)?;
            if filter.len() != values.rows {
                return Err(ErrorKind::Value);
            }
            let mut kept = Vec::with_capacity(rows.len());
            for r in rows {
                if filter.values()[r].to_bool()? {
                    kept.push(r);
                }
            }
            rows = kept;
        }
        if rows.is_empty() {
            return Err(ErrorKind::Calc);
        }
        Ok(Measures { values, rows, functions, vertical })
    }

    /// How many measures: functions × value columns.
    pub fn count(&self) -> usize {
        self.functions.len() * self.values.cols
    }

    /// Whether several functions were given (their names label the measures).
    pub fn several(&self) -> bool {
        self.functions.len() > 1
    }

    /// Whether a function takes the whole's values too.
    pub fn with_all(&self) -> bool {
        self.functions.iter().any(|f| f.with_all)
    }

    /// The value column of measure `m`.
    pub fn column(&self, m: usize) -> usize {
        m % self.values.cols
    }

    /// The name of measure `m`'s function.
    pub fn name(&self, m: usize) -> Value {
        self.functions[m / self.values.cols].name.clone()
    }

    /// Measure `m` over `rows` (with `all` for a function taking two
    /// arguments): one value, an array result #CALC!.
    pub fn aggregate(&self, ev: &mut Eval, rows: &[usize], all: &[usize], m: usize) -> Value {
        let f = &self.functions[m / self.values.cols];
        let c = self.column(m);
        let mut args = vec![column(&self.values, rows, c)];
        if f.with_all {
            args.push(column(&self.values, all, c));
        }
        let v = invoke(ev, &f.f, args);
        one(ev, v)
    }
}

/// The functions `e` is: one function, or a stack of them (HSTACK across,
/// VSTACK down: whether down).
fn vector(e: &BExpr) -> Option<(Vec<Callable<'_>>, bool)> {
    match e {
        BExpr::ArrayMode(x) => vector(x),
        BExpr::Kept(x) => vector(x),
        BExpr::Call(spec, items) if stacks_functions(spec) => {
            let found = items.iter().map(callable).collect::<Option<Vec<_>>>()?;
            Some((found, spec.name == "VSTACK"))
        }
        e => callable(e).map(|f| (vec![f], false)),
    }
}

/// Column `c` of `a` at `rows`, as a one-column array.
fn column(a: &Array, rows: &[usize], c: usize) -> Value {
    let data = rows.iter().map(|&r| a.get(r, c).clone()).collect();
    Value::Array(Arc::new(Array::new(rows.len(), 1, data)))
}
