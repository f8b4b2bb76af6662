//! Kept counts change no value: on random small workbooks with cycles
//! whose cells use a name counting a random area by a random criterion
//! (`COUNTIF` under a random operator, the Ellis boards' shape), every
//! fast path holds the tree walker's values after every iteration, in both
//! orders, and after a constant is changed (see `sharing`): a count kept
//! across a write is one that write could not change, and a count by an
//! array of criteria (`COUNTIF`) or by several (`COUNTIFS`) changed in
//! place is the one counting again gives.

use super::sharing::{Holds, every_path_agrees, holds, sheet};
use super::workbooks::{CELLS, SIDE, formula};
use dataflow::policy::Order;
use proptest::prelude::*;
use proptest::sample::select;

/// A count of a random area by a criterion on the digit `d` (the digit,
/// as a number or as text, above it, or another criterion), under a
/// random operator or negated.
fn count(d: i32) -> impl Strategy<Value = String> {
    let criteria = vec![
        d.to_string(),
        format!("\"{d}\""),
        format!("\">{d}\""),
        format!("\"<>{d}\""),
        "7".into(),
        "\"\"".into(),
        "\"=\"".into(),
        "\"a*\"".into(),
        "TRUE".into(),
        "#N/A".into(),
        "0.5".into(),
    ];
    let around = &["", "", ">0", "=1", ">=2", "*2", "+1", "&\"!\"", "-"][..];
    let single = (0..CELLS, 0..CELLS, select(criteria), select(around)).prop_map(|(i, j, c, op)| {
        let count = format!("COUNTIF(«{i}:{j}»,{c})");
        if op == "-" { format!("-{count}") } else { format!("{count}{op}") }
    });
    // Counts by arrays of criteria (changed in place), read as the boards
    // read theirs: one element, a sum, the digits counted once.
    let arrays = vec![
        format!("{{{d},7}}"),
        format!("{{\"{d}\",\">{d}\",\"\"}}"),
        format!("{{1,2,3,{d}}}"),
        "{\"a*\",TRUE,0.5}".into(),
    ];
    let reads = &["INDEX(#,2)", "SUM(#*{1,10})", "MAX((#=1)*{1,2,3})", "SUM(#)>0"][..];
    let array = (0..CELLS, 0..CELLS, select(arrays), select(reads))
        .prop_map(|(i, j, c, read)| read.replace('#', &format!("COUNTIF(«{i}:{j}»,{c})")));
    // Counts by several criteria (changed in place by the writes into a
    // range whose criteria are constant) over two ranges of one size,
    // apart or overlapping, the first criterion possibly a subformula
    // shared apart (`§`, used twice: the hyper boards' region numbers).
    let firsts = vec![format!("{{1,2,{d}}}"), format!("{{{d};7}}"), "\">1\"".into(), "§".into()];
    let seconds = vec![format!("{{1;2;3;{d}}}"), format!("{{{d},\"\",\">2\"}}"), d.to_string(), "\"<>\"".into()];
    let reads = &["INDEX(#,1,1)", "SUM(#)", "MAX((#=1)*1)", "INDEX(#,2,2)"][..];
    let block = |(r, c): (usize, usize), (h, w): (usize, usize)| {
        let (r, c) = (r % (SIDE + 1 - h), c % (SIDE + 1 - w));
        format!("«{}:{}»", r * SIDE + c, (r + h - 1) * SIDE + c + w - 1)
    };
    let corner = || (0..SIDE, 0..SIDE);
    let ifs = (
        (corner(), corner(), (1..=2usize, 1..=SIDE)),
        (0..CELLS, 0..CELLS, any::<bool>()),
        select(firsts),
        select(seconds),
        select(reads),
    )
        .prop_map(move |((one, two, size), (k, l, reference), first, second, read)| {
            // At most 4 regions, as the hyper boards have (a cell of the
            // cycle may grow past any bound), or a reference, whose cells
            // COUNTIFS reads.
            let shared = match reference {
                false => format!("SEQUENCE(1,MIN(4,MAX(«{k}:{l}»)))"),
                true => format!("INDEX(«{k}:{l}»,1,1+0*MAX(«{k}:{l}»))"),
            };
            let count = format!("COUNTIFS({},{first},{},{second})", block(one, size), block(two, size));
            format!("{}+0*COUNT(§)", read.replace('#', &count)).replace('§', &shared)
        });
    prop_oneof![3 => single, 2 => array, 2 => ifs]
}

/// A formula using the count: mostly giving the digit `d` or another
/// value as the count goes (so that the counted cells change as the
/// cycle iterates, and change the count), or the Ellis cell's shape;
/// sometimes any formula.
fn user(d: i32) -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (-1i32..3, any::<bool>()).prop_map(move |(k, up)| {
            let (a, b) = if up { (d, d + 1) } else { (d + 1, d) };
            format!("IF(nm>{k},{a},{b})")
        }),
        2 => (0..CELLS, 0..CELLS).prop_map(move |(i, j)| format!("IF(«{i}»<>\"\",«{i}»,IF(nm>0,\"\",{d}+0*«{j}»))")),
        1 => (0..CELLS, -2i32..8).prop_map(|(i, k)| format!("IF(nm>{k},«{i}»+1,nm)")),
        1 => (0..CELLS).prop_map(|i| format!("nm&«{i}»")),
        1 => formula(false).prop_map(|f| format!("({f})+nm")),
    ]
}

/// The digit, the count's name and three formulas using it.
fn counted() -> impl Strategy<Value = (String, Vec<String>)> {
    (0i32..4).prop_flat_map(|d| (count(d), proptest::collection::vec(user(d), 3)))
}

proptest! {
    #![proptest_config(super::config(1024))]

    #[test]
    fn every_path_and_the_walker_agree_with_kept_counts(
        cells in proptest::collection::vec(prop_oneof![3 => holds(), 2 => Just(Holds::Formula(0))], CELLS),
        (name, formulas) in counted(),
        synchronous in any::<bool>(),
        changed in 0..CELLS,
    ) {
        let order = if synchronous { Order::Synchronous } else { Order::RowMajor };
        every_path_agrees(|paths| sheet(&cells, &formulas, &name, paths), order, changed)?;
    }
}
