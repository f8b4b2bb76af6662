//! Shared subformulas (`engine::share`): a subformula several cells use is
//! evaluated once and reused, yet every cell sees what evaluating it in
//! place would give, in both iteration orders.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::{CellAddr, parse_a1};
use dataflow::engine::Sharing;
use dataflow::eval::BExpr;
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::testing::Sheet;
use std::path::Path;

/// `tot` is read by A1 and A3, in a cycle with B2 (which A1 feeds) and B3.
fn cycle_through_a_shared_name(sharing: Sharing, order: Order) -> Sheet {
    let mut s = Sheet::new();
    s.sharing(sharing);
    s.name("tot", "=SUM($B$1:$B$3)");
    s.set("A1", "=tot");
    s.set("B2", "=A1+1");
    s.set("A3", "=tot");
    s.set("B3", "=A3*0");
    s.iterate(1, 0.0);
    s.settings_mut().order = order;
    s
}

#[test]
fn in_row_major_order_a_shared_value_read_after_its_input_changed_is_new() {
    for sharing in [Sharing::On, Sharing::Off] {
        let mut s = cycle_through_a_shared_name(sharing, Order::RowMajor);
        s.step();
        assert_eq!(s.evaluated(), ["A1", "B2", "A3", "B3"], "{sharing:?}");
        // A1 read the sum before B2 changed, A3 after.
        assert_eq!([s.text("A1"), s.text("B2"), s.text("A3")], ["0", "1", "1"], "{sharing:?}");
        s.step();
        assert_eq!([s.text("A1"), s.text("B2"), s.text("A3")], ["1", "2", "2"], "{sharing:?}");
    }
}

#[test]
fn in_synchronous_order_every_cell_reads_the_previous_iteration() {
    for sharing in [Sharing::On, Sharing::Off] {
        let mut s = cycle_through_a_shared_name(sharing, Order::Synchronous);
        s.step();
        assert_eq!([s.text("A1"), s.text("B2"), s.text("A3")], ["0", "1", "0"], "{sharing:?}");
        s.step();
        assert_eq!([s.text("A1"), s.text("B2"), s.text("A3")], ["1", "1", "1"], "{sharing:?}");
    }
}

#[test]
fn a_constant_set_between_recalculations_is_seen_by_every_reader() {
    let mut s = Sheet::new();
    s.name("big", "=MAX($A$1:$A$3)*10");
    for c in ["B1", "B2", "B3"] {
        s.set(c, "=big+1");
    }
    s.set("A2", "4");
    s.recalc();
    assert_eq!(s.text("B3"), "41");
    s.set("A3", "5");
    s.recalc();
    assert_eq!(s.evaluated(), ["B1", "B2", "B3"]);
    assert_eq!([s.text("B1"), s.text("B2"), s.text("B3")], ["51", "51", "51"]);
}

/// Every `Shared` node in `e`.
fn count_shared(e: &BExpr) -> usize {
    match e {
        BExpr::Shared(_) => 1,
        BExpr::Const(_) | BExpr::Local(_) => 0,
        BExpr::Kept(x) => count_shared(x),
        BExpr::Unary(_, x) | BExpr::ArrayMode(x) => count_shared(x),
        BExpr::Binary(_, lr) => lr.iter().map(count_shared).sum(),
        BExpr::Call(_, args) => args.iter().map(count_shared).sum(),
    }
}

#[test]
fn the_ellis_counts_of_a_digit_in_a_row_column_or_box_are_shared() {
    let s = Session::load(Path::new("workbooks/sudoku.ron")).unwrap();
    let program = s.engine().program();
    // 243 (row, column or box; digit) counts for the valid-values board,
    // 27 (row, column or box) counts of every digit for the solution board.
    assert!(program.shared().len() >= 243 + 27, "{} shared", program.shared().len());
    // Each valid-values cell uses its three counts (and `state="reset"`).
    let (row, col) = parse_a1("P4").unwrap();
    let p4 = program.formula_at(CellAddr::new(0, row, col)).unwrap();
    assert!(count_shared(program.formula(p4)) >= 4, "{:?}", program.formula(p4));
}

#[test]
fn shared_subformulas_inside_shared_subformulas_keep_their_own_values() {
    // ex_0 = ex_1+ex_1, ..., ex_5 = $B$1: each level is shared inside the
    // one above it, 2^5 copies of B1 in all.
    let mut s = Sheet::new();
    for i in 0..5 {
        s.name(&format!("ex_{i}"), &format!("=ex_{0}+ex_{0}", i + 1));
    }
    s.name("ex_5", "=$B$1");
    s.set("B1", "3");
    s.set("A1", "=ex_0");
    s.set("A2", "=ex_2*100");
    s.recalc();
    assert_eq!([s.text("A1"), s.text("A2")], ["96", "2400"]);
}

/// `nm` is `A1:A2` when A1 is 0 (`INDEX(..,0,0)` is the whole range), and
/// `0+nm` outside array mode reads it by implicit intersection with the
/// calculating cell: A2 from row 2, `#VALUE!` from row 3. Sharing `0+nm`
/// (evaluated once, as an array) gave both cells A1's value.
#[test]
fn an_operator_over_a_name_giving_several_cells_intersects_it_in_each_cell() {
    for sharing in [Sharing::On, Sharing::Off] {
        let mut s = Sheet::new();
        s.sharing(sharing);
        s.name("nm", "=(INDEX($A$1:$A$2,$A$1,$A$1):$A$1)");
        s.set("A2", "5");
        s.set("B2", "=(0+nm)");
        s.set("C3", "=(0+nm)");
        s.recalc();
        assert_eq!([s.text("B2"), s.text("C3")], ["5", "#VALUE!"], "{sharing:?}");
    }
}

/// The case `tests/properties/sharing.rs` found: `nm` is `A1:B1`, which
/// C2 and E3 (outside its columns) intersect to `#VALUE!`.
#[test]
fn the_minimal_case_the_sharing_property_found() {
    for sharing in [Sharing::On, Sharing::Off] {
        let mut s = Sheet::new();
        s.sharing(sharing);
        s.name("nm", "=(INDEX($A$1:$B$1,($A$1=$A$1),$A$1):$A$1)");
        s.set("C2", "=(nm+0)");
        s.set("E3", "=(nm+0)");
        s.iterate(100, 0.0);
        s.settings_mut().order = Order::RowMajor;
        s.step();
        assert_eq!([s.text("C2"), s.text("E3")], ["#VALUE!", "#VALUE!"], "{sharing:?}");
    }
}
