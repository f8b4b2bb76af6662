//! Arrays of values in one of two storages: a `Vec<Value>` for any
//! elements, or a *dense* buffer of `f64` for arrays whose elements are all
//! numbers, or all booleans (stored 0 and 1, with a [`Kind`] flag saying
//! which). A dense number is always finite, as `Value::num` keeps every
//! number. The operators and the array functions produce and read dense
//! arrays without building a `Value` per element; code that needs the
//! elements as values gets them through [`Array::values`], built once on
//! first use. The storage is not observable: equality, `Debug` and every
//! element read give the same whichever holds the elements. So that tests
//! can show it, dense storage can be switched off on a thread
//! ([`dense_arrays`], `Paths::dense`): every array is then held as values
//! and every reader takes its general path.

use super::{ErrorKind, MAX_ARRAY_TEXT, Value};
use std::cell::Cell;
use std::fmt;
use std::sync::{Arc, OnceLock};

thread_local! {
    /// Whether [`Array::dense`] keeps its buffer on this thread.
    static DENSE: Cell<bool> = const { Cell::new(true) };
}

/// Keeps arrays dense on this thread (`on`, the default) or holds every
/// array as values, until the guard is dropped (the setting before is
/// then restored).
pub fn dense_arrays(on: bool) -> DenseArrays {
    DenseArrays { before: DENSE.with(|d| d.replace(on)) }
}

/// The guard of [`dense_arrays`].
#[must_use = "the setting holds until the guard is dropped"]
pub struct DenseArrays {
    before: bool,
}

impl Drop for DenseArrays {
    fn drop(&mut self) {
        DENSE.with(|d| d.set(self.before));
    }
}

/// What a dense array's numbers stand for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Number,
    /// Booleans, FALSE stored as 0 and TRUE as 1.
    Bool,
}

impl Kind {
    /// The element `x` of a dense array of this kind as a value.
    #[inline(always)]
    pub fn value(self, x: f64) -> Value {
        match self {
            Kind::Number => Value::Number(x),
            Kind::Bool => Value::Bool(x != 0.0),
        }
    }
}

/// A 2-D array of scalar values, row-major.
#[derive(Clone)]
pub struct Array {
    pub rows: usize,
    pub cols: usize,
    store: Store,
}

#[derive(Clone)]
enum Store {
    Values(Vec<Value>),
    Dense { nums: Vec<f64>, kind: Kind, values: OnceLock<Vec<Value>> },
}

static NA: Value = Value::Error(ErrorKind::NA);

impl Array {
    /// An array of any values.
    pub fn new(rows: usize, cols: usize, data: Vec<Value>) -> Self {
        debug_assert_eq!(rows * cols, data.len());
        Array { rows, cols, store: Store::Values(data) }
    }

    /// A dense array of finite numbers (`Kind::Number`) or of 0/1 booleans
    /// (held as values where [`dense_arrays`] is off).
    pub fn dense(rows: usize, cols: usize, nums: Vec<f64>, kind: Kind) -> Self {
        debug_assert_eq!(rows * cols, nums.len());
        debug_assert!(nums.iter().all(|x| x.is_finite()), "a dense number is finite");
        debug_assert!(kind == Kind::Number || nums.iter().all(|&x| x == 0.0 || x == 1.0));
        if !DENSE.with(Cell::get) {
            return Array::new(rows, cols, nums.into_iter().map(|x| kind.value(x)).collect());
        }
        Array { rows, cols, store: Store::Dense { nums, kind, values: OnceLock::new() } }
    }

    /// How many elements.
    pub fn len(&self) -> usize {
        self.rows * self.cols
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The dense buffer and its kind, when the array is stored densely.
    #[inline]
    pub fn as_dense(&self) -> Option<(&[f64], Kind)> {
        match &self.store {
            Store::Dense { nums, kind, .. } => Some((nums, *kind)),
            Store::Values(_) => None,
        }
    }

    /// The elements as values, row-major (built once for a dense array).
    pub fn values(&self) -> &[Value] {
        match &self.store {
            Store::Values(v) => v,
            Store::Dense { nums, kind, values } => values.get_or_init(|| nums.iter().map(|&x| kind.value(x)).collect()),
        }
    }

    /// The elements as values to change in place (a dense array becomes a
    /// `Vec<Value>` one).
    pub fn values_mut(&mut self) -> &mut Vec<Value> {
        if let Store::Dense { .. } = self.store {
            let data = self.values().to_vec();
            self.store = Store::Values(data);
        }
        match &mut self.store {
            Store::Values(v) => v,
            Store::Dense { .. } => unreachable!("made a vector of values above"),
        }
    }

    /// The dense buffer to change in place (the values built from it, if
    /// any, forgotten), when the array is stored densely.
    pub fn dense_mut(&mut self) -> Option<&mut [f64]> {
        match &mut self.store {
            Store::Dense { nums, values, .. } => {
                *values = OnceLock::new();
                Some(nums)
            }
            Store::Values(_) => None,
        }
    }

    /// The dense buffer, taken out of an array nobody else holds, to write
    /// a result of the same size into.
    pub fn take_dense(self) -> Option<Vec<f64>> {
        match self.store {
            Store::Dense { nums, .. } => Some(nums),
            Store::Values(_) => None,
        }
    }

    /// Element `i` (row-major) as a value, without building the values of
    /// a dense array.
    #[inline]
    pub fn at(&self, i: usize) -> Value {
        match &self.store {
            Store::Values(v) => v[i].clone(),
            Store::Dense { nums, kind, .. } => kind.value(nums[i]),
        }
    }

    /// Whether the elements are references (see `Value::ref_array`).
    pub fn is_ref_array(&self) -> bool {
        matches!(&self.store, Store::Values(v) if matches!(v.first(), Some(Value::Ref(_))))
    }

    /// The first element, if any.
    pub fn first(&self) -> Option<Value> {
        (!self.is_empty()).then(|| self.at(0))
    }

    /// Calls `f` on every element in order, a dense one as a value on the
    /// stack.
    #[inline]
    pub fn each(&self, mut f: impl FnMut(&Value)) {
        match &self.store {
            Store::Values(v) => v.iter().for_each(f),
            Store::Dense { nums, kind, .. } => nums.iter().for_each(|&x| f(&kind.value(x))),
        }
    }

    pub fn get(&self, r: usize, c: usize) -> &Value {
        &self.values()[r * self.cols + c]
    }

    /// Excel's broadcasting read: a single row or column stretches, cells
    /// outside a smaller array are #N/A.
    pub fn broadcast(&self, r: usize, c: usize) -> &Value {
        let r = if self.rows == 1 { 0 } else { r };
        let c = if self.cols == 1 { 0 } else { c };
        if r < self.rows && c < self.cols { self.get(r, c) } else { &NA }
    }

    /// A copy that shares no allocation with this array.
    pub fn detached(&self) -> Array {
        match &self.store {
            Store::Values(v) => Array::new(self.rows, self.cols, v.iter().map(Value::detached).collect()),
            Store::Dense { nums, kind, .. } => Array::dense(self.rows, self.cols, nums.clone(), *kind),
        }
    }
}

impl PartialEq for Array {
    /// Equal when of one shape with equal elements, however stored.
    fn eq(&self, other: &Array) -> bool {
        if (self.rows, self.cols) != (other.rows, other.cols) {
            return false;
        }
        match (&self.store, &other.store) {
            (Store::Values(a), Store::Values(b)) => a == b,
            (Store::Dense { nums: a, kind: k, .. }, Store::Dense { nums: b, kind: l, .. }) => {
                a.is_empty() || (k == l && a == b)
            }
            _ => (0..self.len()).all(|i| self.at(i) == other.at(i)),
        }
    }
}

impl fmt::Debug for Array {
    /// As the derived `Debug` of `{ rows, cols, data: Vec<Value> }` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Elements<'a>(&'a Array);
        impl fmt::Debug for Elements<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut list = f.debug_list();
                self.0.each(|v| {
                    list.entry(v);
                });
                list.finish()
            }
        }
        f.debug_struct("Array")
            .field("rows", &self.rows)
            .field("cols", &self.cols)
            .field("data", &Elements(self))
            .finish()
    }
}

/// Collects elements into the densest storage that holds them: a dense
/// buffer while every element is a number (or every one a boolean), values
/// from the first element that breaks that on.
enum Collector {
    Dense(Vec<f64>, Option<Kind>),
    Values(Vec<Value>),
}

impl Collector {
    #[inline]
    fn push(&mut self, v: Value) {
        if let Collector::Dense(nums, kind) = self {
            let here = match v {
                // A dense number is finite (see the module doc); anything
                // else keeps its value as it is.
                Value::Number(x) if x.is_finite() => Some((x, Kind::Number)),
                Value::Bool(b) => Some((f64::from(u8::from(b)), Kind::Bool)),
                _ => None,
            };
            match (here, *kind) {
                (Some((x, k)), Some(kk)) if k == kk => return nums.push(x),
                (Some((x, k)), None) => {
                    *kind = Some(k);
                    return nums.push(x);
                }
                _ => {
                    let k = kind.unwrap_or(Kind::Number);
                    let mut data = Vec::with_capacity(nums.capacity());
                    data.extend(nums.iter().map(|&x| k.value(x)));
                    *self = Collector::Values(data);
                }
            }
        }
        if let Collector::Values(data) = self {
            data.push(v);
        }
    }
}

/// An array of `rows` x `cols` elements, produced in row-major order and
/// kept to [`MAX_ARRAY_TEXT`]: #NUM! as soon as the texts pass it, before
/// the memory is taken. Every array an operator or a function builds
/// element by element goes through here; all numbers (or all booleans)
/// give a dense array.
pub fn collect_array(rows: usize, cols: usize, items: impl Iterator<Item = Value>) -> Value {
    let mut out = Collector::Dense(Vec::with_capacity(rows * cols), None);
    let mut bytes = 0usize;
    for v in items {
        if let Value::Text(t) = &v {
            bytes += t.len();
            if bytes > MAX_ARRAY_TEXT {
                return Value::Error(ErrorKind::Num);
            }
        }
        out.push(v);
    }
    let array = match out {
        Collector::Dense(nums, kind) => Array::dense(rows, cols, nums, kind.unwrap_or(Kind::Number)),
        Collector::Values(data) => Array::new(rows, cols, data),
    };
    Value::Array(Arc::new(array))
}

/// An array of numbers: dense when all are finite; otherwise each
/// non-finite one is the #NUM! element, as [`Value::num`] makes it.
pub fn numbers(rows: usize, cols: usize, nums: Vec<f64>) -> Value {
    let array = if nums.iter().all(|x| x.is_finite()) {
        Array::dense(rows, cols, nums, Kind::Number)
    } else {
        Array::new(rows, cols, nums.into_iter().map(Value::num).collect())
    };
    Value::Array(Arc::new(array))
}

/// An array of booleans, given as 0 and 1.
pub fn booleans(rows: usize, cols: usize, bits: Vec<f64>) -> Value {
    Value::Array(Arc::new(Array::dense(rows, cols, bits, Kind::Bool)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::{Bool as B, Number as N};

    fn both(rows: usize, cols: usize, nums: &[f64], kind: Kind) -> (Array, Array) {
        let values = nums.iter().map(|&x| kind.value(x)).collect();
        (Array::dense(rows, cols, nums.to_vec(), kind), Array::new(rows, cols, values))
    }

    #[test]
    fn storage_is_not_observable() {
        for kind in [Kind::Number, Kind::Bool] {
            let (dense, values) = both(2, 2, &[1.0, 0.0, 0.0, 1.0], kind);
            assert_eq!(dense, values);
            assert_eq!(values, dense);
            assert_eq!(format!("{dense:?}"), format!("{values:?}"));
            assert_eq!(format!("{dense:#?}"), format!("{values:#?}"));
            assert_eq!(dense.values(), values.values());
            assert_eq!(dense.detached(), values);
            assert_eq!(dense.broadcast(1, 0), values.broadcast(1, 0));
            assert_eq!(dense.first(), values.values().first().cloned());
        }
        let (numbers, _) = both(1, 2, &[1.0, 0.0], Kind::Number);
        let (bools, _) = both(1, 2, &[1.0, 0.0], Kind::Bool);
        assert_ne!(numbers, bools, "TRUE is not 1");
        let (wide, _) = both(2, 1, &[1.0, 0.0], Kind::Number);
        assert_ne!(numbers, wide, "same elements, another shape");
        let printed = "Array { rows: 1, cols: 2, data: [Number(1.0), Number(0.0)] }";
        assert_eq!(format!("{numbers:?}"), printed);
    }

    #[test]
    fn collecting_picks_the_storage() {
        let dense = |v: &Value| matches!(v, Value::Array(a) if a.as_dense().is_some());
        let nums = collect_array(1, 3, [N(1.0), N(-0.0), N(3.5)].into_iter());
        assert!(dense(&nums));
        let bools = collect_array(1, 2, [B(true), B(false)].into_iter());
        let Value::Array(b) = &bools else { panic!() };
        assert_eq!(b.as_dense().map(|d| d.1), Some(Kind::Bool));
        let mixed = [N(1.0), B(true), Value::Empty];
        let m = collect_array(1, 3, mixed.clone().into_iter());
        assert!(!dense(&m));
        assert_eq!(m, Value::Array(Arc::new(Array::new(1, 3, mixed.to_vec()))));
        assert_eq!(
            numbers(1, 2, vec![1.0, f64::INFINITY]),
            Value::Array(Arc::new(Array::new(1, 2, vec![N(1.0), Value::Error(ErrorKind::Num)])))
        );
        assert!(dense(&numbers(1, 2, vec![1.0, 2.0])));
        // A number that is not finite (never made by `Value::num`) is not packed.
        assert!(!dense(&collect_array(1, 2, [N(1.0), N(f64::NAN)].into_iter())));
    }

    #[test]
    fn values_mut_turns_dense_into_values() {
        let (mut dense, values) = both(1, 2, &[4.0, 5.0], Kind::Number);
        dense.values_mut()[1] = N(5.0);
        assert!(dense.as_dense().is_none());
        assert_eq!(dense, values);
    }
}
