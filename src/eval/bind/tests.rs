//! The binder: folding, and bindings shared between cells giving exactly
//! what binding each cell apart gives, limits and issues included.

use super::*;
use crate::functions;
use crate::parse::parse_formula;

static FIXED: FnSpec = FnSpec::new("TESTFIXED", 0, 1, |_, _| Value::Number(0.5));
static VOLATILE: FnSpec = FnSpec::new("TESTVOLATILE", 0, 1, |_, _| Value::Number(0.5)).volatile();

#[test]
fn volatile_calls_are_never_folded() {
    let scope = Scope::new(vec!["Main".into()], Vec::new());
    let mut binder = Binder::new(&scope, CellAddr::new(0, 0, 0));
    let call = |f: &'static FnSpec| BExpr::Call(f, vec![BExpr::Const(Value::Number(1.0))].into_boxed_slice());
    assert_eq!(binder.fold(call(&FIXED)), BExpr::Const(Value::Number(0.5)));
    assert_eq!(binder.fold(call(&VOLATILE)), call(&VOLATILE));
}

#[test]
fn position_arguments_fold_to_references() {
    let scope = Scope::new(vec!["Main".into()], Vec::new());
    let cell = CellAddr::new(0, 4, 4);
    let mut binder = Binder::new(&scope, cell);
    let expr = parse_formula("INDEX(A1:I9, ROW(B2), COLUMN())+ROWS(Z1:Z5)").expect("parses");
    let BExpr::Binary(_, lr) = binder.bind_formula(&expr, cell) else { panic!("a sum, not folded") };
    let [l, r] = *lr;
    assert_eq!(l, BExpr::Const(Value::Ref(Area::new(0, 1, 4, 1, 4))), "INDEX folds to a reference to read");
    assert_eq!(r, BExpr::Const(Value::Number(5.0)));
    assert!(binder.issues.is_empty());
}

/// Binds `formulas` (cell, anchor, text; a block for an array formula) in
/// order, sharing bindings or not, each binder starting with the folding
/// budget the previous one left (as `Program::build` does): everything a
/// binder gives is listed.
fn bind_all(scope: &Scope, formulas: &[(CellAddr, CellAddr, &str, Option<Area>)], share: bool) -> Vec<String> {
    let memo = Memo::default();
    let mut fold_left = 1050;
    let mut out = Vec::new();
    for &(cell, anchor, text, block) in formulas {
        let expr = parse_formula(text).expect("parses");
        let mut binder = Binder::new(scope, cell).folding_at_most(fold_left);
        if share {
            binder = binder.sharing(&memo);
        }
        let bound = match block {
            Some(b) => binder.bind_block(&expr, b),
            None => binder.bind_formula(&expr, anchor),
        };
        fold_left = binder.fold_left();
        let (nodes, issues, expanded) = (binder.nodes(), &binder.issues, &binder.expanded);
        out.push(format!("{bound:?}\n{nodes} nodes, {fold_left} left\n{issues:?}\n{expanded:?}"));
    }
    out
}

fn name(name: &str, anchor: CellAddr, text: &str) -> NameDef {
    NameDef { name: name.into(), anchor, expr: Arc::new(parse_formula(text).expect("parses")) }
}

/// Names relative to rows, columns, both or neither, ROW() and COLUMN(),
/// LET inside a name, a loop, unknown names and functions, constant
/// arrays, and a chain of names nested past `MAX_NAME_DEPTH` and
/// `MAX_BOUND_DEPTH`, bound over a range of cells and a block with a
/// folding budget that runs out: sharing changes nothing.
#[test]
fn shared_bindings_are_the_bindings_of_each_cell() {
    let a1 = CellAddr::new(0, 0, 0);
    let b2 = CellAddr::new(0, 1, 1);
    let mut names = vec![
        name("rel", b2, "A1+ROW(A1)*COLUMN(A1)"),
        name("rowonly", a1, "INDEX($A$1:$Z$99, ROW(A1), 1)"),
        name("colonly", a1, "INDEX($A$1:$Z$99, 1, COLUMN(B1))+COLUMNS($A:A)"),
        name("pos", a1, "ROW()+COLUMN()*100"),
        name("withlet", a1, "LET(x, A1, y, rowonly, x+y+SUM(ROW(A1:A3)))"),
        name("loopa", a1, "loopb+1"),
        name("loopb", a1, "loopa+1"),
        name("bad", a1, "NOPE(1)+unknown+Other!A1"),
        name("arr", a1, "{1,2;3,4}*2+ROW($A$1:$A$2)"),
        name("nested", a1, "rel+rowonly+colonly+pos+withlet+arr+bad"),
    ];
    for i in 0..70 {
        let next = if i == 69 { "ROW(A1)".to_string() } else { format!("deep{}", i + 1) };
        names.push(name(&format!("deep{i}"), a1, &format!("ABS(ABS(ABS(ABS(ABS(ABS({next}))))))")));
    }
    for i in 0..70 {
        let next = if i == 69 { "COLUMN(A1)".to_string() } else { format!("long{}", i + 1) };
        names.push(name(&format!("long{i}"), a1, &next));
    }
    let scope = Scope::new(vec!["Main".into()], names);
    let mut formulas = Vec::new();
    let anchor = CellAddr::new(0, 3, 2);
    for row in 3..8 {
        for col in 2..6 {
            let cell = CellAddr::new(0, row, col);
            formulas.push((cell, anchor, "nested+loopa+SUMPRODUCT(arr*rel)+rowonly", None));
            formulas.push((cell, anchor, "deep60+deep30+deep0+deep10+LET(z, 1, z+nested)+long20+long0+long10", None));
        }
    }
    let block = Area::new(0, 10, 2, 11, 3);
    formulas.push((block.top_left(), block.top_left(), "pos+rel+nested", Some(block)));
    formulas.push((block.top_left(), block.top_left(), "pos+deep65", Some(block)));
    let (apart, shared) = (bind_all(&scope, &formulas, false), bind_all(&scope, &formulas, true));
    for ((a, s), f) in apart.iter().zip(&shared).zip(&formulas) {
        assert_eq!(a, s, "{f:?}");
    }
    let last = apart.last().expect("bound");
    assert!(last.contains(", 0 left"), "the folding budget ran out: {last}");
    assert!(apart.iter().any(|b| b.contains("names nested more than")), "a name chain too long");
    assert!(apart.iter().any(|b| b.contains("nested deeper than")), "a name chain too deep");
    assert!(apart.iter().any(|b| b.contains("refers to itself")), "a loop of names");
}

/// Parts of names that depend on the row only, the column only or on
/// nothing are kept once per row, per column, or once: over a 9x9 range,
/// `ROW(A1)` in a name is bound for 9 rows, not for 81 cells.
#[test]
fn parts_depending_on_one_axis_are_kept_per_row_or_column() {
    let a1 = CellAddr::new(0, 0, 0);
    let names = vec![
        name("r", a1, "MOD(ROW(A1)-1,3)"),
        name("c", a1, "MOD(COLUMN(A1)-1,3)*3"),
        name("k", a1, "SUM({1,2,3})"),
        name("both", a1, "r+c+k"),
    ];
    let scope = Scope::new(vec!["Main".into()], names);
    let memo = Memo::default();
    let expr = parse_formula("both+both").expect("parses");
    for row in 0..9 {
        for col in 0..9 {
            let cell = CellAddr::new(0, row, col);
            let bound = Binder::new(&scope, cell).sharing(&memo).bind_formula(&expr, a1);
            let v = (row % 3 + col % 3 * 3 + 6) as f64;
            assert_eq!(bound, BExpr::Const(Value::Number(2.0 * v)));
        }
    }
    // Per row: r's MOD, `-` and ROW(A1), and the use of r in both; per
    // column: c's `*`, MOD, `-`, COLUMN(A1) and its use; k's SUM and its
    // use once. both's top, used twice by each formula, is kept by each
    // cell's binder, not in the memo (see `parts_for_one_cell_stay_out_of_the_memo`).
    assert_eq!(memo.kept(), (3 + 1) * 9 + (4 + 1) * 9 + 2);
}

/// Only ROW() and COLUMN() read the calling cell when folded without
/// arguments (what `position` relies on): every other function that
/// folds with no argument gives the same value from any cell.
#[test]
fn only_row_and_column_fold_to_the_calling_cell() {
    let scope = Scope::new(vec!["Main".into()], Vec::new());
    for f in functions::all().filter(|f| f.arity_error(0).is_none() && !f.volatile) {
        let expr = parse_formula(&format!("{}()", f.name)).expect("parses");
        let at = |cell: CellAddr| Binder::new(&scope, cell).bind_block(&expr, Area::cell(cell));
        let (one, other) = (at(CellAddr::new(0, 0, 0)), at(CellAddr::new(0, 7, 5)));
        assert_eq!(one != other, ["ROW", "COLUMN"].contains(&f.name), "{}: {one:?} / {other:?}", f.name);
    }
}

/// `ROW(here)` of a name holding a reference relative in both axes (the
/// boards' `val_here`) depends on the row alone: the parts around it are
/// kept per row and per column, and a part for one cell alone that its
/// formula meets once is not kept at all. The bindings are those of each
/// cell bound apart.
#[test]
fn the_row_of_a_name_holding_a_reference_is_kept_per_row() {
    let a1 = CellAddr::new(0, 0, 0);
    let names = vec![
        name("here", CellAddr::new(0, 2, 2), "A1"),
        name("r", a1, "MOD(ROW(here)-1,3)"),
        name("c", a1, "MOD(COLUMN(here)-1,3)*3"),
        name("both", a1, "r+c"),
    ];
    let scope = Scope::new(vec!["Main".into()], names);
    let memo = Memo::default();
    let expr = parse_formula("both").expect("parses");
    let mut formulas = Vec::new();
    for row in 2..11 {
        for col in 2..11 {
            let cell = CellAddr::new(0, row, col);
            let bound = Binder::new(&scope, cell).sharing(&memo).bind_formula(&expr, a1);
            assert_eq!(bound, BExpr::Const(Value::Number(((row - 2) % 3 + (col - 2) % 3 * 3) as f64)));
            formulas.push((cell, a1, "both+r*c", None));
        }
    }
    // Per row r's MOD, `-`, ROW(here) and its use; per column c's `*`,
    // MOD, `-`, COLUMN(here) and its use; `both` (once per cell) never.
    assert_eq!(memo.kept(), 4 * 9 + 5 * 9);
    assert_eq!(bind_all(&scope, &formulas, false), bind_all(&scope, &formulas, true));
}

/// A part that depends on both the row and the column of the calculating
/// cell binds for that cell alone: met twice by one formula, it is kept by
/// that cell's binder and reused there, never put in the memo every cell
/// shares, which holds only the parts cells share (here one row part and
/// one column part per cell of a diagonal).
#[test]
fn parts_for_one_cell_stay_out_of_the_memo() {
    let a1 = CellAddr::new(0, 0, 0);
    let names = vec![name("both", a1, "INDEX($A$1:$Z$99, ROW(A1), COLUMN(A1))"), name("twice", a1, "both+both*2+both")];
    let scope = Scope::new(vec!["Main".into()], names);
    let memo = Memo::default();
    let expr = parse_formula("twice").expect("parses");
    for i in 0..5 {
        let cell = CellAddr::new(0, i, i);
        let mut shared = Binder::new(&scope, cell).sharing(&memo);
        let mut alone = Binder::new(&scope, cell);
        assert_eq!(shared.bind_formula(&expr, cell), alone.bind_formula(&expr, cell));
        assert_eq!((shared.nodes(), &shared.expanded), (alone.nodes(), &alone.expanded));
        assert_eq!(memo.kept(), 2 * (i as usize + 1), "cell {i}: a row part and a column part each");
    }
}

/// An operator other than `:`, intersection and union reads a reference
/// operand, so folding gives up on it without evaluating it: the folding
/// budget is left as it was, and a range of two references still folds to
/// one reference.
#[test]
fn operators_reading_a_reference_are_not_folded() {
    let scope = Scope::new(vec!["Main".into()], Vec::new());
    let cell = CellAddr::new(0, 5, 5);
    for text in ["A1:B2=1", "1+A1:B2", "-A1:B2"] {
        let mut binder = Binder::new(&scope, cell).folding_at_most(10);
        let bound = binder.bind_formula(&parse_formula(text).expect("parses"), cell);
        assert!(!matches!(bound, BExpr::Const(_)), "{text} is left to run time: {bound:?}");
        assert_eq!(binder.fold_left(), 10, "{text}: no folding budget spent");
    }
    let mut binder = Binder::new(&scope, cell).folding_at_most(10);
    let range = binder.bind_formula(&parse_formula("INDEX(A1:B2,1,1):B2").expect("parses"), cell);
    assert_eq!(range, BExpr::Const(Value::Ref(Area::new(0, 0, 0, 1, 1))));
}

/// A part for one cell alone is kept by the cell's binder the first time
/// its formula meets it when it binds to a constant (a second meeting then
/// replays it), otherwise only the second time: a name met once that does
/// not fold is never copied.
#[test]
fn parts_for_one_cell_that_fold_are_kept_when_first_met() {
    let a1 = CellAddr::new(0, 0, 0);
    let names =
        vec![name("folds", a1, "INDEX($A$1:$Z$99, ROW(A1), COLUMN(A1))"), name("reads", a1, "A1+ROW(A1)*COLUMN(A1)")];
    let scope = Scope::new(vec!["Main".into()], names);
    let cell = CellAddr::new(0, 2, 3);
    for (text, kept) in [("folds", 1), ("reads", 0), ("reads+reads", 1), ("folds+reads", 1)] {
        // A memo of its own: one shared with an earlier formula of the same
        // cell would give `folds` by its moving parts (see `memo::Parts`).
        let memo = Memo::default();
        let mut binder = Binder::new(&scope, cell).sharing(&memo);
        let mut alone = Binder::new(&scope, cell);
        let expr = parse_formula(text).expect("parses");
        assert_eq!(binder.bind_formula(&expr, cell), alone.bind_formula(&expr, cell), "{text}");
        assert_eq!(binder.kept_for_cell(), kept, "{text}");
    }
}

/// A name depending on both the row and the column only through a big
/// cell's position (`ROUNDUP(ROW(A1)/3, 0)`) is bound once per big cell:
/// the cells of one big cell hold the same kept binding (by reference, the
/// memo's), those of another big cell another one; and each is what
/// binding the cell alone gives.
#[test]
fn a_big_cells_part_is_bound_once_for_its_cells() {
    let a1 = CellAddr::new(0, 0, 0);
    let names = vec![
        name("big", a1, "INDEX($A$1:$Z$99, ROUNDUP(ROW(A1)/3, 0), ROUNDUP(COLUMN(A1)/3, 0))"),
        name("count", a1, "COUNTIF(INDEX($A$1:$Z$99, ROUNDUP(ROW(A1)/3, 0), 0), {1,2,3})+big"),
    ];
    let scope = Scope::new(vec!["Main".into()], names);
    let memo = Memo::default();
    let expr = parse_formula("count*2").expect("parses");
    let mut kept = Vec::new();
    for (row, col) in [(0, 0), (1, 2), (2, 1), (0, 3)] {
        let cell = CellAddr::new(0, row, col);
        let bound = Binder::new(&scope, cell).sharing(&memo).bind_formula_kept(&expr, cell);
        let BExpr::Binary(_, lr) = &bound else { panic!("{bound:?}") };
        let BExpr::ArrayMode(inner) = &lr[0] else { panic!("{lr:?}") };
        let BExpr::Kept(k) = &**inner else { panic!("kept: {inner:?}") };
        kept.push(k.clone());
        assert_eq!(unkept(bound), Binder::new(&scope, cell).bind_formula(&expr, cell), "{cell:?}");
    }
    assert!(Arc::ptr_eq(&kept[0], &kept[1]) && Arc::ptr_eq(&kept[0], &kept[2]), "one big cell, one binding");
    assert!(!Arc::ptr_eq(&kept[0], &kept[3]), "another big cell");
}

/// What the memo counts for a formula bound with kept parts (each kept
/// part counted once, when it was made) is what walking the formula with
/// its kept parts copied in place counts, for every cell of two big cells.
#[test]
fn held_nodes_are_counted_as_if_copied_in_place() {
    let a1 = CellAddr::new(0, 0, 0);
    let names = vec![
        name("big", a1, "INDEX($A$1:$Z$99, ROUNDUP(ROW(A1)/3, 0), ROUNDUP(COLUMN(A1)/3, 0))"),
        name("count", a1, "COUNTIF(INDEX($A$1:$Z$99, ROUNDUP(ROW(A1)/3, 0), 0), {1,2,3})+big+A1"),
    ];
    let scope = Scope::new(vec!["Main".into()], names);
    let memo = Memo::default();
    let expr = parse_formula("count*2+count").expect("parses");
    for (row, col) in [(0, 0), (1, 2), (2, 1), (0, 3), (4, 4)] {
        let cell = CellAddr::new(0, row, col);
        let bound = Binder::new(&scope, cell).sharing(&memo).bind_formula_kept(&expr, cell);
        let copied = crate::engine::program::held(&unkept(bound.clone()));
        assert!(copied > 10, "{cell:?}: {copied}");
        assert_eq!(memo.held(&bound), copied, "{cell:?}");
    }
}

/// Binders listing only the names they expand themselves (what
/// `Program::build` asks) list, all together, the names binders listing
/// every expansion list, and fewer entries: a reused binding's names
/// were listed by the binder that bound it first.
#[test]
fn names_of_reused_bindings_are_listed_once() {
    let a1 = CellAddr::new(0, 0, 0);
    let names = vec![
        name("inner", a1, "$B$1:$B$3"),
        name("row_part", a1, "COUNTIF(INDEX($A$1:$Z$99, ROW(A1), 0), {1,2,3})+SUM(inner)"),
        name("fixed", a1, "SUM($A$1:$A$3)+SUM(inner)"),
    ];
    let scope = Scope::new(vec!["Main".into()], names);
    let expr = parse_formula("row_part*2+fixed+A1").expect("parses");
    let (all, once) = (Memo::default(), Memo::default());
    let (mut every, mut fresh) = (Vec::new(), Vec::new());
    for (row, col) in [(0, 0), (0, 2), (1, 1), (0, 3), (1, 4)] {
        let cell = CellAddr::new(0, row, col);
        let mut binder = Binder::new(&scope, cell).sharing(&all);
        let bound = binder.bind_formula_kept(&expr, cell);
        every.extend(binder.expanded);
        let mut binder = Binder::new(&scope, cell).sharing(&once).new_names_only();
        assert_eq!(unkept(binder.bind_formula_kept(&expr, cell)), unkept(bound), "{cell:?}");
        fresh.extend(binder.expanded);
    }
    assert!(fresh.len() < every.len(), "{fresh:?}");
    let set = |mut v: Vec<NameId>| {
        v.sort_unstable();
        v.dedup();
        v
    };
    assert_eq!(set(fresh), set(every));
}
