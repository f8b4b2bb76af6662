//! Every function that produces or reads dense arrays (see `value::Kind`)
//! gives exactly what it gives the same elements stored as values: equal,
//! printed alike, and dense where the brief says so.

use super::lookup;
use super::stats::tests::grid;
use crate::address::Area;
use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval};
use crate::grid::Grid;
use crate::value::{Array, ErrorKind, Value, collect_array};
use Value::{Bool as B, Empty as E, Number as N};
use std::sync::Arc;

/// The same elements stored densely and as values.
fn pair(rows: usize, cols: usize, data: &[Value]) -> (Value, Value) {
    let values = Value::Array(Arc::new(Array::new(rows, cols, data.to_vec())));
    let dense = collect_array(rows, cols, data.iter().cloned());
    assert!(is_dense(&dense), "{data:?}");
    (dense, values)
}

fn is_dense(v: &Value) -> bool {
    matches!(v, Value::Array(a) if a.as_dense().is_some())
}

/// `name(args)` evaluated as an array formula.
fn call(g: &Grid, name: &str, args: &[Value]) -> Value {
    let spec = lookup(name).unwrap();
    let args: Vec<BExpr> = args.iter().cloned().map(BExpr::Const).collect();
    let block = Area::new(0, 40, 4, 41, 5);
    Eval::new(g, block.top_left()).in_block(Some(block)).eval_array(&BExpr::Call(spec, args.into()))
}

/// `name` with dense arguments gives what it gives them as values.
fn same(g: &Grid, name: &str, dense: &[Value], values: &[Value]) -> Value {
    let (d, v) = (call(g, name, dense), call(g, name, values));
    assert_eq!(format!("{d:?}"), format!("{v:?}"), "{name}");
    assert_eq!(d, v, "{name}");
    d
}

#[test]
fn mmult_transpose_sequence() {
    let g = grid(&[]);
    let (x, xv) = pair(2, 2, &[N(1.0), N(0.0), N(-2.5), N(1e308)]);
    let (y, yv) = pair(2, 1, &[N(3.0), N(10.0)]);
    let p = same(&g, "MMULT", &[x.clone(), y.clone()], &[xv.clone(), yv.clone()]);
    assert_eq!(p, Value::Array(Arc::new(Array::new(2, 1, vec![N(3.0), Value::Error(ErrorKind::Num)]))));
    let (ok, okv) = pair(2, 1, &[N(3.0), N(0.0)]);
    assert!(is_dense(&same(&g, "MMULT", &[x.clone(), ok], &[xv.clone(), okv])), "finite products are dense");
    let (b, bv) = pair(2, 1, &[B(true), B(false)]);
    assert_eq!(same(&g, "MMULT", &[x.clone(), b], &[xv.clone(), bv]), Value::Error(ErrorKind::Value));
    let blank = Value::Array(Arc::new(Array::new(2, 1, vec![N(1.0), E])));
    assert_eq!(call(&g, "MMULT", &[x.clone(), blank]), Value::Error(ErrorKind::Value));
    let t = same(&g, "TRANSPOSE", std::slice::from_ref(&y), &[yv]);
    assert!(is_dense(&t) && matches!(&t, Value::Array(a) if (a.rows, a.cols) == (1, 2)));
    let (tb, tbv) = pair(1, 3, &[B(true), B(false), B(true)]);
    assert!(is_dense(&same(&g, "TRANSPOSE", &[tb], &[tbv])));
    let seq = call(&g, "SEQUENCE", &[N(2.0), N(2.0), N(1.0), N(0.5)]);
    assert_eq!(seq, pair(2, 2, &[N(1.0), N(1.5), N(2.0), N(2.5)]).1);
    assert!(is_dense(&seq));
    let over = call(&g, "SEQUENCE", &[N(2.0), N(1.0), N(1e308), N(1e308)]);
    assert_eq!(over, Value::Array(Arc::new(Array::new(2, 1, vec![N(1e308), Value::Error(ErrorKind::Num)]))));
}

#[test]
fn row_column_index() {
    let g = grid(&[]);
    let rows = call(&g, "ROW", &[Value::Ref(Area::new(0, 2, 0, 4, 0))]);
    assert_eq!(rows, pair(3, 1, &[N(3.0), N(4.0), N(5.0)]).1);
    assert!(is_dense(&rows));
    let cols = call(&g, "COLUMN", &[Value::Ref(Area::new(0, 0, 1, 0, 2))]);
    assert!(is_dense(&cols) && cols == pair(1, 2, &[N(2.0), N(3.0)]).1);
    let (src, srcv) = pair(2, 2, &[N(1.0), N(2.0), N(3.0), N(4.0)]);
    let (r, rv) = pair(2, 1, &[N(1.0), N(2.0)]);
    let (c, cv) = pair(1, 2, &[N(2.0), N(1.0)]);
    let picked = same(&g, "INDEX", &[src.clone(), r.clone(), c.clone()], &[srcv.clone(), rv.clone(), cv]);
    assert!(is_dense(&picked));
    assert_eq!(picked, pair(2, 2, &[N(2.0), N(1.0), N(4.0), N(3.0)]).1);
    // An index past the array is a #REF! element: not dense.
    let (far, farv) = pair(2, 1, &[N(1.0), N(3.0)]);
    let mixed = same(&g, "INDEX", &[src.clone(), far, N(1.0)], &[srcv.clone(), farv, N(1.0)]);
    assert!(!is_dense(&mixed));
    assert!(is_dense(&same(&g, "INDEX", &[src, N(0.0), N(2.0)], &[srcv, N(0.0), N(2.0)])), "a column of it");
}

#[test]
fn countif_and_the_is_tests() {
    let g = grid(&[N(1.0), N(2.0), N(2.0), Value::text("2"), B(true), E, N(1.0000000000000002)]);
    let range = Value::Ref(Area::new(0, 0, 0, 6, 0));
    let (crit, critv) = pair(1, 4, &[N(1.0), N(2.0), N(3.0), N(1.5)]);
    let counts = same(&g, "COUNTIF", &[range.clone(), crit], &[range.clone(), critv]);
    assert!(is_dense(&counts));
    assert_eq!(counts, pair(1, 4, &[N(2.0), N(3.0), N(0.0), N(0.0)]).1);
    let (far, farv) = pair(1, 2, &[N(1.0), N(1e300)]);
    assert!(is_dense(&same(&g, "COUNTIF", &[range.clone(), far], &[range.clone(), farv])));
    let (truth, truthv) = pair(1, 2, &[B(true), B(false)]);
    assert_eq!(same(&g, "COUNTIF", &[range.clone(), truth], &[range, truthv]), pair(1, 2, &[N(1.0), N(0.0)]).1);
    let (nums, numsv) = pair(1, 2, &[N(1.0), N(0.0)]);
    let (bools, boolsv) = pair(1, 2, &[B(true), B(false)]);
    let mixed = Value::Array(Arc::new(Array::new(1, 4, vec![N(1.0), B(true), E, Value::Error(ErrorKind::NA)])));
    for f in ["ISNUMBER", "ISLOGICAL", "ISTEXT", "ISNONTEXT", "ISBLANK", "ISERROR", "ISNA", "ISERR"] {
        assert!(is_dense(&same(&g, f, std::slice::from_ref(&nums), std::slice::from_ref(&numsv))));
        assert!(is_dense(&same(&g, f, std::slice::from_ref(&bools), std::slice::from_ref(&boolsv))));
        assert!(is_dense(&call(&g, f, std::slice::from_ref(&mixed))));
        assert_eq!(call(&g, f, &[B(true)]), first(call(&g, f, &[pair(1, 1, &[B(true)]).1])));
    }
    assert_eq!(call(&g, "ISNUMBER", &[mixed]), pair(1, 4, &[B(true), B(false), B(false), B(false)]).1);
}

#[test]
fn aggregates_read_dense_arrays() {
    let g = grid(&[]);
    let (n, nv) = pair(2, 2, &[N(0.5), N(-3.0), N(0.0), N(7.25)]);
    let (b, bv) = pair(1, 3, &[B(true), B(false), B(true)]);
    for f in ["SUM", "MAX", "MIN", "COUNT", "COUNTA", "AVERAGE", "AND", "OR", "XOR", "PRODUCT", "SUMPRODUCT"] {
        same(&g, f, std::slice::from_ref(&n), std::slice::from_ref(&nv));
        same(&g, f, std::slice::from_ref(&b), std::slice::from_ref(&bv));
        same(&g, f, &[n.clone(), b.clone(), N(2.0)], &[nv.clone(), bv.clone(), N(2.0)]);
    }
    assert_eq!(call(&g, "COUNT", &[b.clone(), n.clone()]), N(4.0), "booleans in arrays are not counted");
    for f in ["NOT", "ABS", "N"] {
        assert!(is_dense(&same(&g, f, std::slice::from_ref(&b), std::slice::from_ref(&bv))), "{f}");
    }
}

/// The top-left element of an array result.
fn first(v: Value) -> Value {
    match v {
        Value::Array(a) => a.first().unwrap(),
        v => v,
    }
}

/// `name(args)` as an array formula whose arguments are expressions.
fn call_exprs(g: &Grid, name: &str, args: Vec<BExpr>) -> Value {
    let block = Area::new(0, 40, 4, 41, 5);
    Eval::new(g, block.top_left()).in_block(Some(block)).eval_array(&BExpr::Call(lookup(name).unwrap(), args.into()))
}

fn product(x: &Value, y: &Value) -> BExpr {
    BExpr::binary(BinaryOp::Mul, BExpr::Const(x.clone()), BExpr::Const(y.clone()))
}

#[test]
fn extremes_fold_dense_buffers_and_products() {
    // Cells: a number, text, a boolean, an empty cell, an error further down.
    let g = grid(&[N(-4.0), Value::text("9"), B(true), E, N(-1.5)]);
    let cells = Value::Ref(Area::new(0, 0, 0, 4, 0));
    let (n, nv) = pair(1, 3, &[N(-2.0), N(-0.0), N(-7.5)]);
    let (b, bv) = pair(3, 1, &[B(false), B(true), B(false)]);
    let na = Value::Error(ErrorKind::NA);
    for f in ["MAX", "MIN", "MAXA", "MINA", "AVERAGEA", "SUM", "AVERAGE", "SUMSQ", "PRODUCT", "AND", "OR", "XOR"] {
        for (d, v) in [
            (vec![n.clone()], vec![nv.clone()]),
            (vec![b.clone()], vec![bv.clone()]),
            (vec![b.clone(), cells.clone(), n.clone()], vec![bv.clone(), cells.clone(), nv.clone()]),
            (vec![n.clone(), na.clone(), b.clone()], vec![nv.clone(), na.clone(), bv.clone()]),
            (vec![Value::text("x"), n.clone()], vec![Value::text("x"), nv.clone()]),
        ] {
            same(&g, f, &d, &v);
        }
    }
    // Booleans in an array: skipped by MAX, 0 and 1 for MAXA; MAX of
    // nothing it counts is 0.
    assert_eq!(call(&g, "MAX", std::slice::from_ref(&b)), N(0.0));
    assert_eq!(call(&g, "MINA", &[b.clone(), N(0.5)]), N(0.0));
    assert_eq!(call(&g, "MAXA", &[b.clone(), N(0.5)]), N(1.0));
    assert_eq!(call(&g, "MAX", &[n.clone(), N(-3.0)]), N(-0.0));
    assert_eq!(call(&g, "SUM", &[n.clone(), b.clone(), cells.clone()]), N(-15.0));
    assert_eq!(call(&g, "OR", &[b.clone(), na.clone()]), na, "the first error wins");

    // MAX(x*y): folded without building the product, as building it gives.
    let (x, xv) = pair(2, 2, &[N(3.0), N(-1.0), N(1.0), N(0.5)]);
    let (y, yv) = pair(2, 2, &[N(2.0), N(7.0), N(-9.0), N(4.0)]);
    let (t, tv) = pair(2, 2, &[B(true), B(false), B(true), B(true)]);
    let (big, bigv) = pair(2, 2, &[N(1e308), N(1.0), N(1.0), N(1.0)]);
    let (row, rowv) = pair(1, 2, &[N(2.0), N(3.0)]);
    let cases = [
        ((&x, &xv), (&y, &yv), N(6.0)),
        ((&t, &tv), (&y, &yv), N(4.0)),
        ((&big, &bigv), (&y, &yv), Value::Error(ErrorKind::Num)),
        ((&x, &xv), (&row, &rowv), N(6.0)),
        ((&x, &xv), (&na, &na), na.clone()),
        ((&x, &xv), (&cells, &cells), na.clone()),
    ];
    for ((l, lv), (r, rv), expected) in cases {
        for f in ["MAX", "MIN", "MAXA"] {
            let fused = call_exprs(&g, f, vec![product(l, r), BExpr::Const(N(-100.0))]);
            let built = call_exprs(&g, f, vec![product(lv, rv), BExpr::Const(N(-100.0))]);
            assert_eq!(format!("{fused:?}"), format!("{built:?}"), "{f} {l:?} {r:?}");
        }
        assert_eq!(call_exprs(&g, "MAX", vec![product(l, r)]), expected, "{l:?} * {r:?}");
    }
    let after_error = call_exprs(&g, "MAX", vec![BExpr::Const(na.clone()), product(&x, &y)]);
    assert_eq!(after_error, na);
}

#[test]
fn index_of_a_dense_row_or_column_by_one_number() {
    let g = grid(&[]);
    let (col, colv) = pair(3, 1, &[N(10.0), N(-0.0), N(30.0)]);
    let (row, rowv) = pair(1, 3, &[B(true), B(false), B(true)]);
    let (square, squarev) = pair(2, 2, &[N(1.0), N(2.0), N(3.0), N(4.0)]);
    let (one, onev) = pair(1, 1, &[N(5.0)]);
    for (d, v) in [(&col, &colv), (&row, &rowv), (&square, &squarev), (&one, &onev)] {
        for k in [1.0, 2.0, 2.9, 3.0, 4.0, 0.0, 0.5, -0.5, -1.0, 1e300] {
            same(&g, "INDEX", &[d.clone(), N(k)], &[v.clone(), N(k)]);
        }
        same(&g, "INDEX", &[d.clone(), B(true)], &[v.clone(), B(true)]);
        same(&g, "INDEX", &[d.clone(), Value::text("2")], &[v.clone(), Value::text("2")]);
    }
    assert_eq!(call(&g, "INDEX", &[col.clone(), N(2.9)]), N(-0.0));
    assert_eq!(call(&g, "INDEX", &[row.clone(), N(3.0)]), B(true));
    assert_eq!(call(&g, "INDEX", &[col.clone(), N(4.0)]), Value::Error(ErrorKind::Ref));
    assert_eq!(call(&g, "INDEX", &[col.clone(), N(-1.0)]), Value::Error(ErrorKind::Value));
    assert_eq!(call(&g, "INDEX", &[col, N(0.0)]), colv, "index 0: the whole column");
    assert_eq!(call(&g, "INDEX", &[square, N(2.0)]), pair(1, 2, &[N(3.0), N(4.0)]).1, "a row of it");
}
