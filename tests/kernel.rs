//! The kernels, the flat fast path for scalar formula cells: each shape
//! they take gives exactly what the tree walker gives (the plain
//! evaluation, `Sharing::Off`, which has no kernel), on the edge cases of
//! Excel's rules (empty cells, text, booleans, errors, division by zero),
//! and values a kernel does not hold (arrays, text read from a cell) bail
//! out to the tree walker. The workbooks that need them run through them:
//! every Ellis valid-values cell and every heat-grid cell has a kernel,
//! and a solve bails out rarely.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::engine::Sharing;
use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use std::path::Path;

/// Inputs on row 1 (`B1` empty), formulas on rows 2 and below.
const INPUTS: &[(&str, &str)] = &[
    ("C1", "0"),
    ("D1", "abc"),
    ("E1", "TRUE"),
    ("F1", "#N/A"),
    ("G1", "0.1"),
    ("H1", "1e200"),
    ("I1", "2"),
    ("J1", "FALSE"),
];

/// Builds `formulas` (cell, formula) over [`INPUTS`] with kernels (shared
/// subformulas on) and plainly; recalculates both; checks every cell shows
/// the same. Returns the sheet with kernels.
fn agree(names: &[(&str, &str)], formulas: &[(&str, &str)]) -> Sheet {
    let [mut fast, mut plain] = [Sharing::On, Sharing::Off].map(|sharing| {
        let mut s = Sheet::new();
        s.sharing(sharing);
        for (n, f) in names {
            s.name(n, f);
        }
        for (c, v) in INPUTS.iter().chain(formulas) {
            s.set(c, v);
        }
        s.recalc();
        s
    });
    for (c, f) in formulas {
        assert_eq!(fast.text(c), plain.text(c), "{c}: {f}");
        assert_eq!(fast.value(c), plain.value(c), "{c}: {f}");
        // Numbers to the bit: -0 stays -0.
        if let (Value::Number(x), Value::Number(y)) = (fast.value(c), plain.value(c)) {
            assert_eq!(x.to_bits(), y.to_bits(), "{c}: {f}");
        }
    }
    assert_eq!(plain.engine_ref().program().kernel_count(), 0, "the plain evaluation has no kernel");
    assert!(fast.engine_ref().program().kernel_count() > 0);
    fast
}

/// Runs `formulas` (all taken by kernels) through [`agree`]; checks that
/// every one has a kernel and that `bails` of them bailed out.
fn kernels(names: &[(&str, &str)], formulas: &[&str], bails: u64) -> Vec<String> {
    let cells: Vec<(String, String)> =
        formulas.iter().enumerate().map(|(i, f)| (format!("A{}", i + 2), f.to_string())).collect();
    let refs: Vec<(&str, &str)> = cells.iter().map(|(c, f)| (c.as_str(), f.as_str())).collect();
    let mut s = agree(names, &refs);
    assert_eq!(s.engine_ref().program().kernel_count(), formulas.len(), "every formula has a kernel");
    assert_eq!(s.engine_ref().kernel_bails(), bails, "bail-outs");
    cells.iter().map(|(c, _)| s.text(c)).collect()
}

#[test]
fn empty_cells_are_zero_in_arithmetic_and_equal_to_zero_and_empty_text() {
    let got = kernels(
        &[],
        &["=B1+1", "=B1=0", "=B1=\"\"", "=B1<1", "=-B1", "=B1", "=IF(B1,1,2)", "=B1%", "=+B1", "=B1=FALSE", "=B1<TRUE"],
        0,
    );
    assert_eq!(got, ["1", "TRUE", "TRUE", "TRUE", "0", "0", "2", "0", "0", "TRUE", "TRUE"]);
}

#[test]
fn empty_text_from_a_formula_is_text() {
    // A2 is "" (a formula's empty text, read from the cell by the others).
    let got = kernels(
        &[],
        &[
            "=IF(C1=1,1,\"\")",
            "=A2=\"\"",
            "=A2=0",
            "=A2+1",
            "=IF(A2,1,2)",
            "=A2<1",
            "=-A2",
            "=A2=B1",
            "=A2",
            "=A2>TRUE",
        ],
        0,
    );
    assert_eq!(got, ["", "TRUE", "FALSE", "#VALUE!", "#VALUE!", "FALSE", "#VALUE!", "TRUE", "", "FALSE"]);
}

#[test]
fn constant_texts_compare_case_insensitively_and_coerce_as_excel_does() {
    let got = kernels(
        &[],
        &[
            "=IF(C1=0,\"Abc\",\"x\")",
            "=IF(C1,\"a\",\"B\")<\"b\"",
            "=IF(C1=0,\"true\")=TRUE",
            "=IF(IF(C1=0,\"TRUE\"),1,2)",
            "=IF(C1=0,\"3\")*I1",
            "=IF(C1=0,\"x\")+1",
            "=IF(C1=0,\"z\")>9",
        ],
        0,
    );
    assert_eq!(got, ["Abc", "FALSE", "FALSE", "1", "6", "#VALUE!", "TRUE"]);
}

#[test]
fn text_read_from_a_cell_bails_out_to_the_tree_walker() {
    let got = kernels(&[], &["=D1=\"ABC\"", "=IF(D1,1,2)", "=D1+1", "=IF(C1=0,1,D1)", "=IF(C1,1,D1)"], 4);
    assert_eq!(got, ["TRUE", "#VALUE!", "#VALUE!", "1", "abc"]);
}

#[test]
fn booleans_count_as_numbers_in_arithmetic_and_sort_after_numbers() {
    let got = kernels(
        &[],
        &[
            "=(C1=0)*2",
            "=(C1=0)>5",
            "=AND(C1=0,1)",
            "=OR(B1,0)",
            "=AND(B1)",
            "=NOT(B1)",
            "=OR(J1,C1)",
            "=AND(E1,I1)",
            "=NOT(I1)",
        ],
        0,
    );
    assert_eq!(got, ["2", "TRUE", "TRUE", "FALSE", "#VALUE!", "TRUE", "FALSE", "TRUE", "FALSE"]);
}

#[test]
fn errors_propagate_through_every_shape() {
    let got = kernels(
        &[],
        &[
            "=1/C1",
            "=A2+1",
            "=IF(A2,1,2)",
            "=AND(A2,TRUE)",
            "=A2=1",
            "=F1*0",
            "=IF(C1=0,F1,1)",
            "=NOT(F1)",
            "=OR(F1,A2)",
            "=-F1",
        ],
        0,
    );
    assert_eq!(got, ["#DIV/0!", "#DIV/0!", "#DIV/0!", "#DIV/0!", "#DIV/0!", "#N/A", "#N/A", "#N/A", "#N/A", "#N/A"]);
}

#[test]
fn division_by_zero_overflow_and_fifteen_digit_equality() {
    let got = kernels(&[], &["=5/B1", "=5/C1", "=C1^-1", "=H1*H1", "=G1+0.2=0.3", "=I1^0.5", "=-I1^0.5", "=C1^C1"], 0);
    // `-2^0.5` is `(-2)^0.5`: unary minus binds tighter, as in Excel.
    assert_eq!(got, ["#DIV/0!", "#DIV/0!", "#DIV/0!", "#NUM!", "TRUE", "1.4142135623731", "#NUM!", "#NUM!"]);
}

#[test]
fn index_of_a_shared_column_reads_an_element_and_other_arrays_bail_out() {
    let names = [("col", "$I$1:$I$3>1"), ("sq", "$C$1:$D$2*1"), ("arr", "$G$1:$I$1*2")];
    let got = kernels(
        &names,
        &[
            "=IF(INDEX(col,1),1,\"\")",
            "=IF(INDEX(col,2),2,\"\")",
            "=INDEX(arr,3)+1",
            "=INDEX(arr,3)",
            "=INDEX(sq,2)",
            "=INDEX(sq,2)+0",
            "=arr+1",
            "=arr*1",
            "=INDEX(col,9)",
            "=INDEX(col,9)=1",
        ],
        6,
    );
    assert_eq!(got, ["1", "", "5", "4", "0", "0", "1.2", "0.2", "#REF!", "#REF!"]);
}

#[test]
fn arithmetic_on_plain_floats_gives_up_where_the_scalar_rules_decide() {
    // Empty is 0; -0 stays -0; a boolean or an error read from a cell, a
    // zero divisor, a step overflowing (even one divided by later) and a
    // divisor that overflows give what the scalar rules give; text bails.
    let got = kernels(
        &[],
        &[
            "=B1+B1",
            "=-C1",
            "=C1*-1",
            "=(C1*-1)+0",
            "=E1+1",
            "=F1+1",
            "=D1+1",
            "=H1*H1/4",
            "=1/(H1*H1)",
            "=(H1*H1)-(H1*H1)",
            "=-(H1*H1)*0",
            "=5/(C1+C1)",
            "=5/B1",
            "=(G1+1)/0",
            "=G1*3-0.3",
            "=-I1%/G1",
            "=(I1-(G1*(I1+C1)))/(H1-1)",
        ],
        1,
    );
    let want = [
        "0",
        "0",
        "0",
        "0",
        "2",
        "#N/A",
        "#VALUE!",
        "#NUM!",
        "#NUM!",
        "#NUM!",
        "#NUM!",
        "#DIV/0!",
        "#DIV/0!",
        "#DIV/0!",
        "5.55111512312578E-17",
        "-0.2",
        "1.8E-200",
    ];
    assert_eq!(got, want);
}

#[test]
fn if_of_a_leaf_between_constants_gives_what_if_gives() {
    let names = [
        ("num", "$C$1:$C$3+$I$1*0"),
        ("err", "$F$1:$H$1*1"),
        ("txt", "$C$1:$D$1&\"\""),
        ("sq", "$C$1:$D$2*1"),
        ("nm", "$I$1>1"),
    ];
    let got = kernels(
        &names,
        &[
            "=IF(INDEX(num,1),\"y\",\"n\")",
            "=IF(INDEX(num,2),\"y\",\"n\")",
            "=IF(INDEX(err,1),1,2)",
            "=IF(INDEX(err,2),1,2)",
            "=IF(INDEX(err,9),1,2)",
            "=IF(INDEX(sq,1),1,2)",
            "=IF(INDEX(sq,2),1,2)",
            "=IF(INDEX(txt,1),1,2)",
            "=IF(INDEX(txt,2),1,2)",
            "=IF(nm,1)",
            "=IF(nm,TRUE,#N/A)",
            "=IF(E1,\"a\",\"b\")",
            "=IF(B1,1,2)",
            "=IF(F1,1,2)",
            "=IF(D1,1,2)",
            "=IF(FALSE,1,B1)",
        ],
        6,
    );
    assert_eq!(
        got,
        ["n", "n", "#N/A", "1", "#REF!", "2", "2", "#VALUE!", "#VALUE!", "1", "TRUE", "a", "2", "#N/A", "#VALUE!", "0"]
    );
}

#[test]
fn and_or_of_leaves_fold_errors_ranges_and_text_as_excel_does() {
    let names = [("t", "$E$1=TRUE"), ("e", "$F$1=1"), ("z", "$C$1*1"), ("s", "IF($C$1=0,\"\",\"x\")")];
    let got = kernels(
        &names,
        &[
            "=OR(z,t)",
            "=AND(z,t)",
            "=OR(e,t)",
            "=AND(t,s)",
            "=OR(z,z)",
            "=AND(D1,E1)",
            "=OR(B1,D1)",
            "=AND(E1,F1,C1)",
            "=IF(OR(t,z,e),1,2)",
            "=NOT(OR(z,s,e))",
            "=IF(AND(t,t),s,e)",
            "=OR(A6,TRUE)",
        ],
        0,
    );
    assert_eq!(
        got,
        ["TRUE", "FALSE", "#N/A", "#VALUE!", "FALSE", "TRUE", "#VALUE!", "#N/A", "#N/A", "#VALUE!", "", "TRUE"]
    );
}

#[test]
fn tests_of_one_value_give_what_the_functions_give() {
    let names = [("s", "IF($C$1=0,\"\",\"x\")"), ("e", "$F$1+1")];
    let got = kernels(
        &names,
        &[
            "=ISNUMBER(C1)",
            "=ISNUMBER(B1)",
            "=ISNUMBER(E1)",
            "=ISNUMBER(s)",
            "=ISNUMBER(C1+1)",
            "=ISBLANK(B1)",
            "=ISBLANK(s)",
            "=ISTEXT(s)",
            "=ISNONTEXT(B1)",
            "=ISLOGICAL(J1)",
            "=ISERROR(e)",
            "=ISERR(e)",
            "=ISNA(F1)",
            "=ISERR(1/C1)",
            "=IF(ISNUMBER(G1),ISERROR(F1),2)",
        ],
        0,
    );
    assert_eq!(
        got,
        [
            "TRUE", "FALSE", "FALSE", "FALSE", "TRUE", "TRUE", "FALSE", "TRUE", "TRUE", "TRUE", "TRUE", "FALSE",
            "TRUE", "TRUE", "TRUE"
        ]
    );
}

#[test]
fn and_or_of_many_arguments_fold_one_by_one_as_excel_does() {
    let names = [("t", "$E$1=TRUE"), ("e", "$F$1=1"), ("z", "$C$1*1"), ("s", "IF($C$1=0,\"\",\"x\")")];
    let got = kernels(
        &names,
        &[
            "=OR(FALSE,ISNUMBER(C1),ISNUMBER(D1),ISNUMBER(E1),ISNUMBER(F1),ISNUMBER(G1))",
            "=OR(FALSE,ISNUMBER(D1),ISNUMBER(E1),ISNUMBER(F1),ISNUMBER(B1),ISNUMBER(s))",
            "=AND(t,z=0,C1+1,I1>1,G1,E1)",
            "=AND(t,z=0,C1+1,I1>1,G1,C1)",
            "=OR(z,z,z,z,e,t)",
            "=AND(t,t,t,t,z,e)",
            "=OR(z=1,z=2,z=3,z=4,s)",
            "=OR(D1,B1,C1+0,J1,E1)",
            "=AND(D1,B1,D1,B1,D1)",
            "=IF(OR(z=1,z=2,z=3,z=4,z=0),OR(FALSE,FALSE,FALSE,FALSE,ISNUMBER(C1)),0)",
            "=1+OR(ISNUMBER(C1),FALSE,FALSE,FALSE,FALSE)*2",
        ],
        // The three that read D1's text bail out to the tree walker.
        3,
    );
    assert_eq!(got, ["TRUE", "FALSE", "TRUE", "FALSE", "#N/A", "#N/A", "#VALUE!", "TRUE", "#VALUE!", "TRUE", "3"]);
}

#[test]
fn nested_ifs_jump_to_where_their_branches_end() {
    let got = kernels(
        &[],
        &[
            "=IF(C1=0,IF(E1,IF(J1,1,2),3),4)",
            "=IF(C1=1,1,IF(J1,2,IF(E1,3,4)))",
            "=IF(C1=0,IF(F1,1,2),3)",
            "=IF(IF(E1,J1,E1),1,IF(C1,2,IF(I1,3)))",
            "=1+IF(E1,IF(J1,1,2),3)*2",
        ],
        0,
    );
    assert_eq!(got, ["2", "3", "#N/A", "3", "5"]);
}

#[test]
fn ellis_valid_values_cells_run_through_kernels() {
    let mut s = Session::load(Path::new("workbooks/sudoku.ron")).expect("sudoku.ron loads");
    let kernels = s.engine().program().kernel_count();
    assert!(kernels >= 729, "the 729 valid-values cells have kernels: {kernels}");
    let grid = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    s.set_input("puzzle", grid).unwrap();
    s.reset().unwrap().expect("a reset protocol");
    let r = s.recalc();
    let bails = s.engine().kernel_bails();
    // A solve of some 1,600 evaluations (dynamic reads skip the
    // valid-values cells of solved cells, kept counts those whose counts
    // stayed), under 1% of them bailing out.
    assert!(r.evaluated > 1_500 && bails * 100 < r.evaluated, "{bails} bail-outs in {} evaluations", r.evaluated);
}

/// With every strategy, a valid-values cell also asks each strategy board
/// whether it lists its candidate (`ISNUMBER` of the board's cell, in an
/// OR of 18 arguments): the kernel takes that too.
#[test]
fn valid_values_cells_reading_every_strategy_board_run_through_kernels() {
    let mut s = Session::load_with(Path::new("workbooks/sudoku.ron"), &["all".to_string()]).unwrap();
    let before = s.engine().program().kernel_count();
    s.set_input("puzzle", "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3").unwrap();
    s.reset().unwrap().expect("a reset protocol");
    let r = s.recalc();
    let bails = s.engine().kernel_bails();
    assert!(before >= 729, "the 729 valid-values cells have kernels: {before}");
    assert!(bails * 100 < r.evaluated, "{bails} bail-outs in {} evaluations", r.evaluated);
}

#[test]
fn every_heat_grid_cell_runs_through_its_kernel() {
    let text = r#"Workbook(sheets: ["Main"], calc: (iterate: true, max_iterations: 10, max_change: 0), cells: {
        "Main!A1:CV1": 100, "Main!A100:CV100": 0, "Main!A2:A99": 0, "Main!CV2:CV99": 0,
        "Main!B2:CU99": "=(A2+C2+B1+B3)/4" })"#;
    let mut s = Session::new(Workbook::from_str(text, Path::new("heat.ron"), Path::new(".")).unwrap()).unwrap();
    assert_eq!(s.engine().program().kernel_count(), 98 * 98);
    assert_eq!(s.engine().program().kernel_shapes(), 1, "the grid's cells share one kernel");
    let r = s.recalc();
    assert_eq!(r.evaluated, 10 * 98 * 98);
    assert_eq!(s.engine().kernel_bails(), 0);
}

/// The cells of one shape share one kernel, each reading the cells that
/// lie where they lie from it: a block whose rows interleave three shapes
/// (C and D differ only in a text constant: each reads the cell two to its
/// left), edited after (a value, and a cell given a shape of its own).
#[test]
fn cells_of_one_shape_share_a_kernel_and_read_their_own_cells() {
    let mut s = Sheet::new();
    for r in 1..=40 {
        s.set(&format!("A{r}"), &r.to_string());
        s.set(&format!("B{r}"), &format!("=A{r}*2+1"));
        s.set(&format!("C{r}"), &format!("=IF(A{r}>25,\"big\",\"small\")"));
        s.set(&format!("D{r}"), &format!("=IF(B{r}>25,\"big\",\"tiny\")"));
    }
    s.recalc();
    let program = s.engine_ref().program();
    assert_eq!((program.kernel_count(), program.kernel_shapes()), (120, 3));
    for r in 1..=40 {
        assert_eq!(s.text(&format!("B{r}")), (r * 2 + 1).to_string(), "B{r}");
        let c = if r > 25 { "big" } else { "small" };
        let d = if r * 2 + 1 > 25 { "big" } else { "tiny" };
        assert_eq!((s.text(&format!("C{r}")), s.text(&format!("D{r}"))), (c.to_string(), d.to_string()), "row {r}");
    }
    s.set("A10", "100");
    s.set("B20", "=A19*3");
    s.recalc();
    assert_eq!([s.text("B10"), s.text("C10"), s.text("D10")], ["201", "big", "big"]);
    assert_eq!([s.text("B19"), s.text("B20"), s.text("B21")], ["39", "57", "43"]);
    assert_eq!(s.engine_ref().kernel_bails(), 0);
}

/// 0 and -0 are two constants: cells holding them do not share a kernel
/// (`=0*1` is folded to 0 and shares the kernel of `=0`).
#[test]
fn zero_and_minus_zero_constants_keep_their_own_kernels() {
    let cells = [("A2", "=-0"), ("A3", "=0"), ("A4", "=-0"), ("A5", "=0*1")];
    let mut s = agree(&[], &cells);
    assert_eq!(s.engine_ref().program().kernel_shapes(), 2);
    assert_eq!(s.value("A2"), s.value("A4"));
}
