//! What the hot shapes compile to: the heat-grid cell to its five-op
//! `f64` form, the 25×25 valid-values cell to one IF of an INDEX element
//! between constants, the Ellis valid-values cell to branches on shared
//! values and an OR folded over them, with no jump landing on a jump.
//! (That each shape gives the tree walker's values is `tests/kernel.rs`.)

use super::numeric::NumOp;
use super::scalar::Scalar;
use super::{Away, Kernel, Leaf, Op};
use crate::ast::BinaryOp;
use crate::testing::Sheet;

/// The kernel of `cell` in `s` (which must have one), as `f` sees it.
fn with_kernel<T>(s: &mut Sheet, cell: &str, f: impl FnOnce(Kernel) -> T) -> T {
    let addr = s.addr(cell);
    let program = s.engine_ref().program();
    let id = program.formula_at(addr).expect("a formula cell");
    f(program.kernels.get(id.index()).expect("a kernel"))
}

#[test]
fn a_heat_grid_cell_adds_its_neighbours_and_divides_by_a_constant() {
    let mut s = Sheet::new();
    s.set("B2", "=(A2+C2+B1+B3)/4");
    // Each cell read as it lies from B2.
    let b2 = s.addr("B2");
    let [a2, c2, b1, b3] = ["A2", "C2", "B1", "B3"].map(|c| Away::between(b2, s.addr(c)));
    with_kernel(&mut s, "B2", |k| {
        let got = format!("{:?}", k.numeric);
        let want = [NumOp::Cell(a2), NumOp::AddCell(c2), NumOp::AddCell(b1), NumOp::AddCell(b3), NumOp::DivConst(4.0)];
        assert_eq!(got, format!("{want:?}"));
    });
}

#[test]
fn arithmetic_with_a_zero_constant_divisor_or_a_comparison_has_no_f64_form() {
    let mut s = Sheet::new();
    s.set("B2", "=(A2+C2)/0");
    s.set("B3", "=A2+C2>1");
    s.set("B4", "=A2-(C2*2)");
    for (cell, numeric) in [("B2", false), ("B3", false), ("B4", true)] {
        with_kernel(&mut s, cell, |k| assert_eq!(!k.numeric.is_empty(), numeric, "{cell}"));
    }
}

#[test]
fn if_of_an_index_element_between_constants_is_one_branch_and_two_constants() {
    let mut s = Sheet::new();
    s.name("col", "$A$1:$A$3>1");
    s.set("B2", "=IF(INDEX(col,2),2,\"\")");
    s.set("B3", "=IF(INDEX(col,3),3,\"\")");
    with_kernel(&mut s, "B2", |k| {
        assert!(
            matches!(
                k.ops,
                [
                    Op::BranchIndex { k: 1, otherwise: 3, end: 4, .. },
                    Op::Const(Scalar::Num(2.0)),
                    Op::Jump(4),
                    Op::Const(_)
                ]
            ),
            "{:?}",
            k.ops
        );
    });
}

#[test]
fn the_ellis_shape_branches_on_shared_values_and_folds_its_or() {
    let mut s = Sheet::new();
    let names = [("reset", "$A$1=1"), ("given", "$A$2<>\"\""), ("row", "$A$3>0"), ("col", "$A$4>0"), ("box", "$A$5>0")];
    for (n, f) in names {
        s.name(n, f);
    }
    // Used twice, the names' formulas are shared values.
    for (cell, d) in [("B2", "D16"), ("B3", "D17")] {
        s.set(cell, &format!("=IF(reset,1,IF(given,IF({d}=1,1,\"\"),IF(OR(row,col,box),\"\",1)))"));
    }
    let (b2, d16) = (s.addr("B2"), s.addr("D16"));
    with_kernel(&mut s, "B2", |k| {
        let ops = k.ops;
        assert!(matches!(ops[0], Op::BranchShared { .. }), "{ops:?}");
        assert!(matches!(ops[3], Op::BranchShared { .. }), "{ops:?}");
        assert!(matches!(ops[4], Op::Load(Leaf::Cell(c)) if c.from(b2) == d16), "{ops:?}");
        assert!(matches!(ops[5], Op::BinLeaf(BinaryOp::Eq, Leaf::Const(Scalar::Num(1.0)))), "{ops:?}");
        let folds: Vec<_> = ops.iter().filter(|op| matches!(op, Op::LogicLeaf { or: true, .. })).collect();
        assert_eq!(folds.len(), 3, "{ops:?}");
        // Every jump goes straight to where its branch ends.
        for op in ops {
            if let Op::Jump(to) = *op {
                assert!(!matches!(ops.get(to as usize), Some(Op::Jump(_))), "{ops:?}");
            }
        }
    });
}
