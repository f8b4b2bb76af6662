//! `dataflow eval` prints arrays whole (issue 11, item 7): a name or a
//! formula whose value is an array, or a reference to several cells, prints
//! as Excel's F9 shows it (`{1;2;3}`: `,` between columns, `;` between rows,
//! text quoted with `""` inside, an empty cell as 0); an array name
//! evaluated `--at` a cell prints that cell's array; one value prints as
//! the cell would show it, as before.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{SUDOKU, expect_exit};

fn eval(args: &[&str]) -> String {
    let mut all = vec!["eval", SUDOKU];
    all.extend(args);
    let out = expect_exit(0, &all);
    assert_eq!(out.stderr, "", "{out:?}");
    out.stdout
}

#[test]
fn an_array_name_prints_whole() {
    assert_eq!(eval(&["array1to9"]), "{1;2;3;4;5;6;7;8;9}\n");
    assert_eq!(eval(&["=TRANSPOSE(array1to9)*2"]), "{2,4,6,8,10,12,14,16,18}\n");
}

#[test]
fn an_array_name_at_a_cell_prints_that_cells_array() {
    // The big cell of the valid-values board under E17 (Main!S7:U9): only 6
    // is left there, once the puzzle is solved; the others are "".
    assert_eq!(eval(&["val_bigcell_from_sol", "--at", "Main!E17"]), "{\"\",\"\",\"\";\"\",\"\",6;\"\",\"\",\"\"}\n");
    assert_eq!(eval(&["val_bigcell_from_sol", "--at", "Main!D16"]), "{\"\",2,\"\";\"\",\"\",\"\";\"\",\"\",\"\"}\n");
}

#[test]
fn references_to_several_cells_print_their_values() {
    // Text quoted, an empty cell as 0.
    assert_eq!(eval(&["=Main!C27:D27"]), "{\"state\",\"solve\"}\n");
    assert_eq!(eval(&["=Main!D4:F5"]), "{2,0,0;0,6,0}\n");
    assert_eq!(eval(&[r#"={1,"say ""hi""";TRUE,#N/A}"#]), "{1,\"say \"\"hi\"\"\";TRUE,#N/A}\n");
}

#[test]
fn one_value_prints_as_before() {
    assert_eq!(eval(&["=SUM(array1to9)"]), "45\n");
    assert_eq!(eval(&["in_cell_from_sol", "--at", "Main!D16"]), "2\n");
    assert_eq!(eval(&["=Main!D27"]), "solve\n");
    // `--refs` still prints the reference, `{=...}` the grid.
    assert_eq!(eval(&["val_bigcell_from_sol", "--at", "Main!E17", "--refs"]), "Main!S7:U9\n");
}
